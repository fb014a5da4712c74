"""The PCFG SET suite (Hupkes, Dankers, Mul & Bruni 2020): five tests over one pool.

One pool (naturalised like the published data by default; 97,203 programs, the published
82,622 + 4,860 + 9,721) is split for each test. The ``paper`` construction (default) builds
every test as the published data has it; ``filtered-dev`` is the same except that each test's
dev set is filtered to its training condition (no held-out pair, no long input, no exception
pair), so that choosing a checkpoint on dev does not peek at the test condition (the published
tests share one unfiltered dev set).

task
    random 85/5/10.
systematicity
    test: every example with a held-out adjacent function pair; train: every other non-dev one
    (the task's train and test).
productivity
    train: at most ``threshold`` functions (default 8), test: more (of the task's train and
    test); Table 3 statistics.
substitutivity/equally_distributed, substitutivity/primitive
    synonyms ``<f>_twin``: either half of the training occurrences replaced by the twin, or the
    twins only in single-function inputs, 0.1 % of the training set per synonym (published:
    331 lines); test: for each synonym, ``pairs_per_synonym`` (2,500) task-test inputs with
    its function, each paired with the input where every occurrence of it is the synonym (an
    input can be drawn for several synonyms: published 10,000 pairs of 6,716 inputs).
localism
    the task split plus the unrolled records of the test inputs with at least two functions
    (one function has no inner step; published 9,567 of 9,721) and the increasing-string-length
    corpus (each function on strings of length 2..20).
overgeneralisation/ratio=R
    every example of the task's train and test with an exception pair is left out; ``R`` x
    (count of the pair's rarer function) of them return with exception targets, half with the
    pair alone; the test file lists them with both targets (published train 82.3-82.8k).
per_function
    every function applied to the same composed inputs (test inputs with fewer than 8
    functions for unary functions, as published; random pairs within 8 functions for binary).

Each test is one module of this package (:data:`TESTS`: ``add_test(context)`` writes it from a
:class:`~symcomp.languages.pcfg_set.suite.context.Context`); :mod:`.spec` holds the parameters.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from symcomp.core.language import Language
from symcomp.core.registry import get_language
from symcomp.core.sidecar import RepeatSpec
from symcomp.core.suite_builder import SuiteBuilder
from symcomp.data.generate import PoolSpec, generate
from symcomp.data.naturalize import LengthDepthTarget
from symcomp.data.splits import random_split
from symcomp.languages.pcfg_set.suite import (
    localism,
    overgeneralisation,
    per_function,
    productivity,
    substitutivity,
    systematicity,
    task,
)
from symcomp.languages.pcfg_set.suite.context import Context
from symcomp.languages.pcfg_set.suite.overgeneralisation import exception_output, first_pair
from symcomp.languages.pcfg_set.suite.spec import (
    CONSTRUCTIONS,
    EXCEPTION_PAIRS,
    EXCEPTION_RATIOS,
    EXCEPTION_REMAP,
    HELD_OUT_PAIRS,
    MAX_DRAWS_PER_ITEM,
    PUBLISHED_POOL,
    PUBLISHED_STRING_WEIGHTS,
    TWINNED,
    Pair,
    PcfgSetSuiteSpec,
    parse_pairs,
)
from symcomp.suites.common import load_records, rng_for
from symcomp.suites.folder import SuiteWriter, suite_header

__all__ = [
    "CONSTRUCTIONS",
    "EXCEPTION_PAIRS",
    "EXCEPTION_RATIOS",
    "EXCEPTION_REMAP",
    "HELD_OUT_PAIRS",
    "MAX_DRAWS_PER_ITEM",
    "PUBLISHED_POOL",
    "PUBLISHED_STRING_WEIGHTS",
    "TESTS",
    "TWINNED",
    "Pair",
    "PcfgSetSuiteSpec",
    "build",
    "exception_output",
    "first_pair",
    "parse_pairs",
    "suite_builder",
]

# the tests in the order they are built and listed (one module each, `add_test(context)`)
TESTS: dict[str, ModuleType] = {
    "task": task,
    "systematicity": systematicity,
    "productivity": productivity,
    "substitutivity": substitutivity,
    "localism": localism,
    "overgeneralisation": overgeneralisation,
    "per_function": per_function,
}


def suite_builder() -> SuiteBuilder:
    """``symcomp suite pcfg-set``."""
    return SuiteBuilder(
        "PCFG SET's five tests (Hupkes et al. 2020) over one pool.", PcfgSetSuiteSpec, build
    )


def build(
    out: Path,
    spec: PcfgSetSuiteSpec,
    *,
    overwrite: bool = False,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Build the suite into ``out``; return its manifest."""
    language = get_language("pcfg-set")
    say = progress or (lambda message: None)
    with SuiteWriter(out, overwrite=overwrite, export=spec.export) as writer:
        say("generating the pool")
        pool_manifest = _generate_pool(language, writer, spec)
        records = load_records(writer.path("examples.jsonl"))
        writer.describe("examples.jsonl", "the shared pool of PCFG SET programs (one per line)")
        task = random_split(
            len(records),
            fractions=spec.fractions,
            seed=rng_for(spec.seed, "task"),
            meta={"method": "random", "fractions": list(spec.fractions)},
        )
        context = Context(language, spec, writer, records, task)
        for name, test in TESTS.items():
            say(f"building {name}")
            test.add_test(context)
        pool = {key: pool_manifest[key] for key in ("parameters", "limits", "filters")}
        header = suite_header("pcfg-set", language, spec.seed, spec.describe(), pool=pool)
        return writer.finish(header, "PCFG SET test suite", INTRODUCTION)


INTRODUCTION = (
    "The five compositionality tests of Hupkes et al. (2020), built by `symcomp suite pcfg-set`. "
    "Every `split.json` indexes the pool named in its `meta.pool` (CFQ layout: trainIdxs, devIdxs, "
    "testIdxs). Score a model or prediction files with `symcomp evaluate <this folder>`."
)


def _generate_pool(language: Language, writer: SuiteWriter, spec: PcfgSetSuiteSpec) -> Any:
    if spec.published_string_lengths:
        repeat = dict(language.grammar.sidecar.repeat)
        repeat["string"] = RepeatSpec.weighted(2, spec.string_length_weights)
        language = language.variant(language.name, repeat=repeat)
    target = LengthDepthTarget.default_for(language) if spec.naturalize else None
    folder = writer.path(".pool/x").parent
    manifest = generate(
        language,
        folder,
        PoolSpec(n=spec.n, seed=spec.seed, naturalize=target),
        jobs=spec.jobs,
        overwrite=True,
    )
    (folder / "examples.jsonl").replace(writer.path("examples.jsonl"))
    (folder / "manifest.json").unlink()
    folder.rmdir()
    return manifest
