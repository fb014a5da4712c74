"""``symcomp suite slog``: SLOG built as SLOG built it, from its IRTG grammars, seeded.

Parts (SLOG's published composition by default; ``--scale`` multiplies every train, dev and
test count but the primitives' and exposures'): train = COGS-style in-distribution sentences
(COGS's grammar) + SLOG's additions (object-modifying relative clauses, simple wh-questions, PP
depth 4, CP depth 4, centre embedding depth 2 and 4, standalone noun phrases with a PP or a
relative clause) + primitives + COGS's 12 exposure rows; dev and test from the in-distribution
grammar and the additions in their published counts; gen = the 17 cases, ``--n-gen`` each,
each drawn from its own IRTG grammar inside its depth window; a ``5-12`` case spreads its rows
evenly over depths 5..12 (125 per depth at 1,000, as published). No sentence occurs twice in
the suite but the primitives (SLOG lists seven verbs twice: as transitive and as clause-taking).

Tests (``split.json`` over the one pool ``examples.jsonl``): ``gen`` (train, dev, gen) and
``test`` (train, dev, test). Every record's ``meta`` names its ``category`` (SLOG's third
column) and, for gen rows, its ``group`` (PP, RC, question or recursion).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from symcomp.core.language import Language
from symcomp.core.registry import get_language
from symcomp.core.resources import grammar_file
from symcomp.core.suite_builder import SuiteBuilder, option
from symcomp.data.splits import Split
from symcomp.languages.cogs.cases import EXPOSURES
from symcomp.languages.cogs.formats import FORMATS
from symcomp.languages.cogs.generation import Sentence
from symcomp.languages.cogs.suite import COGS_VERBS, Parts
from symcomp.languages.cogs.suite import primitives as cogs_primitives
from symcomp.languages.slog.cases import GEN_CASES, GROUPS
from symcomp.languages.slog.generation import DRAWS, Draw, SlogDrawer
from symcomp.suites.folder import SuiteWriter, suite_header

# SLOG's published counts per part and category (train: varfree_LF/train.tsv; dev and test:
# cogs_LF/{dev,test}.tsv)
TRAIN = {
    "in_distribution": 24_000,
    "object_modifying_RC": 5_082,
    "wh_Q_simple_trans": 2_328,
    "pp_4": 451,
    "cp_4": 157,
    "center_embed_2": 163,
    "center_embed_4": 179,
    "standalone_NP_PP": 100,
    "standalone_NP_RC": 100,
}
DEV = {
    "in_distribution": 3_000,
    "object_modifying_RC": 635,
    "wh_Q_simple_trans": 292,
    "pp_4": 56,
    "cp_4": 20,
    "center_embed_2": 29,
    "center_embed_4": 14,
}
TEST = {
    "in_distribution": 3_000,
    "object_modifying_RC": 636,
    "wh_Q_simple_trans": 290,
    "pp_4": 57,
    "cp_4": 20,
    "center_embed_2": 22,
    "center_embed_4": 21,
}
SPREAD = range(5, 13)  # the depths of a `5-12` case
# the depth from which a `5-12` case may repeat a verb: SLOG's CP_5-12 repeats a clause-taking
# verb in 124, 125 and 125 of its 125 rows at depths 10, 11, 12 and in none at 5-8 (at 9: 25
# of 125), so its Alto runs skipped a verb twice below depth 10 only (docs/slog.md)
REPEATED_VERBS_FROM = {"CP_5-12": 10}


@dataclass(frozen=True)
class SlogSuiteSpec:
    """Parameters of the SLOG suite (defaults: the published sizes)."""

    seed: int = option(0, "Seed of every part.")
    scale: float = option(
        1.0,
        "Multiplies SLOG's train, dev and test counts per category (each at least 1).",
        minimum=0.0001,
    )
    n_gen: int = option(1_000, "Sentences per gen case.", minimum=8)
    cases: tuple[str, ...] = option(
        (), "Gen cases to build (repeatable; default: all 17).", name="case", choices=GEN_CASES
    )
    output: str = option("cogs", "Logical form format.", choices=FORMATS)
    export: bool = option(True, "Write .tsv/.src/.tgt files per split.")

    def describe(self) -> dict[str, Any]:
        return {key: getattr(self, key) for key in self.__dataclass_fields__}

    def count(self, published: int) -> int:
        """A published count scaled (at least 1).

        >>> SlogSuiteSpec(scale=0.01).count(24_000), SlogSuiteSpec(scale=0.01).count(20)
        (240, 1)
        """
        return max(1, round(published * self.scale))


def suite_builder() -> SuiteBuilder:
    """``symcomp suite slog``."""
    return SuiteBuilder(
        "SLOG rebuilt from its IRTG grammars: train, dev, test and the 17 gen cases.",
        SlogSuiteSpec,
        build,
    )


def build(
    out: Path,
    spec: SlogSuiteSpec,
    *,
    overwrite: bool = False,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Build the SLOG suite into ``out``; return its manifest."""
    base = get_language("slog")
    language = base.with_output(spec.output)
    say = progress or (lambda message: None)
    drawer = SlogDrawer(base, spec.seed)
    parts = Parts(language)
    say("drawing train, dev and test")
    _train(drawer, parts, spec)
    for part, counts in (("dev", DEV), ("test", TEST)):
        _categories(drawer, parts, part, counts, spec)
    say("drawing the gen cases")
    _gen(drawer, parts, spec)
    with SuiteWriter(out, overwrite=overwrite, export=spec.export) as writer:
        writer.write_records("examples.jsonl", parts.records, "every SLOG row of the suite")
        writer.add_accuracy_tests(_tests(parts), "examples.jsonl", parts.records)
        tables = grammar_file("slog.tables.json").read_bytes()
        header = suite_header(
            "slog",
            base,
            spec.seed,
            spec.describe(),
            tables_sha256=hashlib.sha256(tables).hexdigest(),
            sampling=drawer.describe(),
        )
        return writer.finish(header, "SLOG test suite", INTRODUCTION)


