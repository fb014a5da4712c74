"""CobA: the arithmetic language, its partitions and their scores."""

import json
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import symcomp
from symcomp.cli import cli
from symcomp.data.splits import read_split
from symcomp.errors import DataError, ParseError
from symcomp.languages.arithmetic.checking import check_value, sympy_value
from symcomp.languages.arithmetic.expressions import (
    decompositions,
    from_tree,
    operators,
    to_infix,
    to_prefix,
    value,
)
from symcomp.languages.arithmetic.suite import (
    ArithmeticSuiteSpec,
    build,
    partial_evaluations,
    swap_variants,
)
from symcomp.metrics.report import PredictionSource, evaluate_suite

ARITHMETIC = symcomp.get_language("arithmetic")


def draws(n: int, seed: int) -> list[Any]:
    rng = random.Random(seed)
    out: list[Any] = []
    while len(out) < n:
        try:
            out.append(ARITHMETIC.draw(rng, limits=ARITHMETIC.limits()))
        except symcomp.core.sampler.Rejected:
            continue
    return out


def test_generation_follows_the_decomposition_rules():
    for derivation in draws(2000, 0):
        expr = from_tree(derivation.tree)
        assert 0 <= operators(expr) <= 9
        assert 1 <= int(ARITHMETIC.render(ARITHMETIC.evaluate(derivation.tree))) <= 100
        stack = [expr]
        while stack:
            node = stack.pop()
            if isinstance(node, int):
                continue
            operator, left, right = node
            assert left >= 1 if isinstance(left, int) else True
            if operator == "×":  # no trivial factors: primes are never products
                values = [sympy_value(to_infix(side)) for side in (left, right)]
                assert min(values) >= 2
            stack += [left, right]
    assert decompositions(13)["×"] == [] and decompositions(1) == {}


def test_values_agree_with_sympy_on_a_sample():
    for derivation in draws(2000, 1):
        expr = from_tree(derivation.tree)
        ours = int(ARITHMETIC.interpret(" ".join(derivation.tokens)))
        assert sympy_value(to_infix(expr)) == ours


@pytest.mark.slow
def test_values_agree_with_sympy_on_100000_expressions():
    import sympy

    from symcomp.data.pool import draw_pool

    def evaluate(expr: Any) -> Any:  # sympy's arithmetic, not symcomp's semantics
        if isinstance(expr, int):
            return sympy.Integer(expr)
        operator, left, right = expr
        combine = sympy.Add if operator == "+" else sympy.Mul
        return combine(evaluate(left), evaluate(right))

    checked = mismatches = 0
    for accepted in draw_pool(ARITHMETIC, 100_000, seed=7):
        ours = int(ARITHMETIC.render(ARITHMETIC.evaluate(accepted.tree)))
        mismatches += int(evaluate(from_tree(accepted.tree))) != ours
        checked += 1
    assert checked == 100_000 and mismatches == 0


def test_variants():
    swaps = swap_variants(("+", 3, ("×", 2, 2)))
    assert swaps == {"+ 3 × 2 2": 0, "+ × 2 2 3": 1}  # swapping equal operands changes nothing
    partials = partial_evaluations(("×", ("+", 1, 2), 5))
    assert partials == {"× 3 5": 1, "15": 2}


@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("coba") / "suite"
    build(out, ArithmeticSuiteSpec(seed=3, in_domain=1200, generalisation=600, export=False))
    return out


def partition(
    suite: Path, name: str
) -> tuple[list[dict[str, Any]], dict[str, list[dict[str, Any]]]]:
    pool = [json.loads(line) for line in (suite / name / "examples.jsonl").read_text().splitlines()]
    split = read_split(suite / name / "split.json", len(pool))
    return pool, {part: [pool[i] for i in split.part(part)] for part in ("train", "dev", "test")}


@pytest.mark.parametrize(
    "name", ["random", "systematicity", "productivity", "substitutivity", "localism"]
)
def test_partitions_are_disjoint_and_sized(suite: Path, name: str):
    _, parts = partition(suite, name)
    in_domain = {r["input"] for r in parts["train"] + parts["dev"]}
    generalisation = {r["input"] for r in parts["test"]}
    assert len(in_domain) == 1200 and len(generalisation) == 600
    assert not in_domain & generalisation
    assert len(parts["dev"]) == 120


