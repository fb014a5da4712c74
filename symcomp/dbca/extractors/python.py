"""``python:MODULE:FUNCTION`` or ``python:FILE.py:FUNCTION``: the user's own extractor.

The function takes one example record (a dict with ``id``, ``input``, ``output``, ``meta`` and
any field the import kept) and returns ``(atoms, compounds)``: two iterables of strings, one
entry per occurrence. It runs the user's code, so symcomp runs it only when the user names it
on the command line or in Python, never because a pool's manifest names it.

>>> extractor = build("symcomp.dbca.extractors.python:example_extractor", None, {})
>>> extractor.sets({"output": "f ( x )"})
(['f', '(', 'x', ')'], ['f (', '( x', 'x )'])
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import itertools
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from symcomp.core.registry import import_file, plugin_output
from symcomp.dbca.extractors.base import AtomsAndCompounds, Extractor, no_options
from symcomp.errors import DataError

VERSION = 1
UserFunction = Callable[[Mapping[str, Any]], Any]


def example_extractor(record: Mapping[str, Any]) -> tuple[list[str], list[str]]:
    """An example user function: output tokens as atoms, adjacent token pairs as compounds."""
    tokens = str(record["output"]).split()
    return tokens, [f"{a} {b}" for a, b in itertools.pairwise(tokens)]


def load_function(argument: str) -> tuple[UserFunction, str | None]:
    """The function a ``MODULE:FUNCTION`` or ``FILE.py:FUNCTION`` names, and its file's sha256."""
    where, _, name = argument.rpartition(":")
    if not where or not name:
        raise DataError(
            f"python:{argument} does not name a function; write python:MODULE:FUNCTION or "
            f"python:FILE.py:FUNCTION."
        )
    try:
        module = _module(where)
    except DataError:
        raise
    except Exception as error:  # the user's module failed while being imported
        raise DataError(
            f"python:{argument}: importing {where} raised {type(error).__name__}: {error}; fix "
            f"the module (run it with python to see where)."
        ) from None
    function = getattr(module, name, None)
    if not callable(function):
        raise DataError(f"python:{argument}: {where} has no function {name!r}.")
    file = getattr(module, "__file__", None)
    digest = hashlib.sha256(Path(file).read_bytes()).hexdigest() if file else None
    return function, digest


def _module(where: str) -> Any:
    if where.endswith(".py"):
        path = Path(where)
        if not path.is_file():
            raise DataError(f"python:{where}: no such file; give the path of a .py file.")
        with plugin_output():
            return import_file(path, "symcomp_extractor")  # its own errors: load_function
    try:
        with plugin_output():
            return importlib.import_module(where)
    except ModuleNotFoundError:
        raise DataError(
            f"python:{where}: no module named {where!r}; install it or give a FILE.py path."
        ) from None


def checked(result: Any, name: str) -> AtomsAndCompounds:
    """The (atoms, compounds) a user function returned, or a :class:`DataError` saying what
    it returned instead."""
    if not (isinstance(result, tuple | list) and len(result) == 2):
        raise DataError(
            f"{name} returned {type(result).__name__}, not a pair (atoms, compounds) of lists "
            f"of strings."
        )
    atoms, compounds = (
        _strings(part, name, kind)
        for part, kind in zip(result, ("atoms", "compounds"), strict=True)
    )
    return atoms, compounds


def _strings(values: Any, name: str, kind: str) -> list[str]:
    if isinstance(values, str | bytes) or not hasattr(values, "__iter__"):
        raise DataError(f"{name} returned {kind} as {type(values).__name__}; return a list.")
    items = list(values)
    wrong = next((item for item in items if not isinstance(item, str)), None)
    if wrong is not None:
        raise DataError(
            f"{name} returned a {kind} entry {wrong!r} ({type(wrong).__name__}); every atom and "
            f"compound is a string."
        )
    return items


def build(argument: str | None, on: str | None, options: Mapping[str, str]) -> Extractor:
    """The ``python:...`` extractor (no options; the function sees the whole record)."""
    no_options("python", options)
    if not argument:
        raise DataError("extractor python needs a function: python:MODULE:FUNCTION.")
    if on is not None:
        raise DataError("extractor python reads the whole record; leave `on` unset.")
    function, digest = load_function(argument)
    name = f"python:{argument}"

    def sets(record: Mapping[str, Any]) -> AtomsAndCompounds:
        try:
            result = function(record)
        except DataError:
            raise
        except Exception as error:  # the user's function failed on this record
            raise DataError(f"{name} raised {type(error).__name__}: {error}") from None
        return checked(result, name)

    return Extractor(name, VERSION, "record", sets=sets, sha256=digest)
