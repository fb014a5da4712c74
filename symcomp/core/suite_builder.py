"""How a language offers its test suite: a spec dataclass whose options are declared, and a
build function. ``symcomp suite NAME`` is made from this, so the command line needs no code of
its own per language (:meth:`symcomp.core.language.Language.suite_builder` returns one).

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class ToySpec:
...     n: int = option(100, "Pool size.", minimum=10)
...     seed: int = option(0, "Seed.")
...     internal: float = 0.5  # not an option: no help text
>>> builder = SuiteBuilder("A toy suite.", ToySpec, lambda out, spec, **kw: {})
>>> [(o.name, o.kind, o.default) for o in builder.options()]
[('n', 'int', 100), ('seed', 'int', 0)]
>>> builder.make({"n": 20})
ToySpec(n=20, seed=0, internal=0.5)
>>> builder.make({"n": 5})
Traceback (most recent call last):
...
symcomp.errors.DataError: `n` must be at least 10, got 5.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from symcomp.errors import DataError

Build = Callable[..., dict[str, Any]]  # build(out, spec, *, overwrite, progress) -> manifest
Import = Callable[..., dict[str, Any]]  # run(source, out, *, overwrite, progress[, output])


def option(
    default: Any,
    help: str,
    *,
    name: str | None = None,
    minimum: float | None = None,
    maximum: float | None = None,
    choices: Sequence[str] | None = None,
    parse: Callable[[str], Any] | None = None,
) -> Any:
    """A spec field that users set: ``help`` is shown by ``symcomp suite NAME --help``.

    ``name`` is the option's public name when it differs from the field's, ``minimum`` /
    ``maximum`` bound numbers, ``choices`` restricts strings (each item of a tuple), and
    ``parse`` turns the text a user gives into the field's value (raising ``ValueError`` with
    a message when it cannot).
    """
    metadata = {
        "help": help,
        "name": name,
        "minimum": minimum,
        "maximum": maximum,
        "choices": tuple(choices) if choices is not None else None,
        "parse": parse,
    }
    return dataclasses.field(default=default, metadata=metadata)


@dataclass(frozen=True)
class Option:
    """One user-settable field of a suite spec."""

    field: str
    name: str
    help: str
    kind: str  # int, float, str, bool, path, or text (parsed by ``parse``)
    default: Any
    multiple: bool = False
    optional: bool = False
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[str, ...] | None = None
    parse: Callable[[str], Any] | None = None

    def convert(self, value: Any) -> Any:
        """The field value of what a user gave (checked against bounds and choices)."""
        if value is None:
            return None
        if self.multiple:
            return tuple(self._one(item) for item in value)
        return self._one(value)

    def _one(self, value: Any) -> Any:
        if self.parse is not None and isinstance(value, str):
            try:
                return self.parse(value)
            except ValueError as error:
                raise DataError(f"`{self.name}` {value!r}: {error}") from None
        if self.choices is not None and value not in self.choices:
            raise DataError(f"`{self.name}` {value!r}: choose from {', '.join(self.choices)}.")
        if self.minimum is not None and value < self.minimum:
            raise DataError(f"`{self.name}` must be at least {self.minimum:g}, got {value}.")
        if self.maximum is not None and value > self.maximum:
            raise DataError(f"`{self.name}` must be at most {self.maximum:g}, got {value}.")
        return value


_KINDS = {int: "int", float: "float", str: "str", bool: "bool", Path: "path"}


@dataclass(frozen=True)
class SuiteImporter:
    """How a language turns published data into a suite folder (``symcomp suite import``):
    ``source`` says in one line what folder it reads, ``run(source, out, *, overwrite,
    progress)`` writes the suite and returns its manifest. ``outputs`` are the output formats
    ``run`` can write (passed as ``output``; the default first); () when it writes the
    published files' own."""

    source: str
    run: Import
    outputs: tuple[str, ...] = ()


@dataclass(frozen=True)
class SuiteBuilder:
    """A language's test suite: ``title`` (one line for help texts), ``spec`` (a dataclass;
    fields made with :func:`option` are what users set), ``build(out, spec, *, overwrite,
    progress)`` returning the manifest, an optional ``summary(manifest)`` of extra text to
    show after building (e.g. a table beside the paper's), and an optional ``importer`` of the
    published data."""

    title: str
    spec: type[Any]
    build: Build
    summary: Callable[[Mapping[str, Any]], str] | None = None
    importer: SuiteImporter | None = None

    def options(self) -> list[Option]:
        """The user-settable fields, in declaration order."""
        hints = typing.get_type_hints(self.spec)
        found = []
        for spec_field in dataclasses.fields(self.spec):
            meta = spec_field.metadata
            if "help" not in meta:
                continue
            kind, multiple, optional = _kind(hints[spec_field.name], meta["parse"] is not None)
            found.append(
                Option(
                    field=spec_field.name,
                    name=meta["name"] or spec_field.name,
                    help=meta["help"],
                    kind=kind,
                    default=spec_field.default,
                    multiple=multiple,
                    optional=optional,
                    minimum=_minimum(spec_field.name, meta["minimum"]),
                    maximum=meta["maximum"],
                    choices=meta["choices"],
                    parse=meta["parse"],
                )
            )
        return found

    def make(self, values: Mapping[str, Any]) -> Any:
        """The spec from option values keyed by public name (absent or None: the default)."""
        known = {item.name: item for item in self.options()}
        unknown = sorted(set(values) - set(known))
        if unknown:
            raise DataError(f"unknown suite options {unknown}; options: {', '.join(known)}.")
        fields = {
            known[name].field: known[name].convert(value)
            for name, value in values.items()
            if value is not None
        }
        return self.spec(**fields)


def _kind(hint: Any, parsed: bool) -> tuple[str, bool, bool]:
    """(kind, multiple, optional) of a field's type annotation."""
    optional = False
    args = typing.get_args(hint)
    if type(None) in args:  # X | None
        optional = True
        hint = next(arg for arg in args if arg is not type(None))
        args = typing.get_args(hint)
    if parsed:
        return "text", False, optional
    if typing.get_origin(hint) is tuple and len(args) == 2 and args[1] is Ellipsis:
        return _KINDS[args[0]], True, optional
    if hint not in _KINDS:
        raise TypeError(f"an option of type {hint!r} needs a parse function")
    return _KINDS[hint], False, optional


def _minimum(name: str, declared: float | None) -> float | None:
    """Seeds are never negative, whatever a spec declares."""
    return 0 if name == "seed" and declared is None else declared
