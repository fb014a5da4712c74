"""Writing a pool: draw (or enumerate), interpret, serialise, and record a manifest.

``examples.jsonl`` holds one JSON object per line: ``id``, ``input``, ``output``, ``meta``
(``length``, ``depth``, ``functions``, ``output_length``) and, with ``with_dag``, ``derivation``
(the rule-application DAG in node-link form, schema in :mod:`symcomp.core.derivation`).
``manifest.json`` records the language, grammar version and hash, seed, parameters, every
filter with its rejection count, the symcomp version and the sha256 of ``examples.jsonl``.

The same seed gives the same bytes for any ``jobs``: drawing is one stream in this process
and workers only interpret and serialise accepted derivations.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lark import Tree

from symcomp.core.derivation import Encoded, decode_tree, encode_tree
from symcomp.core.language import Language
from symcomp.data.artifacts import (
    EXAMPLES,
    MANIFEST,
    assembled,
    atomic_writer,
    file_record,
    json_text,
)
from symcomp.data.naturalize import LengthDepthTarget
from symcomp.data.parallel import Jobs, as_executor, chunked, ordered_map, worker_state
from symcomp.data.pool import DrawStats, draw_pool, enumerate_pool
from symcomp.errors import GenerationError
from symcomp.version import __version__

CHUNK = 1000
FORMAT = "symcomp.pool/1"


@dataclass(frozen=True)
class PoolSpec:
    """What pool to write.

    Exactly one of ``n`` and ``enumerate_all`` is set.
    """

    n: int | None = None
    seed: int = 0
    enumerate_all: bool = False
    with_dag: bool = False
    max_depth: int | None = None
    max_length: int | None = None
    naturalize: LengthDepthTarget | None = None
    profile: str | None = None  # a language's named way of drawing (None: its default)

    def check(self, language: Language) -> None:
        if self.profile is not None:
            raise GenerationError(
                f"{language.name} has no generation profiles; leave `profile` unset "
                f"(got {self.profile!r})."
            )
        if self.enumerate_all == (self.n is not None):
            raise GenerationError(
                "give either `n` (a random pool of n) or `enumerate_all` (every sentence)."
            )
        if self.n is not None and self.n < 1:
            raise GenerationError(f"`n` must be at least 1, got {self.n}.")
        if self.enumerate_all and self.naturalize is not None:
            raise GenerationError(
                "`naturalize` resamples a random pool; it cannot go with `enumerate_all`."
            )
        if self.n is not None and language.is_finite():
            size = language.sampler.count()
            if self.n > size:
                raise GenerationError(
                    f"{language.name} has only {size:,} sentences, fewer than `n` {self.n:,}; "
                    f"use `enumerate_all` to write all of them."
                )

    def describe(self) -> dict[str, Any]:
        return {
            "n": self.n,
            "enumerate_all": self.enumerate_all,
            "with_dag": self.with_dag,
            "max_depth": self.max_depth,
            "max_length": self.max_length,
            "naturalize": self.naturalize.describe() if self.naturalize else None,
        }


def write_pool(
    language: Language,
    out: Path,
    spec: PoolSpec,
    *,
    jobs: Jobs = 1,
    overwrite: bool = False,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Write a pool of ``language`` the language's way (:meth:`Language.pool_writer`, by
    default :func:`generate`); return the manifest. ``symcomp generate`` calls this."""
    writer = language.pool_writer() or generate
    return writer(language, out, spec, jobs=jobs, overwrite=overwrite, progress=progress)


def generate(
    language: Language,
    out: Path,
    spec: PoolSpec,
    *,
    jobs: Jobs = 1,
    overwrite: bool = False,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Write ``out/examples.jsonl`` and ``out/manifest.json``; return the manifest.

    Nothing is left behind when it fails: both files are written aside and put in place
    together (:func:`symcomp.data.artifacts.assembled`), replacing an earlier pool's.
    """
    spec.check(language)
    stats = DrawStats()
    with assembled(out, overwrite=overwrite, names=(EXAMPLES, MANIFEST), kind="pool") as work:
        with atomic_writer(work / EXAMPLES) as handle:
            lines = _lines(language, spec, stats, jobs)
            if spec.naturalize is not None:
                # stratified acceptance fills rare cells last: shuffle so order carries no signal
                buffered = list(lines)
                random.Random(f"symcomp-naturalize-order-{spec.seed}").shuffle(buffered)
                lines = iter(buffered)
            for count, line in enumerate(lines, start=1):
                handle.write(line)
                if progress is not None and count % CHUNK == 0:
                    progress(CHUNK)
            if progress is not None:
                progress(stats.accepted % CHUNK)
        manifest = pool_manifest(language, spec, stats, work)
        text = json_text(manifest, str(out / MANIFEST), indent=2, sort_keys=True)
        with atomic_writer(work / MANIFEST) as handle:
            handle.write(text + "\n")
    return manifest


def _lines(language: Language, spec: PoolSpec, stats: DrawStats, jobs: Jobs) -> Iterator[str]:
    if spec.enumerate_all:
        accepted = enumerate_pool(
            language, max_depth=spec.max_depth, max_length=spec.max_length, stats=stats
        )
    else:
        assert spec.n is not None
        accepted = draw_pool(
            language,
            spec.n,
            seed=spec.seed,
            max_depth=spec.max_depth,
            max_length=spec.max_length,
            target=spec.naturalize,
            stats=stats,
        )
    # Lark trees unpickle slowly; worker processes get them as nested tuples instead.
    encode = _same if as_executor(jobs).in_process else encode_tree
    chunks = (
        [(encode(item.tree), item.text, item.meta) for item in chunk]
        for chunk in chunked(accepted, CHUNK)
    )
    state = {"language": language, "with_dag": spec.with_dag}
    for block in ordered_map(_serialise_chunk, chunks, jobs=jobs, state=state):
        yield from block


Chunk = list[tuple[Tree[Any] | Encoded, str, dict[str, int]]]


def _same(tree: Tree[Any]) -> Tree[Any]:
    return tree


def _serialise_chunk(chunk: Chunk) -> list[str]:
    state = worker_state()
    language: Language = state["language"]
    with_dag: bool = state["with_dag"]
    return [
        _serialise(
            language, tree if isinstance(tree, Tree) else decode_tree(tree), text, meta, with_dag
        )
        for tree, text, meta in chunk
    ]


def _serialise(
    language: Language, tree: Tree[Any], text: str, meta: dict[str, int], with_dag: bool
) -> str:
    record = language.record(language.example_from_tree(tree, text, meta), with_dag=with_dag)
    return json_text(record, "an example", ensure_ascii=False, separators=(",", ":")) + "\n"


def pool_manifest(
    language: Language, spec: PoolSpec, stats: DrawStats, out: Path
) -> dict[str, Any]:
    """The manifest of a pool written to ``out/examples.jsonl`` (its file record is read)."""
    return {
        "format": FORMAT,
        "symcomp_version": __version__,
        "language": language.name,
        "grammar_version": language.version,
        "grammar_sha256": language.grammar.sha256,
        "seed": None if spec.enumerate_all else spec.seed,
        "parameters": spec.describe(),
        "limits": language.limits(max_depth=spec.max_depth, max_length=spec.max_length),
        "sampling": language.grammar.sidecar.describe(),
        "filters": stats.describe(),
        "files": {EXAMPLES: file_record(out / EXAMPLES)},
    }
