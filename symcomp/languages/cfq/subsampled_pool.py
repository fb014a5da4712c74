"""Writing a pool the CFQ way: draw more than needed, then subsample.

See :mod:`symcomp.dbca.subsample` for the subsampling itself.

``oversample × n`` distinct examples are drawn with the pool's usual rules
(:func:`symcomp.data.pool.draw_pool`), optionally filtered by a language rule (``keep``) and a
range of complexity, then ``n`` are kept: uniform over complexity (the number of nodes of the
derivation DAG) with greedily maximal entropy of the compound distribution. Compounds for the
entropy are the connected subgraphs of up to :data:`ENTROPY_NODES` nodes (cheaper than the
full DBCA set, same idea).
Kept examples are written in draw order; the manifest records every count.

The output is a pure function of the seed: the same seed gives the same bytes for any ``jobs``.
"""

from __future__ import annotations

import array
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

import numpy as np
from lark import Tree

from symcomp.core.derivation import Encoded, decode_tree, encode_tree
from symcomp.core.language import Language
from symcomp.data.artifacts import EXAMPLES, MANIFEST, assembled, atomic_writer, json_text
from symcomp.data.generate import PoolSpec, generate, pool_manifest
from symcomp.data.parallel import Jobs, as_executor, chunked, ordered_map, worker_state
from symcomp.data.pool import Accepted, DrawStats, draw_pool
from symcomp.dbca.compounds import CompoundSpec, Dag
from symcomp.dbca.features import dag_features
from symcomp.dbca.subsample import subsample
from symcomp.errors import GenerationError

ENTROPY_NODES = 3
CHUNK = 1000
Keep = Callable[[Tree[Any], str], bool]


