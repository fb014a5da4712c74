"""Yanaka et al. (2020)'s four protocols as splits over one pool of monotonicity pairs.

Every split keeps a pair and its reverse in the same part (they share ``meta["pair"]``), and
every dev set is a seeded share of the training pairs (in distribution).

protocol-I (systematicity of predicate replacements)
    Over the pairs of depth ``systematicity_depth`` (default 1, no relative clause). The
    quantifiers form groups (default: {several} and the dual pairs {some, no}, {a few, few},
    {at least three, at most three}, {more than three, less than three}). For an order of
    the groups and k = 1..n-1, S_k trains on every plain pair whose quantifier is in the
    first k groups (all replacements) plus every plain pair with the anchor replacement
    (all quantifiers, default r1); T_k tests the unseen combinations: quantifier outside the
    first k groups and replacement other than the anchor, once per variant (plain,
    adverb-first, PP-first, object; the object variant's quantifier is the object's).
    Scores are meant to be averaged over the orders (``permutations`` seeded orders).
protocol-II (systematicity of embedding quantifiers)
    Depth-2 plain pairs replaced under both quantifiers (the embedded noun). Fold r holds
    out the quantifier combinations (q1, q2) with (index(q1) + index(q2)) mod folds = r;
    training has the other combinations and every depth-1 plain pair, so each quantifier is
    seen in both roles.
protocol-I with ``profile`` paper (format.py of the published scripts)
    Over the plain depth-1 pairs. The first training set holds one quantifier (``several``
    or ``no``) with every replacement, plus every quantifier with one replacement (the
    anchor: r1, the paper's ``lex``, or r3, its ``pp``). Then the dual groups {at least
    three, at most three}, {less than three, more than three}, {a few, few} are added one
    at a time, in the two orders of format.py ((at, than, few) and (few, at, than)). The
    test set is every pair whose quantifier is not yet trained and whose replacement is not
    the anchor, in plain, adverb-first and PP-first sentences (format.py prefixes a fronted
    adverb or PP to its test sets).
protocol-II with ``profile`` paper
    Depth-2 plain pairs replaced at the embedded noun. The (upward, downward) dual pairs of
    quantifiers are added to training one at a time, in a seeded order: step k trains on
    every depth-1 plain pair and every depth-2 pair whose two quantifiers both lie in the
    first k dual pairs, and tests every depth-2 pair with a combination not yet trained.
protocol-III (productivity)
    For i = 0..D-2: train on depths <= i+1, test on the deeper ones.
protocol-IV (localism)
    For d = 2..D: train on depth d, test on depths <= d (a held-out share of depth d and
    all shallower pairs).
"""

from __future__ import annotations

import itertools
import random
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from symcomp._util import Record
from symcomp.core.registry import get_language
from symcomp.core.suite_builder import SuiteBuilder, option
from symcomp.data.splits import Split
from symcomp.errors import DataError, GenerationError
from symcomp.languages.monotonicity.lexicon import PHENOMENA, QUANTIFIERS
from symcomp.languages.monotonicity.pairs import PairSpec, PairStats, iter_pairs, sample, shuffled
from symcomp.suites.common import load_records, rng_for
from symcomp.suites.folder import SuiteWriter, suite_header

PROTOCOLS = ("I", "II", "III", "IV")
VARIANTS = ("plain", "adverb_first", "place_first", "object")
PAPER_FIRST = ("several", "no")  # format.py: sample_lex1_1 (".empty") and sample_lex1_2 ("No ")
PAPER_ANCHORS = ("r1", "r3")  # format.py: lex and pp
PAPER_GROUPS: tuple[tuple[str, ...], ...] = (
    ("at least three", "at most three"),
    ("less than three", "more than three"),
    ("a few", "few"),
)
PAPER_ORDERS = ((0, 1, 2), (2, 0, 1))  # format.py's "_1" and "_2" files
PAPER_TEST_VARIANTS = ("plain", "adverb_first", "place_first")
# (upward, downward) pairs that deny each other; `several` has no downward twin and comes last
PAPER_DUAL_PAIRS: tuple[tuple[str, ...], ...] = (
    ("some", "no"),
    ("a few", "few"),
    ("at least three", "less than three"),
    ("more than three", "at most three"),
)
QUANTIFIER_GROUPS: tuple[tuple[str, ...], ...] = (
    ("several",),
    ("some", "no"),
    ("a few", "few"),
    ("at least three", "at most three"),
    ("more than three", "less than three"),
)


