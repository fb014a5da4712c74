import json

import networkx as nx
from lark import Tree

import symcomp
from symcomp.core.derivation import (
    decode_tree,
    encode_tree,
    node_link_to_dag,
    tree_metrics,
    tree_to_dag,
    tree_to_node_link,
)


def test_dag_schema_on_a_pcfg_set_program():
    pcfg = symcomp.get_language("pcfg-set")
    dag = pcfg.derivation_dag("append reverse A1 B2 , C3")
    rules = dict(dag.nodes(data="rule"))
    assert rules == {0: "start", 1: "append", 2: "call", 3: "reverse", 4: "string", 5: "string"}
    assert dag.nodes[4]["tokens"] == ("A1", "B2")
    assert sorted(dag.edges(data="position")) == [
        (0, 1, 0),
        (1, 2, 0),
        (1, 5, 1),
        (2, 3, 0),
        (3, 4, 0),
    ]
    assert nx.is_directed_acyclic_graph(dag)


def test_node_link_form_is_json_and_networkx_compatible():
    tree: Tree[str] = Tree("a", [Tree("b", ["x"]), "y", Tree("c", [])])
    data = json.loads(json.dumps(tree_to_node_link(tree)))
    ours = node_link_to_dag(data)
    theirs = nx.node_link_graph(data, edges="edges")
    assert nx.utils.graphs_equal(ours, tree_to_dag(tree))
    assert sorted(theirs.edges(data="position")) == sorted(ours.edges(data="position"))
    assert ours.nodes[0]["tokens"] == ("y",)


def test_tuple_encoding_round_trips():
    tree = symcomp.get_language("scan").parse("jump around left twice and walk")
    assert decode_tree(encode_tree(tree)) == tree


def test_metrics_count_function_nodes_only_when_named():
    tree: Tree[str] = Tree("f", [Tree("g", [Tree("x", [])]), Tree("x", [])])
    assert tree_metrics(tree, frozenset({"f", "g"})) == (2, 2)
    assert tree_metrics(tree, None) == (3, 4)
