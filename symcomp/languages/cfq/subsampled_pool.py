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

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from lark import Tree

from symcomp.core.derivation import Encoded, decode_tree, encode_tree
from symcomp.core.language import Language
from symcomp.data.artifacts import EXAMPLES, MANIFEST, atomic_writer, json_text, writing_into
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
    with writing_into(out, overwrite=overwrite, names=(EXAMPLES, MANIFEST), kind="pool"):
        stats = DrawStats()
        candidates, filtered = _draw(language, spec, oversample, keep, stats)
        if len(candidates) < spec.n:
            raise GenerationError(
                f"only {len(candidates):,} {language.name} examples passed the language's "
                f"filter, fewer than `n` {spec.n:,}; ask for fewer examples."
            )
        lines, dags = _serialise(language, candidates, spec.with_dag, jobs)
        inside = _within(complexity, dags, spec.n, language)
        lines = [lines[i] for i in inside]
        dags = [dags[i] for i in inside]
        complexities = [len(dag) for dag in dags]
        features = dag_features(
            dags, CompoundSpec(max_nodes=ENTROPY_NODES, chains=False), weighting="counts",
            top_k=None,
        )  # fmt: skip
        chosen, entropy = subsample(complexities, features.compounds, spec.n, seed=spec.seed)
        with atomic_writer(out / EXAMPLES) as handle:
            for index in chosen:
                handle.write(lines[index])
        if progress is not None:
            progress(spec.n)
        levels = np.bincount([complexities[i] for i in chosen])
        manifest = pool_manifest(language, spec, stats, out)
        manifest["subsampling"] = {
            "oversample": oversample,
            "candidates": len(candidates),
            "filtered_by_language": filtered,
            "outside_complexity_range": len(candidates) - len(inside),
            "kept": len(chosen),
            "complexity": "nodes of the derivation DAG",
            "complexity_range": list(complexity) if complexity is not None else None,
            "complexity_counts": {str(c): int(k) for c, k in enumerate(levels) if k},
            "entropy_compounds": CompoundSpec(max_nodes=ENTROPY_NODES, chains=False).describe(),
            "compound_entropy": round(entropy, 6),
        }
        text = json_text(manifest, str(out / MANIFEST), indent=2, sort_keys=True)
        with atomic_writer(out / MANIFEST) as handle:
            handle.write(text + "\n")
    return manifest


def _within(
    complexity: tuple[int, int] | None, dags: Sequence[Dag], n: int, language: Language
) -> list[int]:
    """The candidates whose DAG has a number of nodes in ``complexity`` (all without one);
    an error when fewer than ``n`` do."""
    inside = [
        i
        for i, dag in enumerate(dags)
        if complexity is None or complexity[0] <= len(dag) <= complexity[1]
    ]
    if len(inside) < n:
        raise GenerationError(
            f"only {len(inside):,} of {len(dags):,} {language.name} candidates have a "
            f"complexity in {complexity}, fewer than `n` {n:,}; ask for fewer examples."
        )
    return inside


def _draw(
    language: Language, spec: PoolSpec, oversample: int, keep: Keep | None, stats: DrawStats
) -> tuple[list[Accepted], int]:
    assert spec.n is not None
    candidates: list[Accepted] = []
    filtered = 0
    for accepted in draw_pool(
        language,
        spec.n * oversample,
        seed=spec.seed,
        max_depth=spec.max_depth,
        max_length=spec.max_length,
        stats=stats,
    ):
        if keep is None or keep(accepted.tree, accepted.text):
            candidates.append(accepted)
        else:
            filtered += 1
    return candidates, filtered


def _serialise(
    language: Language, candidates: list[Accepted], with_dag: bool, jobs: Jobs
) -> tuple[list[str], list[Dag]]:
    encode = _same if as_executor(jobs).in_process else encode_tree
    chunks = (
        [(encode(item.tree), item.text, item.meta) for item in chunk]
        for chunk in chunked(candidates, CHUNK)
    )
    lines: list[str] = []
    dags: list[Dag] = []
    state = {"language": language, "with_dag": with_dag}
    for block in ordered_map(_serialise_chunk, chunks, jobs=jobs, state=state):
        for line, dag in block:
            lines.append(line)
            dags.append(dag)
    return lines, dags


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
