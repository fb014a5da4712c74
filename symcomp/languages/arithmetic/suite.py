"""The CobA partitions: in-domain (train/dev) and generalisation sets per compositional aspect.

Each partition has an in-domain set (default 24,000 expressions, split 90/10 into train and
dev) and a disjoint generalisation set (default 12,000, the test part):

random
    no control.
systematicity
    in-domain expressions use only odd or only even integers; generalisation ones mix both.
productivity
    in-domain: at most 3 operators; generalisation: 4 to 9.
substitutivity
    tuples of *swapped expressions* (the same value, differing by swapping the operands of
    some operators); the in-domain set holds one expression per tuple, the generalisation set
    other members, each paired with its tuple's in-domain member and the number of swaps.
localism
    tuples of *sub-expressions* (the same value, differing by evaluating some inner operators
    first: ``+ + 2 5 × 2 4`` → ``+ 7 × 2 4`` → ``+ 7 8``); level = number of operators
    evaluated; same protocol as substitutivity.

Every partition records the paper's Table 1 statistics for both sets: mean value, min/mean/max
number of operators, % expressions mixing odds and evens, % with a swapped expression and % with
a sub-expression present in-domain.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from symcomp._util import Record
from symcomp.core.language import Language
from symcomp.core.registry import get_language
from symcomp.core.sampler import Rejected
from symcomp.data.splits import Split
from symcomp.errors import GenerationError
from symcomp.languages.arithmetic.expressions import (
    Expr,
    from_tree,
    operator_kinds,
    operators,
    parity,
    to_infix,
    to_prefix,
    value,
)
from symcomp.suites.builder import SuiteBuilder, option
from symcomp.suites.common import make_record, rng_for
from symcomp.suites.folder import SuiteWriter

PARTITIONS = ("random", "systematicity", "productivity", "substitutivity", "localism")
MAX_DRAWS_PER_EXPRESSION = 2_000


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
    dev_fraction: float = 0.1
    productivity_split: int = 3
    export: bool = option(True, "Write .tsv/.src/.tgt files per split.")

    def describe(self) -> dict[str, Any]:
        return {key: getattr(self, key) for key in self.__dataclass_fields__}


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
    """The CobA paper's Table 1, one row per partition and set."""
    header = (
        f"{'partition':<15}{'set':<16}{'mean value':>11}{'ops min/mean/max':>18}"
        f"{'% mixed':>9}{'% swapped in':>14}{'% sub-expr in':>15}"
    )
    lines = ["", "Table 1", header, "-" * len(header)]
    for name, entry in manifest["tests"].items():
        for part, stats in entry["meta"]["statistics"].items():
            ops = stats["operators"]
            lines.append(
                f"{name:<15}{part:<16}{stats['mean_value']:>11.2f}"
                f"{ops['min']:>8}/{ops['mean']:>5.2f}/{ops['max']:<3}"
                f"{stats['mixed_parity_percent']:>9.1f}{stats['swapped_in_domain_percent']:>14.1f}"
                f"{stats['sub_expressions_in_domain_percent']:>15.1f}"
            )
    return "\n".join(lines)


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
        for partition in PARTITIONS:
            say(f"building {partition}")
            builder = _PartitionBuilder(language, spec, partition)
            in_domain, generalisation, pairs = builder.build()
            _write_partition(writer, language, spec, partition, in_domain, generalisation, pairs)
        header = {
            "suite": "arithmetic",
            "language": language.name,
            "grammar_version": language.version,
            "grammar_sha256": language.grammar.sha256,
            "seed": spec.seed,
            "parameters": spec.describe(),
        }
        return writer.finish(header, "CobA arithmetic partitions", INTRODUCTION)


INTRODUCTION = (
    "The five CobA partitions built by `symcomp suite arithmetic`: per partition an in-domain "
    "set (train/dev) and a generalisation set (test), as index lists over the partition's "
    "`examples.jsonl`. The task is the value of an expression (1..100). Scores: "
    "`symcomp evaluate <folder>` (RMSE; agreement for substitutivity and localism)."
)

Pair = dict[str, Any]


