"""Atoms and compounds of rule-application DAGs, with canonical string keys (DBCA).

Following Keysers et al. (2020, §2.1 and App. L), an example's *atoms* are the rule applications
(node labels) of its derivation DAG and its *compounds* are connected subgraphs of that DAG: by
default every subgraph of 2 to 5 nodes in which no node has more than 2 children inside the
subgraph, plus linear chains (directed paths) of any length. Both bounds are parameters of
:class:`CompoundSpec`.

Every compound has a **canonical key**: a string that depends only on the labelled subgraph,
so the same subgraph gets the same key in every example, every run and every process. For
tree-shaped subgraphs (one root, every other node with one parent inside) the key is the root's
label followed by its children's keys in edge-position order, each prefixed by its position::

    around(0:act(0:jump),1:left)

Subgraphs of DAGs with shared nodes get a ``dag[...]`` key: node labels and positioned edges
under the node ordering that gives the smallest string. Labels containing ``( ) , : [ ] \\``
are escaped with a backslash.

>>> from lark import Tree
>>> dag = Dag.from_tree(Tree("twice", [Tree("around", [Tree("jump", []), Tree("left", [])])]))
>>> atoms(dag)
['twice', 'around', 'jump', 'left']
>>> sorted(compound_counts(dag, CompoundSpec(max_nodes=3)))  # doctest: +NORMALIZE_WHITESPACE
['around(0:jump)', 'around(0:jump,1:left)', 'around(1:left)', 'twice(0:around(0:jump))',
 'twice(0:around(1:left))', 'twice(0:around)']
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import networkx as nx
from lark import Tree

from symcomp.core.derivation import node_link_parts, tree_to_node_link
from symcomp.errors import DataError

DEFAULT_MAX_NODES = 5  # Keysers et al. 2020 (CFQ): subgraphs of up to 5 nodes ...
DEFAULT_MAX_BRANCHING = 2  # ... with branching at most 2, plus linear chains of any size
MAX_GENERAL_KEY_NODES = 8  # non-tree subgraphs are keyed by brute force over node orders

Entry = tuple[int, str, int, bool, int, int]  # mask, key, size, chain?, leaves, removable


@dataclass(frozen=True)
class CompoundSpec:
    """Which connected subgraphs count as compounds.

    Parameters
    ----------
    max_nodes : int
        Largest subgraph (in nodes) enumerated in general (default 5).
    max_branching : int
        Most children a node may have inside a compound (default 2).
    chains : bool
        Also count linear chains (directed paths) longer than ``max_nodes`` (default True).
    min_nodes : int
        Smallest compound; single nodes are atoms, so the default is 2.

    >>> CompoundSpec().describe()
    {'max_nodes': 5, 'max_branching': 2, 'chains': True, 'min_nodes': 2}
    """

    max_nodes: int = DEFAULT_MAX_NODES
    max_branching: int = DEFAULT_MAX_BRANCHING
    chains: bool = True
    min_nodes: int = 2

    def __post_init__(self) -> None:
        if self.min_nodes < 1 or self.max_nodes < self.min_nodes:
            raise DataError(
                f"compound sizes must satisfy 1 <= min_nodes <= max_nodes, got min_nodes="
                f"{self.min_nodes}, max_nodes={self.max_nodes}."
            )
        if self.max_branching < 1:
            raise DataError(f"max_branching must be at least 1, got {self.max_branching}.")

    def describe(self) -> dict[str, Any]:
        return {
            "max_nodes": self.max_nodes,
            "max_branching": self.max_branching,
            "chains": self.chains,
            "min_nodes": self.min_nodes,
        }


@dataclass(frozen=True)
class Dag:
    """A labelled DAG in the light form compound extraction works on.

    ``labels[v]`` is node ``v``'s rule; ``children[v]`` lists ``(position, child)`` sorted by
    position. Nodes are ``0..n-1``; the order need not be topological.
    """

    labels: tuple[str, ...]
    children: tuple[tuple[tuple[int, int], ...], ...]

    @classmethod
    def from_edges(
        cls, labels: Sequence[str], edges: Iterable[tuple[int, int, int]], source: str = "DAG"
    ) -> Dag:
        """Build from labels and ``(parent, child, position)`` edges (checked: acyclic)."""
        kids: list[list[tuple[int, int]]] = [[] for _ in labels]
        for parent, child, position in edges:
            if not (0 <= parent < len(labels) and 0 <= child < len(labels)):
                raise DataError(f"{source}: edge {parent}->{child} names a missing node.")
            kids[parent].append((int(position), child))
        dag = cls(tuple(str(label) for label in labels), tuple(tuple(sorted(k)) for k in kids))
        dag.topological_order(source)
        return dag

    @classmethod
    def from_networkx(cls, graph: nx.DiGraph, source: str = "DAG") -> Dag:
        """From symcomp's DAG schema (:mod:`symcomp.core.derivation`): ``rule`` and ``position``."""
        index = {node: number for number, node in enumerate(graph.nodes)}
        try:
            labels = [graph.nodes[node]["rule"] for node in graph.nodes]
        except KeyError:
            raise DataError(f"{source}: every node needs a 'rule' attribute.") from None
        edges = [
            (index[parent], index[child], data.get("position", 0))
            for parent, child, data in graph.edges(data=True)
        ]
        return cls.from_edges(labels, edges, source)

    @classmethod
    def from_node_link(cls, data: Mapping[str, Any], source: str = "derivation") -> Dag:
        """From the node-link JSON written by ``--with-dag`` (:mod:`symcomp.core.derivation`)."""
        rules, _tokens, edges = node_link_parts(data, source)
        return cls.from_edges(rules, edges, source)

    @classmethod
    def from_tree(cls, tree: Tree[Any]) -> Dag:
        """From a derivation tree, numbered in pre-order like :func:`tree_to_node_link`."""
        return cls.from_node_link(tree_to_node_link(tree))

    def __len__(self) -> int:
        return len(self.labels)

    def parents(self) -> list[list[int]]:
        found: list[list[int]] = [[] for _ in self.labels]
        for parent, kids in enumerate(self.children):
            for _position, child in kids:
                found[child].append(parent)
        return found

    def is_forest(self) -> bool:
        """True when no node has two parents (the fast path of compound extraction)."""
        return all(len(p) <= 1 for p in self.parents())

    def topological_order(self, source: str = "DAG") -> list[int]:
        """Nodes with every parent before its children (raises on a cycle)."""
        indegree = [len(p) for p in self.parents()]
        ready = [v for v, d in enumerate(indegree) if d == 0][::-1]
        order: list[int] = []
        while ready:
            node = ready.pop()
            order.append(node)
            for _position, child in reversed(self.children[node]):
                indegree[child] -= 1
                if indegree[child] == 0:
                    ready.append(child)
        if len(order) != len(self.labels):
            raise DataError(f"{source}: the derivation graph has a cycle; it must be a DAG.")
        return order


