"""``symcomp suite cogs``: COGS built as COGS built it, from the grammar, seeded.

Parts (COGS's sizes by default): train = in-distribution sentences + primitives + one exposure
example per target; dev and test from the same distribution; gen = 21 cases: the 18 lexical
ones with the target forced into its slot (:mod:`symcomp.languages.cogs.cases`), the subject
PPs and the two recursion cases from their weight tables (recursion: ``per_depth`` sentences at
each depth 3..12). ``train_100`` has 100 exposure examples per target instead of one. No
sentence occurs twice in the suite; a target never occurs outside its exposure, primitive or
gen rows.

Tests (``split.json`` over the one pool ``examples.jsonl``): ``gen`` (train, dev, gen: COGS's
generalisation evaluation), ``test`` (train, dev, test), ``gen_train_100`` (train_100, dev,
gen). Every record's ``meta`` names its ``category`` (COGS's third column) and, for gen rows,
its ``group`` (lexical or structural), which the report card breaks the score down by.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lark import Tree

from symcomp._util import Record
from symcomp.core.language import Language
from symcomp.core.registry import get_language
from symcomp.core.suite_builder import SuiteBuilder, option
from symcomp.data.splits import Split
from symcomp.languages.cogs.cases import CASES, EXPOSURES, STRUCTURAL, Primitives, target_words
from symcomp.languages.cogs.formats import FORMATS
from symcomp.languages.cogs.generation import Drawer, Sentence, depth_key, text_of, with_word
from symcomp.suites.common import make_record, rng_for
from symcomp.suites.folder import SuiteWriter, suite_header

DEPTHS = range(3, 13)
GEN_CASES = (*CASES, *STRUCTURAL)
# COGS's subject-PP case holds at most two PPs in a sentence: none of its 1,000 published rows
# has three, where its weight table (a PP on every subject and by-phrase agent, the depth window
# counted per path) draws three or more in 14.6 % (docs/cogs.md, "Two-sample tests")
SUBJECT_PP_CASE_MOST_PPS = 2


@dataclass(frozen=True)
class CogsSuiteSpec:
    """Parameters of the COGS suite (defaults: the published sizes)."""

    seed: int = option(0, "Seed of every part.")
    n_train: int = option(24_000, "In-distribution training sentences.", minimum=1)
    n_dev: int = option(3_000, "Dev sentences.", minimum=0)
    n_test: int = option(3_000, "Test sentences.", minimum=0)
    n_gen: int = option(1_000, "Sentences per lexical or subject-PP gen case.", minimum=1)
    per_depth: int = option(100, "Recursion gen sentences per depth 3..12.", minimum=1)
    exposures_100: int = option(100, "Exposure examples per target in train_100.", minimum=1)
    cases: tuple[str, ...] = option(
        (), "Gen cases to build (repeatable; default: all 21).", name="case", choices=GEN_CASES
    )
    output: str = option("cogs", "Logical form format.", choices=FORMATS)
    export: bool = option(True, "Write .tsv/.src/.tgt files per split.")

    def describe(self) -> dict[str, Any]:
        return {key: getattr(self, key) for key in self.__dataclass_fields__}


def suite_builder() -> SuiteBuilder:
    """``symcomp suite cogs``."""
    from symcomp.languages.cogs.published import importer

    return SuiteBuilder(
        "COGS rebuilt from its grammar: train, dev, test and the 21 gen cases.",
        CogsSuiteSpec,
        build,
        importer=importer(),
    )


class Parts:
    """The records of the suite in pool order, and the indices of each named part."""

    def __init__(self, language: Language) -> None:
        self.language = language
        self.records: list[Record] = []
        self.parts: dict[str, list[int]] = {}

    def add(self, part: str, rows: Sequence[tuple[Sentence | str, str]], **meta: Any) -> None:
        indices = self.parts.setdefault(part, [])
        for item, category in rows:
            if isinstance(item, Sentence):
                tree, text = item.tree, item.text
            else:
                text = item
                tree = self.language.parse(text)
            output = self.language.render(self.language.evaluate(tree))
            measures = self.language.measure(tree, len(text.split()))
            record = make_record(
                self.language, text, output, {"category": category, "part": part, **meta}
            )
            record["meta"].update(measures)
            indices.append(len(self.records))
            self.records.append(record)


def build(
    out: Path,
    spec: CogsSuiteSpec,
    *,
    overwrite: bool = False,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Build the COGS suite into ``out``; return its manifest."""
    base = get_language("cogs")
    language = base.with_output(spec.output)
    say = progress or (lambda message: None)
    drawer = Drawer(base, spec.seed)
    parts = Parts(language)
    say("drawing train, dev and test")
    _in_distribution(drawer, parts, spec)
    say("drawing the gen cases")
    _gen(drawer, parts, spec)
    say("drawing train_100's exposures")
    _exposures(drawer, parts, spec.exposures_100, "train_100_exposures")
    with SuiteWriter(out, overwrite=overwrite, export=spec.export) as writer:
        writer.write_records("examples.jsonl", parts.records, "every COGS row of the suite")
        writer.write_text(
            "targets.txt", target_words(), "the target words (one a line), in case order"
        )
        writer.add_accuracy_tests(_tests(parts), "examples.jsonl", parts.records)
        header = suite_header("cogs", base, spec.seed, spec.describe(), sampling=drawer.describe())
        return writer.finish(header, "COGS test suite", INTRODUCTION)


