"""Compound extraction: canonical keys, bounds, general DAGs, and a brute-force reference."""

import itertools
import random
from collections import Counter

import networkx as nx
import pytest
from lark import Tree

import symcomp
from symcomp.dbca.compounds import (
    CompoundSpec,
    Dag,
    _extensions,
    _general_occurrences,
    atoms,
    compound_counts,
    extract,
    parent_child_pairs,
)
from symcomp.errors import DataError


def random_tree(rng: random.Random, size: int, labels: str = "abc") -> Dag:
    edges, kids = [], [0] * size
    for child in range(1, size):
        parent = rng.randrange(child)
        edges.append((parent, child, kids[parent]))
        kids[parent] += 1
    return Dag.from_edges([rng.choice(labels) for _ in range(size)], edges)


def brute_force(dag: Dag, spec: CompoundSpec) -> Counter[str]:
    """Every node subset, checked directly: connected, bounds, chain; keyed by the tree key."""
    graph = nx.DiGraph()
    graph.add_nodes_from(range(len(dag)))
    for parent, kids in enumerate(dag.children):
        for position, child in kids:
            graph.add_edge(parent, child, position=position)
    found: Counter[str] = Counter()
    for size in range(spec.min_nodes, len(dag) + 1):
        for nodes in itertools.combinations(range(len(dag)), size):
            sub = graph.subgraph(nodes)
            if not nx.is_weakly_connected(sub):
                continue
            branching = max(sub.out_degree(n) for n in nodes)
            chain = branching <= 1 and max(sub.in_degree(n) for n in nodes) <= 1
            small = size <= spec.max_nodes and branching <= spec.max_branching
            if small or (spec.chains and chain):
                root = next(n for n in nodes if sub.in_degree(n) == 0)
                found[key_of(sub, root, dag.labels)] += 1
    return found


def key_of(sub: nx.DiGraph, node: int, labels: tuple[str, ...]) -> str:
    children = sorted((sub.edges[node, c]["position"], c) for c in sub.successors(node))
    parts = [f"{position}:{key_of(sub, child, labels)}" for position, child in children]
    return f"{labels[node]}({','.join(parts)})" if parts else labels[node]


@pytest.mark.parametrize(
    "spec",
    [
        CompoundSpec(),
        CompoundSpec(max_nodes=3, max_branching=1),
        CompoundSpec(max_nodes=4, chains=False),
        CompoundSpec(max_nodes=2, chains=False),
        CompoundSpec(max_nodes=3, max_branching=3),
    ],
)
def test_enumeration_matches_brute_force_on_random_trees(spec):
    rng = random.Random(7)
    for _ in range(40):
        dag = random_tree(rng, rng.randint(1, 9))
        assert compound_counts(dag, spec) == brute_force(dag, spec)


def test_general_path_agrees_with_tree_path_on_trees():
    rng = random.Random(3)
    for spec in (CompoundSpec(), CompoundSpec(max_nodes=3, max_branching=1, chains=False)):
        for _ in range(40):
            dag = random_tree(rng, rng.randint(2, 10))
            general = Counter(key for _mask, key in _general_occurrences(dag, spec))
            assert general == compound_counts(dag, spec)


def test_same_subgraph_same_key_in_every_example_and_numbering():
    scan = symcomp.get_language("scan")
    first = compound_counts(Dag.from_networkx(scan.derivation_dag("jump around left twice")))
    second = compound_counts(
        Dag.from_networkx(scan.derivation_dag("walk and jump around left twice"))
    )
    shared = "sem.twice(0:sem.u_around_left(0:sem.jump(0:jump),1:around))"
    assert shared in first and shared in second
    # renumbering the nodes (reverse order) changes no key
    dag = Dag.from_networkx(scan.derivation_dag("jump around left twice and look"))
    n = len(dag)
    renumbered = Dag.from_edges(
        [dag.labels[n - 1 - i] for i in range(n)],
        [(n - 1 - p, n - 1 - c, pos) for p, kids in enumerate(dag.children) for pos, c in kids],
    )
    assert compound_counts(renumbered) == compound_counts(dag)