def atoms(dag: Dag) -> list[str]:
    """The atoms of an example: the rule of every node, in node order."""
    return list(dag.labels)


def parent_child_pairs(dag: Dag) -> list[str]:
    """The 2-node compounds of ``dag`` (one per edge), keyed like every compound.

    >>> parent_child_pairs(Dag.from_edges(["a", "b", "c"], [(0, 1, 0), (0, 2, 1)]))
    ['a(0:b)', 'a(1:c)']
    """
    labels = [_escape(label) for label in dag.labels]
    return [
        f"{labels[parent]}({position}:{labels[child]})"
        for parent, kids in enumerate(dag.children)
        for position, child in kids
    ]


def compound_counts(dag: Dag, spec: CompoundSpec | None = None) -> Counter[str]:
    """How often each compound (canonical key) occurs in ``dag`` (default spec: 5 nodes, ...)."""
    keys, _ = extract(dag, spec if spec is not None else CompoundSpec(), extensions=False)
    return Counter(keys)


def extract(
    dag: Dag, spec: CompoundSpec, *, extensions: bool
) -> tuple[list[str], list[tuple[int, str]] | None]:
    """Every compound occurrence of ``dag`` and, optionally, its immediate super-compounds.

    Returns the key of each occurrence (a compound occurring twice is listed twice) and, when
    ``extensions`` is true, the pairs ``(i, key)``: occurrence ``i`` plus one adjacent node is
    an occurrence of compound ``key`` (used by DBCA weighting). A pair may repeat when two
    different one-node extensions have the same key.

    >>> dag = Dag.from_edges(["a", "b", "c"], [(0, 1, 0), (1, 2, 0)])
    >>> extract(dag, CompoundSpec(), extensions=True)
    (['b(0:c)', 'a(0:b)', 'a(0:b(0:c))'], [(0, 'a(0:b(0:c))'), (1, 'a(0:b(0:c))')])
    """
    if dag.is_forest():
        found = _forest_occurrences(dag, spec)
        keys = [key for _mask, key, _removable in found]
        return keys, (_supers_by_removal(found) if extensions else None)
    if _shared_nodes_are_leaves(dag):
        general = _leaf_shared_occurrences(dag, spec)
    else:
        general = _general_occurrences(dag, spec)
    keys = [key for _mask, key in general]
    return keys, (_supers_of(general) if extensions else None)