def _categories(
    drawer: SlogDrawer, parts: Parts, part: str, counts: Mapping[str, int], spec: SlogSuiteSpec
) -> None:
    for category, published in counts.items():
        sentences = drawer.take(spec.count(published), category, what=f"{part} {category}")
        if category.startswith("standalone"):
            sentences = _half_lower(sentences)
        parts.add(part, [(s, category) for s in sentences])


def _half_lower(sentences: list[Sentence]) -> list[Sentence]:
    """SLOG writes half its standalone noun phrases with a lower-case determiner (50 of 100
    in each category): the first half here."""
    half = len(sentences) // 2
    for sentence in sentences[:half]:
        sentence.text = sentence.text[0].lower() + sentence.text[1:]
    return sentences


def _train(drawer: SlogDrawer, parts: Parts, spec: SlogSuiteSpec) -> None:
    _categories(drawer, parts, "train", TRAIN, spec)
    parts.add("train", [(word, "primitive") for word in primitives(drawer.language, spec.seed)])
    for category, case in EXPOSURES.items():
        sentences = drawer.take(1, "in_distribution", case=case, what=category)
        parts.add("train", [(s, category) for s in sentences])


def primitives(language: Language, seed: int) -> list[str]:
    """COGS's primitives (every verb lemma of its classes, 20 nouns of each animacy and 20
    names drawn uniformly, its three targets) and SLOG's: every dative and clause-taking
    verb lemma (183 rows; seven clause-taking lemmas are also transitive, so they occur
    twice, as in SLOG's train).

    >>> rows = primitives(get_language("slog"), seed=0)
    >>> len(rows), len(set(rows)), rows.count("like")
    (183, 176, 2)
    """
    verbs = (*COGS_VERBS, "V_DATIVE_LEMMA", "V_CP_TAKING_LEMMA")
    return cogs_primitives(language, seed, stream="slog-primitives", verbs=verbs)


def _gen(drawer: SlogDrawer, parts: Parts, spec: SlogSuiteSpec) -> None:
    chosen = set(spec.cases or GEN_CASES)
    for case in GEN_CASES:
        if case not in chosen:
            continue
        if case.endswith("5-12"):
            sentences = spread(drawer, case, spec.n_gen)
        else:
            sentences = drawer.take(spec.n_gen, case, what=f"{case} sentences")
        parts.add("gen", [(s, case) for s in sentences], group=GROUPS[case])


def spread(drawer: SlogDrawer, case: str, n: int) -> list[Sentence]:
    """``n`` sentences of a ``5-12`` case, evenly over its depths (the first ``n % 8``
    depths one more), each depth drawn inside a window of that depth alone."""
    base = DRAWS[case]
    kind = next(k for k, (low, _high) in base.windows.items() if low == SPREAD[0])
    sentences: list[Sentence] = []
    for index, level in enumerate(SPREAD):
        name = f"{case}@{level}"
        windows = {**base.windows, kind: (level, level)}
        distinct = base.distinct_verbs and level < REPEATED_VERBS_FROM.get(case, SPREAD.stop)
        drawer.parts[name] = Draw(base.table, windows, base.ending, distinct)
        count = n // len(SPREAD) + (1 if index < n % len(SPREAD) else 0)
        sentences += drawer.take(count, name, what=f"{case} sentences of depth {level}")
    return sentences


def _tests(parts: Parts) -> list[tuple[str, Split, str]]:
    train, dev = parts.parts["train"], parts.parts["dev"]
    meta: Mapping[str, Any] = {"method": "SLOG", "breakdown": ["category", "group"]}
    return [
        ("gen", Split.of(train, dev, parts.parts["gen"], dict(meta)), "train, dev and gen"),
        ("test", Split.of(train, dev, parts.parts["test"], dict(meta)), "train, dev and test"),
    ]


INTRODUCTION = (
    "SLOG (Li et al. 2023) rebuilt from its IRTG grammars by `symcomp suite slog`: the parts, "
    "sizes, depth windows and gen cases of the published data, drawn afresh for the seed. "
    "`examples.jsonl` holds every row once (`meta.category` is SLOG's third column, "
    "`meta.part` the file it belongs to, `meta.group` a gen case's group)."
)
