"""Extracting a pool's features into feature shards, spread over processes or a Ray cluster,
the same bytes for any number of workers.

Three steps, each over the pool's chunks of ``shard_size`` lines
(:mod:`symcomp.data.line_chunks`):

1. **Parts** (:meth:`ShardExtraction.read`): every chunk is an independent task (a local
   worker process with ``jobs`` N, a Ray task with a :class:`RayExecutor`) that reads its lines
   from the pool file itself and writes a part folder (:mod:`symcomp.dbca.shard_parts`).
   Results come back in pool order whichever worker finishes first; a worker that dies is
   replaced and its chunk run again (Ray restarts actors and retries their tasks; the local
   pool is started again, :mod:`symcomp.data.parallel`), and a part folder appears only whole.
2. **Names** (:func:`symcomp.dbca.name_merge.merge_names`): the parts' names get one id each,
   by first occurrence in the pool, as one process gives them.
3. **Shards** (:meth:`ShardExtraction.finish`): every part becomes its shard (ids replaced,
   line offsets added), again as independent tasks; then the manifest.

Every path a worker is given is absolute and inside the folder being written, so on a Ray
cluster that folder (and the pool) must be on a file system every node reads.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from symcomp.data.artifacts import MANIFEST, write_json
from symcomp.data.line_chunks import LineChunk, chunk_records, line_offsets
from symcomp.data.parallel import Jobs, as_executor, ordered_map, worker_state
from symcomp.dbca.name_merge import merge_names
from symcomp.dbca.pool import FeaturePlan, feature_plan
from symcomp.dbca.shard_layout import FORMAT, SHARD_SIZE, SHARDS, shard_folder, tables
from symcomp.dbca.shard_parts import PartResult, extract_part, finish_part
from symcomp.errors import DataError
from symcomp.version import __version__

PARTS = "parts"  # inside the folder being assembled, removed once the shards are written


def described(plan: FeaturePlan) -> dict[str, Any]:
    """What a shard folder must have been made with: the options as used and the extractor.
    A grammar file is named by its sha256 alone (its path differs between an import, which
    reads the user's file, and a split, which reads the pool's copy).

    >>> from symcomp.dbca.pool import FeatureOptions
    >>> described(feature_plan(None, FeatureOptions(compounds="ngrams")))["compounds"]
    'ngrams'
    """
    options = plan.options.describe()
    extractor = dict(plan.extractor.get("extractor") or {})
    if str(options["compounds"]).startswith("grammar:"):
        options["compounds"] = "grammar"
        extractor["name"] = "grammar"
    return {**options, **({"extractor": extractor} if extractor else {})}


@dataclass
class ShardExtraction:
    """The extraction of a pool's features as ``plan`` says into ``work``, the shard folder
    being assembled (recorded as if it were ``home``, where it will lie); ``keep`` False
    reads every example and keeps nothing (the check of an import without shards)."""

    plan: FeaturePlan
    work: Path
    home: Path
    shard_size: int = SHARD_SIZE
    keep: bool = True
    parts: list[tuple[int, int]] = field(default_factory=list)  # (number, examples)

    def read(
        self, pool: Path, chunks: Iterable[LineChunk], jobs: Jobs, *, skip_unreadable: bool = False
    ) -> Iterator[PartResult]:
        """Extract every chunk of the pool file ``pool`` into its part; the results in pool
        order. ``skip_unreadable``: examples the extractor cannot read are reported and left
        out (an import), not an error."""
        state: dict[str, Any] = {
            "recipe": (self.plan.manifest, self.plan.options, self.plan.source),
            "pool": str(pool.resolve()),
            "parts": str((self.work / PARTS).resolve()) if self.keep else None,
            "skip_unreadable": skip_unreadable,
        }
        if as_executor(jobs).in_process:
            state["plan"] = self.plan  # nothing is pickled: no need to make it again
        if self.keep:
            (self.work / PARTS).mkdir(parents=True)
        for result in ordered_map(_extract_chunk, chunks, jobs=jobs, state=state):
            self.parts.append((result.number, result.examples))
            yield result

    @property
    def examples(self) -> int:
        return sum(examples for _number, examples in self.parts)

    def finish(self, pool: Path, record: Mapping[str, Any], jobs: Jobs) -> dict[str, Any]:
        """Number the names, write the shards and the manifest of the pool file ``pool`` (its
        :func:`~symcomp.data.artifacts.file_record` ``record``); return the manifest."""
        if not self.examples:
            raise DataError(f"{pool} holds no examples; a split needs a non-empty pool.")
        kept = [(number, examples) for number, examples in self.parts if examples]
        folders = [self.work / PARTS / f"{number:05d}" for number, _examples in kept]
        files: dict[str, Any] = {}
        counts = {}
        for table in tables(self.plan.kind):
            merged = merge_names(folders, table, self.work, order=self.plan.kind == "sets")
            files |= merged.files
            counts[table] = merged.count
        shards = self._shards(folders, [examples for _number, examples in kept], pool, jobs)
        for number, shard in enumerate(shards):
            files |= {f"{shard_folder(number)}/{n}": r for n, r in shard["files"].items()}
        manifest = {
            "format": FORMAT,
            "symcomp_version": __version__,
            "pool": {
                "path": os.path.relpath(pool, self.home),
                "examples": self.examples,
                **record,
            },
            "features": described(self.plan),
            "kind": self.plan.kind,
            "counts": counts,
            "shard_size": self.shard_size,
            "shards": shards,
            "files": files,
        }
        shutil.rmtree(self.work / PARTS)
        write_json(self.work / MANIFEST, manifest)
        return manifest

    def _shards(
        self, folders: list[Path], sizes: list[int], pool: Path, jobs: Jobs
    ) -> list[dict[str, Any]]:
        offsets = line_offsets(pool)
        if len(offsets) != self.examples:
            raise DataError(
                f"{pool}: {len(offsets):,} lines, but {self.examples:,} examples were extracted "
                "from it; was it changed meanwhile? Run the command again."
            )
        starts = np.cumsum([0, *sizes])
        (self.work / SHARDS).mkdir()
        tasks = [
            (
                str(folder.resolve()),
                str((self.work / shard_folder(n)).resolve()),
                self.plan.kind,
                offsets[starts[n] : starts[n + 1]],
            )
            for n, folder in enumerate(folders)
        ]
        return [
            {"examples": size, "files": files}
            for size, files in zip(sizes, ordered_map(_finish_part, tasks, jobs=jobs), strict=True)
        ]


def _worker_plan(state: dict[str, Any]) -> FeaturePlan:
    """The plan of a worker: made again from its recipe once per worker."""
    if "plan" not in state:
        state["plan"] = feature_plan(*state["recipe"])
    plan: FeaturePlan = state["plan"]
    return plan


def _extract_chunk(chunk: LineChunk) -> PartResult:
    """A worker's task: one chunk of the pool extracted into its part folder."""
    state = worker_state()
    plan = _worker_plan(state)
    records = chunk_records(Path(state["pool"]), chunk, plan.source)
    parts = state["parts"]
    folder = None if parts is None else Path(parts) / f"{chunk.number:05d}"
    return extract_part(
        plan, records, chunk.number, folder, skip_unreadable=state["skip_unreadable"]
    )


def _finish_part(task: tuple[str, str, str, npt.NDArray[np.int64]]) -> dict[str, Any]:
    """A worker's task: one part made its shard; the records of its files."""
    part, shard, kind, offsets = task
    return finish_part(Path(part), Path(shard), kind, offsets)
