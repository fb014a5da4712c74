"""Provers return verdicts: labels, unsat cores, unknown with a reason; z3 and E agree."""

import pytest

from symcomp.errors import SymcompError
from symcomp.logic.backends import make_prover
from symcomp.logic.fol import to_smtlib, to_tptp
from symcomp.logic.lambda_terms import parse_formula as f
from symcomp.logic.prover import Label, Problem, Refutation, decide
from symcomp.logic.prover_e import EProver

AXIOMS = (
    ("dog_is_animal", f("all x.(dog(x) -> animal(x))")),
    ("cat_is_animal", f("all x.(cat(x) -> animal(x))")),
    ("wolf_is_beast", f("all x.(wolf(x) -> beast(x))")),
)


def problem(premise: str, hypothesis: str, axioms=AXIOMS) -> Problem:
    return Problem((("premise", f(premise)),), f(hypothesis), axioms)


CASES = [
    ("exists x.(dog(x) & ran(x))", "exists x.(animal(x) & ran(x))", Label.ENTAILMENT),
    ("exists x.(animal(x) & ran(x))", "exists x.(dog(x) & ran(x))", Label.NEUTRAL),
    ("exists x.(dog(x) & ran(x))", "-exists x.(animal(x) & ran(x))", Label.CONTRADICTION),
    (
        "-exists x.(animal(x) & exists y.(dog(y) & followed(x,y)) & ran(x))",
        "-exists x.(animal(x) & exists y.(animal(y) & followed(x,y)) & ran(x))",
        Label.NEUTRAL,
    ),
    (
        "-exists x.(animal(x) & exists y.(animal(y) & followed(x,y)) & ran(x))",
        "-exists x.(animal(x) & exists y.(dog(y) & followed(x,y)) & ran(x))",
        Label.ENTAILMENT,
    ),
]


@pytest.mark.parametrize("name", ["z3", "eprover"])
@pytest.mark.parametrize("premise, hypothesis, label", CASES)
def test_both_backends_decide(name, premise, hypothesis, label):
    verdict = make_prover(name).prove(problem(premise, hypothesis))
    assert verdict.label is label, verdict
    assert verdict.prover == name and verdict.seconds > 0 and verdict.reason == ""


@pytest.mark.parametrize("name", ["z3", "eprover"])
def test_the_unsat_core_names_what_the_proof_used(name):
    prover = make_prover(name)
    verdict = prover.prove(problem("exists x.(dog(x) & ran(x))", "exists x.(animal(x) & ran(x))"))
    assert verdict.used == ("dog_is_animal", "premise", "negated_hypothesis")
    contradiction = prover.prove(
        problem("exists x.(dog(x) & ran(x))", "-exists x.(animal(x) & ran(x))")
    )
    assert contradiction.used == ("dog_is_animal", "premise", "hypothesis")
    neutral = prover.prove(problem("exists x.(cat(x) & ran(x))", "exists x.(dog(x) & ran(x))"))
    assert neutral.used == ()


def test_only_axioms_over_the_problems_predicates_are_given():
    relevant = problem("exists x.(dog(x) & ran(x))", "exists x.(animal(x) & ran(x))")
    assert [name for name, _axiom in relevant.relevant_axioms()] == ["dog_is_animal"]


def test_an_undecidable_looking_problem_is_unknown_with_a_reason():
    # a strict order without a maximum has only infinite models: the entailment check cannot
    # find a finite countermodel and the problem runs out of resource units (or z3 gives up)
    premise = (
        "(all x.(-less(x,x)) & all x.all y.all z.((less(x,y) & less(y,z)) -> less(x,z)) & "
        "all x.exists y.less(x,y))"
    )
    verdicts = [
        make_prover("z3", rlimit=300_000).prove(problem(premise, "exists x.qq(x)", ()))
        for _ in range(2)
    ]
    assert verdicts[0].label is Label.UNKNOWN
    assert verdicts[0].reason.startswith(("resource limit reached (rlimit 300,000", "z3:"))
    # the budget counts z3's deterministic steps, not time: the same answer every run
    assert (verdicts[0].label, verdicts[0].reason) == (verdicts[1].label, verdicts[1].reason)


def test_the_wall_clock_safety_net_is_reported_as_such():
    premise = (
        "(all x.(-less(x,x)) & all x.all y.all z.((less(x,y) & less(y,z)) -> less(x,z)) & "
        "all x.exists y.less(x,y))"
    )
    prover = make_prover("z3", rlimit=10**12, timeout_ms=200)
    verdict = prover.prove(problem(premise, "exists x.qq(x)", ()))
    assert verdict.label is Label.UNKNOWN
    assert verdict.reason.startswith(("timeout after 200 ms (the wall-clock safety net)", "z3:"))


@pytest.mark.parametrize("name", ["z3", "portfolio"])
def test_inconsistent_premises_are_decided_as_such_not_entailment(name):
    verdict = make_prover(name).prove(problem("(pp & -pp)", "qq"))
    assert verdict.label is Label.INCONSISTENT and "no model" in verdict.reason
    assert "premise" in verdict.used  # the core names what is inconsistent


def test_a_fresh_context_per_problem_gives_the_same_answer_twice():
    prover = make_prover("z3")
    case = problem(*CASES[4][:2])
    assert prover.prove(case).label is prover.prove(case).label is Label.ENTAILMENT


@pytest.mark.parametrize(
    "first, second, label",
    [
        (Refutation.PROVED, Refutation.CONSISTENT, Label.ENTAILMENT),
        (Refutation.CONSISTENT, Refutation.PROVED, Label.CONTRADICTION),
        (Refutation.CONSISTENT, Refutation.CONSISTENT, Label.NEUTRAL),
        (Refutation.PROVED, Refutation.PROVED, Label.INCONSISTENT),
        (Refutation.UNKNOWN, Refutation.CONSISTENT, Label.UNKNOWN),
        (Refutation.PROVED, Refutation.UNKNOWN, Label.UNKNOWN),
    ],
)
def test_decide_combines_the_two_refutations(first, second, label):
    assert decide(first, second) is label


def test_formula_printers():
    formula = f("all x.(dog(x) -> exists y.(loves(x,y) | (x = y)))")
    assert to_tptp(formula) == "(![X1]: (dog(X1) => (?[X2]: (loves(X1,X2) | (X1 = X2)))))"
    assert to_smtlib(formula) == (
        "(forall ((x1 E)) (=> (|dog| x1) (exists ((x2 E)) (or (|loves| x1 x2) (= x1 x2)))))"
    )


def test_unknown_prover_and_missing_binary_are_user_errors(tmp_path):
    with pytest.raises(SymcompError, match=r"unknown prover 'z4'; provers: portfolio, z3, eprover"):
        make_prover("z4")
    with pytest.raises(SymcompError, match="`timeout_ms` must be at least 1 ms"):
        make_prover("z3", timeout_ms=0)
    with pytest.raises(SymcompError, match="`rlimit` must be at least 1"):
        make_prover("eprover", rlimit=0)
    broken = EProver(binary=str(tmp_path / "no-eprover"))
    with pytest.raises(SymcompError, match="cannot run the E prover"):
        broken.prove(problem(*CASES[0][:2]))
