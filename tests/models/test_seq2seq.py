"""Sequence-to-sequence models: shapes, overfitting a tiny batch, decoding."""

from __future__ import annotations

import logging

import pytest
import torch
import torch.nn.functional as F  # noqa: N812

from symcomp.models.inputs.vocab import BOS, EOS, PAD, Vocab
from symcomp.models.nets.convs2s import ConvS2S, ConvS2SConfig
from symcomp.models.nets.decoding import beam_search, greedy
from symcomp.models.nets.lstms2s import LSTMS2S, LSTMS2SConfig
from symcomp.models.nets.transformer import Transformer, TransformerConfig
from symcomp.models.training.data import pad_sequences
from symcomp.models.training.tasks import Seq2SeqTask, TaskConfig

Seq2Seq = Transformer | LSTMS2S | ConvS2S

SRC, TGT = 12, 14


def build(name: str, dropout: float = 0.0) -> Seq2Seq:
    torch.manual_seed(0)
    if name == "transformer":
        config = TransformerConfig(d_model=32, heads=2, ff=64, layers=2, dropout=dropout)
        return Transformer(config, SRC, TGT)
    if name == "lstms2s":
        return LSTMS2S(LSTMS2SConfig(embedding=16, hidden=32, dropout=dropout), SRC, TGT)
    conv = ConvS2SConfig(embedding=16, encoder="32x3*2", decoder="32x3*2", out=16, dropout=dropout)
    return ConvS2S(conv, SRC, TGT)


MODELS = ["transformer", "universal", "lstms2s", "convs2s"]
PAIRS = [  # source ids -> target ids (reversal with a twist), different lengths
    ([4, 5, 6], [7, 8, 9, 10]),
    ([5, 4], [11, 7]),
    ([6, 6, 4, 5], [9, 9, 10, 12, 13]),
    ([7], [12]),
    ([8, 9, 4], [13, 7, 7]),
    ([9, 8, 7, 6, 5], [8, 9, 10, 11, 12, 13]),
]


def batch() -> tuple[torch.Tensor, torch.Tensor]:
    src = pad_sequences([s for s, _ in PAIRS])
    tgt = pad_sequences([[BOS, *t, EOS] for _, t in PAIRS])
    return src, tgt


@pytest.mark.parametrize("name", MODELS)
def test_shapes(name: str) -> None:
    model = build(name)
    src, tgt = batch()
    assert model(src, tgt[:, :-1]).shape == (len(PAIRS), tgt.size(1) - 1, TGT)
    state = model.encode(src)
    assert all(value.size(0) == len(PAIRS) for value in state.values())
    log_probs, _ = model.step(state, tgt[:, :3])
    assert log_probs.shape == (len(PAIRS), TGT)
    assert torch.allclose(log_probs.exp().sum(-1), torch.ones(len(PAIRS)), atol=1e-5)


@pytest.mark.parametrize("name", MODELS)
def test_teacher_forcing_matches_stepwise_decoding(name: str) -> None:
    """forward's logits at position t are step's prediction after the prefix up to t."""
    model = build(name).eval()
    src, tgt = batch()
    full = torch.log_softmax(model(src, tgt[:, :-1]), -1)
    state = model.encode(src)
    for t in range(1, 4):
        log_probs, state = model.step(state, tgt[:, :t])
        assert torch.allclose(log_probs, full[:, t - 1], atol=1e-5)


@pytest.mark.parametrize("name", MODELS)
def test_overfits_a_tiny_batch(name: str) -> None:
    model = build(name)
    src, tgt = batch()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    for _ in range(150):
        logits = model(src, tgt[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, TGT), tgt[:, 1:].reshape(-1), ignore_index=PAD)
        optimizer.zero_grad()
        loss.backward()  # type: ignore[no-untyped-call]
        optimizer.step()
    model.eval()
    out = greedy(model, src, max_len=10).tolist()
    decoded = [row[: row.index(EOS)] if EOS in row else row for row in out]
    assert decoded == [t for _, t in PAIRS]
    assert float(loss.detach()) < 0.05


