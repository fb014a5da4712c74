"""The CobA partitions: in-domain (train/dev) and generalisation sets per compositional aspect.

As in the paper, every partition is drawn from a large pool of unique expressions (``pool``,
default 2.5 million; :mod:`symcomp.languages.arithmetic.pool` draws as from it without holding
it) under operator bounds. Each partition has an in-domain set (default 24,000 expressions,
split 90/10 into train and dev) and a disjoint generalisation set (default 12,000, the test):

random
    no control; both sets 0..3 operators.
systematicity
    2..3 operators; in-domain expressions use only odd or only even integers; generalisation
    ones mix both.
productivity
    in-domain: at most 3 operators; generalisation: 4 to 9.
substitutivity
    2..3 operators; tuples of *swapped expressions* (the same value, differing by swapping the
    operands of some operators). The in-domain set holds at most one member of any tuple; the
    generalisation set holds pairs of members of tuples that have no member in-domain (each
    pair with its number of swaps), so no generalisation expression has a swapped expression
    in-domain.
localism
    2..3 operators; *sub-expressions* (the same value, some inner operators evaluated first:
    ``+ + 2 5 × 2 4`` -> ``+ 7 × 2 4``, level = operators evaluated, at least one operator
    left). The in-domain set never holds an expression with one of its sub-expressions; the
    generalisation set holds pairs of an expression and a sub-expression of it, none of whose
    sub-expressions is in-domain nor is itself a sub-expression of an in-domain expression.

Every partition records the paper's Table 1 statistics for both sets: mean value, min/mean/max
number of operators, % expressions mixing odds and evens, % of expressions with a swapped
expression in-domain and % with a sub-expression in-domain; ``symcomp suite arithmetic``
prints them beside the paper's values.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from symcomp._util import Record
from symcomp.core.language import Language
from symcomp.core.registry import get_language
from symcomp.core.suite_builder import SuiteBuilder, option
from symcomp.data.splits import Split
from symcomp.errors import GenerationError
from symcomp.languages.arithmetic.expressions import (
    ADD,
    MUL,
    Expr,
    from_tree,
    operator_kinds,
    operators,
    parity,
    to_infix,
    to_prefix,
    value,
)
from symcomp.languages.arithmetic.pool import PoolDistribution, log_probability
from symcomp.languages.arithmetic.table1 import format_comparison
from symcomp.suites.common import make_record, rng_for
from symcomp.suites.folder import SuiteWriter, suite_header

PARTITIONS = ("random", "systematicity", "productivity", "substitutivity", "localism")
MAX_DRAWS_PER_EXPRESSION = 20_000
Bounds = tuple[int, int]
# operator bounds of the in-domain and the generalisation set (the paper's Table 1)
BOUNDS: dict[str, tuple[Bounds, Bounds]] = {
    "random": ((0, 3), (0, 3)),
    "systematicity": ((2, 3), (2, 3)),
    "productivity": ((0, 3), (4, 9)),
    "substitutivity": ((2, 3), (2, 3)),
    "localism": ((2, 3), (2, 3)),
}


@dataclass(frozen=True)
class ArithmeticSuiteSpec:
    """Sizes and bounds of the partitions (defaults: the paper's)."""

    seed: int = option(0, "Seed of every partition.")
    in_domain: int = option(
        24_000, "In-domain expressions per partition (split 90/10 into train and dev).", minimum=10
    )
    generalisation: int = option(
        12_000, "Generalisation expressions per partition (the test).", minimum=10
    )
    pool: int = option(
        2_500_000,
        "Size of the pool of unique expressions partitions are drawn from (the paper: 2.5M).",
        minimum=1_000,
    )
    dev_fraction: float = 0.1
    bounds: Mapping[str, tuple[Bounds, Bounds]] = field(default_factory=lambda: dict(BOUNDS))
    calibration_samples: int = 100_000
    export: bool = option(True, "Write .tsv/.src/.tgt files per split.")

    def describe(self) -> dict[str, Any]:
        data = {key: getattr(self, key) for key in self.__dataclass_fields__}
        data["bounds"] = {name: [list(b) for b in pair] for name, pair in self.bounds.items()}
        return data


# -- variants -------------------------------------------------------------------------------


def swap_variants(expr: Expr) -> dict[str, int]:
    """Every expression obtained by swapping the operands of some operators, with the fewest
    swaps that produce it (the expression itself at 0).

    >>> swap_variants(("+", 1, ("×", 2, 3)))
    {'+ 1 × 2 3': 0, '+ 1 × 3 2': 1, '+ × 2 3 1': 1, '+ × 3 2 1': 2}
    """
    variants: dict[str, int] = {}
    for text, swaps in _swapped(expr):
        if swaps < variants.get(text, swaps + 1):
            variants[text] = swaps
    return dict(sorted(variants.items(), key=lambda item: (item[1], item[0])))


def _swapped(expr: Expr) -> Iterator[tuple[str, int]]:
    if isinstance(expr, int):
        yield str(expr), 0
        return
    operator, left, right = expr
    for (a, x), (b, y) in itertools.product(list(_swapped(left)), list(_swapped(right))):
        yield f"{operator} {a} {b}", x + y
        yield f"{operator} {b} {a}", x + y + 1


def partial_evaluations(expr: Expr) -> dict[str, int]:
    """Every expression obtained by evaluating some inner operators first (replacing whole
    sub-expressions by their values), with the number of operators evaluated (at least one).

    >>> partial_evaluations(("+", ("+", 2, 5), ("×", 2, 4)))
    {'+ + 2 5 8': 1, '+ 7 × 2 4': 1, '+ 7 8': 2, '15': 3}
    """
    variants: dict[str, int] = {}
    for text, evaluated in _cuts(expr):
        if evaluated and evaluated > variants.get(text, 0):
            variants[text] = evaluated
    return dict(sorted(variants.items(), key=lambda item: (item[1], item[0])))


def _cuts(expr: Expr) -> Iterator[tuple[str, int]]:
    if isinstance(expr, int):
        yield str(expr), 0
        return
    operator, left, right = expr
    yield str(value(expr)), operators(expr)
    for (a, x), (b, y) in itertools.product(list(_cuts(left)), list(_cuts(right))):
        yield f"{operator} {a} {b}", x + y


def canonical(expr: Expr) -> str:
    """The same key for all swapped expressions of a tuple (operands in sorted order)."""
    if isinstance(expr, int):
        return str(expr)
    operator, left, right = expr
    a, b = sorted((canonical(left), canonical(right)))
    return f"{operator} ( {a} ) ( {b} )"


# -- building -------------------------------------------------------------------------------


def suite_builder() -> SuiteBuilder:
    """``symcomp suite arithmetic``: the partitions, then their Table 1 statistics."""
    return SuiteBuilder(
        "CobA's five partitions with their Table 1 statistics.",
        ArithmeticSuiteSpec,
        build,
        summary=format_table1,
    )


def format_table1(manifest: Mapping[str, Any]) -> str:
    """The CobA paper's Table 1 for the built partitions, beside the paper's values."""
    statistics = {name: entry["meta"]["statistics"] for name, entry in manifest["tests"].items()}
    return format_comparison(statistics)


def build(
    out: Path,
    spec: ArithmeticSuiteSpec,
    *,
    overwrite: bool = False,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Build the five partitions into ``out``; return the suite manifest."""
    language = get_language("arithmetic")
    say = progress or (lambda message: None)
    with SuiteWriter(out, overwrite=overwrite, export=spec.export) as writer:
        say(f"sizing the pool of {spec.pool:,} unique expressions")
        pool = PoolDistribution.calibrated(
            spec.pool, rng_for(spec.seed, "arithmetic-pool"), spec.calibration_samples
        )
        for partition in PARTITIONS:
            say(f"building {partition}")
            builder = _PartitionBuilder(language, spec, partition, pool)
            in_domain, generalisation, pairs = builder.build()
            _write_partition(writer, language, spec, partition, in_domain, generalisation, pairs)
        header = suite_header(
            "arithmetic",
            language,
            spec.seed,
            spec.describe(),
            pool={"size": pool.size, "generator_draws": round(pool.draws)},
        )
        return writer.finish(header, "CobA arithmetic partitions", INTRODUCTION)


INTRODUCTION = (
    "The five CobA partitions built by `symcomp suite arithmetic`: per partition an in-domain "
    "set (train/dev) and a generalisation set (test), as index lists over the partition's "
    "`examples.jsonl`. The task is the value of an expression (1..100). Scores: "
    "`symcomp evaluate <folder>` (RMSE; agreement for substitutivity and localism)."
)

Pair = dict[str, Any]


class _PartitionBuilder:
    """Draws distinct expressions from the pool and sorts them into one partition's sets."""

    def __init__(
        self,
        language: Language,
        spec: ArithmeticSuiteSpec,
        partition: str,
        pool: PoolDistribution,
    ) -> None:
        self.language = language
        self.spec = spec
        self.partition = partition
        self.pool = pool
        self.rng = rng_for(spec.seed, f"arithmetic-{partition}")
        self.inside, self.outside = spec.bounds[partition]
        self.seen: set[str] = set()

    def expressions(self, bounds: Bounds) -> Iterator[Expr]:
        """Pool expressions with a number of operators in ``bounds``, each at most once."""
        wanted = self.spec.in_domain + self.spec.generalisation
        for _ in range(MAX_DRAWS_PER_EXPRESSION * wanted):
            expr = self.pool.draw(self.rng, bounds[1])
            count = operators(expr)
            if not bounds[0] <= count <= bounds[1]:
                continue
            text = to_prefix(expr)
            if text not in self.seen:
                self.seen.add(text)
                yield expr
        raise GenerationError(
            f"the {self.partition} partition could not be filled in "
            f"{MAX_DRAWS_PER_EXPRESSION * wanted:,} draws from the pool; ask for smaller sets "
            f"(`in_domain`, `generalisation`) or a larger `pool`."
        )

    def build(self) -> tuple[list[Expr], list[tuple[Expr, int]], list[Pair]]:
        if self.partition in ("substitutivity", "localism"):
            return self.tuples()
        wanted = {"in": self.spec.in_domain, "out": self.spec.generalisation}
        sets: dict[str, list[Expr]] = {"in": [], "out": []}
        either = (min(self.inside[0], self.outside[0]), max(self.inside[1], self.outside[1]))
        for expr in self.expressions(either):
            side = self.side(expr)
            if side is not None and len(sets[side]) < wanted[side]:
                sets[side].append(expr)
            if all(len(sets[s]) == wanted[s] for s in sets):
                break
        return sets["in"], [(expr, 0) for expr in sets["out"]], []

    def side(self, expr: Expr) -> str | None:
        """Which set an expression belongs to (None: neither)."""
        count = operators(expr)
        fits = {
            "in": self.inside[0] <= count <= self.inside[1],
            "out": self.outside[0] <= count <= self.outside[1],
        }
        if self.partition == "random":
            share = self.spec.in_domain / (self.spec.in_domain + self.spec.generalisation)
            return "in" if self.rng.random() < share else "out"
        if self.partition == "systematicity":
            side = "out" if parity(expr) == "mixed" else "in"
            return side if fits[side] else None
        return "in" if fits["in"] else "out" if fits["out"] else None

    # -- tuples: substitutivity and localism ----------------------------------------------

    def members(self, expr: Expr) -> dict[str, int]:
        """The expressions that share a tuple with ``expr``, with their level: its swapped
        expressions (substitutivity), or its sub-expressions with at least one operator left
        (localism); ``expr`` itself at level 0."""
        if self.partition == "substitutivity":
            return swap_variants(expr)
        found = {t: level for t, level in partial_evaluations(expr).items() if " " in t}
        return {to_prefix(expr): 0, **found}

    def tuples(self) -> tuple[list[Expr], list[tuple[Expr, int]], list[Pair]]:
        """In-domain: no two members of one tuple; generalisation: pairs of members of tuples
        with no member in-domain."""
        stream = self.expressions(self.inside)
        in_domain: list[Expr] = []
        inside: set[str] = set()
        covered: set[str] = set()  # every member of an in-domain expression's tuple
        for expr in stream:
            if len(in_domain) == self.spec.in_domain:
                break
            text, members = to_prefix(expr), self.members(expr)
            if text in covered or inside & members.keys():
                continue
            in_domain.append(expr)
            inside.add(text)
            covered |= members.keys()
        return in_domain, *self.pairs(stream, inside, covered)

    def pairs(
        self, stream: Iterator[Expr], inside: set[str], covered: set[str]
    ) -> tuple[list[tuple[Expr, int]], list[Pair]]:
        generalisation: list[tuple[Expr, int]] = []
        pairs: list[Pair] = []
        used: set[str] = set()
        low, high = self.outside
        for expr in stream:
            if len(generalisation) >= self.spec.generalisation:
                break
            text, members = to_prefix(expr), self.members(expr)
            if text in covered or text in used or inside & members.keys():
                continue
            partners = [
                (other, level)
                for other, level in members.items()
                if level > 0
                and other not in covered
                and other not in used
                and low <= _operator_count(other) <= high
                and self.rng.random() < self.pool.in_pool(log_probability(self.parse(other)))
            ]
            if not partners:
                continue
            other, level = partners[int(self.rng.random() * len(partners))]
            used |= {text, other}
            generalisation += [(expr, 0), (self.parse(other), level)]
            pairs.append(
                {"tuple": len(pairs), "representative": text, "member": other, "level": level}
            )
        if len(generalisation) < self.spec.generalisation:
            raise GenerationError(
                f"only {len(generalisation):,} generalisation expressions for the "
                f"{self.partition} partition; ask for fewer (`generalisation`)."
            )
        if len(generalisation) > self.spec.generalisation:  # an odd size: the last one unpaired
            generalisation, pairs = generalisation[:-1], pairs[:-1]
        return generalisation, pairs

    def parse(self, text: str) -> Expr:
        return _parse(self.language, text)


def _operator_count(text: str) -> int:
    return sum(token in (ADD, MUL) for token in text.split())


def _parse(language: Language, text: str) -> Expr:
    return from_tree(language.parse(text))


def _depth(expr: Expr) -> int:
    return 0 if isinstance(expr, int) else 1 + max(_depth(expr[1]), _depth(expr[2]))


def expression_record(language: Language, expr: Expr, **extra: Any) -> Record:
    """A pool record: prefix input, value output, and the measures partitions use."""
    text = to_prefix(expr)
    count = operators(expr)
    meta = {
        "length": 2 * count + 1,
        "depth": _depth(expr),
        "functions": count,
        "output_length": 1,
        "value": value(expr),
        "operators": count,
        "operator_kinds": operator_kinds(expr),
        "parity": parity(expr),
        "infix": to_infix(expr),
        **extra,
    }
    return make_record(language, text, str(value(expr)), meta)


def _write_partition(
    writer: SuiteWriter,
    language: Language,
    spec: ArithmeticSuiteSpec,
    partition: str,
    in_domain: list[Expr],
    generalisation: list[tuple[Expr, int]],
    pairs: list[Pair],
) -> None:
    records = [expression_record(language, expr) for expr in in_domain]
    records += [expression_record(language, expr, level=level) for expr, level in generalisation]
    n_dev = round(spec.dev_fraction * len(in_domain))
    split = Split.of(
        range(len(in_domain) - n_dev),
        range(len(in_domain) - n_dev, len(in_domain)),
        range(len(in_domain), len(records)),
        {
            "method": f"CobA {partition}",
            "in_domain": len(in_domain),
            "generalisation": len(generalisation),
        },
    )
    statistics = table1(in_domain, [expr for expr, _ in generalisation])
    split = split.with_meta(statistics=statistics)
    writer.write_records(
        f"{partition}/examples.jsonl",
        records,
        "in-domain expressions (train, dev) then the generalisation set (test)",
    )
    writer.write_json(
        f"{partition}/statistics.json",
        statistics,
        "Table 1: value, operators, mixed parity, swapped and sub-expressions "
        "present in-domain, for the in-domain and generalisation sets",
    )
    aux = {"statistics": f"{partition}/statistics.json"}
    kind = "value"
    if pairs:
        aux["pairs"] = _write_pairs(writer, partition, records, pairs)
        kind = "value-pairs"
    writer.add_test(
        partition,
        kind=kind,
        split=split,
        pool=f"{partition}/examples.jsonl",
        records=records,
        aux=aux,
        description=DESCRIPTIONS[partition],
    )


def _write_pairs(
    writer: SuiteWriter, partition: str, records: list[Record], pairs: list[Pair]
) -> str:
    """Write the partition's evaluation pairs (by record id); return the file's name."""
    ids = {record["input"]: record["id"] for record in records}
    rows = [
        {
            "tuple": p["tuple"],
            "representative": ids[p["representative"]],
            "member": ids[p["member"]],
            "level": p["level"],
        }
        for p in pairs
    ]
    writer.write_records(
        f"{partition}/pairs.jsonl",
        rows,
        "evaluation pairs: an in-domain member and a generalisation member "
        "of one tuple, with the level (swaps / operators evaluated)",
    )
    return f"{partition}/pairs.jsonl"


DESCRIPTIONS = {
    "random": "in-domain and generalisation drawn alike",
    "systematicity": "in-domain: only odd or only even integers; generalisation: both",
    "productivity": "in-domain: at most 3 operators; generalisation: 4 to 9",
    "substitutivity": "one swapped expression per tuple in-domain; others to generalise to",
    "localism": "one expression per sub-expression tuple in-domain; others to generalise to",
}


def table1(in_domain: Sequence[Expr], generalisation: Sequence[Expr]) -> dict[str, Any]:
    """The paper's Table 1 statistics for both sets of a partition.

    % swapped in-domain: the share of a set's expressions with another swapped expression (the
    same operands of some operators swapped) in the in-domain set; % sub-expression in-domain:
    the share with a sub-expression (some inner operators evaluated, at least one left) in the
    in-domain set. A bare number is no sub-expression: almost every value is in-domain as the
    full evaluation of some expression, which would make the share meaningless.

    >>> stats = table1([("+", 2, ("×", 2, 3))], [("+", ("×", 3, 2), 2), ("+", 2, 6)])
    >>> g = stats["generalisation"]
    >>> g["swapped_in_domain_percent"], g["sub_expressions_in_domain_percent"], g["mean_value"]
    (50.0, 0.0, 8.0)
    """
    inside = {to_prefix(expr) for expr in in_domain}
    return {
        name: _statistics(exprs, inside)
        for name, exprs in (("in_domain", in_domain), ("generalisation", generalisation))
    }


def _statistics(exprs: Sequence[Expr], inside: set[str]) -> dict[str, Any]:
    if not exprs:
        return {"expressions": 0}
    counts = [operators(expr) for expr in exprs]
    swapped = sub = 0
    for expr in exprs:
        text = to_prefix(expr)
        swapped += any(t in inside and t != text for t in swap_variants(expr))
        sub += any(t in inside for t in partial_evaluations(expr) if " " in t)
    return {
        "expressions": len(exprs),
        "mean_value": round(sum(map(value, exprs)) / len(exprs), 2),
        "operators": {
            "min": min(counts),
            "mean": round(sum(counts) / len(counts), 2),
            "max": max(counts),
        },
        "mixed_parity_percent": round(
            100 * sum(parity(e) == "mixed" for e in exprs) / len(exprs), 2
        ),
        "swapped_in_domain_percent": round(100 * swapped / len(exprs), 2),
        "sub_expressions_in_domain_percent": round(100 * sub / len(exprs), 2),
    }
