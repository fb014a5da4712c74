"""The built-in languages, one package each: ``<name>/language.py`` (grammar, semantics and
``build()``), ``suite.py`` (its test suite) and whatever only that language needs.

Built-in languages are registered like third-party ones, through the ``symcomp.languages``
entry-point group (see ``pyproject.toml``); nothing outside this package names a language.
Keep heavy imports (provers, sympy, torch) inside functions so listing languages stays fast.
"""
