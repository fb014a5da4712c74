"""The PCFG-LET suite (Neely & Talha 2020): task, localism and the systematicity tests.

`definitions` picks the meaning of the functions: ``paper`` (Figure 2, language ``pcfg-let``)
or ``notebook`` (the authors' notebook, language ``pcfg-let-notebook``).

task
    random 85/5/10 over the pool.
localism
    the task split plus the unrolled records of the test programs of two or more functions
    (PCFG SET's record format); scored for consistency overall, by depth (the paper reports
    depth > 1) and per function (local accuracy of each step, Figures 5 and 6).
systematicity/baseline, systematicity/mirror_E, systematicity/mirror_7_13,
systematicity/mirror_union
    over a second pool drawn with the reduced vocabulary of the paper's systematicity
    experiments: 27 items, the numbers 1..26 and ``E`` as a list item with the same
    probability as a number (as the notebook's ``INCLUDE_EMPTY_TOKEN`` does; the main task's
    520 items are 1..519 and ``E``). ``mirror`` never co-occurs in train with (1) ``E``, (2)
    the numbers 7 or 13, (3) ``union``; the test holds every program where it does. The rest is
    split 85:5 into train and dev. The baseline (Table 1's first systematicity row) is a random
    85/5/10 split of the same pool: a similar but non-overlapping test set.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from symcomp._util import Record
from symcomp.core.language import Language
from symcomp.core.registry import get_language
from symcomp.core.suite_builder import SuiteBuilder, option
from symcomp.data.generate import PoolSpec, generate
from symcomp.data.splits import Split, random_split
from symcomp.suites.common import load_records, rng_for, tokens
from symcomp.suites.folder import SuiteWriter, suite_header
from symcomp.suites.unroll import record_lines, unroll_record

DEFINITIONS = {"paper": "pcfg-let", "notebook": "pcfg-let-notebook"}
PARTNERS: dict[str, tuple[str, ...]] = {
    "mirror_E": ("E",),
    "mirror_7_13": ("7", "13"),
    "mirror_union": ("union",),
}


@dataclass(frozen=True)
class PcfgLetSuiteSpec:
    """Parameters of the PCFG-LET suite."""

    n: int = option(
        100_000, "Pool size (also of the systematicity pool unless `systematicity_n`).", minimum=100
    )
    seed: int = option(0, "Seed of the pools and of every split.")
    fractions: tuple[float, float, float] = (0.85, 0.05, 0.10)
    definitions: str = option(
        "paper",
        "Function definitions: paper (Figure 2) or notebook (the authors' notebook).",
        choices=tuple(DEFINITIONS),
    )
    vocabulary: int = option(
        27, "Items in the systematicity pool: E and 1..V-1 (the paper: 27).", minimum=14
    )
    systematicity_n: int | None = option(
        None, "Systematicity pool size (default: `n`).", minimum=100
    )
    jobs: int = option(1, "Worker processes (the suite is identical for any value).", minimum=1)
    export: bool = option(True, "Write .tsv/.src/.tgt files per split.")

    def describe(self) -> dict[str, Any]:
        data = {key: getattr(self, key) for key in self.__dataclass_fields__}
        data.pop("jobs")
        return data


def reduced(language: Language, vocabulary: int) -> Language:
    """PCFG-LET with ``vocabulary`` items: ``E`` (as a possible list item) and 1..vocabulary-1.

    >>> import symcomp
    >>> reduced(symcomp.get_language("pcfg-let"), 27).grammar.sidecar.lexicon["ITEM"][-1]
    '26'
    """
    words = ("E", *(str(i) for i in range(1, vocabulary)))
    return language.variant(language.name, lexicon={"ITEM": words})


def suite_builder() -> SuiteBuilder:
    """``symcomp suite pcfg-let``."""
    return SuiteBuilder(
        "PCFG-LET's task, localism, systematicity baseline and three systematicity splits "
        "(Neely & Talha 2020).",
        PcfgLetSuiteSpec,
        build,
    )


def build(
    out: Path,
    spec: PcfgLetSuiteSpec,
    *,
    overwrite: bool = False,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Build the suite into ``out``; return its manifest."""
    language = get_language(DEFINITIONS[spec.definitions])
    say = progress or (lambda message: None)
    with SuiteWriter(out, overwrite=overwrite, export=spec.export) as writer:
        say("generating the pool")
        pool_manifest = _pool(language, writer, "examples.jsonl", spec.n, spec.seed, spec.jobs)
        records = load_records(writer.path("examples.jsonl"))
        writer.describe("examples.jsonl", "the shared pool of PCFG-LET programs")
        task = _add_task(writer, records, spec)
        say("building localism")
        _add_localism(writer, language, records, task)
        say("building systematicity")
        _add_systematicity(writer, language, spec)
        pool = {key: pool_manifest[key] for key in ("parameters", "limits", "filters")}
        header = suite_header("pcfg-let", language, spec.seed, spec.describe(), pool=pool)
        return writer.finish(header, "PCFG-LET test suite", INTRODUCTION)


