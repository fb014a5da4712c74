"""Writing a pool from corpus files: ``symcomp import``.

An imported pool is an ordinary pool folder (``examples.jsonl`` + ``manifest.json``) whose
manifest names no language but records where the examples came from (each file with its
sha256, format and part), what was done with duplicates and with rows the extractor could not
read, and the pool's atom/compound extractor (:mod:`symcomp.dbca.extractors`). With parts
(``train=...``, ``dev=...``, ``test=...``), each example records its part in ``meta.part`` and
the dataset's own split is written as ``splits/published.json`` (a part with another name,
such as COGS's ``gen``, as ``splits/published-gen.json``: its test is that part).

Ids: the file's own (an ``id`` column or field; they must be unique), else
``<part or file name>-<line>``. Duplicates (the same input and output) are counted and kept,
or dropped (the later rows). The pool's extractor (a :class:`RowReader`, from the dbca layer)
reads the rows a chunk of lines at a time as they are written, on ``jobs`` (worker processes
or an executor), and keeps what it extracts in the pool folder (feature shards); rows it cannot
read are listed, then refused or left out. Everything is assembled in a staging folder and
moved into place at the end: an interrupted or failed import leaves the previous pool (or
none).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Protocol

from symcomp.data.artifacts import (
    EXAMPLES,
    MANIFEST,
    file_record,
    json_text,
    move_into_place,
    previous_output,
    staging_in,
    write_json,
    writing_into,
)
from symcomp.data.corpus.conllu import read_conllu
from symcomp.data.corpus.hf import read_hf
from symcomp.data.corpus.jsonl import JsonFields, read_jsonl
from symcomp.data.corpus.rows import Row, column_spec
from symcomp.data.corpus.tsv import TsvColumns, read_tsv
from symcomp.data.generate import FORMAT
from symcomp.data.line_chunks import LineChunk
from symcomp.data.parallel import Jobs
from symcomp.data.safe_paths import check_name
from symcomp.data.splits import Split
from symcomp.errors import DataError
from symcomp.version import __version__

FORMATS = ("tsv", "jsonl", "conllu", "hf")
SUFFIXES = {".tsv": "tsv", ".txt": "tsv", ".jsonl": "jsonl", ".json": "jsonl", ".conllu": "conllu"}
POLICIES = {"duplicates": ("keep", "drop"), "unreadable": ("refuse", "drop")}
SPLITS = "splits"
PUBLISHED = "published"
SHOWN_FAILURES = 10  # rows listed in a message (all are counted)


@dataclass(frozen=True)
class ImportOptions:
    """How files are read and what is done with duplicates and unreadable rows.

    Parameters
    ----------
    format : {"tsv", "jsonl", "conllu", "hf"} or None
        None: from each file's suffix (a folder is a Hugging Face dataset).
    input, output, id : str or None
        TSV: a 1-based position or a header name (default 1, 2, none); JSONL and HF: field
        names (default ``input``, ``output``, ``id``); CoNLL-U: ``output`` names a sentence
        comment (``# translation = ...``) whose text becomes the output (default: none).
    header : bool
        TSV: the first line names the columns (implied when a column is given by name).
    config : str or None
        The configuration of a dataset folder with several.
    duplicates : {"keep", "drop"}
        Rows with the input and output of an earlier row: counted and kept, or dropped.
    unreadable : {"refuse", "drop"}
        Rows the extractor cannot read (a grammar that does not parse them): listed and the
        import refused, or listed and left out.
    """

    format: str | None = None
    input: str | None = None
    output: str | None = None
    id: str | None = None
    header: bool = False
    config: str | None = None
    duplicates: str = "keep"
    unreadable: str = "refuse"

    def __post_init__(self) -> None:
        if self.format is not None and self.format not in FORMATS:
            raise DataError(f"unknown format {self.format!r}; choose one of {', '.join(FORMATS)}.")
        for name, allowed in POLICIES.items():
            if getattr(self, name) not in allowed:
                raise DataError(f"`{name}` must be one of {', '.join(allowed)}.")

    def describe(self) -> dict[str, Any]:
        return {
            "input": self.input,
            "output": self.output,
            "id": self.id,
            "header": self.header,
            "config": self.config,
            "duplicates": self.duplicates,
            "unreadable": self.unreadable,
        }


@dataclass(frozen=True)
class Source:
    """One file (or dataset folder) to import, with the part it is (None: no parts)."""

    path: Path
    part: str | None = None

    @classmethod
    def parse(cls, text: str) -> Source:
        """``NAME=FILE`` (a part) or ``FILE``.

        >>> Source.parse("train=data/train.tsv")
        Source(path=PosixPath('data/train.tsv'), part='train')
        """
        name, equals, path = text.partition("=")
        if not equals:
            return cls(Path(text))
        check_name(name, what="part name", source=f"part {text}")
        if not path:
            raise DataError(f"part {text}: give a file after '=' (train=train.tsv).")
        return cls(Path(path), name)


class ChunkVerdict(Protocol):
    """What reading one chunk of rows found: the rows (places in the chunk) the extractor
    cannot read, and the first messages about them."""

    @property
    def number(self) -> int: ...
    @property
    def unreadable(self) -> Sequence[int]: ...
    @property
    def messages(self) -> Sequence[str]: ...


class RowReader(Protocol):
    """Reads every imported row with the pool's extractor, a chunk of lines of the pool file
    at a time, on ``jobs`` (worker processes or an executor), and keeps what it extracts in
    the pool folder (the dbca layer: feature shards)."""

    @property
    def chunk_size(self) -> int:
        """Rows per chunk."""
        ...

    @property
    def outputs(self) -> tuple[str, ...]:
        """The names it writes into the pool folder."""
        ...

    def read(self, pool: Path, chunks: Iterable[LineChunk], jobs: Jobs) -> Iterator[ChunkVerdict]:
        """The verdict of every chunk, in order."""
        ...

    def finish(self, pool: Path, record: Mapping[str, Any], jobs: Jobs) -> dict[str, Any]:
        """Write what it keeps beside the finished pool file ``pool`` (its file ``record``;
        rows it could not read left out); the records of those files."""
        ...


@dataclass(frozen=True)
class PoolExtractor:
    """The extractor an import records and reads every row with (see the dbca layer)."""

    description: Mapping[str, Any]
    reader: RowReader
    files: Mapping[str, bytes] = field(default_factory=dict)  # copied into the pool folder


@dataclass
class _Tally:
    """What the import found, for the manifest and the message."""

    rows: int = 0  # written and kept
    read: int = 0  # read by the extractor (kept or not)
    duplicates: int = 0
    dropped_duplicates: int = 0
    unreadable: list[str] = field(default_factory=list)
    unreadable_count: int = 0
    dropped: list[int] = field(default_factory=list)  # lines of rows the extractor cannot read
    parts: dict[str, list[int]] = field(default_factory=dict)
    sources: list[dict[str, Any]] = field(default_factory=list)

    def kept(self, part: str) -> None:
        """Count a row kept in the pool, in its part."""
        self.parts.setdefault(part, []).append(self.rows)
        self.rows += 1


def format_of(source: Source, chosen: str | None) -> str:
    """The format of a source: ``chosen``, else from its suffix (a folder: ``hf``)."""
    if chosen is not None:
        return chosen
    if source.path.is_dir():
        return "hf"
    found = SUFFIXES.get(source.path.suffix.lower())
    if found is None:
        raise DataError(
            f"{source.path}: cannot tell the format from the suffix {source.path.suffix!r}; "
            f"give `format` ({', '.join(FORMATS)})."
        )
    return found


def read_rows(source: Source, fmt: str, options: ImportOptions) -> Iterator[tuple[str | None, Row]]:
    """(part, row) of every example of one source."""
    path = source.path
    if not path.exists():
        raise DataError(f"{path}: no such file or folder.")
    if fmt == "hf":
        if not path.is_dir():
            raise DataError(f"{path}: a Hugging Face dataset is a folder; give the folder.")
        fields = JsonFields(
            options.input or "input", options.output or "output", options.id or "id"
        )
        for part, row in read_hf(path, fields, options.config):
            yield source.part or part, row
        return
    if path.is_dir():
        raise DataError(f"{path} is a folder; give a {fmt} file (or `format` hf for a dataset).")
    rows: Iterator[Row]
    if fmt == "tsv":
        columns = TsvColumns(
            column_spec(options.input, 1),
            column_spec(options.output, 2),
            None if options.id is None else column_spec(options.id, 3),
            options.header,
        )
        rows = read_tsv(path, columns)
    elif fmt == "jsonl":
        rows = read_jsonl(
            path,
            JsonFields(options.input or "input", options.output or "output", options.id or "id"),
        )
    else:
        rows = read_conllu_rows(path, options.output)
    for row in rows:
        yield source.part, row


def read_conllu_rows(path: Path, output: str | None) -> Iterator[Row]:
    """Rows of a CoNLL-U file: input = the sentence's text, its syntax kept, output = the
    comment ``output`` names (empty when none is named)."""
    for record in read_conllu(path):
        meta = dict(record.get("meta", {}))
        if output is not None and output not in meta:
            raise DataError(
                f"{path}:{record['line']}: the sentence has no comment '# {output} = ...' to "
                f"take its output from; choose another `output` or leave it out."
            )
        text = "" if output is None else str(meta.pop(output))
        yield Row(
            str(record["input"]),
            text,
            str(path),
            int(record["line"]),
            str(record["id"]),
            meta,
            {"syntax": record["syntax"]},
        )


def import_corpus(
    sources: Sequence[Source],
    out: Path,
    options: ImportOptions | None = None,
    *,
    extractor: PoolExtractor | None = None,
    overwrite: bool = False,
    progress: Callable[[int], None] | None = None,
    jobs: Jobs = 1,
) -> dict[str, Any]:
    """Write the pool of ``sources`` into ``out`` (see the module); return its manifest. The
    extractor reads the rows a chunk at a time on ``jobs`` (worker processes or an executor);
    ``progress`` is told the rows of every chunk read.

    Raises
    ------
    DataError
        For unreadable or malformed files (naming file and line), repeated ids, no examples,
        and rows the extractor cannot read (unless dropped).
    OutputError
        When ``out`` cannot be written (see :func:`symcomp.data.artifacts.writing_into`).
    """
    options = options or ImportOptions()
    _check_sources(sources)
    formats = [format_of(source, options.format) for source in sources]
    extra = (*extractor.files, *extractor.reader.outputs) if extractor else ()
    with writing_into(
        out, overwrite=overwrite, names=(EXAMPLES, MANIFEST, SPLITS, *extra), kind="pool"
    ):
        replaced = previous_output(out, "pool")
        with staging_in(out) as work:
            tally = _Tally()
            files = _extractor_files(work, extractor)  # before the rows: the reader reads them
            rows = _records(sources, formats, options, tally)
            if extractor is None:
                _write_rows(work / EXAMPLES, rows, tally, progress)
            else:
                _read_rows(work / EXAMPLES, rows, extractor.reader, tally, progress, jobs)
            _check_tally(tally, sources, extractor, options)
            files[EXAMPLES] = _dropping(work / EXAMPLES, tally)
            if extractor is not None:
                files |= extractor.reader.finish(work / EXAMPLES, files[EXAMPLES], jobs)
            manifest = _manifest(work, out, options, extractor, tally, files)
            move_into_place(work, out, replaced)
    return manifest


def _check_sources(sources: Sequence[Source]) -> None:
    if not sources:
        raise DataError("nothing to import: give a file, or parts (train=train.tsv ...).")
    parted = {source.part is not None for source in sources}
    if len(parted) > 1:
        raise DataError("give either files or parts (NAME=FILE), not both.")
    seen: set[str] = set()
    for source in sources:
        if source.part is not None and source.part in seen:
            raise DataError(f"part {source.part!r} is given twice; one file per part.")
        seen.add(source.part or "")


def _records(
    sources: Sequence[Source], formats: Sequence[str], options: ImportOptions, tally: _Tally
) -> Iterator[tuple[dict[str, Any], Row, str]]:
    """The records to write (ids given, duplicates dropped as asked), with their row and
    part; each source's rows recorded in ``tally``."""
    ids: dict[str, str] = {}
    pairs: set[bytes] = set()
    for source, fmt in zip(sources, formats, strict=True):
        count = 0
        for part, row in read_rows(source, fmt, options):
            count += 1
            record = _record(row, part, source, ids)
            if not _duplicate(row, pairs, tally, options):
                yield record, row, part or ""
        if not count:
            raise DataError(f"{source.path}: holds no examples; an imported file needs rows.")
        tally.sources.append(_source_record(source, fmt, count))


def _line(record: Mapping[str, Any], row: Row) -> str:
    return json_text(record, row.where, ensure_ascii=False, separators=(",", ":")) + "\n"


def _write_rows(
    path: Path,
    rows: Iterable[tuple[dict[str, Any], Row, str]],
    tally: _Tally,
    progress: Callable[[int], None] | None,
) -> None:
    """Write every row (no extractor reads them)."""
    with path.open("w", encoding="utf-8") as handle:
        for record, row, part in rows:
            handle.write(_line(record, row))
            tally.kept(part)
            if progress is not None and tally.rows % 1000 == 0:
                progress(1000)


def _read_rows(
    path: Path,
    rows: Iterable[tuple[dict[str, Any], Row, str]],
    reader: RowReader,
    tally: _Tally,
    progress: Callable[[int], None] | None,
    jobs: Jobs,
) -> None:
    """Write every row, a chunk at a time, while the reader reads the chunks written: each
    row is counted (in its part) once its chunk's verdict says the extractor reads it."""
    parts: dict[int, list[str]] = {}  # per chunk in flight: the part of each row
    with path.open("wb") as handle:
        chunks = _written_chunks(handle, rows, reader.chunk_size, parts)
        for verdict in reader.read(path, chunks, jobs):
            chunk_parts = parts.pop(verdict.number)
            unreadable = set(verdict.unreadable)
            for index, part in enumerate(chunk_parts):
                if index not in unreadable:
                    tally.kept(part)
            first = tally.read
            tally.dropped.extend(first + index for index in sorted(unreadable))
            tally.read += len(chunk_parts)
            tally.unreadable_count += len(unreadable)
            tally.unreadable.extend(verdict.messages[: SHOWN_FAILURES - len(tally.unreadable)])
            if progress is not None:
                progress(len(chunk_parts))


def _written_chunks(
    handle: IO[bytes],
    rows: Iterable[tuple[dict[str, Any], Row, str]],
    size: int,
    parts: dict[int, list[str]],
) -> Iterator[LineChunk]:
    """Write the rows to ``handle``; after every ``size`` rows (and the last), the chunk of
    lines just written, flushed for the reader's workers to read."""
    first = start = position = 0
    wheres: list[str] = []
    for record, row, part in rows:
        line = _line(record, row).encode("utf-8")
        handle.write(line)
        position += len(line)
        wheres.append(row.where)
        parts.setdefault(first // size, []).append(part)
        if len(wheres) == size:
            handle.flush()
            yield LineChunk(first // size, start, first, size, wheres)
            first, start, wheres = first + size, position, []
    if wheres:
        handle.flush()
        yield LineChunk(first // size, start, first, len(wheres), wheres)


def _dropping(path: Path, tally: _Tally) -> dict[str, Any]:
    """Leave out of the pool file the rows the extractor cannot read (when they are to be
    dropped: else the import is refused before); the file's record."""
    if tally.dropped:
        dropped = set(tally.dropped)
        kept = path.with_name(f".{path.name}.kept")
        with path.open("rb") as lines, kept.open("wb") as handle:
            handle.writelines(line for number, line in enumerate(lines) if number not in dropped)
        kept.replace(path)
    return file_record(path)


def _record(row: Row, part: str | None, source: Source, ids: dict[str, str]) -> dict[str, Any]:
    example_id = row.id if row.id is not None else f"{part or source.path.stem}-{row.line}"
    if example_id in ids:
        given = "the file's" if row.id is not None else "generated"
        raise DataError(
            f"{row.where}: id {example_id!r} ({given}) was already used at {ids[example_id]}; "
            f"ids must be unique (choose another id column, or none to number the rows)."
        )
    ids[example_id] = row.where
    return row.record(example_id, part)


def _duplicate(row: Row, pairs: set[bytes], tally: _Tally, options: ImportOptions) -> bool:
    """Count a row whose input and output were seen; True when it is to be dropped."""
    key = hashlib.blake2b(f"{row.input}\0{row.output}".encode(), digest_size=16).digest()
    if key not in pairs:
        pairs.add(key)
        return False
    tally.duplicates += 1
    if options.duplicates == "drop":
        tally.dropped_duplicates += 1
        return True
    return False


def _check_tally(
    tally: _Tally,
    sources: Sequence[Source],
    extractor: PoolExtractor | None,
    options: ImportOptions,
) -> None:
    if not tally.unreadable_count:
        return
    name = extractor.description.get("name") if extractor else "the extractor"
    listed = "\n".join(tally.unreadable)
    more = tally.unreadable_count - len(tally.unreadable)
    listed += f"\n... and {more:,} more" if more else ""
    if not tally.rows:
        raise DataError(
            f"{name} reads none of the {tally.unreadable_count:,} rows (is it the right grammar "
            f"or extractor, reading the right field with `on`?):\n{listed}"
        )
    if options.unreadable == "refuse":
        raise DataError(
            f"{name} cannot read {tally.unreadable_count:,} of "
            f"{tally.rows + tally.unreadable_count:,} rows; nothing was written. Fix them, or "
            f"leave them out with `unreadable` drop:\n{listed}"
        )


def _source_record(source: Source, fmt: str, rows: int) -> dict[str, Any]:
    record: dict[str, Any] = {"path": str(source.path), "format": fmt, "rows": rows}
    if source.part is not None:
        record["part"] = source.part
    if source.path.is_file():
        record.update(file_record(source.path))
    else:
        record["files"] = {
            path.relative_to(source.path).as_posix(): file_record(path)["sha256"]
            for path in sorted(source.path.rglob("*"))
            if path.is_file()
        }
    return record


def _extractor_files(work: Path, extractor: PoolExtractor | None) -> dict[str, Any]:
    """Copy the extractor's files (a grammar) into the pool; their records."""
    files = {}
    for name, data in (extractor.files if extractor else {}).items():
        (work / name).write_bytes(data)
        files[name] = file_record(work / name)
    return files


def _manifest(
    work: Path,
    out: Path,
    options: ImportOptions,
    extractor: PoolExtractor | None,
    tally: _Tally,
    files: dict[str, Any],
) -> dict[str, Any]:
    parts = {name: indices for name, indices in tally.parts.items() if name}
    for name, split in published_splits(parts, files[EXAMPLES]["sha256"], out).items():
        path = work / SPLITS / f"{name}.json"
        path.parent.mkdir(exist_ok=True)
        write_json(path, split.to_json())
        files[f"{SPLITS}/{name}.json"] = file_record(path)
    manifest = {
        "format": FORMAT,
        "symcomp_version": __version__,
        "language": None,
        "imported": {
            "sources": tally.sources,
            "options": options.describe(),
            "rows": tally.rows,
            "parts": {name: len(indices) for name, indices in parts.items()},
            "duplicates": {
                "rows": tally.duplicates,
                "dropped": tally.dropped_duplicates,
                "policy": options.duplicates,
            },
            "unreadable": {"rows": tally.unreadable_count, "shown": tally.unreadable},
        },
        "extractor": dict(extractor.description) if extractor else None,
        "files": files,
    }
    write_json(work / MANIFEST, manifest)
    return manifest


def published_splits(
    parts: Mapping[str, Sequence[int]], pool_sha256: str, folder: Path
) -> dict[str, Split]:
    """The dataset's own splits by part: ``published`` (train, dev, test) and, for each other
    part X, ``published-X`` (its test is X). None without a train part.

    >>> sorted(published_splits({"train": [0], "test": [1], "gen": [2]}, "0" * 64, Path(".")))
    ['published', 'published-gen']
    """
    if "train" not in parts:
        return {}
    dev = tuple(parts.get("dev", ()))
    meta = {
        "method": PUBLISHED,
        "pool": {"path": str(folder / EXAMPLES), "sha256": pool_sha256},
        "symcomp_version": __version__,
    }
    splits: dict[str, Split] = {}
    if "test" in parts:
        splits[PUBLISHED] = Split.of(
            parts["train"], dev, parts["test"], {**meta, "test_part": "test"}
        )
    for name, indices in parts.items():
        if name not in ("train", "dev", "test"):
            splits[f"{PUBLISHED}-{name}"] = Split.of(
                parts["train"], dev, indices, {**meta, "test_part": name}
            )
    return splits
