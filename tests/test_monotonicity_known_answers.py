"""Hand-written known-answer problems (provers/monotonicity/known_answers.tsv) with the default
portfolio (derivations and built worlds first), z3 and E."""

import pytest

import symcomp
from symcomp.core.resources import prover_file
from symcomp.languages.monotonicity.language import read_axioms
from symcomp.logic.backends import make_prover
from symcomp.logic.prover import Problem

FILE = "monotonicity/known_answers.tsv"


def known_answers() -> list[dict[str, str]]:
    lines = [
        line
        for line in prover_file(FILE).read_text(encoding="utf-8").splitlines()
        if line and not line.startswith("#")
    ]
    header = lines[0].split("\t")
    return [dict(zip(header, line.split("\t"), strict=True)) for line in lines[1:]]


PROBLEMS = known_answers()


def test_the_file_holds_the_papers_examples_and_the_embedded_cases():
    ids = {problem["id"] for problem in PROBLEMS}
    assert {f"paper-{number}" for number in range(4, 10)} <= ids
    by_id = {problem["id"]: problem for problem in PROBLEMS}
    issue = by_id["issue-embedded"]
    assert issue["premise"] == "No animals which followed some dogs ran."
    assert issue["hypothesis"] == "No animals which followed some animals ran."
    assert issue["label"] == "neutral" and by_id["issue-embedded-reverse"]["label"] == "entailment"
    assert len(ids) == len(PROBLEMS) >= 40
    assert {problem["label"] for problem in PROBLEMS} == {"entailment", "neutral", "contradiction"}


@pytest.fixture(scope="module")
def problems():
    language = symcomp.get_language("monotonicity")
    axioms = read_axioms()
    return {
        row["id"]: Problem(
            (("premise", language.meaning(row["premise"])),),
            language.meaning(row["hypothesis"]),
            axioms,
        )
        for row in PROBLEMS
    }


@pytest.mark.parametrize("prover", ["portfolio", "z3", "eprover"])
@pytest.mark.parametrize("row", PROBLEMS, ids=[row["id"] for row in PROBLEMS])
def test_known_answer(problems, prover, row):
    verdict = make_prover(prover).prove(problems[row["id"]])
    assert verdict.label.value == row["label"].upper(), (row, verdict)
    if row["uses"] != "-":
        assert set(row["uses"].split(",")) <= set(verdict.used), verdict.used