@dataclass(frozen=True)
class MonotonicitySuiteSpec:
    """Parameters of the monotonicity suite (see the module docstring)."""

    n: int = option(20_000, "Pairs to draw (unless `pool`).", minimum=2)
    seed: int = option(0, "Seed of the pool and of every split.")
    max_depth: int = option(5, "Deepest embedding of the pairs drawn.", minimum=2, maximum=9)
    protocols: tuple[str, ...] = option(
        PROTOCOLS,
        "Protocols to build (repeatable): I systematicity of predicate replacements, II of "
        "embedding quantifiers, III productivity, IV localism; all: every one.",
        name="protocol",
        choices=(*PROTOCOLS, "all"),
    )
    pool: Path | None = option(
        None, "Use this monotonicity pool (folder or examples.jsonl) instead of drawing `n` pairs."
    )
    permutations: int = option(
        3,
        "Protocol I: seeded orders of the quantifier groups (scores average over them).",
        minimum=1,
    )
    anchors: tuple[str, ...] = option(
        ("r1",),
        "Protocol I: replacement seen with every quantifier (repeatable).",
        name="anchor",
        choices=tuple(PHENOMENA),
    )
    groups: tuple[tuple[str, ...], ...] = QUANTIFIER_GROUPS
    systematicity_depth: int = 1
    folds: int = option(3, "Protocol II: folds of the quantifier pairs.", minimum=2)
    dev_fraction: float = 0.05
    localism_test_fraction: float = 0.1
    export: bool = option(False, "Write .tsv/.src/.tgt files per split.")
    profile: str = option(
        "symcomp",
        "How pairs are drawn and protocols I and II split: symcomp (richer) or paper (as the "
        "published scripts of Yanaka et al. 2020; see docs/monotonicity.md).",
        choices=("symcomp", "paper"),
    )

    def __post_init__(self) -> None:
        if "all" in self.protocols:  # the frozen dataclass's own normalisation
            object.__setattr__(self, "protocols", PROTOCOLS)

    def check(self) -> None:
        unknown = sorted(set(self.protocols) - set(PROTOCOLS))
        if unknown or not self.protocols:
            raise GenerationError(f"unknown protocols {unknown}; choose from {list(PROTOCOLS)}.")
        grouped = [quantifier for group in self.groups for quantifier in group]
        if sorted(grouped) != sorted(QUANTIFIERS):
            raise GenerationError(
                f"quantifier groups must cover each of {list(QUANTIFIERS)} exactly once, got "
                f"{[list(group) for group in self.groups]}."
            )
        if not 0 <= self.dev_fraction < 1 or not 0 < self.localism_test_fraction < 1:
            raise GenerationError("the dev and localism test fractions must lie in [0, 1).")
        if self.permutations < 1 or self.folds < 2:
            raise GenerationError("need at least 1 permutation and 2 folds.")

    def describe(self) -> dict[str, Any]:
        data = {key: getattr(self, key) for key in self.__dataclass_fields__}
        data["pool"] = str(self.pool) if self.pool else None
        data["groups"] = [list(group) for group in self.groups]
        data["protocols"] = list(self.protocols)
        data["anchors"] = list(self.anchors)
        return data


@dataclass(frozen=True)
class ProtocolSplit:
    """One split of a protocol, before it is written."""

    name: str
    split: Split
    description: str


def suite_builder() -> SuiteBuilder:
    """``symcomp suite monotonicity``."""
    return SuiteBuilder(
        "Monotonicity inference (Yanaka et al. 2020): protocols I-IV over one pool of pairs.",
        MonotonicitySuiteSpec,
        build,
    )