def test_systematicity_and_productivity_invariants(suite: Path):
    _, parts = partition(suite, "systematicity")
    assert all(r["meta"]["parity"] != "mixed" for r in parts["train"] + parts["dev"])
    assert all(r["meta"]["parity"] == "mixed" for r in parts["test"])
    _, parts = partition(suite, "productivity")
    assert max(r["meta"]["operators"] for r in parts["train"] + parts["dev"]) <= 3
    assert {r["meta"]["operators"] for r in parts["test"]} <= set(range(4, 10))
    statistics = json.loads((suite / "systematicity/statistics.json").read_text())
    assert statistics["in_domain"]["mixed_parity_percent"] == 0.0
    assert statistics["generalisation"]["mixed_parity_percent"] == 100.0


@pytest.mark.parametrize(
    "name, variants", [("substitutivity", swap_variants), ("localism", partial_evaluations)]
)
def test_tuples_share_one_value_and_differ_as_their_level_says(
    suite: Path, name: str, variants: Any
):
    pool, parts = partition(suite, name)
    by_id = {r["id"]: r for r in pool}
    pairs = [json.loads(line) for line in (suite / name / "pairs.jsonl").read_text().splitlines()]
    assert len(pairs) == len(parts["test"]) // 2
    test_ids = {r["id"] for r in parts["test"]}
    assert all(p["representative"] in test_ids and p["member"] in test_ids for p in pairs)
    in_domain = [r["input"] for r in parts["train"] + parts["dev"]]

    def members(text: str) -> set[str]:  # the tuple of an expression (bare numbers aside)
        return {t for t in variants(from_tree(ARITHMETIC.parse(text))) if " " in t}

    tuples = {r: members(r) for r in in_domain}
    for pair in pairs:
        representative, member = by_id[pair["representative"]], by_id[pair["member"]]
        rep_expr = from_tree(ARITHMETIC.parse(representative["input"]))
        member_expr = from_tree(ARITHMETIC.parse(member["input"]))
        assert sympy_value(to_infix(rep_expr)) == sympy_value(to_infix(member_expr))
        assert variants(rep_expr)[member["input"]] == pair["level"] >= 1
        if name == "localism":
            assert operators(rep_expr) - operators(member_expr) == pair["level"]
    # at most one member of any tuple in-domain, and no generalisation tuple meets in-domain
    inside = set(in_domain)
    for representative, found in tuples.items():
        assert not (found - {representative}) & inside
    assert not any(members(r["input"]) & inside for r in parts["test"])
    statistics = json.loads((suite / name / "statistics.json").read_text())["generalisation"]
    key = "swapped" if name == "substitutivity" else "sub_expressions"
    assert statistics[f"{key}_in_domain_percent"] == 0.0


def test_scores_oracle_and_baselines(suite: Path):
    oracle = evaluate_suite(suite, PredictionSource.oracle())
    for result in oracle["tests"].values():
        assert result["rmse"] == 0.0 and result["accuracy"] == 1.0
        if "pairs" in result:
            assert result["pairs"]["agreement"] == result["pairs"]["harmonic"] == 0.0
    from symcomp.metrics.model_interface import random_guess

    guess = evaluate_suite(suite, PredictionSource.of_model("random-guess", random_guess))
    for name, result in guess["tests"].items():
        assert 36 < result["rmse"] < 43, name
    assert set(guess["tests"]["substitutivity"]["pairs"]["by_level"]) >= {"1", "2"}
    assert set(guess["tests"]["localism"]["pairs"]["by_level"]) == {"1"}  # within 2..3 operators


def test_partitions_keep_their_operator_bounds(suite: Path):
    from symcomp.languages.arithmetic.suite import BOUNDS

    for name, (inside, outside) in BOUNDS.items():
        _, parts = partition(suite, name)
        for rows, (low, high) in (
            (parts["train"] + parts["dev"], inside),
            (parts["test"], outside),
        ):
            assert all(low <= r["meta"]["operators"] <= high for r in rows), name


