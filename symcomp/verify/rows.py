"""Reading rows to verify: our JSONL, a TSV, or the MultiNLI layout, one bad row at a time.

A malformed row does not stop the reading: it comes back as a :class:`Row` with ``error``
set (bad JSON, too few columns), so a verification can report it with its line number and
go on. Only a file that cannot be read at all (missing, empty, an MNLI file without its
header columns) raises :class:`DataError`.

Formats
-------
``jsonl``
    One JSON object per line (``examples.jsonl`` of a pool, or any such file).
``tsv``
    TAB-separated; lines starting with ``#`` are comments. If the first line names known
    columns it is a header and rows are read by name; otherwise columns are positional, in
    the order the checker asks for (``premise, hypothesis, label`` for NLI, ``input,
    output`` for seq2seq).
``mnli``
    The MultiNLI layout (Yanaka et al.'s ``format.py`` and MED): a header with at least
    ``sentence1``, ``sentence2`` and ``gold_label``; ``pairID`` is the row id.

>>> import io
>>> rows = list(parse_lines(io.StringIO('{"a": 1}\\n{"a": \\n'), "jsonl", ("a",), "x.jsonl"))
>>> rows[0].fields, rows[1].line, rows[1].error
({'a': 1}, 2, 'not valid JSON (Expecting value at column 7)')
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from symcomp.data.artifacts import EXAMPLES
from symcomp.errors import DataError

FORMATS = ("jsonl", "tsv", "mnli")
MNLI_COLUMNS = ("sentence1", "sentence2", "gold_label")
HEADER_NAMES = frozenset(
    {"id", "premise", "hypothesis", "label", "input", "output", "pairid", *MNLI_COLUMNS}
)


@dataclass(frozen=True)
class Row:
    """One data row: its 1-based line in the file, its fields, or why it is unreadable."""

    line: int
    fields: Mapping[str, Any] = field(default_factory=dict)
    error: str = ""


def data_file(location: Path) -> Path:
    """The file to read: ``location`` itself, or ``examples.jsonl`` in a folder."""
    path = location / EXAMPLES if location.is_dir() else location
    if not path.is_file():
        raise DataError(f"{path}: no such file; give a JSONL/TSV file or a pool folder.")
    return path


def guess_format(path: Path) -> str:
    """``jsonl`` for ``.jsonl``/``.json`` files, ``mnli`` for a TSV whose header has
    ``sentence1``, else ``tsv``."""
    if path.suffix in (".jsonl", ".json"):
        return "jsonl"
    with path.open(encoding="utf-8") as handle:
        first = handle.readline()
    if path.suffix in (".tsv", ".txt") or "\t" in first:
        return "mnli" if "sentence1" in first.split("\t") else "tsv"
    return "jsonl"


def read_rows(path: Path, fmt: str, columns: tuple[str, ...]) -> Iterator[Row]:
    """The rows of ``path`` in format ``fmt`` (``columns``: positional TSV column names).

    Raises
    ------
    DataError
        When the file is empty or has no data rows, or an MNLI header lacks a column.
    """
    with path.open(encoding="utf-8", newline="") as handle:
        yield from parse_lines(handle, fmt, columns, str(path))


def parse_lines(handle: TextIO, fmt: str, columns: tuple[str, ...], source: str) -> Iterator[Row]:
    """Rows of an open text stream (see :func:`read_rows`)."""
    if fmt not in FORMATS:
        raise DataError(f"unknown format {fmt!r}; formats: {', '.join(FORMATS)}.")
    lines = ((number, line.rstrip("\r\n")) for number, line in enumerate(handle, start=1))
    reader = _jsonl if fmt == "jsonl" else _tsv
    count = 0
    for row in reader(lines, fmt, columns, source):
        count += 1
        yield row
    if count == 0:
        what = "JSON object" if fmt == "jsonl" else "TAB-separated row"
        raise DataError(
            f"{source}: no data rows (the file is empty or holds only a header); expected one "
            f"{what} per line."
        )


def _jsonl(
    lines: Iterable[tuple[int, str]], fmt: str, columns: tuple[str, ...], source: str
) -> Iterator[Row]:
    for number, line in lines:
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as error:
            yield Row(number, error=f"not valid JSON ({error.msg} at column {error.colno})")
            continue
        if not isinstance(value, Mapping):
            yield Row(number, error=f"expected a JSON object, got {type(value).__name__}")
            continue
        yield Row(number, dict(value))


def _tsv(
    lines: Iterable[tuple[int, str]], fmt: str, columns: tuple[str, ...], source: str
) -> Iterator[Row]:
    header: list[str] | None = None
    first = True
    for number, line in lines:
        if not line.strip() or line.startswith("#"):
            continue
        cells = line.split("\t")
        if first:
            first = False
            header = _header(cells, fmt, source, number)
            if header is not None:
                continue
        names = header or list(columns)
        if len(cells) < len(names):
            missing = ", ".join(names[len(cells) :])
            plural = "s" if len(cells) != 1 else ""
            yield Row(
                number,
                error=f"{len(cells)} TAB-separated column{plural}, expected {len(names)} "
                f"(missing {missing})",
            )
            continue
        yield Row(number, dict(zip(names, cells, strict=False)))


def _header(cells: list[str], fmt: str, source: str, number: int) -> list[str] | None:
    """The column names when ``cells`` is a header line, else None."""
    names = [cell.strip() for cell in cells]
    is_header = any(name.lower() in HEADER_NAMES for name in names)
    if fmt == "mnli":
        missing = [column for column in MNLI_COLUMNS if column not in names]
        if missing:
            raise DataError(
                f"{source}:{number}: the MultiNLI header lacks {', '.join(missing)} (got "
                f"{', '.join(names[:16])}); an MNLI file starts with a header line naming "
                f"sentence1, sentence2 and gold_label. Use the tsv format (`fmt`) for other TSVs."
            )
    return names if is_header else None
