"""The portfolio prover: finite worlds as certificates, never as proofs; verdicts as z3's."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import symcomp
from symcomp.cli import cli
from symcomp.languages.monotonicity.pairs import PairSpec, generate_pairs
from symcomp.logic.finite import Structure, domain_sizes, find_model, holds
from symcomp.logic.lambda_terms import parse_formula as f
from symcomp.logic.portfolio import PortfolioProver
from symcomp.logic.prover import HYPOTHESIS, NEGATED_HYPOTHESIS, Label, Problem
from symcomp.logic.prover_z3 import Z3Prover
from symcomp.verify import VerifyOptions, checker_for

pytest.importorskip("z3")
LANGUAGE = symcomp.get_language("monotonicity")
AXIOMS = getattr(checker_for(LANGUAGE, VerifyOptions()), "axioms")  # noqa: B009 - NLI checker
PORTFOLIO = PortfolioProver()
Z3 = Z3Prover()


def count(n: int, predicate: str, also: str | None = None) -> tuple[object, ...]:
    body: tuple[object, ...] = ("pred", predicate, (("var", "x"),))
    if also is not None:
        body = ("and", (body, ("pred", also, (("var", "x"),))))
    return ("count", n, "x", body)


def problem_of(premise: str, hypothesis: str) -> Problem:
    return Problem((("premise", LANGUAGE.meaning(premise)),), LANGUAGE.meaning(hypothesis), AXIOMS)


def test_the_evaluator_follows_the_textbook_definitions():
    world = Structure(3, {"emma": 2}, {"dog": frozenset({(0,), (1,)}), "saw": frozenset({(2, 0)})})
    assert holds(f("exists x.(dog(x) & exists y.saw(y,x))"), world)
    assert not holds(f("all x.dog(x)"), world)
    assert holds(f("exists x.saw(emma,x)"), world) and not holds(f("dog(emma)"), world)
    assert holds(count(2, "dog"), world) and not holds(count(3, "dog"), world)
    assert holds(("not", count(3, "dog")), world)
    assert world.describe() == "a world of 3 things: dog = {1, 2}, saw = {(3,1)}, emma = 3"
    assert world.to_json()["relations"]["saw"] == [[3, 1]]


def test_a_domain_too_small_finds_no_model_and_the_portfolio_does_not_take_that_as_proof():
    premise = count(10, "dog", "ran")
    hypothesis = count(11, "dog", "ran")
    # ten dogs that ran need ten things: no world of up to 8 things satisfies the premise
    assert find_model([premise, ("not", hypothesis)], Z3.solve_ground, range(1, 9)) is None
    assert domain_sizes([premise])[0] == 10
    verdict = PORTFOLIO.prove(Problem((("premise", premise),), hypothesis))
    assert verdict.label is Label.NEUTRAL  # neither follows: not an "entailment"
    countermodel = dict(verdict.models)[NEGATED_HYPOTHESIS]
    assert countermodel.size >= 10 and holds(premise, countermodel)
    assert not holds(hypothesis, countermodel)


def test_entailments_come_with_their_unsat_core_and_no_countermodel():
    verdict = PORTFOLIO.prove(problem_of("Some dog ran.", "Some animal ran."))
    assert verdict.label is Label.ENTAILMENT
    assert "premise" in verdict.used and NEGATED_HYPOTHESIS in verdict.used
    assert NEGATED_HYPOTHESIS not in dict(verdict.models)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), depth=st.integers(1, 4))
def test_every_certificate_satisfies_its_formulas(seed: int, depth: int):
    pair = next(iter(generate_pairs(PairSpec(n=2, seed=seed, depths=(depth,)))))
    problem = problem_of(pair.premise, pair.hypothesis)
    verdict = PORTFOLIO.prove(problem)
    assert verdict.label is not Label.UNKNOWN
    background = [formula for _name, formula in problem.relevant_axioms()]
    for name, world in verdict.models:
        assert all(holds(axiom, world) for axiom in background)
        assert holds(problem.premises[0][1], world)
        assert holds(problem.hypothesis, world) == (name == HYPOTHESIS)
    if verdict.label in (Label.NEUTRAL, Label.CONTRADICTION):
        assert NEGATED_HYPOTHESIS in dict(verdict.models)  # every non-entailment is shown
    if verdict.label is Label.NEUTRAL:
        assert HYPOTHESIS in dict(verdict.models)


def test_verdicts_equal_z3s_wherever_z3_decides():
    pairs = list(generate_pairs(PairSpec(n=150, seed=5, depths=(1, 2, 3, 4))))
    for pair in pairs:
        problem = problem_of(pair.premise, pair.hypothesis)
        alone = Z3.prove(problem)
        if alone.label is not Label.UNKNOWN:
            assert PORTFOLIO.prove(problem).label is alone.label, pair


@pytest.fixture(scope="module")
def pool(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("explain") / "pool"
    result = CliRunner().invoke(
        cli, ["-q", "generate", "monotonicity", "--n", "10", "--seed", "0", "--out", str(folder)]
    )
    assert result.exit_code == 0, result.output
    return folder


def test_explain_prints_one_rows_certificate(pool: Path):
    records = [json.loads(line) for line in (pool / "examples.jsonl").read_text().splitlines()]
    neutral = next(r for r in records if r["label"] == "non-entailment")
    result = CliRunner().invoke(cli, ["verify", str(pool), "--explain", neutral["id"]])
    assert result.exit_code == 0, result.output
    assert "countermodel (premise true, hypothesis false):" in result.output
    assert "a world of" in result.output
    result = CliRunner().invoke(cli, ["verify", str(pool), "--explain", neutral["id"], "--json"])
    data = json.loads(result.output)
    assert data["models"][NEGATED_HYPOTHESIS]["size"] >= 1
    entailed = next(r for r in records if r["label"] == "entailment")
    result = CliRunner().invoke(cli, ["verify", str(pool), "--explain", entailed["id"]])
    assert "proof uses: premise" in result.output
    result = CliRunner().invoke(cli, ["verify", str(pool), "--explain", "no-such-row"])
    assert result.exit_code == 2 and "no row of" in result.output


# a row of Yanaka et al.'s published pipeline (depth 2, seed 20): "monkey" repeated makes the
# premise inconsistent (a monkey that cleaned no monkey cleaned a monkey)
VACUOUS = (
    "Some monkey which a few monkeys which cleaned no monkey cleaned ran.",
    "Some monkey which a few monkeys which cleaned no monkey that liked flowers cleaned ran.",
)


def test_premises_without_a_model_are_decided_and_listed(tmp_path: Path):
    data = tmp_path / "vacuous.tsv"
    data.write_text(
        "premise\thypothesis\tlabel\n"
        f"{VACUOUS[0]}\t{VACUOUS[1]}\tentailment\n"
        f"{VACUOUS[0]}\t{VACUOUS[1]}\tneutral\n"
    )
    result = CliRunner().invoke(cli, ["verify", str(data), "--language", "monotonicity"])
    assert result.exit_code == 1, result.output  # the neutral gold is wrong: both follow
    assert "agree, but the premises have no model (1):" in result.output
    assert "found INCONSISTENT" in result.output
    result = CliRunner().invoke(cli, ["verify", str(data), "--language", "monotonicity", "--json"])
    summary = json.loads(result.output)["summary"]
    assert (summary["agree"], summary["disagree"], summary["unknown"]) == (1, 1, 0)
    assert summary["inconsistent_premises"] == 1
