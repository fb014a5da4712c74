"""What an extractor is, and the registry that finds one by name.

An *extractor* turns one example record of a pool into what DBCA measures: either a list of
atoms and a list of compounds (one entry per occurrence; TMCD, dependency triples, n-grams, a
user's function) or a rule-application DAG (a parse with the user's grammar), whose compounds
and DBCA weights :mod:`symcomp.dbca.features` computes exactly as for built-in languages.

Extractors are named by a *spec*: ``NAME`` or ``NAME:ARGUMENT`` (``tree:funql``,
``grammar:lf.lark``, ``python:mymodule:function``). Every installed extractor, symcomp's own
included, is found through the ``symcomp.extractors`` entry-point group (``name =
"module:function"``), so a package adds one the way it adds a language. The function is the
extractor's *factory*: ``factory(argument, on, options)`` returns an :class:`Extractor`.

An extractor's :meth:`Extractor.describe` (name, version, options, sha256 of any file it read)
goes into the pool manifest and every split's meta, so a split can be recomputed.

>>> "tree" in available_extractors()
True
>>> extractor = get_extractor("tree:funql")
>>> extractor.describe()["name"], extractor.on
('tree:funql', 'output')
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import metadata
from typing import Any, Protocol

from symcomp._util import did_you_mean
from symcomp.core.registry import plugin_output
from symcomp.dbca.compounds import Dag
from symcomp.errors import DataError

ENTRY_POINT_GROUP = "symcomp.extractors"
FIELDS = ("input", "output")  # the text fields an extractor may read (`on`)
AtomsAndCompounds = tuple[list[str], list[str]]


@dataclass(frozen=True)
class Extractor:
    """One configured extractor: exactly one of ``sets`` and ``dag`` is given.

    Parameters
    ----------
    name : str
        The spec it was made from (``tree:funql``).
    version : int
        Bumped whenever the atoms or compounds it returns for some example change.
    on : str
        The record field it reads (``input``, ``output``) or ``record`` (the whole record).
    sets : callable, optional
        Record -> (atoms, compounds), one entry per occurrence.
    dag : callable, optional
        Record -> :class:`~symcomp.dbca.compounds.Dag` (DBCA compounds and weights).
    options : mapping
        The options it was configured with (recorded).
    sha256 : str, optional
        Digest of a file it read (a grammar, a module), recorded so a change is noticed.
    """

    name: str
    version: int
    on: str
    sets: Callable[[Mapping[str, Any]], AtomsAndCompounds] | None = None
    dag: Callable[[Mapping[str, Any]], Dag] | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    sha256: str | None = None

    def __post_init__(self) -> None:
        if (self.sets is None) == (self.dag is None):
            raise ValueError("an extractor gives either `sets` or `dag`")

    def describe(self) -> dict[str, Any]:
        """Name, version, field, options and file digest, as recorded in manifests and meta."""
        return {
            "name": self.name,
            "version": self.version,
            "on": self.on,
            "options": dict(self.options),
            "sha256": self.sha256,
        }


class Factory(Protocol):
    """Builds an extractor from its spec's argument, the field to read and string options."""

    def __call__(
        self, argument: str | None, on: str | None, options: Mapping[str, str]
    ) -> Extractor: ...


_factories: dict[str, Factory | str] = {}
_entry_points_read: list[bool] = []  # non-empty once the entry points are read


def register_extractor(name: str, factory: Factory | str) -> None:
    """Make an extractor available by ``name`` (a factory or ``"module:function"``)."""
    _factories[name] = factory


def available_extractors() -> list[str]:
    """Names of every registered extractor, sorted (entry points are read once)."""
    if not _entry_points_read:
        for entry in metadata.entry_points(group=ENTRY_POINT_GROUP):
            _factories.setdefault(entry.name, entry.value)
        _entry_points_read.append(True)
    return sorted(_factories)


def get_extractor(
    spec: str, on: str | None = None, options: Mapping[str, str] | None = None
) -> Extractor:
    """The extractor a spec names, configured with ``on`` and ``options``.

    Raises
    ------
    DataError
        For an unknown name, or a factory that rejects the argument, field or options.
    """
    name, _, argument = spec.partition(":")
    known = available_extractors()
    if name not in known:
        raise DataError(
            f"unknown extractor {spec!r}{did_you_mean(name, known)}; extractors: "
            f"{', '.join(known)} (a package adds one under the {ENTRY_POINT_GROUP!r} entry "
            f"points)."
        )
    if on is not None and on not in FIELDS:
        raise DataError(f"`on` must be one of {', '.join(FIELDS)}, got {on!r}.")
    factory = _factory(_factories[name])
    return factory(argument or None, on, dict(options or {}))


def _factory(value: Factory | str) -> Factory:
    if not isinstance(value, str):
        return value
    module_name, _, function = value.partition(":")
    with plugin_output():  # an entry point's module is plugin code
        found: Factory = getattr(importlib.import_module(module_name), function)
    return found


def text_of(record: Mapping[str, Any], on: str, where: str = "the example") -> str:
    """The ``on`` field of a record as text (a missing field is a :class:`DataError`).

    >>> text_of({"input": "jump twice"}, "input")
    'jump twice'
    """
    value = record.get(on)
    if value is None:
        raise DataError(f"{where} has no {on!r} field; choose the field with `on`.")
    return str(value)


def no_options(name: str, options: Mapping[str, str], known: tuple[str, ...] = ()) -> None:
    """Refuse options an extractor does not take, naming those it does."""
    unknown = sorted(set(options) - set(known))
    if unknown:
        takes = f"it takes {', '.join(known)}" if known else "it takes none"
        raise DataError(f"extractor {name} has no option {', '.join(unknown)}; {takes}.")


def boolean_option(name: str, options: Mapping[str, str], key: str, default: bool) -> bool:
    """A yes/no option given as text (``true``/``false``, ``yes``/``no``, ``1``/``0``).

    >>> boolean_option("conllu", {"morphology": "yes"}, "morphology", False)
    True
    """
    if key not in options:
        return default
    value = str(options[key]).strip().lower()
    if value in ("true", "yes", "1", "on"):
        return True
    if value in ("false", "no", "0", "off"):
        return False
    raise DataError(f"extractor {name}: option {key} must be true or false, got {value!r}.")