def _in_distribution(drawer: Drawer, parts: Parts, spec: CogsSuiteSpec) -> None:
    parts.add("train", [(s, "in_distribution") for s in drawer.take(spec.n_train)])
    parts.add("train", [(word, "primitive") for word in primitives(drawer.language, spec.seed)])
    _exposures(drawer, parts, 1, "train")
    parts.add("dev", [(s, "in_distribution") for s in drawer.take(spec.n_dev)])
    parts.add("test", [(s, "in_distribution") for s in drawer.take(spec.n_test)])


def _exposures(drawer: Drawer, parts: Parts, count: int, part: str) -> None:
    for category, case in EXPOSURES.items():
        sentences = drawer.take(count, case=case, what=category)
        parts.add(part, [(s, category) for s in sentences])


COGS_VERBS = (
    "V_OMISSIBLE_LEMMA",
    "V_TRANSITIVE_LEMMA",
    "V_UNACCUSATIVE_LEMMA",
    "V_UNERGATIVE_LEMMA",
)


def primitives(
    language: Language,
    seed: int,
    *,
    stream: str = "cogs-primitives",
    verbs: Sequence[str] = COGS_VERBS,
) -> list[str]:
    """The primitive rows: every lemma of the ``verbs`` terminals, ``nouns`` nouns of each
    animacy and ``names`` names drawn uniformly (never a target, :class:`Primitives`), and the
    targets seen only as primitives, shuffled by the random stream ``stream`` of ``seed``.

    >>> rows = primitives(get_language("cogs"), seed=0)
    >>> len(rows), len(set(rows))
    (143, 143)
    """
    rng = rng_for(seed, stream)
    lexicon = language.grammar.sidecar.lexicon
    weights = language.grammar.sidecar.lexicon_weights
    counts = Primitives()

    def sampled(terminal: str) -> list[str]:
        words = lexicon[terminal]
        known = weights.get(terminal, tuple(1.0 for _ in words))
        return [word for word, weight in zip(words, known, strict=True) if weight > 0]

    rows = rng.sample(sampled("N_ANIMATE"), counts.nouns)
    rows += rng.sample(sampled("N_INANIMATE"), counts.nouns)
    rows += rng.sample(sampled("N_PROPER"), counts.names)
    for terminal in verbs:
        rows += sampled(terminal)
    rows += list(counts.targets)
    rng.shuffle(rows)
    return rows