def test_positions_are_part_of_the_key():
    left = Dag.from_edges(["f", "x", "y"], [(0, 1, 0), (0, 2, 1)])
    swapped = Dag.from_edges(["f", "y", "x"], [(0, 1, 0), (0, 2, 1)])
    assert "f(0:x,1:y)" in compound_counts(left)
    assert "f(0:y,1:x)" in compound_counts(swapped)
    assert set(compound_counts(left)) != set(compound_counts(swapped))


def test_long_chains_are_counted_and_can_be_turned_off():
    chain = Dag.from_edges(list("abcdefg"), [(i, i + 1, 0) for i in range(6)])
    keys = compound_counts(chain)
    assert "a(0:b(0:c(0:d(0:e(0:f(0:g))))))" in keys
    assert max(key.count("(") + 1 for key in keys) == 7
    without = compound_counts(chain, CompoundSpec(chains=False))
    assert max(key.count("(") + 1 for key in without) == 5


def test_shared_nodes_get_a_canonical_dag_key():
    # a -> b, a -> c, b -> d, c -> d: d has two parents
    def diamond(order: list[str]) -> Dag:
        labels = ["a", "b", "c", "d"]
        ids = {name: order.index(name) for name in labels}
        return Dag.from_edges(
            [labels[labels.index(name)] for name in order],
            [
                (ids["a"], ids["b"], 0),
                (ids["a"], ids["c"], 1),
                (ids["b"], ids["d"], 0),
                (ids["c"], ids["d"], 0),
            ],
        )

    first = compound_counts(diamond(["a", "b", "c", "d"]))
    second = compound_counts(diamond(["d", "c", "b", "a"]))
    assert first == second
    assert any(key.startswith("dag[") for key in first)
    assert first["b(0:d)"] == 1 and first["c(0:d)"] == 1


def test_extensions_are_one_node_larger_occurrences():
    dag = Dag.from_edges(["a", "b", "c"], [(0, 1, 0), (0, 2, 1)])
    keys, supers = extract(dag, CompoundSpec(), extensions=True)
    assert supers is not None
    pairs = {(keys[index], key) for index, key in supers}
    assert pairs == {("a(0:b)", "a(0:b,1:c)"), ("a(1:c)", "a(0:b,1:c)")}


def test_removal_and_neighbour_extensions_agree():
    """The tree path (remove a leaf or single-child root) = the general path (add a node)."""
    rng = random.Random(9)
    for spec in (CompoundSpec(), CompoundSpec(max_nodes=3), CompoundSpec(chains=False)):
        for _ in range(30):
            dag = random_tree(rng, rng.randint(2, 12))
            keys, supers = extract(dag, spec, extensions=True)
            general = _general_occurrences(dag, spec)
            order = {mask: key for mask, key in general}
            assert sorted(keys) == sorted(order.values())
            expected = {
                (general[i][1], key)
                for i, found in enumerate(_extensions(dag, general))
                for key in found
            }
            got = {(keys[index], key) for index, key in supers or []}
            assert got == expected


def test_atoms_pairs_and_escaping():
    dag = Dag.from_tree(Tree("f(x)", [Tree("g:1", []), Tree("h", [])]))
    assert atoms(dag) == ["f(x)", "g:1", "h"]
    assert parent_child_pairs(dag) == ["f\\(x\\)(0:g\\:1)", "f\\(x\\)(1:h)"]


def test_bad_graphs_and_specs_are_data_errors():
    with pytest.raises(DataError, match="cycle"):
        Dag.from_edges(["a", "b"], [(0, 1, 0), (1, 0, 0)])
    with pytest.raises(DataError, match="missing node"):
        Dag.from_edges(["a"], [(0, 3, 0)])
    with pytest.raises(DataError, match="node-link"):
        Dag.from_node_link({"nodes": [{"rule": "a"}]})
    with pytest.raises(DataError):
        CompoundSpec(max_nodes=1, min_nodes=2)
    with pytest.raises(DataError):
        CompoundSpec(max_branching=0)


def test_node_link_and_networkx_and_tree_agree():
    pcfg = symcomp.get_language("pcfg-set")
    tree = pcfg.parse("append reverse A1 B2 , C3")
    from symcomp.core.derivation import tree_to_node_link

    forms = [
        Dag.from_tree(tree),
        Dag.from_networkx(pcfg.derivation_dag(tree)),
        Dag.from_node_link(tree_to_node_link(tree)),
    ]
    assert all(compound_counts(form) == compound_counts(forms[0]) for form in forms)
