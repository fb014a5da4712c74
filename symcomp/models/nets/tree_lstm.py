"""Tree-LSTM encoders (Tai et al. 2015): child-sum and N-ary, with two backends.

Each node's input is the embedding of its label (rule alias or token). Child-sum:

    h~ = sum_k h_k
    i, o, u = sigma(W_i x + U_i h~), sigma(W_o x + U_o h~), tanh(W_u x + U_u h~)
    f_k = sigma(W_f x + U_f h_k)
    c = i * u + sum_k f_k * c_k ;  h = o * tanh(c)

N-ary (children in ``arity`` ordered slots, missing ones zero): the gates read the
concatenation [h_1; ...; h_N] and each slot has its own forget gate.

Backends: ``torch`` runs a :class:`~symcomp.models.inputs.trees.TreeBatch` level by level;
``dgl`` turns it into one DGL graph (edges child -> parent) and runs ``dgl.prop_nodes_topo``
(whose topological frontiers are the same levels). Both call the same cell, so with the same
weights they give the same numbers (tested, with a naive recursive evaluation as a third
opinion). The encoding of a tree is its root's ``h``.

The default backend is ``torch``: it runs on every device, and on the CPU it is 1.8-2.3x
faster than DGL (``benchmarks/perf_train.py``). DGL 2.1's only wheel is CPU-only, so a run
that asks for ``dgl`` on another device falls back to ``torch`` (:func:`usable_backend`).

>>> import torch
>>> from symcomp.models.inputs.trees import Node, TreeBatch
>>> encoder = TreeLSTM(TreeLSTMConfig(embedding=4, hidden=6, variant="nary", arity=2), 5)
>>> batch = TreeBatch.build([Node("a", (Node("b"), Node("c")))], lambda s: 4, arity=2)
>>> encoder(batch).shape
torch.Size([1, 6])
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any, Literal

import torch
from torch import nn

from symcomp.errors import SymcompError
from symcomp.models.inputs.trees import TreeBatch
from symcomp.models.inputs.vocab import PAD


@dataclass(frozen=True)
class TreeLSTMConfig:
    embedding: int = 64
    hidden: int = 128
    variant: Literal["childsum", "nary"] = "childsum"
    arity: int = 2  # N-ary slots; longer child lists are folded (see trees.from_lark)
    backend: Literal["torch", "dgl"] = "torch"
    dropout: float = 0.1


def usable_backend(backend: str, device: torch.device) -> tuple[str, str | None]:
    """The backend a tree-LSTM runs with on ``device``, and a note when it is not ``backend``.

    DGL's only wheel for torch 2.13 is CPU-only: asked for elsewhere it falls back to the
    pure-torch backend, which gives the same numbers.

    >>> usable_backend("dgl", torch.device("cpu"))
    ('dgl', None)
    >>> usable_backend("dgl", torch.device("cuda"))[0]
    'torch'
    """
    if backend != "dgl" or device.type == "cpu":
        return backend, None
    return "torch", (
        f"the tree-LSTM's DGL backend cannot run on {device} (DGL 2.1's only wheel is "
        "CPU-only); it runs with backend=torch, which gives the same numbers."
    )


class TreeLSTMCell(nn.Module):
    """The gates of one tree-LSTM step, for ``n`` nodes at once."""

    def __init__(self, config: TreeLSTMConfig) -> None:
        super().__init__()
        self.hidden = config.hidden
        self.nary = config.variant == "nary"
        slots = config.arity if self.nary else 1
        self.w_iou = nn.Linear(config.embedding, 3 * config.hidden)
        self.w_f = nn.Linear(config.embedding, config.hidden)
        self.u_iou = nn.Linear(slots * config.hidden, 3 * config.hidden, bias=False)
        self.u_f = nn.Linear(slots * config.hidden, slots * config.hidden, bias=False)

    def from_children(
        self, wf_x: torch.Tensor, h: torch.Tensor, c: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """(U_iou part [n, 3H], forget-gated child memory [n, H]) from children
        h, c [n, A, H] (absent children are zero) and W_f x [n, H]."""
        n, slots, hidden = h.shape
        if self.nary:
            flat = h.reshape(n, slots * hidden)  # [n, N*H]
            forget = torch.sigmoid(wf_x.repeat(1, slots) + self.u_f(flat)).view(n, slots, hidden)
            return self.u_iou(flat), (forget * c).sum(1)
        forget = torch.sigmoid(wf_x[:, None, :] + self.u_f(h))  # [n, A, H]
        return self.u_iou(h.sum(1)), (forget * c).sum(1)

    def node(
        self, wiou_x: torch.Tensor, uiou_h: torch.Tensor, c_children: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """(h, c) [n, H] of nodes from W_iou x, U_iou h and the gated child memory."""
        i, o, u = (wiou_x + uiou_h).chunk(3, dim=-1)
        c = torch.sigmoid(i) * torch.tanh(u) + c_children
        return torch.sigmoid(o) * torch.tanh(c), c


class TreeLSTM(nn.Module):
    """[B, H] root encodings of a :class:`TreeBatch`."""

    def __init__(self, config: TreeLSTMConfig, labels: int) -> None:
        super().__init__()
        self.config = config
        self.output_size = config.hidden
        self.embed = nn.Embedding(labels, config.embedding, padding_idx=PAD)
        self.dropout = nn.Dropout(config.dropout)
        self.cell = TreeLSTMCell(config)

    def forward(self, batch: TreeBatch) -> torch.Tensor:
        h = self.node_states(batch)  # [N, H]
        return h.index_select(0, batch.roots)

    def node_states(self, batch: TreeBatch) -> torch.Tensor:
        """[N, H] hidden state of every node, in the batch's level order."""
        x = self.dropout(self.embed(batch.labels))  # [N, E]
        if self.config.backend == "dgl":
            return dgl_states(self.cell, x, batch)
        return torch_states(self.cell, x, batch)


