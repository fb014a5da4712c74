"""Tree-LSTM: the DGL and pure-torch backends agree (outputs and gradients), and both agree
with a naive node-by-node recursive evaluation of Tai et al.'s equations."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Literal

import pytest
import torch

import symcomp
from symcomp.models.inputs.trees import Node, TreeBatch, from_lark
from symcomp.models.nets.tree_lstm import TreeLSTM, TreeLSTMConfig

LABELS = [f"l{i}" for i in range(12)]


def random_tree(rng: random.Random, depth: int, arity: int) -> Node:
    if depth == 0 or rng.random() < 0.25:
        return Node(rng.choice(LABELS))
    children = tuple(random_tree(rng, depth - 1, arity) for _ in range(rng.randint(1, arity)))
    return Node(rng.choice(LABELS), children)


def label_id(label: str) -> int:
    return 4 + LABELS.index(label)


def naive(model: TreeLSTM, node: Node) -> tuple[torch.Tensor, torch.Tensor]:
    """(h, c) of ``node`` by recursion, straight from the equations (no batching)."""
    cell = model.cell
    x = model.embed.weight[label_id(node.label)]
    kids = [naive(model, child) for child in node.children]
    hidden = model.config.hidden
    if model.config.variant == "nary":
        slots = model.config.arity
        hs = [k[0] for k in kids] + [torch.zeros(hidden)] * (slots - len(kids))
        cs = [k[1] for k in kids] + [torch.zeros(hidden)] * (slots - len(kids))
        flat = torch.cat(hs)
        iou = cell.w_iou(x) + cell.u_iou(flat)
        f = torch.sigmoid(cell.w_f(x).repeat(slots) + cell.u_f(flat)).view(slots, hidden)
        c_kids = sum((f[k] * cs[k] for k in range(slots)), torch.zeros(hidden))
    else:
        h_sum = sum((k[0] for k in kids), torch.zeros(hidden))
        iou = cell.w_iou(x) + cell.u_iou(h_sum)
        c_kids = sum(
            (torch.sigmoid(cell.w_f(x) + cell.u_f(h)) * c for h, c in kids), torch.zeros(hidden)
        )
    i, o, u = iou.chunk(3)
    c = torch.sigmoid(i) * torch.tanh(u) + c_kids
    return torch.sigmoid(o) * torch.tanh(c), c


@pytest.mark.parametrize("variant", ["childsum", "nary"])
def test_backends_and_recursion_agree(variant: Literal["childsum", "nary"]) -> None:
    rng = random.Random(7)
    trees = [random_tree(rng, depth=5, arity=3) for _ in range(12)]
    config = TreeLSTMConfig(
        embedding=8, hidden=10, variant=variant, arity=3, dropout=0.0, backend="dgl"
    )
    torch.manual_seed(0)
    model = TreeLSTM(config, 4 + len(LABELS))
    twin = TreeLSTM(TreeLSTMConfig(**{**config.__dict__, "backend": "torch"}), 4 + len(LABELS))
    twin.load_state_dict(model.state_dict())
    arity = 3 if variant == "nary" else None
    batch = TreeBatch.build(trees, label_id, arity)
    assert len(batch.level_sizes) > 3  # deep enough to exercise several frontiers

    out_dgl, out_torch = model(batch), twin(batch)
    assert torch.allclose(out_dgl, out_torch, atol=1e-6, rtol=0)
    recursive = torch.stack([naive(model, tree)[0] for tree in trees])
    assert torch.allclose(out_dgl, recursive, atol=1e-6, rtol=0)

    weights = torch.randn_like(out_dgl)
    (out_dgl * weights).sum().backward()
    (out_torch * weights).sum().backward()
    for (name, a), b in zip(model.named_parameters(), twin.parameters(), strict=True):
        assert a.grad is not None and b.grad is not None, name
        assert a.grad.abs().sum() > 0, name
        assert torch.allclose(a.grad, b.grad, atol=1e-6, rtol=0), name


def test_batch_order_does_not_change_encodings() -> None:
    rng = random.Random(3)
    trees = [random_tree(rng, depth=4, arity=2) for _ in range(6)]
    model = TreeLSTM(TreeLSTMConfig(embedding=6, hidden=6, dropout=0.0), 4 + len(LABELS)).eval()
    together = model(TreeBatch.build(trees, label_id))
    alone = torch.cat([model(TreeBatch.build([tree], label_id)) for tree in trees])
    assert torch.allclose(together, alone, atol=1e-6)


def test_parse_trees_of_a_language_and_folding() -> None:
    tree = symcomp.get_language("pcfg-set").parse("append swap_first_last A1 B2 C3 , repeat D4 E5")
    node = from_lark(tree)
    assert node.label == "start" and "A1" in node.labels()
    assert node.max_children() == 3  # the string A1 B2 C3
    folded = from_lark(tree, max_children=2)
    assert folded.max_children() == 2
    assert sorted(folded.labels()) == sorted([*node.labels(), "string@"])
    with pytest.raises(ValueError, match="N-ary"):
        TreeBatch.build([node], lambda s: 4, arity=2)


def test_dgl_off_the_cpu_falls_back_to_torch() -> None:
    """DGL's only wheel is CPU-only: a run asking for it on another device uses the pure-torch
    backend, with a note, and its other settings unchanged (no GPU needed: the decision and
    the torch backend on a device that is not the CPU, torch's shape-only ``meta``)."""
    from symcomp.models.zoo import on_device, resolve

    asked = resolve("treelstm", "tiny", ["backend=dgl", "variant=nary"])
    kept, no_note = on_device(asked, torch.device("cpu"))
    assert kept == asked and no_note is None
    used, note = on_device(asked, torch.device("cuda"))
    assert used.model_config == {**asked.model_config, "backend": "torch"}
    assert note is not None and "CPU-only" in note and "backend=torch" in note
    assert resolve("treelstm", "tiny").model_config["backend"] == "torch"  # the default

    batch = TreeBatch.build([Node("a", (Node("b"), Node("c")))], lambda s: 4, arity=2)
    model = TreeLSTM(TreeLSTMConfig(**used.model_config), 5).to("meta")
    assert model(batch.to(torch.device("meta"))).shape == (1, 16)


@pytest.mark.parametrize("variant", ["childsum", "nary"])
def test_training_gives_the_same_numbers_with_either_backend(variant: str, tmp_path: Path) -> None:
    from symcomp.models.run_dir import RunDir
    from symcomp.models.runs import read_metrics, train_run
    from symcomp.models.zoo import resolve
    from symcomp.suites.reading import Suite

    builder = symcomp.get_language("arithmetic").suite_builder()
    assert builder is not None
    builder.build(
        tmp_path / "coba", builder.make({"in_domain": 120, "generalisation": 20, "export": False})
    )
    data = Suite.read(tmp_path / "coba").test("random")
    runs = {}
    for backend in ("dgl", "torch"):
        sets = [f"backend={backend}", f"variant={variant}", "epochs=2", "dropout=0.1"]
        summary = train_run(data, resolve("treelstm", "tiny", sets), tmp_path / backend)
        losses = [row["train_loss"] for row in read_metrics(tmp_path / backend)]
        runs[backend] = (summary["test_accuracy"], losses)
        assert RunDir(tmp_path / backend).config()["model_config"]["backend"] == backend
    assert runs["dgl"][0] == runs["torch"][0]
    assert runs["dgl"][1] == pytest.approx(runs["torch"][1], abs=1e-5)
