"""The cfq language: CFQ's target format, semantics, extended DAG and subsampled pools."""

import json
import random
from collections import Counter

import pytest

import symcomp
from symcomp.core.sampler import Rejected
from symcomp.data.generate import PoolSpec, write_pool
from symcomp.dbca.compounds import Dag, compound_counts
from symcomp.dbca.features import dag_features
from symcomp.dbca.subsample import complexity_quotas, subsample
from symcomp.languages.cfq.dag import cfq_node_link
from symcomp.languages.cfq.knowledge import CHILD_OF, EMPLOYS, FOUNDER
from symcomp.languages.cfq.language import distinct_entities, renamed_entities, well_formed

CFQ = symcomp.get_language("cfq")


def test_published_examples_read_the_same(peers):
    """Every question of the published CFQ sample gets exactly its published query."""
    items = json.loads((peers / "cfq_example" / "dataset.json").read_text())
    assert len(items) == 10
    for item in items:
        question = item["questionPatternModEntities"]
        assert CFQ.interpret(question) == item["sparqlPatternModEntities"], question


@pytest.mark.parametrize(
    ("question", "clauses"),
    [
        ("Who directed M0", ["?x0 ns:film.director.film M0"]),
        (
            "Which film was directed by M1 and M2",
            ["?x0 a ns:film.film", "M1 ns:film.director.film ?x0", "M2 ns:film.director.film ?x0"],
        ),
        (
            "Was M0 a Spanish film producer that M1 married",
            [
                "FILTER ( M0 != M1 )",
                "M0 a ns:film.producer",
                "M0 ns:people.person.nationality ns:m.06mkj",
                "M1 ns:people.person.spouse_s/ns:people.marriage.spouse|"
                "ns:fictional_universe.fictional_character.married_to/"
                "ns:fictional_universe.marriage_of_fictional_characters.spouses M0",
            ],
        ),
        ("Was M2 M0 's sequel", ["M2 ns:film.film.prequel M0"]),
        ("Was M1 influenced by M0", ["M1 ns:influence.influence_node.influenced_by M0"]),
        (
            "Did M0 's employee found M1",
            [
                "?x0 ns:organization.organization_founder.organizations_founded M1",
                "M0 ns:business.employer.employees/ns:business.employment_tenure.person ?x0",
            ],
        ),
        (
            "What person did M3 employ and influence",
            [
                "?x0 a ns:people.person",
                "M3 ns:business.employer.employees/ns:business.employment_tenure.person ?x0",
                "M3 ns:influence.influence_node.influenced ?x0",
            ],
        ),
    ],
)
def test_semantics(question, clauses):
    query = CFQ.interpret(question)
    head, body = query.split(" WHERE {\n")
    assert head == (
        "SELECT count(*)" if question.split()[0] in ("Did", "Was") else "SELECT DISTINCT ?x0"
    )
    assert body.rstrip("\n}").split(" .\n") == clauses


def test_variables_are_numbered_from_the_focus_outwards():
    query = CFQ.interpret("Did M3 's male cinematographer 's Canadian spouse 's spouse marry M0")
    assert "?x2 ns:film.cinematographer.film M3" in query
    assert "FILTER ( ?x1 != ?x2 )" in query


def test_dag_adds_knowledge_and_resolution_rules():
    tree = CFQ.parse("Did M1 's director and editor marry M0")
    data = cfq_node_link(tree)
    rules = [node["rule"] for node in data["nodes"]]
    assert rules[0] == "start" and "res:count" in rules
    assert "kb:film.director.film" in rules and "kb:film.editor.film" in rules
    assert "res:neq_filter" in rules  # marrying someone else: the FILTER rule
    dag = CFQ.derivation_dag("Did M1 's director and editor marry M0")
    assert [dag.nodes[i]["rule"] for i in range(len(dag))] == rules
    # a role and a verb meaning the same relation share their knowledge atom
    director = compound_counts(Dag.from_node_link(cfq_node_link(CFQ.parse("Who directed M0"))))
    assert "directed_verb(0:kb:film.director.film)".replace(":kb:", ":kb\\:") in director


