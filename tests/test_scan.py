import json

import pytest

import symcomp
from symcomp.data.generate import PoolSpec, generate

SCAN = symcomp.get_language("scan")


def published_pairs(peers) -> set[tuple[str, str]]:
    pairs = set()
    for line in (peers / "scan" / "tasks.txt").read_text().splitlines():
        command, actions = line.removeprefix("IN: ").split(" OUT: ")
        pairs.add((command, actions))
    return pairs


def test_enumeration_is_exactly_the_published_task_file(peers, tmp_path):
    generate(SCAN, tmp_path / "scan", PoolSpec(enumerate_all=True))
    records = [
        json.loads(line) for line in (tmp_path / "scan/examples.jsonl").read_text().splitlines()
    ]
    ours = {(record["input"], record["output"]) for record in records}
    assert len(records) == len(ours) == 20_910
    assert ours == published_pairs(peers)


def test_size_is_known_without_enumerating():
    assert SCAN.sampler.count() == 20_910


@pytest.mark.parametrize(
    "command, actions",
    [
        ("turn left", "I_TURN_LEFT"),
        ("walk opposite right", "I_TURN_RIGHT I_TURN_RIGHT I_WALK"),
        ("turn around left", "I_TURN_LEFT I_TURN_LEFT I_TURN_LEFT I_TURN_LEFT"),
        ("look thrice after run", "I_RUN I_LOOK I_LOOK I_LOOK"),
        ("jump left and walk twice", "I_TURN_LEFT I_JUMP I_WALK I_WALK"),
    ],
)
def test_interpretation(command, actions):
    assert SCAN.interpret(command) == actions


def test_rule_application_dag_names_the_paper_rules():
    dag = SCAN.derivation_dag("jump around left twice")
    assert [rule for _, rule in dag.nodes(data="rule")] == [
        "sem.twice",
        "sem.u_around_left",
        "sem.jump",
        "jump",
        "around",
        "u_left",
        "twice",
        "single",
    ]
    # ⟦u opposite left⟧ = ⟦turn opposite left⟧ ⟦u⟧: both rule applications are nodes
    opposite = SCAN.derivation_dag("walk opposite right")
    assert sorted(opposite.successors(0)) == [1, 2, 4, 5, 6, 7]  # once, single pass it on
    assert opposite.nodes[1]["rule"] == "sem.turn_opposite_right"


def test_the_pool_has_the_papers_38_rules():
    from symcomp.languages.scan.dag import INTERPRETATION_RULES, PHRASE_RULES

    seen: set[str] = set()
    for derivation in SCAN.enumerate():
        seen.update(node["rule"] for node in SCAN.node_link(derivation.tree)["nodes"])
    assert len(PHRASE_RULES) == 18 and len(INTERPRETATION_RULES) == 20
    assert seen == set(PHRASE_RULES) | set(INTERPRETATION_RULES)


def test_paper_patterns_merge_the_papers_word_classes():
    patterns = SCAN.pattern_abstraction()
    assert patterns is not None
    assert patterns.input_pattern("jump opposite right thrice after turn left") == (
        "U A D T after turn D"
    )
    assert patterns.output_pattern("I_TURN_RIGHT I_JUMP I_TURN_LEFT") == "D U D"
