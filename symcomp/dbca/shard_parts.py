"""One part of a pool's features, extracted on its own, and made a feature shard once the
names of all parts are numbered.

A part is a chunk of consecutive examples (:class:`symcomp.data.line_chunks.LineChunk`). A
worker extracts it alone (:func:`extract_part`): its atoms, compounds and pairs are numbered in
the order the part first meets them (*local ids*), and its names are written sorted, so that
the names of all parts can be merged without holding them (:mod:`symcomp.dbca.name_merge`). A
part folder::

    lengths.npy                  per example: input and output length in tokens
    TABLE.bytes.npy, TABLE.offsets.npy   the part's names in sorted (UTF-8 byte) order
    TABLE.sorted.npy             the local id of each of those names
    TABLE.global.npy             (written by the merge) the pool's id of each local id
    the shard's arrays           as in :mod:`symcomp.dbca.shard_layout`, with local ids

is written into a temporary folder and renamed into place whole, so a worker that dies while
writing leaves nothing a later step would read (a retried part is written again, the same).
:func:`finish_part` then writes the part's shard: the arrays with the pool's ids (each
example's ids sorted again, as a shard keeps them), and ``lines.npy`` with the byte offset of
every example's line.
"""

from __future__ import annotations

import array
import os
import shutil
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import numpy as np
import numpy.typing as npt

from symcomp.data.artifacts import file_record
from symcomp.dbca.occurrences import Arrays, Occurrences, csr, dag_arrays
from symcomp.dbca.pool import FeaturePlan, record_length
from symcomp.dbca.shard_layout import compact, counted, shard_arrays, tables
from symcomp.errors import SymcompError

NAME_BATCH = 65_536  # names encoded and written at a time
SHOWN_UNREADABLE = 10  # messages a part returns about examples its extractor cannot read


@dataclass(frozen=True)
class PartResult:
    """What extracting a part found: its examples (those the extractor reads), its names per
    table, and the examples it could not read (their place in the chunk and how many; the
    first messages)."""

    number: int
    examples: int
    names: Mapping[str, int] = field(default_factory=dict)
    unreadable: Sequence[int] = ()
    messages: Sequence[str] = ()


def extract_part(
    plan: FeaturePlan,
    records: Iterable[tuple[Mapping[str, Any], str]],
    number: int,
    folder: Path | None,
    *,
    skip_unreadable: bool = False,
) -> PartResult:
    """Extract the features of ``records`` (each with where it is) as ``plan`` says into the
    part folder ``folder`` (None: extract and keep nothing, a check). With
    ``skip_unreadable``, an example the extractor cannot read is counted and left out;
    otherwise its :class:`DataError` propagates."""
    collector = _Collector(plan)
    unreadable: list[int] = []
    messages: list[str] = []
    examples = 0
    for index, (record, where) in enumerate(records):
        try:
            item = plan.item(record, where)
        except SymcompError as error:
            if not skip_unreadable:
                raise
            unreadable.append(index)
            if len(messages) < SHOWN_UNREADABLE:
                messages.append(str(error))
            continue
        examples += 1
        if folder is not None:
            collector.add(item, record)
    names: dict[str, int] = {}
    if folder is not None and examples:
        names = _write_part(collector, folder, number)
    return PartResult(number, examples, names, unreadable, messages)


class _Collector:
    """The columns of a part's examples, names numbered as first met."""

    def __init__(self, plan: FeaturePlan) -> None:
        self.kind = plan.kind
        self.lengths: array.array[int] = array.array("q")
        self.dags = (
            Occurrences(plan.spec, with_extensions=plan.options.weighting == "dbca")
            if plan.kind == "dag"
            else None
        )
        self.sets = _Sets() if self.dags is None else None

    @property
    def examples(self) -> int:
        return len(self.lengths) // 2

    def add(self, item: Any, record: Mapping[str, Any]) -> None:
        if self.dags is not None:
            self.dags.add(item)
        else:
            assert self.sets is not None
            self.sets.add(item)
        self.lengths.extend(
            (
                record_length(record, "length", "input"),
                record_length(record, "output_length", "output"),
            )
        )

    def arrays(self) -> Arrays:
        size = self.examples
        if self.dags is not None:
            return dag_arrays(self.dags.take(), size)
        assert self.sets is not None
        taken = self.sets.take()
        arrays = csr("atoms", taken["atom_rows"], taken["atom_cols"], size)
        return arrays | csr("compounds", taken["compound_rows"], taken["compound_cols"], size)

    def ids(self) -> dict[str, dict[str, int]]:
        if self.dags is not None:
            dags = self.dags
            return {"atoms": dags.atom_ids, "pairs": dags.pair_ids, "compounds": dags.compound_ids}
        assert self.sets is not None
        return {"atoms": self.sets.atom_ids, "compounds": self.sets.compound_ids}


class _Sets:
    """Atoms and compounds of examples given as lists (extractors, n-grams), one dictionary
    from name to id each."""

    def __init__(self) -> None:
        self.atom_ids: dict[str, int] = {}
        self.compound_ids: dict[str, int] = {}
        self.examples = 0
        self.columns = {
            name: array.array("q")
            for name in ("atom_rows", "atom_cols", "compound_rows", "compound_cols")
        }

    def add(self, item: tuple[Sequence[str], Sequence[str]]) -> None:
        atoms, compounds = item
        number, columns = self.examples, self.columns
        columns["atom_cols"].extend(self.atom_ids.setdefault(a, len(self.atom_ids)) for a in atoms)
        columns["atom_rows"].extend([number] * len(atoms))
        ids = self.compound_ids
        columns["compound_cols"].extend(ids.setdefault(c, len(ids)) for c in compounds)
        columns["compound_rows"].extend([number] * len(compounds))
        self.examples += 1

    def take(self) -> dict[str, npt.NDArray[np.int64]]:
        return {
            name: np.frombuffer(values, dtype=np.int64) if values else np.zeros(0, np.int64)
            for name, values in self.columns.items()
        }