def _supers_of(found: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """Pairs (sub-occurrence, key) for occurrences of any DAG: every occurrence minus one node
    that is itself an occurrence (the same relation as one-node extensions, found from the
    larger side by dictionary lookups)."""
    index = {mask: number for number, (mask, _key) in enumerate(found)}
    pairs: list[tuple[int, str]] = []
    for mask, key in found:
        rest = mask
        while rest:
            low = rest & -rest
            rest ^= low
            smaller = index.get(mask ^ low)
            if smaller is not None:
                pairs.append((smaller, key))
    return pairs


def _supers_by_removal(found: list[tuple[int, str, int]]) -> list[tuple[int, str]]:
    """Pairs (sub-occurrence, key) from removing each removable node of each occurrence.

    In a tree, a connected node set minus one node stays connected exactly when that node is
    a leaf of the set or its root with a single child; every one-node extension of an
    occurrence is found this way from the larger side.
    """
    index = {mask: number for number, (mask, _key, _removable) in enumerate(found)}
    pairs: list[tuple[int, str]] = []
    for mask, key, removable in found:
        while removable:
            low = removable & -removable
            removable ^= low
            smaller = index.get(mask ^ low)
            if smaller is not None:
                pairs.append((smaller, key))
    return pairs


# -- trees and forests: dynamic programming over rooted subtrees ---------------------------


def _forest_occurrences(dag: Dag, spec: CompoundSpec) -> list[tuple[int, str, int]]:
    """Occurrences in a forest, each a subtree rooted at some node (children first).

    Each is ``(mask, key, removable)``: its node bitmask, its key, and the bitmask of the nodes
    whose removal leaves it connected (its leaves, and its root when that has one child).
    """
    labels = [_escape(label) for label in dag.labels]
    rooted: list[list[Entry]] = [[] for _ in labels]
    long_chains: list[list[Entry]] = [[] for _ in labels]
    found: list[tuple[int, str, int]] = []
    k, minimum = spec.max_nodes, spec.min_nodes
    for node in reversed(dag.topological_order()):
        entries = _rooted_at(node, labels[node], dag.children[node], rooted, k, spec.max_branching)
        rooted[node] = entries
        found.extend(
            (mask, key, removable)
            for mask, key, size, _chain, _leaves, removable in entries
            if size >= minimum
        )
        if spec.chains:
            chains = _long_chains_at(node, labels[node], dag.children[node], rooted, long_chains, k)
            long_chains[node] = chains
            found.extend((mask, key, removable) for mask, key, _s, _c, _l, removable in chains)
    return found


def _rooted_at(
    node: int,
    label: str,
    kids: tuple[tuple[int, int], ...],
    rooted: list[list[Entry]],
    k: int,
    branching: int,
) -> list[Entry]:
    """All subtrees rooted at ``node`` with at most ``k`` nodes and the branching bound."""
    bit = 1 << node
    entries: list[Entry] = [(bit, label, 1, True, bit, bit)]
    if k == 1 or not kids:
        return entries
    for count in range(1, min(branching, len(kids)) + 1):
        root_removable = bit if count == 1 else 0
        for combo in itertools.combinations(kids, count):
            partial: list[tuple[int, list[str], int, bool, int]] = [(bit, [], 1, count == 1, 0)]
            for position, child in combo:
                partial = [
                    (
                        mask | child_mask,
                        [*parts, f"{position}:{child_key}"],
                        size + child_size,
                        chain and child_chain,
                        leaves | child_leaves,
                    )
                    for mask, parts, size, chain, leaves in partial
                    for child_mask, child_key, child_size, child_chain, child_leaves, _r in rooted[
                        child
                    ]
                    if size + child_size <= k
                ]
            entries.extend(
                (mask, f"{label}({','.join(parts)})", size, chain, leaves, leaves | root_removable)
                for mask, parts, size, chain, leaves in partial
            )
    return entries


def _long_chains_at(
    node: int,
    label: str,
    kids: tuple[tuple[int, int], ...],
    rooted: list[list[Entry]],
    long_chains: list[list[Entry]],
    k: int,
) -> list[Entry]:
    """Downward paths from ``node`` longer than ``k`` (shorter ones are among the subtrees)."""
    bit = 1 << node
    chains: list[Entry] = []
    for position, child in kids:
        sources = [e for e in rooted[child] if e[3] and e[2] == k] + long_chains[child]
        chains.extend(
            (bit | mask, f"{label}({position}:{key})", size + 1, True, leaves, leaves | bit)
            for mask, key, size, _chain, leaves, _removable in sources
        )
    return chains


# -- DAGs whose shared nodes are leaves (cfq's knowledge nodes) ------------------------------


def _shared_nodes_are_leaves(dag: Dag) -> bool:
    return all(len(p) <= 1 or not dag.children[v] for v, p in enumerate(dag.parents()))


def _leaf_shared_occurrences(dag: Dag, spec: CompoundSpec) -> list[tuple[int, str]]:
    """Connected induced subgraphs of a DAG whose only nodes with several parents are leaves.

    The forest path runs on a copy of the DAG in which each extra parent of a shared leaf gets
    its own copy of the leaf; occurrences are mapped back to the original nodes (dropping those
    with two copies of one leaf, and re-keying those in which a leaf has two parents inside).
    Subgraphs held together only by a shared leaf (two parents of it and nothing else joining
    them) do not occur in the copy; they are enumerated around each shared leaf.
    """
    parents = dag.parents()
    labels = list(dag.labels)
    original = list(range(len(labels)))
    kids = [list(children) for children in dag.children]
    for leaf, leaf_parents in enumerate(parents):
        for parent in leaf_parents[1:]:
            labels.append(labels[leaf])
            original.append(leaf)
            kids.append([])
            kids[parent] = [
                (position, len(labels) - 1 if child == leaf else child)
                for position, child in kids[parent]
            ]
    forest = Dag(tuple(labels), tuple(tuple(children) for children in kids))
    n = len(dag)
    parent_masks = [sum(1 << q for q in ps) if len(ps) > 1 else 0 for ps in parents]
    shared = sum(1 << v for v, mask in enumerate(parent_masks) if mask)
    found: dict[int, str] = {}
    for copy_mask, key, _removable in _forest_occurrences(forest, spec):
        mask = _original_mask(copy_mask, n, original)
        if mask is None or mask in found:
            continue
        if any(_bits(parent_masks[v] & mask) > 1 for v in _members(mask & shared)):
            if _bits(mask) > spec.max_nodes:  # a chain with a chord is no induced path
                continue
            key = _subgraph_key(dag, frozenset(_members(mask)), parents)
        found[mask] = key
    for leaf, leaf_parents in enumerate(parents):
        if len(leaf_parents) > 1:
            _around_shared_leaf(dag, spec, leaf, parents, found)
    return list(found.items())


def _bits(mask: int) -> int:
    return bin(mask).count("1")


def _members(mask: int) -> list[int]:
    found = []
    while mask:
        low = mask & -mask
        mask ^= low
        found.append(low.bit_length() - 1)
    return found


def _original_mask(copy_mask: int, n: int, original: list[int]) -> int | None:
    """The original nodes of an occurrence in the copy (copies are the nodes from ``n`` on);
    None when it holds two copies of one leaf."""
    mask = copy_mask & ((1 << n) - 1)
    for copy in _members(copy_mask >> n):
        bit = 1 << original[n + copy]
        if mask & bit:
            return None
        mask |= bit
    return mask


def _around_shared_leaf(
    dag: Dag, spec: CompoundSpec, leaf: int, parents: list[list[int]], found: dict[int, str]
) -> None:
    """Add every connected subgraph in which ``leaf`` has at least two parents."""
    kids = [[child for _position, child in children] for children in dag.children]
    neighbours = [set(kids[v]) | set(parents[v]) for v in range(len(dag))]
    seen: set[int] = set()
    stack: list[frozenset[int]] = [frozenset({leaf})]
    while stack:
        nodes = stack.pop()
        mask = sum(1 << v for v in nodes)
        if mask in seen:
            continue
        seen.add(mask)
        inside = sum(1 for p in parents[leaf] if p in nodes)
        if inside > 1 and len(nodes) >= spec.min_nodes and mask not in found:
            found[mask] = _subgraph_key(dag, nodes, parents)
        if len(nodes) == spec.max_nodes:
            continue
        for node in nodes:
            for new in neighbours[node] - nodes:
                grown = nodes | {new}
                if _within_branching(grown, kids, spec.max_branching):
                    stack.append(grown)


# -- general DAGs: connected induced subgraphs ---------------------------------------------


def _general_occurrences(dag: Dag, spec: CompoundSpec) -> list[tuple[int, str]]:
    """Connected induced subgraphs of a DAG with shared nodes (ESU enumeration)."""
    parents = dag.parents()
    kids = [[child for _position, child in children] for children in dag.children]
    neighbours = [set(kids[v]) | set(parents[v]) for v in range(len(dag))]
    found: list[tuple[int, str]] = []
    seen: set[int] = set()

    def emit(nodes: frozenset[int]) -> None:
        mask = sum(1 << v for v in nodes)
        if len(nodes) >= spec.min_nodes and mask not in seen:
            seen.add(mask)
            found.append((mask, _subgraph_key(dag, nodes, parents)))

    def extend(nodes: frozenset[int], frontier: set[int], root: int) -> None:
        emit(nodes)
        if len(nodes) == spec.max_nodes:
            return
        frontier = set(frontier)
        while frontier:
            new = frontier.pop()
            grown = nodes | {new}
            if not _within_branching(grown, kids, spec.max_branching):
                continue
            exclusive = {
                u
                for u in neighbours[new]
                if u > root and u not in grown and not any(u in neighbours[s] for s in nodes)
            }
            extend(grown, frontier | exclusive, root)

    for root in range(len(dag)):
        extend(frozenset({root}), {u for u in neighbours[root] if u > root}, root)
    if spec.chains:
        for path in _induced_paths(dag, parents, spec.max_nodes + 1):
            emit(frozenset(path))
    return found


def _within_branching(nodes: frozenset[int], kids: list[list[int]], branching: int) -> bool:
    return all(sum(1 for c in kids[v] if c in nodes) <= branching for v in nodes)


def _induced_paths(dag: Dag, parents: list[list[int]], min_length: int) -> list[list[int]]:
    """Directed paths without chords, of at least ``min_length`` nodes."""
    paths: list[list[int]] = []
    stack = [[v] for v in range(len(dag))]
    while stack:
        path = stack.pop()
        if len(path) >= min_length:
            paths.append(path)
        members = set(path)
        for _position, child in dag.children[path[-1]]:
            if all(p == path[-1] or p not in members for p in parents[child]):
                stack.append([*path, child])
    return paths


def _subgraph_key(dag: Dag, nodes: frozenset[int], parents: list[list[int]]) -> str:
    """Canonical key of the subgraph induced by ``nodes``."""
    inner_parents = {v: [p for p in parents[v] if p in nodes] for v in nodes}
    roots = [v for v in nodes if not inner_parents[v]]
    if len(roots) == 1 and all(len(p) <= 1 for p in inner_parents.values()):
        return _tree_key(dag, roots[0], nodes)
    if len(nodes) > MAX_GENERAL_KEY_NODES:
        raise DataError(
            f"a non-tree compound of {len(nodes)} nodes cannot be keyed (limit "
            f"{MAX_GENERAL_KEY_NODES}); lower max_nodes."
        )
    return _general_key(dag, sorted(nodes))


def _tree_key(dag: Dag, root: int, nodes: frozenset[int]) -> str:
    parts = [f"{pos}:{_tree_key(dag, c, nodes)}" for pos, c in dag.children[root] if c in nodes]
    label = _escape(dag.labels[root])
    return f"{label}({','.join(parts)})" if parts else label


def _general_key(dag: Dag, nodes: list[int]) -> str:
    """The smallest serialisation over node orders that sort nodes by label."""
    labels = {v: _escape(dag.labels[v]) for v in nodes}
    ordered = sorted(nodes, key=lambda v: labels[v])
    groups = [list(group) for _, group in itertools.groupby(ordered, key=lambda v: labels[v])]
    best: str | None = None
    for arrangement in itertools.product(*(itertools.permutations(g) for g in groups)):
        order = [v for group in arrangement for v in group]
        rank = {v: i for i, v in enumerate(order)}
        edges = sorted(
            (rank[p], rank[c], pos) for p in order for pos, c in dag.children[p] if c in rank
        )
        text = (
            "dag["
            + ",".join(labels[v] for v in order)
            + ";"
            + ",".join(f"{a}-{pos}>{b}" for a, b, pos in edges)
            + "]"
        )
        if best is None or text < best:
            best = text
    assert best is not None
    return best


# -- one-node extensions -------------------------------------------------------------------


def _extensions(dag: Dag, found: list[tuple[int, str]]) -> list[list[str]]:
    """For each occurrence, the distinct keys of occurrences with one more adjacent node."""
    adjacency = [0] * len(dag)
    for parent, kids in enumerate(dag.children):
        for _position, child in kids:
            adjacency[parent] |= 1 << child
            adjacency[child] |= 1 << parent
    by_mask = dict(found)
    result: list[list[str]] = []
    for mask, _key in found:
        around, rest = 0, mask
        while rest:
            low = rest & -rest
            around |= adjacency[low.bit_length() - 1]
            rest ^= low
        around &= ~mask
        keys: list[str] = []
        while around:
            low = around & -around
            around ^= low
            key = by_mask.get(mask | low)
            if key is not None and key not in keys:
                keys.append(key)
        result.append(keys)
    return result


_SPECIAL = frozenset("(),:[]\\;->")


@lru_cache(maxsize=65536)
def _escape(label: str) -> str:
    if _SPECIAL.isdisjoint(label):
        return label
    return "".join("\\" + ch if ch in _SPECIAL else ch for ch in label)
