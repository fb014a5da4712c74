"""Feature shards: a pool's atoms and compounds on disk, as integer arrays, memory-mapped.

At the scale of a whole corpus the features of a pool must not be Python objects per example.
:func:`write_shards` streams the pool's ``examples.jsonl`` through its extractor once and
flushes every ``shard_size`` examples to disk; :func:`open_shards` checks a shard folder
against the pool and the feature options and memory-maps it; :meth:`FeatureShards.features`
turns it into the :class:`~symcomp.dbca.features.Features` the split search reads, equal to
the features computed in memory (same arrays, so the same splits).

The format is numpy's ``.npy`` (one array per file, ``np.load(mmap_mode="r")``): nothing to
install, any tool reads it, and an array is mapped without a copy. A shard folder holds::

    manifest.json                       format, pool (sha256, examples), options, shards, files
    names/{atoms,compounds,pairs}.bytes.npy    every name once, UTF-8 end to end, in id order
    names/{atoms,compounds,pairs}.offsets.npy  where each name starts (n + 1 positions)
    order/{atoms,compounds}.npy         (counted compounds) the ids in name order: the columns
    shards/NNNNN/lines.npy              per example: byte offset of its line, input and output
                                        length in tokens
    shards/NNNNN/atoms.{indptr,indices,counts}.npy   per example (CSR), ids as first seen
    shards/NNNNN/compounds.{...}.npy    counted compounds (extractors, n-grams), or for DAGs:
    shards/NNNNN/pairs.{...}.npy        parent-child pair counts, and
    shards/NNNNN/occurrences.{indptr,kinds}.npy  the compound of every occurrence, and
    shards/NNNNN/extensions.{occurrence,kinds}.npy  which occurrence (counted from the
                                        shard's first) lies in which super-compound (DBCA weights
                                        need every occurrence of the pool at once)

The dictionary from name to id is one ``dict`` while extraction runs; the names are written
from it in id order at the end, so no name is held twice. A folder is assembled aside and moved
into place whole (:mod:`symcomp.data.artifacts`): a full disk, an error or a stop while it is
written leaves the previous folder or none. A folder made for another pool (its sha256), other
options, or whose files changed is refused with a :class:`DataError` naming the difference.

>>> import json, tempfile
>>> from pathlib import Path
>>> from symcomp.dbca.pool import FeatureOptions, feature_plan
>>> folder = Path(tempfile.mkdtemp())
>>> lines = [{"id": str(i), "input": t, "output": t} for i, t in enumerate(["a b", "b c"])]
>>> _ = (folder / "examples.jsonl").write_text("".join(json.dumps(r) + "\\n" for r in lines))
>>> plan = feature_plan(None, FeatureOptions(compounds="ngrams"), str(folder / "examples.jsonl"))
>>> _ = write_shards(folder / "examples.jsonl", folder / "features", plan)
>>> shards = open_shards(folder / "features", folder / "examples.jsonl", plan)
>>> list(shards.features().compound_names)
['a b', 'b c']
"""

from __future__ import annotations

import array
import logging
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, overload

import numpy as np
import numpy.typing as npt

from symcomp.data.artifacts import (
    MANIFEST,
    file_record,
    json_object,
    move_into_place,
    parse_examples,
    previous_output,
    read_json,
    staging_in,
    write_json,
    writing_into,
)
from symcomp.dbca.features import (
    MAX_OCCURRENCES,
    Counted,
    Features,
    Occurrences,
    SparseRows,
    StoredNames,
    counted_features,
    occurrence_weights,
    weighted_dag_features,
)
from symcomp.dbca.pool import FeaturePlan, record_length
from symcomp.dbca.weights import raw_counts
from symcomp.errors import DataError
from symcomp.version import __version__

LOG = logging.getLogger(__name__)
FORMAT = "symcomp.features/1"
SHARD_SIZE = 65_536  # examples per shard: a few MB of arrays, flushed as extraction goes
NAMES, ORDER, SHARDS = "names", "order", "shards"
NAME_BATCH = 65_536  # names encoded and written at a time
IntArray = npt.NDArray[np.int64]