def _write_part(collector: _Collector, folder: Path, number: int) -> dict[str, int]:
    """Write the part folder aside and rename it into place; the names per table. The folder
    of parts is made by the command: a worker still running after the command stopped (and
    removed it) fails instead of leaving files behind."""
    work = Path(tempfile.mkdtemp(prefix=f"{folder.name}.", suffix=".tmp", dir=folder.parent))
    try:
        lengths = np.frombuffer(collector.lengths, dtype=np.int64).reshape(-1, 2)
        save(work / "lengths.npy", lengths)
        for name, values in collector.arrays().items():
            save(work / f"{name}.npy", values)
        names = {}
        for table, ids in collector.ids().items():
            _write_sorted_names(work, table, ids)
            names[table] = len(ids)
        try:
            os.rename(work, folder)
        except OSError:
            if not (folder / "lengths.npy").is_file():
                raise
            # a retried part whose first attempt finished: the same content is in place
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return names


def save(path: Path, values: npt.NDArray[Any]) -> dict[str, Any]:
    """Write one ``.npy`` file; its sha256 and size."""
    with path.open("wb") as handle:
        write_array(handle, np.ascontiguousarray(values))
    return file_record(path)


def write_array(handle: IO[bytes], values: npt.NDArray[Any]) -> None:
    np.lib.format.write_array(handle, values, allow_pickle=False)


def _write_sorted_names(work: Path, table: str, ids: Mapping[str, int]) -> None:
    """The names of ``ids`` in sorted order (UTF-8 bytes order is code point order, that of
    ``sorted``), and the local id of each."""
    ordered = sorted(ids)
    save(work / f"{table}.sorted.npy", compact(np.fromiter((ids[n] for n in ordered), np.int64)))
    write_names(work / f"{table}.bytes.npy", work / f"{table}.offsets.npy", ordered)


def write_names(blob: Path, offsets_path: Path, names: Sequence[str]) -> dict[str, Any]:
    """``names`` as one UTF-8 blob and the offsets where each starts, encoded a batch at a
    time; the records of both files."""
    lengths = np.fromiter((len(n.encode("utf-8")) for n in names), np.int64, count=len(names))
    offsets = np.zeros(len(names) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    del lengths
    with blob.open("wb") as handle:
        write_blob_header(handle, int(offsets[-1]))
        for start in range(0, len(names), NAME_BATCH):
            handle.write("".join(names[start : start + NAME_BATCH]).encode("utf-8"))
    return {"bytes": file_record(blob), "offsets": save(offsets_path, offsets)}


def write_blob_header(handle: IO[bytes], size: int) -> None:
    """The ``.npy`` header of ``size`` bytes (uint8) whose data is written after it."""
    header = {"descr": "|u1", "fortran_order": False, "shape": (size,)}
    np.lib.format.write_array_header_1_0(handle, header)


def read_npy(path: Path) -> npt.NDArray[Any]:
    """A whole ``.npy`` file symcomp wrote, read (not mapped)."""
    loaded: npt.NDArray[Any] = np.load(path, allow_pickle=False)
    return loaded


def finish_part(
    part: Path, shard: Path, kind: str, offsets: npt.NDArray[np.int64]
) -> dict[str, Any]:
    """Write the shard of the part folder ``part`` into ``shard``: its arrays with the pool's
    ids (the merge's ``TABLE.global.npy``) for local ids, and ``lines`` from the byte
    ``offsets`` of its examples' lines; the record of every file written."""
    remap = {table: read_npy(part / f"{table}.global.npy") for table in tables(kind)}
    lengths = read_npy(part / "lengths.npy")
    arrays: Arrays = {"lines": np.column_stack([np.asarray(offsets, np.int64), lengths])}
    for table in counted(kind):
        arrays |= _renumbered(part, table, remap[table])
    if kind == "dag":
        compounds = remap["compounds"]
        arrays["occurrences.indptr"] = read_npy(part / "occurrences.indptr.npy")
        arrays["occurrences.kinds"] = _mapped(part / "occurrences.kinds.npy", compounds)
        arrays["extensions.occurrence"] = read_npy(part / "extensions.occurrence.npy")
        arrays["extensions.kinds"] = _mapped(part / "extensions.kinds.npy", compounds)
    shard.mkdir(exist_ok=True)  # written again whole when a retried task finds a dead one's
    assert sorted(arrays) == sorted(shard_arrays(kind))
    return {f"{name}.npy": save(shard / f"{name}.npy", values) for name, values in arrays.items()}


def _mapped(path: Path, remap: npt.NDArray[np.integer]) -> npt.NDArray[np.int32]:
    return np.asarray(remap[read_npy(path)], dtype=np.int32)


def _renumbered(part: Path, table: str, remap: npt.NDArray[np.integer]) -> Arrays:
    """A CSR table with the pool's ids, each example's entries sorted by them again."""
    indptr = read_npy(part / f"{table}.indptr.npy")
    indices = remap[read_npy(part / f"{table}.indices.npy")]
    counts = read_npy(part / f"{table}.counts.npy")
    rows = np.repeat(np.arange(len(indptr) - 1), np.diff(indptr))
    order = np.lexsort((indices, rows))
    return {
        f"{table}.indptr": indptr,
        f"{table}.indices": np.asarray(indices[order], dtype=np.int32),
        f"{table}.counts": counts[order],
    }