class _PartitionBuilder:
    """Draws unique expressions and sorts them into one partition's two sets."""

    def __init__(self, language: Language, spec: ArithmeticSuiteSpec, partition: str) -> None:
        self.language = language
        self.spec = spec
        self.partition = partition
        self.rng = rng_for(spec.seed, f"arithmetic-{partition}")
        self.limits = language.limits()

    def expressions(self) -> Iterator[Expr]:
        """An endless stream of distinct random expressions."""
        seen: set[str] = set()
        budget = MAX_DRAWS_PER_EXPRESSION * (self.spec.in_domain + self.spec.generalisation)
        for _ in range(budget):
            try:
                derivation = self.language.draw(self.rng, limits=self.limits)
            except Rejected:
                continue
            expr = from_tree(derivation.tree)
            text = to_prefix(expr)
            if text not in seen:
                seen.add(text)
                yield expr
        raise GenerationError(
            f"the {self.partition} partition could not be filled in {budget:,} draws; "
            f"ask for smaller sets (`in_domain`, `generalisation`)."
        )

    def build(self) -> tuple[list[Expr], list[tuple[Expr, int]], list[Pair]]:
        if self.partition in ("substitutivity", "localism"):
            return self.tuples()
        wanted = {"in": self.spec.in_domain, "out": self.spec.generalisation}
        sets: dict[str, list[Expr]] = {"in": [], "out": []}
        for expr in self.expressions():
            side = self.side(expr)
            if side is not None and len(sets[side]) < wanted[side]:
                sets[side].append(expr)
            if all(len(sets[s]) == wanted[s] for s in sets):
                break
        return sets["in"], [(expr, 0) for expr in sets["out"]], []

    def side(self, expr: Expr) -> str | None:
        """Which set an expression belongs to (None: neither)."""
        if self.partition == "random":
            return (
                "in"
                if self.rng.random()
                < self.spec.in_domain / (self.spec.in_domain + self.spec.generalisation)
                else "out"
            )
        if self.partition == "systematicity":
            return "out" if parity(expr) == "mixed" else "in"
        count = operators(expr)
        return "in" if count <= self.spec.productivity_split else "out"

    def tuples(self) -> tuple[list[Expr], list[tuple[Expr, int]], list[Pair]]:
        """One member per tuple in-domain (the drawn expression); other members to test.

        No in-domain expression belongs to another in-domain expression's tuple; tuples may
        share members (every expression of value 15 evaluates to `15`), but each member is
        used at most once in the generalisation set.
        """
        variants = swap_variants if self.partition == "substitutivity" else partial_evaluations
        in_domain: list[Expr] = []
        inside: set[str] = set()
        covered: set[str] = set()
        keys: set[str] = set()
        options: list[dict[str, int]] = []
        for expr in self.expressions():
            if len(in_domain) == self.spec.in_domain:
                break
            text = to_prefix(expr)
            others = {t: level for t, level in variants(expr).items() if level > 0}
            key = canonical(expr) if self.partition == "substitutivity" else text
            if not others or key in keys or text in covered or inside & others.keys():
                continue
            keys.add(key)
            inside.add(text)
            covered.update(others)
            in_domain.append(expr)
            options.append(others)
        return in_domain, *self.members(in_domain, options)

    def members(
        self, in_domain: list[Expr], options: list[dict[str, int]]
    ) -> tuple[list[tuple[Expr, int]], list[Pair]]:
        used: set[str] = set()
        generalisation: list[tuple[Expr, int]] = []
        pairs: list[Pair] = []
        order = list(range(len(in_domain)))
        self.rng.shuffle(order)
        for index in order:
            if len(generalisation) == self.spec.generalisation:
                break
            free = sorted(t for t in options[index] if t not in used)
            if not free:
                continue
            text = free[int(self.rng.random() * len(free))]
            used.add(text)
            level = options[index][text]
            generalisation.append((_parse(self.language, text), level))
            pairs.append(
                {
                    "tuple": index,
                    "representative": to_prefix(in_domain[index]),
                    "member": text,
                    "level": level,
                }
            )
        if len(generalisation) < self.spec.generalisation:
            raise GenerationError(
                f"only {len(generalisation):,} generalisation expressions for the "
                f"{self.partition} partition; ask for fewer (`generalisation`)."
            )
        return generalisation, pairs


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
        aux["pairs"] = f"{partition}/pairs.jsonl"
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


DESCRIPTIONS = {
    "random": "in-domain and generalisation drawn alike",
    "systematicity": "in-domain: only odd or only even integers; generalisation: both",
    "productivity": "in-domain: at most 3 operators; generalisation: 4 to 9",
    "substitutivity": "one swapped expression per tuple in-domain; others to generalise to",
    "localism": "one expression per sub-expression tuple in-domain; others to generalise to",
}


def table1(in_domain: Sequence[Expr], generalisation: Sequence[Expr]) -> dict[str, Any]:
    """The paper's Table 1 statistics for both sets of a partition."""
    inside = {to_prefix(expr) for expr in in_domain}
    below = {text for expr in in_domain for text in partial_evaluations(expr)}
    return {
        name: _statistics(exprs, inside, below)
        for name, exprs in (("in_domain", in_domain), ("generalisation", generalisation))
    }


def _statistics(exprs: Sequence[Expr], inside: set[str], below: set[str]) -> dict[str, Any]:
    if not exprs:
        return {"expressions": 0}
    counts = [operators(expr) for expr in exprs]
    swapped = sub = 0
    for expr in exprs:
        text = to_prefix(expr)
        swapped += any(t in inside and t != text for t in swap_variants(expr))
        sub += text in below or any(t in inside for t in partial_evaluations(expr))
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