def test_with_dag_pools_store_the_extended_dag(tmp_path):
    manifest = write_pool(CFQ, tmp_path / "p", PoolSpec(n=40, seed=3, with_dag=True))
    lines = (tmp_path / "p" / "examples.jsonl").read_text().splitlines()
    assert len(lines) == 40 == manifest["subsampling"]["kept"]
    for line in lines:
        record = json.loads(line)
        stored = [node["rule"] for node in record["derivation"]["nodes"]]
        assert stored == [n["rule"] for n in cfq_node_link(CFQ.parse(record["input"]))["nodes"]]
        assert record["output"] == CFQ.interpret(record["input"])


def test_pools_are_subsampled_uniformly_and_reproducibly(tmp_path):
    spec = PoolSpec(n=600, seed=11)
    first = write_pool(CFQ, tmp_path / "a", spec)
    write_pool(CFQ, tmp_path / "b", spec, jobs=2)
    text = (tmp_path / "a" / "examples.jsonl").read_text()
    assert text == (tmp_path / "b" / "examples.jsonl").read_text()
    sub = first["subsampling"]
    assert sub["oversample"] == 2 and sub["kept"] == 600 and sub["candidates"] >= 600
    counts = list(sub["complexity_counts"].values())
    assert max(counts) <= 2 * (600 / len(counts)) + 2  # flat where candidates allow
    for line in text.splitlines():
        record = json.loads(line)
        assert well_formed(CFQ.parse(record["input"]), record["input"])


def test_pool_filter():
    assert distinct_entities("Did M0 marry M1")
    assert not distinct_entities("Did M0 marry M0")
    for text, expected in [
        ("Did M0 edit and direct M1", True),
        ("Did M0 edit , direct , and edit M1", False),
        ("Did M2 's writer and writer edit M1", False),
        ("Did M0 edit M1 and M2", True),
    ]:
        assert well_formed(CFQ.parse(text), text) is expected


def test_subsampling_is_uniform_and_raises_entropy():
    rng = random.Random(0)
    trees = [CFQ.sample(rng).tree for _ in range(800)]
    dags = [Dag.from_node_link(cfq_node_link(tree)) for tree in trees if tree is not None]
    features = dag_features(dags, weighting="counts", top_k=None)
    complexities = [len(dag) for dag in dags]
    chosen, entropy = subsample(complexities, features.compounds, 200, seed=0)
    assert len(chosen) == 200 == len(set(chosen))
    quotas = complexity_quotas(complexities, 200)
    assert Counter(complexities[i] for i in chosen) == Counter(
        {level: quota for level, quota in quotas.items() if quota}
    )
    _random_pick, random_entropy = subsample(
        complexities, features.compounds, 200, seed=0, max_entropy=False
    )
    assert entropy > random_entropy
    again = subsample(complexities, features.compounds, 200, seed=0)
    assert again == (chosen, entropy)


def test_complexity_quotas_water_fill():
    assert complexity_quotas([1] * 10 + [2] * 2 + [3] * 10, 12) == {2: 2, 1: 5, 3: 5}
    assert sum(complexity_quotas(list(range(30)) * 3, 50).values()) == 50


def test_rebuilt_dags_equal_stored_dags(tmp_path):
    import numpy as np

    from symcomp.dbca.split import PoolData

    for name, with_dag in (("stored", True), ("rebuilt", False)):
        write_pool(CFQ, tmp_path / name, PoolSpec(n=150, seed=8, with_dag=with_dag))
    stored = PoolData.read(tmp_path / "stored").features
    rebuilt = PoolData.read(tmp_path / "rebuilt").features
    assert stored.compound_names == rebuilt.compound_names
    assert np.array_equal(stored.compounds.values, rebuilt.compounds.values)
    assert np.array_equal(stored.atoms.indices, rebuilt.atoms.indices)