def test_the_pool_distribution_is_that_of_a_real_pool_of_unique_expressions():
    from collections import Counter

    from symcomp.languages.arithmetic.pool import PoolDistribution, draw_expression

    size, rng = 20_000, random.Random(7)
    real: dict[str, Any] = {}
    while len(real) < size:  # the paper's way: draw until the pool has `size` unique ones
        try:
            expr, _ = draw_expression(rng)  # at most 9 operators
        except ValueError:
            continue
        real.setdefault(to_prefix(expr), expr)
    pool = PoolDistribution.calibrated(size, random.Random(0), samples=20_000)
    virtual = [pool.draw(rng) for _ in range(size)]
    real_ops = Counter(operators(e) for e in real.values())
    virtual_ops = Counter(operators(e) for e in virtual)
    for count in range(10):
        assert abs(real_ops[count] - virtual_ops[count]) / size < 0.012, count
    real_mean = sum(map(value, real.values())) / size
    assert abs(real_mean - sum(map(value, virtual)) / size) < 1.0


def test_table1_is_printed_beside_the_paper():
    from symcomp.languages.arithmetic.table1 import compare, format_comparison

    statistics = {
        "random": {"generalisation": {"mean_value": 70.0, "swapped_in_domain_percent": 1.2}},
        "substitutivity": {"generalisation": {"swapped_in_domain_percent": 0.0}},
    }
    cells = {(c.partition, c.statistic): c for c in compare(statistics)}
    assert cells["random", "mean value"].within is True
    assert cells["random", "% swapped in-domain"].within is True  # 1.2 vs 1.3: within 10 %
    assert cells["substitutivity", "% swapped in-domain"].within is True
    assert "70.00 (66, +6.1%)" in format_comparison(statistics)


def test_cli_suite_and_evaluate(tmp_path: Path):
    runner = CliRunner()
    result = runner.invoke(
        cli,
        [
            "-q",
            "suite",
            "arithmetic",
            "--out",
            str(tmp_path / "s"),
            "--in-domain",
            "300",
            "--generalisation",
            "150",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "Table 1" in result.output and "systematicity" in result.output
    result = runner.invoke(cli, ["evaluate", str(tmp_path / "s"), "--model", "constant-mean"])
    assert result.exit_code == 0 and "agreement RMSE" in result.output


@pytest.mark.parametrize(
    "expression, notation, error, message",
    [
        ("+ 2", "prefix", ParseError, "ends too early"),
        ("+ 2 3 4", "prefix", ParseError, "unexpected '4' at line 1, column 7"),
        ("+ 2 a", "prefix", ParseError, "unexpected character 'a'"),
        ("× 20 50", "prefix", DataError, "value 1000, outside"),
        ("2 + x", "infix", ParseError, "unexpected character 'x' at column 5"),
    ],
)
def test_malformed_expressions_are_reported_precisely(expression, notation, error, message):
    with pytest.raises(error, match=message):
        check_value(expression, "5", notation=notation)


def test_check_value_agreement():
    assert check_value("2 × (14 + 3)", "34", notation="infix").agrees
    assert not check_value("+ 14 3", "18").agrees
    assert to_prefix(from_tree(ARITHMETIC.parse("+ 14 3"))) != "+ 3 14"


def test_verify_checks_values_with_sympy(tmp_path: Path):
    data = tmp_path / "data.tsv"
    data.write_text("+ 2 3\t5\n2 × (14 + 3)\t34\n+ 2 3\t6\n+ 2\t2\n× 20 50\t1000\n")
    result = CliRunner().invoke(cli, ["verify", str(data), "--language", "arithmetic", "--json"])
    summary = json.loads(result.output)["summary"]
    assert summary["agree"] == 2 and summary["disagree"] == 1
    assert summary["unparsable"] == 1 and summary["invalid"] == 1
    assert result.exit_code != 0
    good = tmp_path / "good.tsv"
    good.write_text("+ 2 3\t5\n2 × (14 + 3)\t34\n")
    assert CliRunner().invoke(cli, ["verify", str(good), "--language", "arithmetic"]).exit_code == 0
