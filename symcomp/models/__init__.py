"""Neural baselines (torch, DGL): the only package of symcomp that imports them.

One concept per module: ``vocab`` and ``data`` (tokens, padding, length batches), ``trees``
(parse trees, level-ordered batches), the models with their config dataclasses
(``transformer``, ``lstms2s``, ``convs2s``; ``bow``, ``lstm_encoder``, ``tree_lstm``, ``bert``;
heads in ``classifier`` and ``nli_head``), ``decoding`` (greedy, beam), ``tasks`` (a model with
its vocabularies: loss and string predictions), ``trainer`` (model-agnostic), ``zoo`` and
``presets`` (names, configurations), ``runs`` (run directories), ``report`` (report cards of
runs), ``device`` and ``dgl_import``. Importing this package imports nothing heavy.
"""