def write_shards(
    pool: Path,
    out: Path,
    plan: FeaturePlan,
    *,
    shard_size: int = SHARD_SIZE,
    overwrite: bool = True,
) -> dict[str, Any]:
    """Extract the features of the pool file ``pool`` (its ``examples.jsonl``) as ``plan``
    says into the shard folder ``out``; return its manifest.

    Raises
    ------
    DataError
        For a line the extractor cannot read (naming it), and ``shard_size`` below 1.
    OutputError
        When ``out`` cannot be written (another command writes it, a file symcomp did not
        write is in the way).
    """
    if shard_size < 1:
        raise DataError(f"`shard_size` must be at least 1, got {shard_size}.")
    names = (MANIFEST, NAMES, ORDER, SHARDS)
    with writing_into(out, overwrite=overwrite, names=names, kind="features"):
        replaced = previous_output(out, "features")
        with staging_in(out) as work:
            writer = _ShardWriter(work, plan, shard_size)
            writer.write(_Lines(pool))
            if not writer.examples:
                raise DataError(f"{pool} holds no examples; a split needs a non-empty pool.")
            manifest = writer.finish(pool)
            move_into_place(work, out, replaced)
    LOG.info("wrote %d feature shards of %s to %s", len(manifest["shards"]), pool, out)
    return manifest


