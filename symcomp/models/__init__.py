"""Neural baselines (torch, DGL): the only package of symcomp that imports them.

``nets`` holds the networks (one file each), ``inputs`` what they read (vocabularies, parse
trees), ``training`` the tasks and the model-agnostic trainer. A run is configured in ``zoo``
(the models by name, :class:`~symcomp.models.zoo.RunConfig`, the vocabularies and the task of
a configuration) from the named setups of ``presets``; ``run_dir`` is the run folder (every file
name in it, read and written there only), ``runs`` trains, loads and trains suites of runs,
``runsets`` is the run set index and the output folders, ``loading`` resolves ``--model SPEC``
and ``report`` scores runs. Importing this package imports nothing heavy.
"""