def torch_states(cell: TreeLSTMCell, x: torch.Tensor, batch: TreeBatch) -> torch.Tensor:
    """Level by level: gather the children's states, run the cell on the whole level."""
    wiou_x, wf_x = cell.w_iou(x), cell.w_f(x)  # [N, 3H], [N, H]
    zero = x.new_zeros(1, cell.hidden)
    hs, cs = [zero], [zero]  # row 0: the absent child
    start = 0
    for size in batch.level_sizes:
        level = slice(start, start + size)
        kids = batch.children[level]  # [n, A] 1-based rows of hs/cs
        h_all, c_all = torch.cat(hs), torch.cat(cs)  # [1 + start, H]
        uiou_h, c_kids = cell.from_children(wf_x[level], h_all[kids], c_all[kids])
        h, c = cell.node(wiou_x[level], uiou_h, c_kids)
        hs.append(h)
        cs.append(c)
        start += size
    return torch.cat(hs[1:])


def dgl_states(cell: TreeLSTMCell, x: torch.Tensor, batch: TreeBatch) -> torch.Tensor:
    """The trees as one DGL graph (edge child -> parent, slot as edge data), propagated in
    topological order with ``dgl.prop_nodes_topo``."""
    from symcomp.models.nets.dgl_import import import_dgl

    dgl = import_dgl()
    parent, slot = (batch.children > 0).nonzero(as_tuple=True)
    child = batch.children[parent, slot] - 1
    try:
        graph = dgl.graph((child, parent), num_nodes=x.size(0), device=x.device)
    except Exception as error:  # e.g. a CPU-only DGL build asked for a CUDA graph
        raise SymcompError(
            f"DGL cannot build the tree graph on {x.device} ({error}); use the pure-torch "
            "backend (setting backend=torch), which gives the same numbers."
        ) from None
    slots = batch.children.size(1)
    graph.edata["slot"] = slot
    graph.ndata["wiou"] = cell.w_iou(x)
    graph.ndata["wf"] = cell.w_f(x)
    graph.ndata["uiou"] = x.new_zeros(x.size(0), 3 * cell.hidden)  # leaves keep zeros
    graph.ndata["ckids"] = x.new_zeros(x.size(0), cell.hidden)
    graph.ndata["h"] = x.new_zeros(x.size(0), cell.hidden)
    graph.ndata["c"] = x.new_zeros(x.size(0), cell.hidden)

    def message(edges: Any) -> dict[str, torch.Tensor]:
        return {"h": edges.src["h"], "c": edges.src["c"], "slot": edges.data["slot"]}

    def reduce(nodes: Any) -> dict[str, torch.Tensor]:
        h, c = nodes.mailbox["h"], nodes.mailbox["c"]  # [n, degree, H]
        if cell.nary:  # put each child in its slot; absent slots stay zero
            index = nodes.mailbox["slot"][..., None].expand_as(h)  # [n, degree, H]
            h = h.new_zeros(h.size(0), slots, h.size(2)).scatter(1, index, h)
            c = c.new_zeros(c.size(0), slots, c.size(2)).scatter(1, index, c)
        uiou_h, c_kids = cell.from_children(nodes.data["wf"], h, c)
        return {"uiou": uiou_h, "ckids": c_kids}

    def apply(nodes: Any) -> dict[str, torch.Tensor]:
        h, c = cell.node(nodes.data["wiou"], nodes.data["uiou"], nodes.data["ckids"])
        return {"h": h, "c": c}

    with warnings.catch_warnings():  # the leaves' frontier has no edges; DGL warns about it
        warnings.filterwarnings("ignore", message=".*does not contain valid edges")
        dgl.prop_nodes_topo(graph, message, reduce, apply_node_func=apply)
    return graph.ndata["h"]  # type: ignore[no-any-return]