class _Lines:
    """The records of ``examples.jsonl`` in order, with each line's byte offset and the
    input and output length of each record (what a split reads without holding records)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.columns: array.array[int] = array.array("q")  # offset, input, output length

    def records(self) -> Iterator[dict[str, Any]]:
        for record in parse_examples(self._text(), str(self.path)):
            self.columns.extend(
                (
                    record_length(record, "length", "input"),
                    record_length(record, "output_length", "output"),
                )
            )
            yield record

    def _text(self) -> Iterator[str]:
        with self.path.open("rb") as handle:
            position = 0
            for line in handle:
                self.columns.append(position)
                position += len(line)
                yield line.decode("utf-8")

    def take(self) -> npt.NDArray[np.int64]:
        """The (offset, input length, output length) rows read since the last call."""
        taken = np.frombuffer(self.columns, dtype=np.int64).reshape(-1, 3).copy()
        self.columns = array.array("q")
        return taken


class _Sets:
    """Atoms and compounds of examples given as lists (extractors, n-grams), one dictionary
    from name to id each; columns since the last :meth:`take`."""

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
        taken = {
            name: np.frombuffer(values, dtype=np.int64) if values else np.zeros(0, np.int64)
            for name, values in self.columns.items()
        }
        self.columns = {name: array.array("q") for name in self.columns}
        return taken


class _ShardWriter:
    """Streams the items of a plan into shard folders of ``shard_size`` examples."""

    def __init__(self, work: Path, plan: FeaturePlan, shard_size: int) -> None:
        self.work, self.kind, self.shard_size = work, plan.kind, shard_size
        self.plan = plan
        self.shards: list[dict[str, Any]] = []
        self.first = 0  # the first example of the shard being collected
        self.dags = (
            Occurrences(plan.spec, with_extensions=plan.options.weighting == "dbca")
            if plan.kind == "dag"
            else None
        )
        self.sets = _Sets() if plan.kind == "sets" else None

    @property
    def examples(self) -> int:
        return self.dags.examples if self.dags is not None else self._sets().examples

    def _sets(self) -> _Sets:
        assert self.sets is not None
        return self.sets

    def write(self, lines: _Lines) -> None:
        for item in self.plan.items(lines.records()):
            if self.dags is not None:
                self.dags.add(item)
            else:
                self._sets().add(item)
            if self.examples - self.first == self.shard_size:
                self._flush(lines)
        if self.examples > self.first or not self.shards:
            self._flush(lines)

    def _flush(self, lines: _Lines) -> None:
        folder = self.work / SHARDS / f"{len(self.shards):05d}"
        folder.mkdir(parents=True)
        size = self.examples - self.first
        arrays: dict[str, npt.NDArray[np.integer]] = {"lines": lines.take()}
        if self.dags is not None:
            arrays |= _dag_arrays(self.dags.take(), self.first, size)
        else:
            taken = self._sets().take()
            arrays |= _csr("atoms", taken["atom_rows"] - self.first, taken["atom_cols"], size)
            arrays |= _csr(
                "compounds", taken["compound_rows"] - self.first, taken["compound_cols"], size
            )
        files = {}
        for name, values in arrays.items():
            files[f"{name}.npy"] = _save(folder / f"{name}.npy", values)
        self.shards.append({"examples": size, "files": files})
        self.first = self.examples

    def finish(self, pool: Path) -> dict[str, Any]:
        """Write the names (and, for counted compounds, their order) and the manifest."""
        files: dict[str, Any] = {}
        if self.dags is not None:
            tables = {
                "atoms": self.dags.atom_ids,
                "pairs": self.dags.pair_ids,
                "compounds": self.dags.compound_ids,
            }
        else:
            tables = {"atoms": self._sets().atom_ids, "compounds": self._sets().compound_ids}
        for name, ids in tables.items():
            files |= _write_names(self.work, name, ids)
            if self.sets is not None:
                files[f"{ORDER}/{name}.npy"] = _save_in(
                    self.work, f"{ORDER}/{name}.npy", _name_order(ids)
                )
        manifest = {
            "format": FORMAT,
            "symcomp_version": __version__,
            "pool": {"path": str(pool), "examples": self.examples, **file_record(pool)},
            "features": _described(self.plan),
            "kind": self.kind,
            "counts": {name: len(ids) for name, ids in tables.items()},
            "shard_size": self.shard_size,
            "shards": self.shards,
            "files": {**files, **_shard_files(self.shards)},
        }
        write_json(self.work / MANIFEST, manifest)
        return manifest


def _shard_files(shards: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    return {
        f"{SHARDS}/{number:05d}/{name}": record
        for number, shard in enumerate(shards)
        for name, record in shard["files"].items()
    }


def _described(plan: FeaturePlan) -> dict[str, Any]:
    """What a shard folder must have been made with: the options as used and the extractor."""
    return {**plan.options.describe(), **plan.extractor}


def _dag_arrays(
    taken: Mapping[str, npt.NDArray[np.integer]], first: int, size: int
) -> dict[str, npt.NDArray[np.integer]]:
    arrays = _csr("atoms", taken["atom_rows"] - first, taken["atom_cols"], size)
    arrays |= _csr("pairs", taken["pair_rows"] - first, taken["pair_cols"], size)
    lengths = np.bincount(np.asarray(taken["occ_rows"], dtype=np.int64) - first, minlength=size)
    arrays["occurrences.indptr"] = _indptr(lengths)
    arrays["occurrences.kinds"] = np.asarray(taken["occ_kinds"], dtype=np.int32)
    arrays["extensions.occurrence"] = np.asarray(taken["ext_occ"], dtype=np.int32)
    arrays["extensions.kinds"] = np.asarray(taken["ext_kinds"], dtype=np.int32)
    return arrays


def _csr(
    name: str, rows: npt.NDArray[np.integer], columns: npt.NDArray[np.integer], size: int
) -> dict[str, npt.NDArray[np.integer]]:
    """Per-example counts of (row, column) occurrences as CSR arrays (columns ascending).

    >>> arrays = _csr("x", np.array([0, 0, 2]), np.array([3, 3, 1]), 3)
    >>> sorted((k, v.tolist()) for k, v in arrays.items())
    [('x.counts', [2, 1]), ('x.indices', [3, 1]), ('x.indptr', [0, 1, 1, 2])]
    """
    n_kinds = int(columns.max()) + 1 if len(columns) else 1
    examples, kinds, counts = raw_counts(rows, columns, n_kinds=n_kinds)
    return {
        f"{name}.indptr": _indptr(np.bincount(examples, minlength=size)),
        f"{name}.indices": kinds.astype(np.int32),
        f"{name}.counts": _compact(counts.astype(np.int64)),
    }


def _indptr(lengths: npt.NDArray[np.integer]) -> npt.NDArray[np.integer]:
    indptr = np.zeros(len(lengths) + 1, dtype=np.int64)
    np.cumsum(lengths, out=indptr[1:])
    return _compact(indptr)


def _compact(values: npt.NDArray[np.int64]) -> npt.NDArray[np.integer]:
    """32-bit integers when they hold every value, else 64-bit."""
    if not len(values) or (values.min() >= -(2**31) and values.max() < 2**31):
        return values.astype(np.int32)
    return values


def _save(path: Path, values: npt.NDArray[Any]) -> dict[str, Any]:
    """Write one ``.npy`` file; its sha256 and size."""
    with path.open("wb") as handle:
        _write_array(handle, np.ascontiguousarray(values))
    return file_record(path)


def _write_array(handle: IO[bytes], values: npt.NDArray[Any]) -> None:
    np.lib.format.write_array(handle, values, allow_pickle=False)


def _save_in(work: Path, name: str, values: npt.NDArray[Any]) -> dict[str, Any]:
    path = work / name
    path.parent.mkdir(parents=True, exist_ok=True)
    return _save(path, values)


def _name_order(ids: Mapping[str, int]) -> npt.NDArray[np.integer]:
    """The ids in the order of their names (the names are not copied: sorted references)."""
    return _compact(
        np.fromiter((ids[name] for name in sorted(ids)), dtype=np.int64, count=len(ids))
    )


def _write_names(work: Path, name: str, ids: Mapping[str, int]) -> dict[str, Any]:
    """The names of ``ids`` in id order (its insertion order) as one UTF-8 blob and offsets,
    encoded a batch at a time."""
    lengths = np.fromiter((len(key.encode("utf-8")) for key in ids), dtype=np.int64, count=len(ids))
    offsets = np.zeros(len(ids) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    del lengths
    folder = work / NAMES
    folder.mkdir(exist_ok=True)
    blob = folder / f"{name}.bytes.npy"
    with blob.open("wb") as handle:
        header = {"descr": "|u1", "fortran_order": False, "shape": (int(offsets[-1]),)}
        np.lib.format.write_array_header_1_0(handle, header)
        for batch in _batches(ids, NAME_BATCH):
            handle.write("".join(batch).encode("utf-8"))
    return {
        f"{NAMES}/{name}.bytes.npy": file_record(blob),
        f"{NAMES}/{name}.offsets.npy": _save(folder / f"{name}.offsets.npy", offsets),
    }


def _batches(names: Iterable[str], size: int) -> Iterator[list[str]]:
    batch: list[str] = []
    for name in names:
        batch.append(name)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def open_shards(folder: Path, pool: Path, plan: FeaturePlan) -> FeatureShards:
    """The shard folder ``folder``, checked against the pool file ``pool`` and ``plan``.

    Raises
    ------
    DataError
        When ``folder`` holds no shards, or shards of another pool, of other feature options,
        or files that changed since they were written.
    """
    manifest = read_json(folder / MANIFEST, what="the feature shards' manifest", fix=_REWRITE)
    if manifest.get("format") != FORMAT:
        raise DataError(
            f"{folder / MANIFEST}: not a feature shard folder (format "
            f"{manifest.get('format')!r}, expected {FORMAT!r}); {_REWRITE}"
        )
    recorded, current = manifest.get("pool") or {}, file_record(pool)
    if recorded.get("sha256") != current["sha256"]:
        raise DataError(
            f"{folder}: feature shards of another pool (sha256 {str(recorded.get('sha256'))[:12]}"
            f"…, written from {recorded.get('path')}), not of {pool} (sha256 "
            f"{current['sha256'][:12]}…); {_REWRITE}"
        )
    wanted = _described(plan)
    if manifest.get("features") != wanted:
        differs = sorted(
            key
            for key in set(wanted) | set(manifest.get("features") or {})
            if (manifest.get("features") or {}).get(key) != wanted.get(key)
        )
        raise DataError(
            f"{folder}: feature shards made with other feature options (differing: "
            f"{', '.join(differs)}); {_REWRITE}"
        )
    _check_files(folder, manifest)
    return FeatureShards(folder, manifest, plan)


_REWRITE = (
    "give another `features` folder (symcomp writes it), or remove this one to have it "
    "written again."
)


def _check_files(folder: Path, manifest: Mapping[str, Any]) -> None:
    files = manifest.get("files")
    if not isinstance(files, Mapping) or not files:
        raise DataError(f"{folder / MANIFEST}: lists no files; {_REWRITE}")
    for name, record in files.items():
        path = folder / name
        if not path.is_file() or file_record(path)["sha256"] != record.get("sha256"):
            raise DataError(
                f"{path}: {'missing' if not path.is_file() else 'changed'} since the shards "
                f"were written (sha256 in {folder / MANIFEST}); {_REWRITE}"
            )


@dataclass(frozen=True)
class FeatureShards:
    """A checked shard folder (:func:`open_shards`): features, lengths and line offsets."""

    folder: Path
    manifest: Mapping[str, Any]
    plan: FeaturePlan

    def __len__(self) -> int:
        return int(self.manifest["pool"]["examples"])

    def _load(self, name: str) -> npt.NDArray[Any]:
        loaded: npt.NDArray[Any] = np.load(self.folder / name, mmap_mode="r", allow_pickle=False)
        return loaded

    def _each(self, name: str) -> Iterator[npt.NDArray[Any]]:
        for number in range(len(self.manifest["shards"])):
            yield self._load(f"{SHARDS}/{number:05d}/{name}.npy")

    def names(self, name: str) -> StoredNames:
        """The names of atoms, compounds or pairs in id order (memory-mapped)."""
        blob = self._load(f"{NAMES}/{name}.bytes.npy")
        return StoredNames(blob, self._load(f"{NAMES}/{name}.offsets.npy"))

    def lines(self) -> npt.NDArray[np.int64]:
        """Per example: byte offset of its line, input and output length (one array)."""
        return np.concatenate([np.asarray(part) for part in self._each("lines")])

    def counts(self, name: str) -> SparseRows:
        """Per-example counts of atoms, compounds or pairs, ids as first seen."""
        parts = zip(
            self._each(f"{name}.indptr"),
            self._each(f"{name}.indices"),
            self._each(f"{name}.counts"),
            strict=True,
        )
        return SparseRows.stacked(parts, int(self.manifest["counts"][name]))

    def features(self) -> Features:
        """The features the plan computes in memory, from the shards (before
        :meth:`FeaturePlan.finish`)."""
        options = self.plan.options
        if self.manifest["kind"] == "sets":
            counted = Counted(
                self.counts("atoms"),
                self.counts("compounds"),
                self.names("atoms"),
                self.names("compounds"),
            )
            orders = (self._load(f"{ORDER}/atoms.npy"), self._load(f"{ORDER}/compounds.npy"))
            return counted_features(counted, atom_frequency=options.atom_frequency, orders=orders)
        counted = Counted(
            self.counts("atoms"),
            self.counts("pairs"),
            self.names("atoms"),
            self.names("pairs"),
            self.names("compounds"),
        )
        weights = occurrence_weights(
            self._occurrences(),
            len(counted.subgraph_names),
            with_extensions=options.weighting == "dbca",
        )
        return weighted_dag_features(
            counted,
            weights,
            self.plan.spec,
            weighting=options.weighting,
            top_k=options.kept,
            atom_frequency=options.atom_frequency,
        )

    def _occurrences(self) -> tuple[npt.NDArray[np.int32], ...]:
        """(example, compound, extended occurrence, extending compound) of every occurrence
        in the pool, 32-bit as :class:`Occurrences` collects them, each array allocated once
        and filled shard by shard (no list of parts to join)."""
        shards = list(
            zip(
                self._each("occurrences.indptr"),
                self._each("occurrences.kinds"),
                self._each("extensions.occurrence"),
                self._each("extensions.kinds"),
                strict=True,
            )
        )
        taken = sum(len(kinds) for _indptr, kinds, _occ, _ext in shards)
        extended = sum(len(occ) for _indptr, _kinds, occ, _ext in shards)
        if taken > MAX_OCCURRENCES:
            raise DataError(
                f"{self.folder}: {taken:,} compound occurrences, more than one split search "
                f"holds ({MAX_OCCURRENCES:,}); split a subsample of the pool or lower `max_nodes`."
            )
        rows, kinds = np.empty(taken, np.int32), np.empty(taken, np.int32)
        ext_occ, ext_kinds = np.empty(extended, np.int32), np.empty(extended, np.int32)
        first = done = ext_done = 0
        while shards:
            indptr, occurrence_kinds, occurrences, extending = shards.pop(0)
            size, count, more = len(indptr) - 1, len(occurrence_kinds), len(occurrences)
            rows[done : done + count] = np.repeat(
                np.arange(first, first + size, dtype=np.int32), np.diff(indptr)
            )
            kinds[done : done + count] = occurrence_kinds
            ext_occ[ext_done : ext_done + more] = np.asarray(occurrences, dtype=np.int64) + done
            ext_kinds[ext_done : ext_done + more] = extending
            first, done, ext_done = first + size, done + count, ext_done + more
        return rows, kinds, ext_occ, ext_kinds


class LineRecords(Sequence[dict[str, Any]]):
    """The records of ``examples.jsonl`` read one at a time when asked for, by the byte
    offset of each line: a pool's records without holding them.

    >>> import tempfile
    >>> path = Path(tempfile.mkdtemp()) / "examples.jsonl"
    >>> _ = path.write_text('{"id": "a"}\\n{"id": "b"}\\n')
    >>> LineRecords(path, np.array([0, 12]))[1]
    {'id': 'b'}
    """

    def __init__(self, path: Path, offsets: npt.NDArray[np.integer]) -> None:
        self.path, self.offsets = path, offsets
        self._handle: IO[bytes] | None = None

    def __len__(self) -> int:
        return len(self.offsets)

    @overload
    def __getitem__(self, index: int) -> dict[str, Any]: ...
    @overload
    def __getitem__(self, index: slice) -> list[dict[str, Any]]: ...
    def __getitem__(self, index: int | slice) -> dict[str, Any] | list[dict[str, Any]]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if not -len(self) <= index < len(self):
            raise IndexError(index)
        index %= len(self)
        if self._handle is None:
            self._handle = self.path.open("rb")
        self._handle.seek(int(self.offsets[index]))
        line = self._handle.readline().decode("utf-8")
        return json_object(line, f"{self.path}:{index + 1}")

    def __iter__(self) -> Iterator[dict[str, Any]]:
        with self.path.open("rb") as handle:
            for number, line in enumerate(handle, start=1):
                yield json_object(line.decode("utf-8"), f"{self.path}:{number}")
