"""What every corpus reader yields: one :class:`Row` per example, with where it came from.

A row holds the example's fields as symcomp writes them into ``examples.jsonl`` (``input``,
``output``, ``meta`` and fields such as NLI's ``premise``/``hypothesis``/``label``, a stored
``derivation`` or a treebank's ``syntax``), its id when the file gives one, and its place
(file and line) for messages.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from symcomp.errors import DataError

# fields a record keeps at the top level (everything else an input file holds goes to `meta`)
KEPT_FIELDS = ("premise", "hypothesis", "label", "derivation", "syntax")


@dataclass
class Row:
    """One example read from a corpus file."""

    input: str
    output: str
    source: str  # the file
    line: int  # 1-based line (of a TSV/JSONL row, or a sentence's first line)
    id: str | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    fields: dict[str, Any] = field(default_factory=dict)  # KEPT_FIELDS present

    @property
    def where(self) -> str:
        return f"{self.source}:{self.line}"

    def record(self, example_id: str, part: str | None) -> dict[str, Any]:
        """The ``examples.jsonl`` record of this row."""
        meta = dict(self.meta)
        if part is not None:
            meta["part"] = part
        return {
            "id": example_id,
            "input": self.input,
            "output": self.output,
            "meta": meta,
            **self.fields,
        }


def column_spec(value: str | int | None, default: str | int) -> str | int:
    """A column chosen by 1-based position (``2``) or by header name (``sentence``).

    >>> column_spec("2", 1), column_spec("lf", 2), column_spec(None, 1)
    (2, 'lf', 1)
    """
    if value is None:
        return default
    if isinstance(value, int):
        chosen: str | int = value
    else:
        text = value.strip()
        chosen = int(text) if text.isdigit() else text
    if isinstance(chosen, int) and chosen < 1:
        raise DataError(f"columns are numbered from 1, got {chosen}.")
    if chosen == "":
        raise DataError("a column name cannot be empty.")
    return chosen


def split_fields(
    values: Mapping[str, Any], used: set[str]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """(meta, kept) of the fields of a row that are not ``used`` (id, input, output): NLI
    fields, derivations and syntax stay at the top level; a ``meta`` object is merged."""
    meta: dict[str, Any] = {}
    kept: dict[str, Any] = {}
    for key, value in values.items():
        if key in used:
            continue
        if key in KEPT_FIELDS:
            kept[key] = value
        elif key == "meta" and isinstance(value, Mapping):
            meta.update(value)
        else:
            meta[key] = value
    return meta, kept


def lines_of(path: Path) -> Iterator[tuple[int, str]]:
    """(1-based number, text without its line break) of every line of a UTF-8 file; bytes
    that are not UTF-8 are a :class:`DataError` naming the line."""
    try:
        with path.open("rb") as handle:
            for number, raw in enumerate(handle, start=1):
                try:
                    text = raw.decode("utf-8")
                except UnicodeDecodeError as error:
                    raise DataError(
                        f"{path}:{number}: byte {raw[error.start]:#04x} at column "
                        f"{error.start + 1} is not UTF-8; save the file as UTF-8."
                    ) from None
                yield number, text.rstrip("\r\n")
    except OSError as error:
        raise DataError(f"{path}: cannot read it ({error.strerror or error}).") from None
