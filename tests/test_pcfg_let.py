import json

import pytest

import symcomp
from symcomp.data.generate import PoolSpec, generate

LET = symcomp.get_language("pcfg-let")


@pytest.mark.parametrize(
    "program, output",
    [
        ("min 5 3 9", "3"),
        ("max 5 3 9", "9"),
        ("remove_repeated 1 2 1 3", "2 3"),
        ("remove_unique 1 2 1 3 2 2", "1 2"),
        ("remove_unique 1 2 3", "E"),
        # Figure 2: each half reversed in place, the middle item kept
        ("mirror 1 2 3 4", "2 1 4 3"),
        ("mirror 1 2 3 4 5", "2 1 3 5 4"),
        ("mirror 7", "7"),
        ("mirror 1 1 2", "1 1 2"),
        # Figure 2: {x} minus {y}, a set
        ("filter 1 2 2 3 , 3 4", "1 2"),
        ("filter 1 2 , 1 2", "E"),
        ("union 3 3 1 , 1 4 4", "3 1 4"),
        ("intersection 1 2 3 2 , 2 3 9", "2 3"),
        ("intersection 1 , 2", "E"),
        ("difference 1 2 3 , 3 4 4", "1 2 4"),
        # the notebook's example of localism unrolling
        ("difference remove_unique min 17 , 23", "23"),
    ],
)
def test_list_semantics(program, output):
    assert LET.interpret(program) == output


@pytest.mark.parametrize(
    "program, output",
    [
        # E is the empty list everywhere (the notebook returns y for intersection(E, y))
        ("intersection E , 5 6", "E"),
        ("intersection min E , 5 6", "E"),
        ("union E , 5 5 6", "5 6"),
        ("filter 5 5 , E", "5"),
        ("filter E , 5", "E"),
        ("difference E , 6 6", "6"),
        ("min E", "E"),
        ("mirror E", "E"),
        ("max 4 E 9", "9"),
    ],
)
def test_empty_list_is_the_empty_list_everywhere(program, output):
    assert LET.interpret(program) == output


NOTEBOOK = symcomp.get_language("pcfg-let-notebook")


@pytest.mark.parametrize(
    "program, output",
    [
        # each case checked against the functions of the authors' notebook
        ("mirror 1 2 3 4", "3 4 1 2"),
        ("mirror 1 2 3 4 5", "4 5 3 1 2"),
        ("filter 1 2 2 3 , 3 4", "1 2 2"),
        # an empty result E passes the other argument through unchanged
        ("intersection remove_unique 1 , 5 6", "5 6"),
        ("union remove_unique 1 , 5 5 6", "5 5 6"),
        ("filter 5 5 , remove_unique 1", "5 5"),
        ("difference remove_unique 1 , 6 6", "6 6"),
        ("filter 3 E 3 , remove_unique 2", "3 E 3"),
        # a literal E is a one-item list: dropped by most functions
        ("intersection E , 5 6", "E"),
        ("min E", "E"),
        ("max 4 E 9", "9"),
        ("mirror E", ""),
        ("union E E , E", ""),
    ],
)
def test_notebook_definitions(program, output):
    assert NOTEBOOK.interpret(program) == output


def test_paper_and_notebook_differ_only_in_their_definitions():
    assert NOTEBOOK.grammar.text == LET.grammar.text and NOTEBOOK.version == LET.version
    assert LET.interpret("min 4 2") == NOTEBOOK.interpret("min 4 2") == "2"
    assert NOTEBOOK.suite_builder() is None and LET.suite_builder() is not None


def test_uniqueness_keys_are_functions_applied_to_literal_lists():
    tree = LET.parse("union min 3 4 , filter 5 , 6")
    assert sorted(LET.uniqueness_keys(tree, ""), key=str) == [
        ("filter", ("5",)),
        ("min", ("3", "4")),
    ]


def test_pool_respects_the_published_rules(tmp_path):
    generate(LET, tmp_path / "pool", PoolSpec(n=5000, seed=1))
    records = [
        json.loads(line) for line in (tmp_path / "pool/examples.jsonl").read_text().splitlines()
    ]
    keys = [
        key for record in records for key in LET.uniqueness_keys(LET.parse(record["input"]), "")
    ]
    assert len(keys) == len(set(keys))
    assert max(record["meta"]["length"] for record in records) <= 50
    assert all(LET.interpret(record["input"]) == record["output"] for record in records)
    first_tokens = {record["input"].split()[0] for record in records}
    assert LET.functions is not None and first_tokens <= LET.functions
    assert all(token != "E" for record in records for token in record["input"].split())
    manifest = json.loads((tmp_path / "pool/manifest.json").read_text())
    assert manifest["filters"]["rejected"]["length"] > 0  # the 50-token cap is counted