def _add_task(writer: SuiteWriter, records: list[Record], spec: PcfgLetSuiteSpec) -> Split:
    task = random_split(
        len(records),
        fractions=spec.fractions,
        seed=rng_for(spec.seed, "task"),
        meta={"method": "random"},
    )
    writer.add_test(
        "task",
        kind="accuracy",
        split=task,
        pool="examples.jsonl",
        records=records,
        description="random split of the pool",
    )
    return task


def _add_localism(
    writer: SuiteWriter, language: Language, records: list[Record], task: Split
) -> None:
    writer.write_text(
        "localism/unrolled_test.tsv",
        (
            line
            for i in task.test
            if records[i]["meta"]["functions"] > 1  # one function: no inner step
            for line in record_lines(unroll_record(language, records[i]["input"]))
        ),
        "unrolled test programs of two or more functions (PCFG SET's record format)",
    )
    writer.add_test(
        "localism",
        kind="localism",
        split=task,
        pool="examples.jsonl",
        records=records,
        aux={"unrolled": "localism/unrolled_test.tsv"},
        description="the task split; a model is run step by step on the unrolled test programs",
    )


def _add_systematicity(writer: SuiteWriter, language: Language, spec: PcfgLetSuiteSpec) -> None:
    small = reduced(language, spec.vocabulary)
    pool_path = "systematicity/examples.jsonl"
    # Pools are drawn from an int seed (PoolSpec.seed, recorded in the pool's manifest), not
    # from an rng_for stream as the splits are; seed + 1 keeps this pool's draws apart from
    # the main pool's. Deriving it with rng_for would change the pool, and with it the golden
    # suite (tests/golden/outputs.json), so the published seeding stays.
    _pool(small, writer, pool_path, spec.systematicity_n or spec.n, spec.seed + 1, spec.jobs)
    small_records = load_records(writer.path(pool_path))
    writer.describe(pool_path, f"a pool with items 1..{spec.vocabulary - 1} and E as a list item")
    baseline = random_split(
        len(small_records),
        fractions=spec.fractions,
        seed=rng_for(spec.seed, "systematicity-baseline"),
        meta={"method": "random", "vocabulary": spec.vocabulary},
    )
    writer.add_test(
        "systematicity/baseline",
        kind="accuracy",
        split=baseline,
        pool=pool_path,
        records=small_records,
        description="random split of the systematicity pool: the baseline",
    )
    for name, partners in PARTNERS.items():
        split = _co_occurrence_split(small_records, partners, spec, name)
        writer.add_test(
            f"systematicity/{name}",
            kind="accuracy",
            split=split,
            pool=pool_path,
            records=small_records,
            description=f"mirror never with {' or '.join(partners)} in train",
        )


INTRODUCTION = (
    "PCFG-LET's tests (Neely & Talha 2020), built by `symcomp suite pcfg-let`. Every "
    "`split.json` indexes the pool named in its `meta.pool` (CFQ layout)."
)


def _pool(
    language: Language, writer: SuiteWriter, relative: str, n: int, seed: int, jobs: int
) -> dict[str, Any]:
    folder = writer.path(f".pool-{seed}/x").parent
    manifest = generate(language, folder, PoolSpec(n=n, seed=seed), jobs=jobs, overwrite=True)
    (folder / "examples.jsonl").replace(writer.path(relative))
    (folder / "manifest.json").unlink()
    folder.rmdir()
    return manifest


def _co_occurrence_split(
    records: list[Record], partners: tuple[str, ...], spec: PcfgLetSuiteSpec, name: str
) -> Split:
    test: list[int] = []
    rest: list[int] = []
    for index, record in enumerate(records):
        words = set(tokens(record))
        (test if "mirror" in words and words & set(partners) else rest).append(index)
    rng = rng_for(spec.seed, f"systematicity-{name}")
    rng.shuffle(rest)
    n_dev = round(len(rest) * spec.fractions[1] / (spec.fractions[0] + spec.fractions[1]))
    return Split.of(
        sorted(rest[n_dev:]),
        sorted(rest[:n_dev]),
        test,
        {
            "method": "mirror co-occurrence held out",
            "partners": list(partners),
            "vocabulary": spec.vocabulary,
        },
    )