def build(
    out: Path,
    spec: MonotonicitySuiteSpec,
    *,
    overwrite: bool = False,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Write the suite folder (pool, one split per test, README.md, manifest.json)."""
    spec.check()
    say = progress or (lambda message: None)
    language = get_language("monotonicity")
    with SuiteWriter(out, overwrite=overwrite, export=spec.export) as writer:
        records, pool_info = _pool(spec, language.version)
        writer.write_records(
            "examples.jsonl", records, "the pool: premise/hypothesis pairs with gold labels"
        )
        say(f"pool of {len(records):,} pairs")
        for test in protocol_splits(records, spec):
            writer.add_test(
                test.name,
                kind="accuracy",
                split=test.split,
                pool="examples.jsonl",
                records=records,
                description=test.description,
            )
        say(f"{len(writer.tests):,} splits")
        header = suite_header("monotonicity", language, spec.seed, spec.describe(), pool=pool_info)
        return writer.finish(header, "Monotonicity suite (Yanaka et al. 2020)", _INTRODUCTION)


_INTRODUCTION = (
    "Premise/hypothesis pairs of the `monotonicity` language (input `premise ||| hypothesis`, "
    "output `entailment` or `non-entailment`) and the four protocols of Yanaka et al. (2020) "
    "as splits: protocol-I systematicity of predicate replacements (S_k/T_k per quantifier-"
    "group order and test variant), protocol-II systematicity of embedding quantifiers, "
    "protocol-III productivity, protocol-IV localism. A pair and its reverse are always in "
    "the same part. Check the pool's labels with `symcomp verify examples.jsonl`."
)


def _pool(spec: MonotonicitySuiteSpec, version: str) -> tuple[list[Record], dict[str, Any]]:
    if spec.pool is not None:
        records = load_records(spec.pool)
        missing = [i + 1 for i, r in enumerate(records[:1000]) if "pair" not in r.get("meta", {})]
        if missing:
            raise DataError(
                f"{spec.pool}: line {missing[0]} has no meta.pair; give a pool written by "
                f"`symcomp generate monotonicity`."
            )
        return records, {"source": str(spec.pool), "pairs": len(records)}
    stats = PairStats()
    pairs = PairSpec(
        n=spec.n,
        seed=spec.seed,
        depths=tuple(range(1, spec.max_depth + 1)),
        profile=spec.profile,
    )
    records = [pair.record("monotonicity", version) for pair in iter_pairs(pairs, stats)]
    return records, {"generated": pairs.describe(), "filters": stats.describe()}


def protocol_splits(
    records: Sequence[Record], spec: MonotonicitySuiteSpec
) -> Iterator[ProtocolSplit]:
    """Every split of the requested protocols, in protocol order."""
    builders = {"I": protocol_one, "II": protocol_two, "III": protocol_three, "IV": protocol_four}
    if spec.profile == "paper":
        builders |= {"I": paper_protocol_one, "II": paper_protocol_two}
    for protocol in PROTOCOLS:
        if protocol in spec.protocols:
            yield from builders[protocol](records, spec)


# -- helpers ---------------------------------------------------------------------------------


def _meta(record: Record) -> Mapping[str, Any]:
    meta = record.get("meta")
    if not isinstance(meta, Mapping):
        raise DataError(f"record {record.get('id')} has no meta; not a monotonicity pool.")
    return meta


def _holdout(
    records: Sequence[Record], indices: Sequence[int], fraction: float, rng: random.Random
) -> tuple[list[int], list[int]]:
    """Split ``indices`` into (kept, held out) by whole pairs, ``fraction`` held out."""
    by_pair: dict[Any, list[int]] = defaultdict(list)
    for index in indices:
        by_pair[_meta(records[index])["pair"]].append(index)
    keys = sorted(by_pair, key=str)
    chosen = set(sample(rng, keys, round(fraction * len(keys))))
    kept = sorted(i for key in keys if key not in chosen for i in by_pair[key])
    held = sorted(i for key in chosen for i in by_pair[key])
    return kept, held


def _sizes_by_depth(records: Sequence[Record], indices: Sequence[int]) -> dict[str, int]:
    counts: dict[str, int] = defaultdict(int)
    for index in indices:
        counts[str(_meta(records[index])["depth"])] += 1
    return dict(sorted(counts.items()))


# -- protocol I ----------------------------------------------------------------------------------


def orders(
    groups: Sequence[tuple[str, ...]], count: int, rng: random.Random
) -> list[tuple[tuple[str, ...], ...]]:
    """``count`` distinct orders of the groups (all of them when there are fewer)."""
    every = list(itertools.permutations(groups))
    if count >= len(every):
        return every
    return shuffled(rng, every)[:count]


def protocol_one(records: Sequence[Record], spec: MonotonicitySuiteSpec) -> Iterator[ProtocolSplit]:
    rng = rng_for(spec.seed, "protocol-I")
    by_variant = _by_variant(records, spec.systematicity_depth)
    for number, order in enumerate(orders(spec.groups, spec.permutations, rng), start=1):
        for anchor in spec.anchors:
            for k in range(1, len(order)):
                seen = {q for group in order[:k] for q in group}
                train, dev, tests = _systematicity_step(
                    records, by_variant, seen, anchor, -1, VARIANTS, spec, rng
                )
                for variant, test in tests.items():
                    meta = {
                        "protocol": "I",
                        "order": [list(group) for group in order],
                        "k": k,
                        "seen_quantifiers": sorted(seen),
                        "anchor": anchor,
                        "test_variant": variant,
                        "depth": spec.systematicity_depth,
                    }
                    yield ProtocolSplit(
                        f"protocol-I/{anchor}/order{number}/S{k}/{variant}",
                        Split.of(train, dev, test, meta),
                        f"systematicity of predicate replacements: train on quantifiers "
                        f"{sorted(seen)} with every replacement and every quantifier with "
                        f"{anchor}; test the other combinations ({variant} sentences)",
                    )


def _by_variant(records: Sequence[Record], depth: int) -> dict[str, list[int]]:
    """The indices of the pairs of ``depth``, by sentence variant (plain, adverb, ...)."""
    by_variant: dict[str, list[int]] = defaultdict(list)
    for index, record in enumerate(records):
        meta = _meta(record)
        if meta["depth"] == depth:
            by_variant[meta["variant"]].append(index)
    return by_variant


def _systematicity_step(
    records: Sequence[Record],
    by_variant: Mapping[str, list[int]],
    seen: set[str],
    anchor: str,
    position: int,
    variants: Sequence[str],
    spec: MonotonicitySuiteSpec,
    rng: random.Random,
) -> tuple[list[int], list[int], dict[str, list[int]]]:
    """One step of Protocol I: (train, dev, test per variant).

    Train (dev held out of it) is the plain pairs whose quantifier (``path[position]``) is
    ``seen`` or whose phenomenon is ``anchor``; each variant's test is its pairs with neither.
    Every variant gets the same train and dev, so the variants' tests share one run."""

    def quantifier(index: int) -> str:
        return str(_meta(records[index])["path"][position])

    def phenomenon(index: int) -> str:
        return str(_meta(records[index])["phenomenon"])

    train = [i for i in by_variant["plain"] if quantifier(i) in seen or phenomenon(i) == anchor]
    train, dev = _holdout(records, train, spec.dev_fraction, rng)
    tests = {
        variant: [
            i for i in by_variant[variant] if quantifier(i) not in seen and phenomenon(i) != anchor
        ]
        for variant in variants
    }
    return train, dev, tests


# -- protocol II ---------------------------------------------------------------------------------


def protocol_two(records: Sequence[Record], spec: MonotonicitySuiteSpec) -> Iterator[ProtocolSplit]:
    rng = rng_for(spec.seed, "protocol-II")
    rank = {quantifier: number for number, quantifier in enumerate(QUANTIFIERS)}
    singles, embedded = [], []
    for index, record in enumerate(records):
        meta = _meta(record)
        if meta["variant"] != "plain":
            continue
        if meta["depth"] == 1:
            singles.append(index)
        elif meta["depth"] == 2 and meta["position"] == "subject" and meta["level"] == 1:
            embedded.append(index)
    combination = {i: tuple(str(q) for q in _meta(records[i])["path"][:2]) for i in embedded}
    for fold in range(spec.folds):
        held = sorted(
            (a, b)
            for a in QUANTIFIERS
            for b in QUANTIFIERS
            if (rank[a] + rank[b]) % spec.folds == fold
        )
        held_set = set(held)
        test = [i for i in embedded if combination[i] in held_set]
        train = sorted(singles + [i for i in embedded if combination[i] not in held_set])
        train, dev = _holdout(records, train, spec.dev_fraction, rng)
        meta = {"protocol": "II", "fold": fold, "held_out": [list(pair) for pair in held]}
        yield ProtocolSplit(
            f"protocol-II/fold{fold}",
            Split.of(train, dev, test, meta),
            f"systematicity of embedding quantifiers: {len(held)} (outer, embedded) quantifier "
            f"combinations held out of the depth-2 pairs",
        )


# -- protocols III and IV ------------------------------------------------------------------------


def _depths(records: Sequence[Record]) -> dict[int, list[int]]:
    by_depth: dict[int, list[int]] = defaultdict(list)
    for index, record in enumerate(records):
        by_depth[int(_meta(record)["depth"])].append(index)
    return dict(sorted(by_depth.items()))


def protocol_three(
    records: Sequence[Record], spec: MonotonicitySuiteSpec
) -> Iterator[ProtocolSplit]:
    rng = rng_for(spec.seed, "protocol-III")
    by_depth = _depths(records)
    deepest = max(by_depth)
    for i in range(deepest - 1):
        train = sorted(x for d, xs in by_depth.items() if d <= i + 1 for x in xs)
        test = sorted(x for d, xs in by_depth.items() if d > i + 1 for x in xs)
        train, dev = _holdout(records, train, spec.dev_fraction, rng)
        meta = {
            "protocol": "III",
            "train_depths": [d for d in by_depth if d <= i + 1],
            "test_depths": [d for d in by_depth if d > i + 1],
            "test_sizes_by_depth": _sizes_by_depth(records, test),
        }
        yield ProtocolSplit(
            f"protocol-III/train-depth-1-{i + 1}",
            Split.of(train, dev, test, meta),
            f"productivity: train on depths <= {i + 1}, test on deeper ones",
        )


def protocol_four(
    records: Sequence[Record], spec: MonotonicitySuiteSpec
) -> Iterator[ProtocolSplit]:
    rng = rng_for(spec.seed, "protocol-IV")
    by_depth = _depths(records)
    for depth in [d for d in by_depth if d >= 2]:
        kept, held = _holdout(records, by_depth[depth], spec.localism_test_fraction, rng)
        train, dev = _holdout(records, kept, spec.dev_fraction, rng)
        test = sorted(held + [x for d, xs in by_depth.items() if d < depth for x in xs])
        meta = {
            "protocol": "IV",
            "train_depth": depth,
            "test_depths": [d for d in by_depth if d <= depth],
            "test_sizes_by_depth": _sizes_by_depth(records, test),
        }
        yield ProtocolSplit(
            f"protocol-IV/train-depth-{depth}",
            Split.of(train, dev, test, meta),
            f"localism: train on depth {depth}, test on depths <= {depth} (held-out pairs of "
            f"depth {depth} and every shallower pair)",
        )


# -- the paper's protocols I and II (``profile`` paper) -------------------------------------------


def paper_protocol_one(
    records: Sequence[Record], spec: MonotonicitySuiteSpec
) -> Iterator[ProtocolSplit]:
    """Protocol I as format.py builds it (see the module docstring)."""
    rng = rng_for(spec.seed, "protocol-I-paper")
    by_variant = _by_variant(records, spec.systematicity_depth)
    for first in PAPER_FIRST:
        for anchor in PAPER_ANCHORS:
            for number, order in enumerate(PAPER_ORDERS, start=1):
                steps = [(first,)] + [PAPER_GROUPS[group] for group in order]
                for k in range(1, len(steps) + 1):
                    if k == 1 and number > 1:
                        continue  # S1 is the same in both orders
                    seen = {q for group in steps[:k] for q in group}
                    # the subject's quantifier: format.py reads "No ..."
                    train, dev, tests = _systematicity_step(
                        records, by_variant, seen, anchor, 0, PAPER_TEST_VARIANTS, spec, rng
                    )
                    for variant, test in tests.items():
                        meta = {
                            "protocol": "I",
                            "profile": "paper",
                            "first": first,
                            "order": [list(group) for group in steps],
                            "k": k,
                            "seen_quantifiers": sorted(seen),
                            "anchor": anchor,
                            "test_variant": variant,
                            "depth": spec.systematicity_depth,
                        }
                        label = f"order{number}/" if k > 1 else ""
                        yield ProtocolSplit(
                            f"protocol-I/{first.replace(' ', '-')}/{anchor}/{label}S{k}/{variant}",
                            Split.of(train, dev, test, meta),
                            f"systematicity of predicate replacements (the paper's): train on "
                            f"{sorted(seen)} with every replacement and every quantifier with "
                            f"{anchor}; test the other combinations ({variant} sentences)",
                        )


def paper_protocol_two(
    records: Sequence[Record], spec: MonotonicitySuiteSpec
) -> Iterator[ProtocolSplit]:
    """Protocol II adding (upward, downward) quantifier pairs step by step."""
    rng = rng_for(spec.seed, "protocol-II-paper")
    singles, embedded = [], []
    for index, record in enumerate(records):
        meta = _meta(record)
        if meta["variant"] != "plain":
            continue
        if meta["depth"] == 1:
            singles.append(index)
        elif meta["depth"] == 2 and meta["position"] == "subject" and meta["level"] == 1:
            embedded.append(index)
    combination = {i: tuple(str(q) for q in _meta(records[i])["path"][:2]) for i in embedded}
    order = [*shuffled(rng, PAPER_DUAL_PAIRS), ("several",)]
    for k in range(1, len(order)):
        seen = {q for pair in order[:k] for q in pair}
        trained = [i for i in embedded if set(combination[i]) <= seen]
        test = [i for i in embedded if not set(combination[i]) <= seen]
        train, dev = _holdout(records, sorted(singles + trained), spec.dev_fraction, rng)
        meta = {
            "protocol": "II",
            "profile": "paper",
            "step": k,
            "trained_quantifiers": [list(pair) for pair in order[:k]],
        }
        yield ProtocolSplit(
            f"protocol-II/step{k}",
            Split.of(train, dev, test, meta),
            f"systematicity of embedding quantifiers (the paper's): depth-2 pairs whose "
            f"quantifiers lie in the first {k} (upward, downward) pairs are trained",
        )