@pytest.mark.parametrize("name", MODELS)
def test_beam_of_one_is_greedy_and_wider_beams_score_higher(name: str) -> None:
    model = build(name).eval()
    src = pad_sequences([[4, 5, 6], [7, 8], [9, 4, 4, 5], [6]])
    greedy_out = greedy(model, src, max_len=8)
    assert torch.equal(beam_search(model, src, max_len=8, beam=1), greedy_out)
    wide = beam_search(model, src, max_len=8, beam=4)
    assert (score(model, src, wide) >= score(model, src, greedy_out) - 1e-5).all()


def score(model: Seq2Seq, src: torch.Tensor, out: torch.Tensor) -> torch.Tensor:
    """[B] log-probability of each decoded sequence (up to and including EOS)."""
    prefix = torch.cat([torch.full_like(out[:, :1], BOS), out], dim=1)
    log_probs = torch.log_softmax(model(src, prefix[:, :-1]).float(), -1)
    picked = log_probs.gather(-1, out[..., None])[..., 0]  # [B, T]
    return (picked * (out != PAD)).sum(1)


@pytest.mark.parametrize("name", MODELS)
def test_padding_does_not_change_predictions(name: str) -> None:
    model = build(name).eval()
    sources = [[4, 5, 6, 7, 8], [7], [9, 4]]
    together = greedy(model, pad_sequences(sources), max_len=6)
    for row, source in enumerate(sources):
        alone = greedy(model, pad_sequences([source]), max_len=6)[0]
        assert together[row, : alone.numel()].tolist() == alone.tolist()


def test_convs2s_steps_catch_up_on_unseen_positions() -> None:
    """ConvS2S decodes incrementally from per-layer input windows; a step given several new
    positions (or a fresh state) runs them in order and stays exact."""
    model = build("convs2s").eval()
    conv = ConvS2SConfig(embedding=16, encoder="32x3*2", decoder="32x5,24x3,24x1", out=16)
    mixed = ConvS2S(conv, SRC, TGT).eval()  # kernels 5/3/1 and a channel change
    src, tgt = batch()
    for net in (model, mixed):
        full = torch.log_softmax(net(src, tgt[:, :-1]), -1)
        state = net.encode(src)
        log_probs, state = net.step(state, tgt[:, :2])  # two positions at once
        assert torch.allclose(log_probs, full[:, 1], atol=1e-5)
        log_probs, state = net.step(state, tgt[:, :5])  # three more
        assert torch.allclose(log_probs, full[:, 4], atol=1e-5)
        log_probs, _ = net.step(state, tgt[:, :5])  # nothing new: replayed
        assert torch.allclose(log_probs, full[:, 4], atol=1e-5)
        log_probs, _ = net.step(net.encode(src), tgt[:, :4])  # fresh state
        assert torch.allclose(log_probs, full[:, 3], atol=1e-5)


@pytest.mark.parametrize("name", ["transformer", "convs2s", "lstms2s"])
def test_inputs_longer_than_the_model_reads_get_an_empty_answer(
    name: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Localism feeds a model its own outputs, which may exceed its positions: those inputs
    are answered with "" (scored wrong and inconsistent) instead of stopping the evaluation."""
    vocab = Vocab.build([["a", "b"]])
    module: torch.nn.Module
    if name == "transformer":
        module = Transformer(
            TransformerConfig(d_model=16, heads=2, ff=16, layers=1, max_positions=6),
            len(vocab),
            len(vocab),
        )
    elif name == "convs2s":
        conv = ConvS2SConfig(embedding=8, encoder="8x3", decoder="8x3", out=8, max_positions=6)
        module = ConvS2S(conv, len(vocab), len(vocab))
    else:
        module = LSTMS2S(LSTMS2SConfig(embedding=8, hidden=8), len(vocab), len(vocab))
    task = Seq2SeqTask(module, vocab, vocab, TaskConfig(), max_output=20)
    with caplog.at_level(logging.WARNING):
        answers = task.predict(["a b", "a " * 10, "b a b"])
    assert len(answers) == 3
    if name == "lstms2s":  # no position limit: everything is read
        assert task.capacity() is None and not caplog.records
    else:
        assert answers[1] == "" and "1 input(s) longer than the model's 6 positions" in caplog.text
        assert all(len(answer.split()) <= 5 for answer in answers)  # decoding stays in range
