"""Parse trees for tree-structured encoders, and their level-ordered batches.

A :class:`Node` is a label and its children. :func:`from_lark` converts the tree a
``Language.parse`` returns (rule aliases label inner nodes, tokens are leaves). N-ary
tree-LSTMs need a bounded number of children: ``max_children`` folds longer child lists into
right-branching ``label@`` nodes.

:class:`TreeBatch` numbers every node of a batch of trees by *level* (height: leaves 0, a node
one above its highest child), so all children of a level's nodes come from lower levels; both
tree-LSTM backends consume it: the pure-torch one level by level, the DGL one as one graph.

>>> tree = Node("add", (Node("1"), Node("mul", (Node("2"), Node("3")))))
>>> batch = TreeBatch.build([tree], lambda label: {"add": 1, "mul": 2}.get(label, 3), arity=2)
>>> batch.level_sizes, batch.roots.tolist()
([3, 1, 1], [4])
>>> batch.children.tolist()  # 1-based positions of each node's children; 0: none
[[0, 0], [0, 0], [0, 0], [2, 3], [1, 4]]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import torch

from symcomp.errors import DataError


@dataclass(frozen=True)
class Node:
    label: str
    children: tuple[Node, ...] = ()

    def size(self) -> int:
        return 1 + sum(child.size() for child in self.children)

    def labels(self) -> list[str]:
        return [self.label, *(label for child in self.children for label in child.labels())]

    def max_children(self) -> int:
        return max([len(self.children), *(child.max_children() for child in self.children)])


def from_lark(tree: Any, max_children: int | None = None) -> Node:
    """A :class:`Node` from a lark ``Tree`` (tokens become leaves labelled by their text)."""
    if not hasattr(tree, "data"):
        return Node(str(tree))
    children = tuple(from_lark(child, max_children) for child in tree.children)
    return _fold(str(tree.data), children, max_children)


def _fold(label: str, children: tuple[Node, ...], limit: int | None) -> Node:
    if limit is None or len(children) <= limit:
        return Node(label, children)
    if limit < 2:
        raise ValueError(f"max_children must be at least 2, got {limit}")
    rest = _fold(label + "@", children[limit - 1 :], limit)
    return Node(label, (*children[: limit - 1], rest))


@dataclass(frozen=True)
class TreeBatch:
    """Nodes of several trees in level order.

    labels    [N] label id of each node
    children  [N, A] 1-based position of each child (in child order), 0 for none
    level_sizes  number of nodes on each level, leaves first
    roots     [B] position of each tree's root
    """

    labels: torch.Tensor
    children: torch.Tensor
    level_sizes: list[int]
    roots: torch.Tensor

    @classmethod
    def build(
        cls, trees: Sequence[Node], label_id: Callable[[str], int], arity: int | None = None
    ) -> TreeBatch:
        """Level-ordered batch; ``arity`` fixes the child slots (N-ary), None: widest node."""
        nodes: list[tuple[int, int, Node, list[int]]] = []  # (height, serial, node, child serials)
        roots = [_collect(tree, nodes) for tree in trees]
        widest = max((len(n[3]) for n in nodes), default=0)
        slots = widest if arity is None else arity
        if widest > slots:
            raise DataError(
                f"a tree node has {widest} children but the N-ary tree-LSTM has {slots} slots; "
                "raise arity, or fold long child lists (max_children), or use child-sum."
            )
        order = sorted(range(len(nodes)), key=lambda i: (nodes[i][0], i))
        position = {nodes[i][1]: p for p, i in enumerate(order)}
        children = torch.zeros(len(nodes), max(slots, 1), dtype=torch.long)
        for p, i in enumerate(order):
            for slot, serial in enumerate(nodes[i][3]):
                children[p, slot] = position[serial] + 1
        heights = [nodes[i][0] for i in order]
        sizes = [heights.count(h) for h in range(max(heights, default=-1) + 1)]
        labels = torch.tensor([label_id(nodes[i][2].label) for i in order], dtype=torch.long)
        return cls(labels, children, sizes, torch.tensor([position[r] for r in roots]))

    def to(self, device: torch.device | str) -> TreeBatch:
        return TreeBatch(
            self.labels.to(device), self.children.to(device), self.level_sizes,
            self.roots.to(device),
        )  # fmt: skip


def _collect(node: Node, nodes: list[tuple[int, int, Node, list[int]]]) -> int:
    """Append ``node``'s subtree (children first); return the node's serial."""
    serials = [_collect(child, nodes) for child in node.children]
    height = 1 + max((nodes[s][0] for s in serials), default=-1)
    nodes.append((height, len(nodes), node, serials))
    return len(nodes) - 1
