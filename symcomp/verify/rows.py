"""Reading rows to verify: our JSONL, a TSV, or the MultiNLI layout, one bad row at a time.

A malformed row does not stop the reading: it comes back as a :class:`Row` with ``error``
set (bad JSON, too few or too many columns, bytes that are not UTF-8, a line over
:data:`MAX_LINE_BYTES`), so a verification can report it with its line number and go on.
Only a file that cannot be read at all (missing, empty, UTF-16, an MNLI file without its
header columns) raises :class:`DataError`. Files are read as bytes, line by line: a UTF-8
byte-order mark is skipped, and a line in another encoding (Latin-1, Windows-1252) is
reported with a hint instead of stopping the run.

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
>>> lines = list(read_lines(io.BytesIO(b"\\xef\\xbb\\xbfok\\ncaf\\xe9\\n")))
>>> lines[0].text, lines[1].error[:43]
('ok', 'not UTF-8 text (byte 0xe9 at column 4); the')
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from symcomp.data.artifacts import EXAMPLES
from symcomp.errors import DataError

FORMATS = ("jsonl", "tsv", "mnli")
MNLI_COLUMNS = ("sentence1", "sentence2", "gold_label")
HEADER_NAMES = frozenset(
    {"id", "premise", "hypothesis", "label", "input", "output", "pairid", *MNLI_COLUMNS}
)
MAX_LINE_BYTES = 1_000_000  # a longer line is reported, not read
BOM = b"\xef\xbb\xbf"
UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")


@dataclass(frozen=True)
class Line:
    """One line of a data file: its 1-based number, its text, or why it cannot be read."""

    number: int
    text: str
    error: str = ""


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
    if path.suffix.lower() in (".jsonl", ".json"):  # extensions in any case
        return "jsonl"
    with path.open("rb") as handle:
        first = handle.readline(MAX_LINE_BYTES).removeprefix(BOM).decode("utf-8", "replace")
    if path.suffix.lower() in (".tsv", ".txt") or "\t" in first:
        return "mnli" if "sentence1" in first.rstrip("\r\n").split("\t") else "tsv"
    return "jsonl"


def read_rows(path: Path, fmt: str, columns: tuple[str, ...]) -> Iterator[Row]:
    """The rows of ``path`` in format ``fmt`` (``columns``: positional TSV column names).

    Raises
    ------
    DataError
        When the file is empty, UTF-16 or has no data rows, or an MNLI header lacks a column.
    """
    with path.open("rb") as handle:
        if handle.read(2) in UTF16_BOMS:
            raise DataError(
                f"{path}: the file is UTF-16 text; save it as UTF-8 (one row per line)."
            )
        handle.seek(0)
        yield from parse_rows(read_lines(handle), fmt, columns, str(path))


def read_lines(handle: IO[bytes]) -> Iterator[Line]:
    """Lines of a binary stream, decoded one by one (see the module docstring)."""
    number = 0
    while True:
        raw = handle.readline(MAX_LINE_BYTES + 1)
        if not raw:
            return
        number += 1
        if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
            size = len(raw) + _skip_line(handle)
            yield Line(
                number,
                "",
                f"the line is {size:,} bytes long; rows are read up to {MAX_LINE_BYTES:,} bytes",
            )
            continue
        if number == 1:
            raw = raw.removeprefix(BOM)
        yield _decode(number, raw.rstrip(b"\r\n"))


def _skip_line(handle: IO[bytes]) -> int:
    """Read past the rest of an over-long line; the number of bytes skipped."""
    skipped = 0
    while True:
        chunk = handle.readline(MAX_LINE_BYTES)
        skipped += len(chunk)
        if not chunk or chunk.endswith(b"\n"):
            return skipped


def _decode(number: int, raw: bytes) -> Line:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        byte = raw[error.start]
        return Line(
            number,
            "",
            f"not UTF-8 text (byte 0x{byte:02x} at column {error.start + 1}); the file looks "
            f"Latin-1 or Windows-1252: convert it to UTF-8 (for example with iconv)",
        )
    if "\x00" in text:
        return Line(number, "", "the line holds NUL bytes: binary data, not text rows")
    return Line(number, text)


def parse_lines(
    handle: Iterable[str], fmt: str, columns: tuple[str, ...], source: str
) -> Iterator[Row]:
    """Rows of text lines (see :func:`read_rows`)."""
    lines = (Line(number, text.rstrip("\r\n")) for number, text in enumerate(handle, start=1))
    return parse_rows(lines, fmt, columns, source)


def parse_rows(
    lines: Iterable[Line], fmt: str, columns: tuple[str, ...], source: str
) -> Iterator[Row]:
    """Rows of decoded lines; a line that could not be read becomes a row with its error."""
    if fmt not in FORMATS:
        raise DataError(f"unknown format {fmt!r}; formats: {', '.join(FORMATS)}.")
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


def _jsonl(lines: Iterable[Line], fmt: str, columns: tuple[str, ...], source: str) -> Iterator[Row]:
    for line in lines:
        if line.error:
            yield Row(line.number, error=line.error)
            continue
        if not line.text.strip():
            continue
        try:
            value = json.loads(line.text)
        except json.JSONDecodeError as error:
            yield Row(line.number, error=f"not valid JSON ({error.msg} at column {error.colno})")
            continue
        except RecursionError:
            yield Row(line.number, error="the JSON value nests too deeply to read")
            continue
        if not isinstance(value, Mapping):
            yield Row(line.number, error=f"expected a JSON object, got {type(value).__name__}")
            continue
        yield Row(line.number, dict(value))


def _tsv(lines: Iterable[Line], fmt: str, columns: tuple[str, ...], source: str) -> Iterator[Row]:
    header: list[str] | None = None
    first = True
    for line in lines:
        if line.error:
            yield Row(line.number, error=line.error)
            continue
        if not line.text.strip() or line.text.startswith("#"):
            continue
        cells = line.text.split("\t")
        if first:
            first = False
            header = _header(cells, fmt, source, line.number)
            if header is not None:
                continue
        names = header or list(columns)
        problem = _shape(cells, names, header is not None)
        if problem:
            yield Row(line.number, error=problem)
            continue
        yield Row(line.number, dict(zip(names, cells, strict=False)))


def _shape(cells: list[str], names: list[str], named: bool) -> str:
    """Why a row's cells do not fit the columns ('' when they do)."""
    while len(cells) > len(names) and not cells[-1].strip():
        cells = cells[:-1]  # trailing TABs add empty cells, not data
    if len(cells) < len(names):
        missing = ", ".join(names[len(cells) :])
        plural = "s" if len(cells) != 1 else ""
        return (
            f"{len(cells)} TAB-separated column{plural}, expected {len(names)} (missing {missing})"
        )
    if len(cells) > len(names):
        where = "the header names" if named else "expected"
        extra = ", ".join(repr(_short(cell)) for cell in cells[len(names) :][:3])
        return (
            f"{len(cells)} TAB-separated columns, {where} {len(names)} ({', '.join(names)}); "
            f"extra: {extra}. Remove the extra columns or name every column in a header line"
        )
    return ""


def _short(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


def _header(cells: list[str], fmt: str, source: str, number: int) -> list[str] | None:
    """The column names when ``cells`` is a header line, else None."""
    names = [cell.strip() for cell in cells]
    is_header = any(name.lower() in HEADER_NAMES for name in names)
    if fmt == "mnli":
        missing = [column for column in MNLI_COLUMNS if column not in names]
        if missing:
            raise DataError(
                f"{source}:{number}: the MultiNLI header lacks {', '.join(missing)} (got "
                f"{', '.join(_short(name) for name in names[:16])}); an MNLI file starts with a "
                f"header line naming sentence1, sentence2 and gold_label. Use the tsv format "
                f"(`fmt`) for other TSVs."
            )
    return names if is_header else None
