"""Feature shards: a pool's atoms and compounds on disk, as integer arrays, memory-mapped.

At the scale of a whole corpus the features of a pool must not be Python objects per example.
:func:`write_shards` extracts the pool's ``examples.jsonl`` through its extractor once, a
chunk of ``shard_size`` examples per task, on one process, several or a Ray cluster
(:mod:`symcomp.dbca.extraction`: the same bytes on any); :func:`open_shards` checks a shard
folder against the pool and the feature options (:mod:`symcomp.dbca.shard_layout`) and
memory-maps it; :meth:`FeatureShards.features` turns it into the
:class:`~symcomp.dbca.features.Features` the split search reads, equal to the features
computed in memory (same arrays, so the same splits).

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

Ids are numbered by first occurrence in the pool, as one process reading it numbers them;
no process holds a dictionary of every name (:mod:`symcomp.dbca.name_merge`). A folder is
assembled aside and moved into place whole (:mod:`symcomp.data.artifacts`): a full disk, an
error or a stop while it is written leaves the previous folder or none. A folder made for
another pool (its sha256), other options, or whose files changed is refused with a
:class:`DataError` naming the difference. :func:`pool_shards` finds the shards ``symcomp
import`` wrote into a pool folder (``features/``).

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

import logging
from collections.abc import Callable, Iterator, Mapping, Sequence
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
    previous_output,
    read_json,
    staging_in,
    writing_into,
)
from symcomp.data.line_chunks import line_chunks
from symcomp.data.parallel import Jobs
from symcomp.dbca.extraction import ShardExtraction, described
from symcomp.dbca.features import (
    Counted,
    Features,
    SparseRows,
    StoredNames,
    sorted_counted_features,
    weighted_dag_features,
)
from symcomp.dbca.occurrences import occurrence_chunk
from symcomp.dbca.pool import FeaturePlan
from symcomp.dbca.shard_layout import (
    FORMAT,
    NAMES,
    ORDER,
    POOL_FEATURES,
    SHARD_SIZE,
    SHARDS,
    check_arrays,
    check_layout,
    damaged,
    load_array,
    rewrite_advice,
)
from symcomp.dbca.weights import OccurrenceChunk, compound_rows
from symcomp.errors import DataError

LOG = logging.getLogger(__name__)
ORDERED = ("atoms", "compounds")  # counted features: tables whose ids are also stored sorted
IntArray = npt.NDArray[np.int64]


def write_shards(
    pool: Path,
    out: Path,
    plan: FeaturePlan,
    *,
    shard_size: int = SHARD_SIZE,
    overwrite: bool = True,
    jobs: Jobs = 1,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Extract the features of the pool file ``pool`` (its ``examples.jsonl``) as ``plan``
    says into the shard folder ``out``, ``shard_size`` examples a shard, on ``jobs`` (worker
    processes or an executor, :mod:`symcomp.dbca.extraction`: the same bytes for any);
    ``progress`` is told the examples of every shard extracted. Return the manifest.

    Raises
    ------
    DataError
        For a line the extractor cannot read (naming it), an empty pool, and ``shard_size``
        below 1.
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
            extraction = ShardExtraction(plan, work, out, shard_size)
            for part in extraction.read(pool, line_chunks(pool, shard_size), jobs):
                if progress is not None:
                    progress(part.examples)
            manifest = extraction.finish(pool, file_record(pool), jobs)
            move_into_place(work, out, replaced)
    LOG.info("wrote %d feature shards of %s to %s", len(manifest["shards"]), pool, out)
    return manifest


def open_shards(folder: Path, pool: Path, plan: FeaturePlan) -> FeatureShards:
    """The shard folder ``folder``, checked against the pool file ``pool`` and ``plan``.

    Raises
    ------
    DataError
        When ``folder`` holds no shards, or shards of another pool, of other feature options,
        shards that do not cover the pool, files that changed since they were written or that
        lie outside it, or arrays that are not as written (:mod:`symcomp.dbca.shard_layout`).
    """
    manifest, current = _manifest(folder, pool)
    _check_made_for(folder, manifest, pool, current, plan)
    return _checked(folder, manifest, current, plan)


def pool_shards(pool: Path, plan: FeaturePlan) -> FeatureShards | None:
    """The feature shards ``symcomp import`` wrote beside the pool file ``pool``
    (``features/`` in the pool folder), checked, when they were made from this pool with the
    options of ``plan``; None when there are none or they were made otherwise.

    Raises
    ------
    DataError
        When they were made so but are damaged (see :func:`open_shards`).
    """
    folder = pool.parent / POOL_FEATURES
    if not (folder / MANIFEST).is_file():
        return None
    manifest, current = _manifest(folder, pool)
    try:
        _check_made_for(folder, manifest, pool, current, plan)
    except DataError as error:
        LOG.info("the pool's own feature shards are not used: %s", error)
        return None
    return _checked(folder, manifest, current, plan)


def _manifest(folder: Path, pool: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """The manifest of a shard folder and the file record of the pool file."""
    fix = rewrite_advice(folder)
    manifest = read_json(folder / MANIFEST, what="the feature shards' manifest", fix=fix)
    if manifest.get("format") != FORMAT:
        raise DataError(
            f"{folder / MANIFEST}: not a feature shard folder (format "
            f"{manifest.get('format')!r}, expected {FORMAT!r}); {_REWRITE}"
        )
    return manifest, file_record(pool)


def _check_made_for(
    folder: Path,
    manifest: Mapping[str, Any],
    pool: Path,
    current: Mapping[str, Any],
    plan: FeaturePlan,
) -> None:
    """Refuse shards of another pool (its sha256) or made with other feature options."""
    recorded = manifest.get("pool")
    recorded = recorded if isinstance(recorded, Mapping) else {}
    if recorded.get("sha256") != current["sha256"]:
        raise DataError(
            f"{folder}: feature shards of another pool (sha256 {str(recorded.get('sha256'))[:12]}"
            f"…, written from {recorded.get('path')}), not of {pool} (sha256 "
            f"{current['sha256'][:12]}…); {_REWRITE}"
        )
    wanted = described(plan)
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


def _checked(
    folder: Path, manifest: dict[str, Any], current: Mapping[str, Any], plan: FeaturePlan
) -> FeatureShards:
    layout = check_layout(folder, manifest, current)  # before any file of it is opened
    _check_files(folder, manifest["files"])
    check_arrays(folder, layout, int(current["bytes"]))
    return FeatureShards(folder, manifest, plan)


_REWRITE = (
    "give another `features` folder (symcomp writes it), or remove this one to have it "
    "written again."
)


def _check_files(folder: Path, files: Mapping[str, Mapping[str, Any]]) -> None:
    """Every listed file (names checked by :func:`check_layout`) is as written: its sha256."""
    for name, record in files.items():
        path = folder / name
        if not path.is_file():
            raise damaged(path, "missing (listed in the manifest)", folder)
        if file_record(path)["sha256"] != record.get("sha256"):
            raise damaged(
                path, f"changed since the shards were written (sha256 in {MANIFEST})", folder
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
        return load_array(self.folder / name, self.folder)

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

    def counts(
        self, name: str, renumber: npt.NDArray[np.integer] | None = None, *, ones: bool = False
    ) -> SparseRows:
        """Per-example counts of atoms, compounds or pairs (ids as first seen), the shards'
        rows end to end (:meth:`SparseRows.joined`: ``renumber`` gives each id a new one,
        ``ones`` makes every value 1)."""
        parts = zip(
            self._each(f"{name}.indptr"),
            self._each(f"{name}.indices"),
            self._each(f"{name}.counts"),
            strict=True,
        )
        width = int(self.manifest["counts"][name])
        return SparseRows.joined(parts, width, renumber=renumber, ones=ones)

    def features(self) -> Features:
        """The features the plan computes in memory, from the shards (before
        :meth:`FeaturePlan.finish`)."""
        options = self.plan.options
        if self.manifest["kind"] == "sets":
            return self._counted_features(options.atom_frequency)
        counted = Counted(
            self.counts("atoms"),
            self.counts("pairs"),
            self.names("atoms"),
            self.names("pairs"),
            self.names("compounds"),
        )
        weights = compound_rows(
            _ShardOccurrences(self),
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

    def _counted_features(self, atom_frequency: str) -> Features:
        """Counted atoms and compounds with their columns in name order (the stored order):
        renumbered a shard at a time, the names a view of the stored names in that order."""
        sorted_ids = {name: np.asarray(self._load(f"{ORDER}/{name}.npy")) for name in ORDERED}
        renumber = {}
        for name, ids in sorted_ids.items():
            renumber[name] = np.empty(len(ids), dtype=np.int64)
            renumber[name][ids] = np.arange(len(ids))
        atoms = self.counts("atoms", renumber["atoms"], ones=atom_frequency == "example")
        compounds = self.counts("compounds", renumber["compounds"])
        return sorted_counted_features(
            atoms,
            compounds,
            self.names("atoms").picked(sorted_ids["atoms"]),
            self.names("compounds").picked(sorted_ids["compounds"]),
            atom_frequency,
        )


class _ShardOccurrences:
    """The compound occurrences of every shard, read (not mapped) a shard at a time each time
    they are gone over: the weights go over them twice, and the pages of a mapped pool would
    stay in memory."""

    NAMES = ("occurrences.indptr", "occurrences.kinds", "extensions.occurrence", "extensions.kinds")

    def __init__(self, shards: FeatureShards) -> None:
        self.shards = shards

    def __iter__(self) -> Iterator[OccurrenceChunk]:
        for number in range(len(self.shards.manifest["shards"])):
            folder = f"{SHARDS}/{number:05d}"
            paths = {name: self.shards.folder / f"{folder}/{name}.npy" for name in self.NAMES}
            yield occurrence_chunk(
                {
                    name: np.array(load_array(path, self.shards.folder))
                    for name, path in paths.items()
                }
            )


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
