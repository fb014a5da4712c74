"""The built-in languages, one module each.

A module here that defines ``NAME`` (the registry name) and ``build()`` (returning the
:class:`symcomp.Language`) is a built-in language; the registry finds it by itself. Keep heavy
imports (provers, sympy, torch) inside functions so listing languages stays fast.
"""