def write_subsampled_pool(
    language: Language,
    out: Path,
    spec: PoolSpec,
    *,
    oversample: int,
    keep: Keep | None = None,
    complexity: tuple[int, int] | None = None,
    jobs: Jobs = 1,
    overwrite: bool = False,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Write ``out/examples.jsonl`` and ``out/manifest.json`` as described above; with
    ``complexity`` (lowest, highest), candidates whose DAG has another number of nodes are
    left out before subsampling."""
    if spec.enumerate_all or spec.naturalize is not None or oversample <= 1:
        return generate(language, out, spec, jobs=jobs, overwrite=overwrite, progress=progress)
    spec.check(language)
    assert spec.n is not None
    with assembled(out, overwrite=overwrite, names=(EXAMPLES, MANIFEST), kind="pool") as work:
        # candidates' lines wait in an unnamed file (gone whatever stops the process): a
        # candidate costs memory only for its compounds, not its tree, line or DAG
        with tempfile.TemporaryFile(dir=work) as spool:
            candidates = _Candidates(language, spec, oversample, keep, complexity, spool)
            features = dag_features(
                candidates.dags(jobs), CompoundSpec(max_nodes=ENTROPY_NODES, chains=False),
                weighting="counts", top_k=None,
            )  # fmt: skip
            candidates.check(spec.n)
            complexities = list(candidates.complexities)
            chosen, entropy = subsample(complexities, features.compounds, spec.n, seed=spec.seed)
            with atomic_writer(work / EXAMPLES) as handle:
                for index in chosen:
                    handle.write(candidates.line(index))
        if progress is not None:
            progress(spec.n)
        levels = np.bincount([complexities[i] for i in chosen])
        manifest = pool_manifest(language, spec, candidates.stats, work)
        manifest["subsampling"] = {
            "oversample": oversample,
            "candidates": candidates.drawn,
            "filtered_by_language": candidates.filtered,
            "outside_complexity_range": candidates.drawn - len(complexities),
            "kept": len(chosen),
            "complexity": "nodes of the derivation DAG",
            "complexity_range": list(complexity) if complexity is not None else None,
            "complexity_counts": {str(c): int(k) for c, k in enumerate(levels) if k},
            "entropy_compounds": CompoundSpec(max_nodes=ENTROPY_NODES, chains=False).describe(),
            "compound_entropy": round(entropy, 6),
        }
        text = json_text(manifest, str(out / MANIFEST), indent=2, sort_keys=True)
        with atomic_writer(work / MANIFEST) as handle:
            handle.write(text + "\n")
    return manifest


class _Candidates:
    """The drawn candidates, streamed: each serialised line goes to ``spool`` (its offset
    kept) and each DAG, if its complexity is in range, to the caller, then is dropped."""

    def __init__(
        self,
        language: Language,
        spec: PoolSpec,
        oversample: int,
        keep: Keep | None,
        complexity: tuple[int, int] | None,
        spool: IO[bytes],
    ) -> None:
        self.language, self.spec, self.oversample = language, spec, oversample
        self.keep, self.complexity, self.spool = keep, complexity, spool
        self.stats = DrawStats()
        self.drawn = self.filtered = 0
        self.offsets = array.array("q", [0])  # line i is spool[offsets[i]:offsets[i + 1]]
        self.complexities = array.array("l")

    def dags(self, jobs: Jobs) -> Iterator[Dag]:
        """The DAGs of the candidates within the complexity range, in draw order."""
        encode = _same if as_executor(jobs).in_process else encode_tree
        chunks = (
            [(encode(item.tree), item.text, item.meta) for item in chunk]
            for chunk in chunked(self._accepted(), CHUNK)
        )
        state = {"language": self.language, "with_dag": self.spec.with_dag}
        for block in ordered_map(_serialise_chunk, chunks, jobs=jobs, state=state):
            for line, dag in block:
                self.drawn += 1
                low, high = self.complexity or (0, len(dag))
                if low <= len(dag) <= high:
                    self.offsets.append(self.offsets[-1] + self.spool.write(line.encode()))
                    self.complexities.append(len(dag))
                    yield dag

    def _accepted(self) -> Iterator[Accepted]:
        assert self.spec.n is not None
        for accepted in draw_pool(
            self.language,
            self.spec.n * self.oversample,
            seed=self.spec.seed,
            max_depth=self.spec.max_depth,
            max_length=self.spec.max_length,
            stats=self.stats,
        ):
            if self.keep is None or self.keep(accepted.tree, accepted.text):
                yield accepted
            else:
                self.filtered += 1

    def check(self, n: int) -> None:
        """An error when fewer than ``n`` candidates passed the filter or the complexity range."""
        name = self.language.name
        if self.drawn < n:
            raise GenerationError(
                f"only {self.drawn:,} {name} examples passed the language's filter, fewer than "
                f"`n` {n:,}; ask for fewer examples."
            )
        if len(self.complexities) < n:
            raise GenerationError(
                f"only {len(self.complexities):,} of {self.drawn:,} {name} candidates have a "
                f"complexity in {self.complexity}, fewer than `n` {n:,}; ask for fewer examples."
            )

    def line(self, index: int) -> str:
        """The serialised line of candidate ``index`` (counted within the range)."""
        start = self.offsets[index]
        self.spool.seek(start)
        return self.spool.read(self.offsets[index + 1] - start).decode()


def _same(tree: Tree[Any]) -> Tree[Any]:
    return tree


def _serialise_chunk(chunk: list[tuple[Tree[Any] | Encoded, str, dict[str, int]]]) -> list[Any]:
    state = worker_state()
    language: Language = state["language"]
    results = []
    for tree, text, meta in chunk:
        full = tree if isinstance(tree, Tree) else decode_tree(tree)
        record = language.record(language.example_from_tree(full, text, meta), with_dag=True)
        derivation = record["derivation"] if state["with_dag"] else record.pop("derivation")
        line = json_text(record, "an example", ensure_ascii=False, separators=(",", ":")) + "\n"
        results.append((line, Dag.from_node_link(derivation)))
    return results