@pytest.mark.parametrize(
    ("question", "clauses"),
    [
        (
            "Who was a writer and star of M0 and M1",
            [
                "?x0 ns:film.actor.film/ns:film.performance.film M0",
                "?x0 ns:film.actor.film/ns:film.performance.film M1",
                "?x0 ns:film.writer.film M0",
                "?x0 ns:film.writer.film M1",
            ],
        ),
        ("Was M0 's child M1", [f"M1 {CHILD_OF} M0"]),
        (
            "Was M0 an art director 's employer",
            ["?x0 a ns:film.film_art_director", f"M0 {EMPLOYS} ?x0"],
        ),
        (
            "What did an editor of M0 direct",
            ["?x1 ns:film.director.film ?x0", "?x1 ns:film.editor.film M0"],
        ),
        (
            "Were M0 and M1 founded by M2 and edited by M3",
            [
                f"M2 {FOUNDER} M0",
                f"M2 {FOUNDER} M1",
                "M3 ns:film.editor.film M0",
                "M3 ns:film.editor.film M1",
            ],
        ),
        (
            "Did M0 employ M1 and influence M2",
            [f"M0 {EMPLOYS} M1", "M0 ns:influence.influence_node.influenced M2"],
        ),
        (
            "Who influenced an actor that M0 was influenced by",
            [
                "?x0 ns:influence.influence_node.influenced ?x1",
                "?x1 a ns:film.actor",
                "M0 ns:influence.influence_node.influenced_by ?x1",
            ],
        ),
    ],
)
def test_appendix_constructions_mean_what_they_say(question, clauses):
    body = CFQ.interpret(question).split(" WHERE {\n")[1]
    assert body.rstrip("\n}").split(" .\n") == clauses


def test_knowledge_nodes_are_shared_and_inference_rules_are_nodes():
    data = cfq_node_link(CFQ.parse("Which director of M0 directed M1"))
    rules = [node["rule"] for node in data["nodes"]]
    director = rules.index("kb:film.director.film")
    assert rules.count("kb:film.director.film") == 1
    assert len([e for e in data["edges"] if e["target"] == director]) == 2  # role and verb
    assert not Dag.from_node_link(data).is_forest()
    employee = [n["rule"] for n in cfq_node_link(CFQ.parse("Did M0 's employee marry M1"))["nodes"]]
    assert "inf:inverse_employs" in employee and "inf:symmetric_spouse" in employee
    passive = [n["rule"] for n in cfq_node_link(CFQ.parse("Was M0 directed by M1"))["nodes"]]
    assert "inf:passive" in passive and "res:reverse_triple" in passive


def test_cfq_scale_inventory_of_rules():
    rng = random.Random(2)
    labels: set[str] = set()
    for _ in range(20_000):
        try:
            derivation = CFQ.draw(rng, limits=CFQ.limits())
        except Rejected:
            continue
        labels.update(node["rule"] for node in CFQ.node_link(derivation.tree)["nodes"])
    assert len(labels) >= 350
    assert len([label for label in labels if label.startswith("inf:")]) >= 10


def test_pools_hold_one_question_per_pattern_and_cfqs_complexity(tmp_path):
    manifest = write_pool(CFQ, tmp_path / "p", PoolSpec(n=400, seed=5, with_dag=True))
    records = [
        json.loads(line) for line in (tmp_path / "p" / "examples.jsonl").read_text().splitlines()
    ]
    assert len({renamed_entities(r["input"]) for r in records}) == len(records) == 400
    assert all(10 <= len(r["derivation"]["nodes"]) <= 50 for r in records)
    assert manifest["subsampling"]["complexity_range"] == [10, 50]
    assert renamed_entities("Did M3 's spouse marry M1") == "Did M0 's spouse marry M1"