def _gen(drawer: Drawer, parts: Parts, spec: CogsSuiteSpec) -> None:
    chosen = set(spec.cases or GEN_CASES)
    paired = {case.pair for name, case in CASES.items() if name in chosen and case.pair}
    drawn: dict[str, list[Sentence]] = {}
    for name, case in CASES.items():
        if case.pair is not None or (name not in chosen and name not in paired):
            continue
        drawn[name] = drawer.take(spec.n_gen, case=case, what=f"{name} sentences")
        if name in chosen:
            parts.add("gen", [(s, name) for s in drawn[name]], group="lexical")
    for name, case in CASES.items():
        if case.pair is None or name not in chosen:
            continue
        swapped = [_swap(s, CASES[case.pair].target, case.target) for s in drawn[case.pair]]
        drawer.used.update(s.text for s in swapped)
        parts.add("gen", [(s, name) for s in swapped], group="lexical")
    if "obj_pp_to_subj_pp" in chosen:
        pps = drawer.language.grammar.sidecar.depths["pp"].aliases
        gen_pp = drawer.take(
            spec.n_gen,
            "obj_pp_to_subj_pp",
            accept=at_most(pps, SUBJECT_PP_CASE_MOST_PPS),
            what="subject PP sentences",
        )
        parts.add("gen", [(s, "obj_pp_to_subj_pp") for s in gen_pp], group="structural")
    for name in STRUCTURAL[1:]:
        if name not in chosen:
            continue
        kind = name.split("_")[0]
        aliases = drawer.language.grammar.sidecar.depths[kind].aliases
        key = depth_key(aliases)
        sentences = drawer.take(
            spec.per_depth * len(DEPTHS), name, quota=(key, spec.per_depth), what=name
        )
        sentences.sort(key=lambda sentence: key(sentence.tree))
        parts.add("gen", [(s, name) for s in sentences], group="structural")


def at_most(aliases: Iterable[str], most: int) -> Callable[[Tree[Any]], bool]:
    """Whether a tree has at most ``most`` nodes labelled with one of ``aliases`` (anywhere,
    not along one path as a depth window counts).

    >>> from lark import Tree
    >>> pp = Tree("pp_on", ["on", Tree("on_np", ["the", "mat"])])
    >>> at_most(["pp_on"], 1)(Tree("s", [pp, pp])), at_most(["pp_on"], 2)(Tree("s", [pp, pp]))
    (False, True)
    """
    wanted = frozenset(aliases)
    return lambda tree: _count(tree, wanted) <= most


def _count(tree: Tree[Any], wanted: frozenset[str]) -> int:
    # by recursion: ``iter_subtrees`` visits a node object once, however often it occurs
    own = int(tree.data in wanted)
    return own + sum(_count(c, wanted) for c in tree.children if isinstance(c, Tree))


def _swap(sentence: Sentence, old: str, new: str) -> Sentence:
    tree = with_word(sentence.tree, old, new)
    return Sentence(tree, text_of(tree))


def _tests(parts: Parts) -> list[tuple[str, Split, str]]:
    train, dev = parts.parts["train"], parts.parts["dev"]
    train_100 = [
        i for i in train if not str(parts.records[i]["meta"]["category"]).startswith("exposure")
    ] + parts.parts["train_100_exposures"]
    meta: Mapping[str, Any] = {"method": "COGS", "breakdown": ["category", "group"]}
    return [
        ("gen", Split.of(train, dev, parts.parts["gen"], dict(meta)), "train, dev and gen"),
        ("test", Split.of(train, dev, parts.parts["test"], dict(meta)), "train, dev and test"),
        (
            "gen_train_100",
            Split.of(sorted(train_100), dev, parts.parts["gen"], dict(meta)),
            "train with 100 exposure examples per target, dev and gen",
        ),
    ]


INTRODUCTION = (
    "COGS (Kim & Linzen 2020) rebuilt from its grammar by `symcomp suite cogs`: the sizes, "
    "parts, rejections and gen cases of the published data, drawn afresh for the seed. "
    "`examples.jsonl` holds every row once (`meta.category` is COGS's third column, "
    "`meta.part` the file it belongs to); `targets.txt` lists the target words."
)
