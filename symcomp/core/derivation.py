"""Derivation trees as rule-application DAGs, their JSON form, and their size measures.

A derivation is the tree the sampler built (identical to the tree Lark's parser builds for the
same text). Its rule-application DAG is a :class:`networkx.DiGraph` with this schema:

nodes
    Integers ``0..n-1`` in pre-order; the root is ``0``.
node attribute ``rule``
    The alias of the alternative applied at that node (the rule name for rules with a single,
    unaliased alternative). This is the atom of divergence computations.
node attribute ``tokens``
    Tuple of the tokens kept directly under the node, in order (named terminals such as the
    symbols of a PCFG SET string; anonymous keywords are implied by ``rule`` and not listed).
edges
    Parent to child, with attribute ``position``: the index of the child among the parent's
    child nodes (0-based), so argument order is part of the graph.

Trees are DAGs; languages whose meaning shares structure (CFQ) add shared nodes on top of this.
The JSON form is networkx's node-link layout with ``edges`` as the edge key.

>>> from lark import Tree
>>> tree = Tree("append", [Tree("string", ["A1", "B2"]), Tree("string", ["C3"])])
>>> dag = tree_to_dag(tree)
>>> [(n, d["rule"], d["tokens"]) for n, d in dag.nodes(data=True)]
[(0, 'append', ()), (1, 'string', ('A1', 'B2')), (2, 'string', ('C3',))]
>>> sorted(dag.edges(data="position"))
[(0, 1, 0), (0, 2, 1)]
>>> tree_metrics(tree, frozenset({"append"}))
(1, 1)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from lark import Tree

from symcomp.errors import DataError

if TYPE_CHECKING:  # networkx is imported where a graph is made (a fifth of a second)
    import networkx as nx


class DagBuilder:
    """Builds a DAG in this schema node by node: the one writer of node-link data.

    A language that adds rule applications to its derivation (cfq's knowledge and resolution
    rules) adds nodes with :meth:`add` and, for shared nodes, extra edges with :meth:`link`.

    >>> builder = DagBuilder()
    >>> root = builder.add("twice")
    >>> _ = builder.add("jump", parent=root)
    >>> [node["rule"] for node in builder.node_link()["nodes"]]
    ['twice', 'jump']
    """

    def __init__(self) -> None:
        self.nodes: list[dict[str, Any]] = []
        self.edges: list[dict[str, Any]] = []

    def add(
        self, rule: str, tokens: Sequence[str] = (), parent: int | None = None, position: int = 0
    ) -> int:
        """A new node (its id is the next integer), under ``parent`` at ``position``."""
        index = len(self.nodes)
        self.nodes.append({"id": index, "rule": rule, "tokens": list(tokens)})
        if parent is not None:
            self.link(parent, index, position)
        return index

    def link(self, parent: int, child: int, position: int) -> None:
        """An edge between existing nodes (a shared node gets a second parent this way)."""
        self.edges.append({"source": parent, "target": child, "position": position})

    def node_link(self) -> dict[str, Any]:
        """The DAG in node-link form (plain JSON data)."""
        return {
            "directed": True,
            "multigraph": False,
            "graph": {},
            "nodes": self.nodes,
            "edges": self.edges,
        }


def tree_to_node_link(tree: Tree[Any]) -> dict[str, Any]:
    """The DAG of ``tree`` in node-link form (plain JSON data), without building a graph."""
    builder = DagBuilder()
    stack: list[tuple[Tree[Any], int | None, int]] = [(tree, None, 0)]
    while stack:
        node, parent, position = stack.pop()
        tokens = [str(child) for child in node.children if not isinstance(child, Tree)]
        index = builder.add(str(node.data), tokens, parent, position)
        subtrees = [child for child in node.children if isinstance(child, Tree)]
        for child_position in range(len(subtrees) - 1, -1, -1):
            stack.append((subtrees[child_position], index, child_position))
    return builder.node_link()


Edge = tuple[int, int, int]  # parent, child, position


def node_link_parts(
    data: Mapping[str, Any], source: str = "derivation"
) -> tuple[list[str], list[tuple[str, ...]], list[Edge]]:
    """(rules, tokens, edges) of node-link data, nodes numbered 0..n-1 in their order: the one
    reader of the schema (:func:`node_link_to_dag` and dbca's compound DAGs use it).

    Raises
    ------
    DataError
        When the data is not in this schema (naming ``source``).
    """
    try:
        nodes = data["nodes"]
        ids = {node["id"]: number for number, node in enumerate(nodes)}
        rules = [str(node["rule"]) for node in nodes]
        tokens = [tuple(str(t) for t in node.get("tokens", ())) for node in nodes]
        edges = [
            (ids[edge["source"]], ids[edge["target"]], int(edge.get("position", 0)))
            for edge in data["edges"]
        ]
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise DataError(
            f"{source}: not in symcomp's node-link form (missing or malformed {error}); write "
            f"the pool with `with_dag` or leave derivations out so they are rebuilt by parsing."
        ) from None
    return rules, tokens, edges


def node_link_to_dag(data: Mapping[str, Any], source: str = "derivation") -> nx.DiGraph:
    """Rebuild the DAG from its node-link form (as written by ``--with-dag``)."""
    import networkx as nx

    rules, tokens, edges = node_link_parts(data, source)
    graph = nx.DiGraph()
    for number, (rule, node_tokens) in enumerate(zip(rules, tokens, strict=True)):
        graph.add_node(number, rule=rule, tokens=node_tokens)
    for parent, child, position in edges:
        graph.add_edge(parent, child, position=position)
    return graph


def tree_to_dag(tree: Tree[Any]) -> nx.DiGraph:
    """The rule-application DAG of a derivation tree (schema in the module docstring)."""
    return node_link_to_dag(tree_to_node_link(tree))


Encoded = tuple[str, tuple[Any, ...]]


def encode_tree(tree: Tree[Any]) -> Encoded:
    """A tree as nested tuples of strings: cheap to pickle to worker processes.

    >>> decode_tree(encode_tree(Tree("copy", [Tree("string", ["A1"])]))) == Tree(
    ...     "copy", [Tree("string", ["A1"])])
    True
    """
    return (
        str(tree.data),
        tuple(encode_tree(c) if isinstance(c, Tree) else str(c) for c in tree.children),
    )


def decode_tree(encoded: Encoded) -> Tree[Any]:
    """The inverse of :func:`encode_tree`."""
    label, children = encoded
    return Tree(label, [decode_tree(c) if isinstance(c, tuple) else c for c in children])


def tree_metrics(tree: Tree[Any], functions: frozenset[str] | None) -> tuple[int, int]:
    """Return (depth, functions) of a tree.

    ``depth`` is the largest number of function nodes on one root-to-leaf path and
    ``functions`` the number of function nodes; when ``functions`` is None every node counts
    (so depth is the tree height and the count is the number of rule applications).
    """
    depth, count = 0, 0
    stack: list[tuple[Tree[Any], int]] = [(tree, 0)]
    while stack:
        node, above = stack.pop()
        own = 1 if functions is None or node.data in functions else 0
        count += own
        depth = max(depth, above + own)
        stack.extend((child, above + own) for child in node.children if isinstance(child, Tree))
    return depth, count
