"""Encoders with classification heads (bag of words, LSTM, tree-LSTM, BERT/ALBERT-like) and the
NLI pair head: shapes and overfitting a tiny batch through the classifier task."""

from __future__ import annotations

import dataclasses

import pytest
import torch

import symcomp
from symcomp.models.training.tasks import ClassifierTask, TaskConfig, split_pair
from symcomp.models.zoo import build_task, resolve, tree_parser, vocabularies

# prefix arithmetic with its value as the label: tokens, and parse trees of the language
RECORDS = [
    {"input": "+ 2 3", "output": "5"},
    {"input": "× 2 3", "output": "6"},
    {"input": "+ 3 2", "output": "5"},
    {"input": "× 2 + 1 3", "output": "8"},
    {"input": "+ × 2 3 1", "output": "7"},
    {"input": "+ 1 1", "output": "2"},
    {"input": "× 3 3", "output": "9"},
    {"input": "+ 4 + 1 2", "output": "7"},
]
ENCODERS = ["bow", "lstm", "treelstm", "bert", "albert"]


def make(model: str, records: list[dict[str, str]], sets: tuple[str, ...] = ()) -> ClassifierTask:
    config = resolve(model, "tiny", ["dropout=0.0", *sets])
    parse = None
    if config.spec.inputs == "trees":
        parse = tree_parser(symcomp.get_language("arithmetic"), config)
    vocab = vocabularies(config, records, parse)
    torch.manual_seed(0)
    task = build_task(config, vocab, parse)
    assert isinstance(task, ClassifierTask)
    task.attach(records, [])
    return task


def fit(task: ClassifierTask, steps: int, lr: float = 1e-2) -> float:
    optimizer = torch.optim.Adam(task.module.parameters(), lr=lr)
    loss = torch.tensor(0.0)
    for _ in range(steps):
        loss, _ = task.loss(task.train)
        optimizer.zero_grad()
        loss.backward()  # type: ignore[no-untyped-call]
        optimizer.step()
    return float(loss.detach())


@pytest.mark.parametrize("model", ENCODERS)
def test_encoder_shapes(model: str) -> None:
    task = make(model, RECORDS)
    batch = task._batch([example[0] for example in task.train[:3]])
    encoder = task.module.get_submodule("encoder")
    assert encoder(batch).shape == (3, vars(encoder)["output_size"])
    assert task.module(batch).shape == (3, len(task.labels))


@pytest.mark.parametrize(
    ("model", "sets"),
    [
        ("bow", ()),
        ("lstm", ()),
        ("lstm", ("bidirectional=false",)),
        ("treelstm", ()),
        ("treelstm", ("backend=torch",)),
        ("treelstm", ("variant=nary",)),
        ("bert", ()),
        ("albert", ()),
    ],
)
def test_encoder_overfits_a_tiny_batch(model: str, sets: tuple[str, ...]) -> None:
    order_blind = ("+ 3 2", "+ × 2 3 1")  # same bags of words as other inputs
    records = [r for r in RECORDS if model != "bow" or r["input"] not in order_blind]
    task = make(model, records, sets)
    assert fit(task, 200, lr=3e-3 if "bert" in model else 1e-2) < 0.05
    assert task.predict([r["input"] for r in records]) == [r["output"] for r in records]


def test_bag_of_words_cannot_tell_order_apart() -> None:
    task = make("bow", RECORDS)
    a, b = task.predict(["× 2 + 1 3", "+ × 2 1 3"])
    assert a == b


def test_albert_ties_its_layers() -> None:
    def count(model: str) -> int:
        task = make(
            model, RECORDS, ("layers=4", "embedding=32") if model == "albert" else ("layers=4",)
        )
        blocks = task.module.get_submodule("encoder.encoder.blocks")
        return sum(p.numel() for p in blocks.parameters())

    assert count("albert") * 4 == count("bert")


PAIRS = [  # premise ||| hypothesis -> does every hypothesis word occur in the premise?
    ("some dog ran", "some dog", "entailment"),
    ("some dog ran", "some cat", "non-entailment"),
    ("no cat ran", "no cat", "entailment"),
    ("no cat ran", "some dog", "non-entailment"),
    ("few wolves swam", "few wolves", "entailment"),
    ("few wolves swam", "few cat", "non-entailment"),
]


@pytest.mark.parametrize("fields", [True, False])
@pytest.mark.parametrize("model", ["lstm", "bert"])
def test_nli_head_overfits_pairs(model: str, fields: bool) -> None:
    records = [
        {
            "input": f"{p} ||| {h}",
            "output": y,
            **({"premise": p, "hypothesis": h} if fields else {}),
        }
        for p, h, y in PAIRS
    ]
    task = make(model, records)
    assert task.pairs
    assert fit(task, 120) < 0.05
    assert task.predict([r["input"] for r in records]) == [r["output"] for r in records]


def test_nli_combinations_and_pair_inputs() -> None:
    from symcomp.models.nets.nli_head import NLIHeadConfig

    assert NLIHeadConfig(combine="concat, absdiff").parts() == ["concat", "absdiff"]
    with pytest.raises(ValueError, match="combine"):
        NLIHeadConfig(combine="sum").parts()
    assert split_pair({"input": "a b ||| c"}) == ("a b", "c")
    with pytest.raises(ValueError, match="premise"):
        split_pair({"input": "a b c"})
    config = dataclasses.replace(TaskConfig(), batch_size=2)
    assert config.batch_size == 2


def test_dice_numbers_are_frozen_and_the_rest_learn() -> None:
    from symcomp.models.nets.dice import DiceEmbedding, install_dice
    from symcomp.models.nets.lstm_encoder import LSTMEncoder, LSTMEncoderConfig

    tokens = ["<pad>", "<unk>", "<bos>", "<eos>", "+", "×", "1", "7", "100"]
    encoder = LSTMEncoder(LSTMEncoderConfig(embedding=6, hidden=4), len(tokens))
    assert install_dice(encoder, tokens) == 1
    embedding = encoder.embed
    assert isinstance(embedding, DiceEmbedding)
    ids = torch.tensor([[6, 7, 8, 4]])
    before = embedding(ids).detach().clone()
    optimizer = torch.optim.AdamW(encoder.parameters(), lr=0.1, weight_decay=0.5)
    for _ in range(3):
        optimizer.zero_grad()
        encoder(ids).sum().backward()
        optimizer.step()
    after = embedding(ids).detach()
    assert torch.equal(after[0, :3], before[0, :3])  # numbers never move, even under decay
    assert not torch.equal(after[0, 3], before[0, 3])  # the operator's embedding learns
    one, seven, hundred = before[0, :3]
    assert float(one @ seven) > float(one @ hundred)  # nearer numbers, nearer vectors


def test_random_shift_moves_positions_only_while_training() -> None:
    from symcomp.models.nets.bert import BertConfig, BertEncoder

    torch.manual_seed(0)
    config = BertConfig(d_model=8, heads=2, ff=16, layers=1, dropout=0.0, random_shift=5)
    encoder = BertEncoder(config, 10)
    ids = torch.tensor([[4, 5, 6]] * 8)
    encoder.eval()
    assert torch.equal(encoder(ids), encoder(ids))
    encoder.train()  # no dropout: rows differ only by where they start
    outputs = encoder(ids)
    assert not all(torch.allclose(outputs[0], row) for row in outputs)  # rows start elsewhere
