"""Greedy and beam-search decoding, batched, for any model with ``encode`` and ``step``.

A decodable model maps a source batch to a *state* (a dict of tensors, batch dimension first)
and, given the state and the prefix decoded so far, returns log-probabilities of the next token
and the updated state. Beam search reorders states with ``index_select`` on dimension 0, so a
model needs nothing else to be beam-searched.
"""

from __future__ import annotations

from typing import Protocol

import torch

from symcomp.models.inputs.vocab import BOS, EOS, PAD

State = dict[str, torch.Tensor]


class Decodable(Protocol):
    def encode(self, src: torch.Tensor) -> State:
        """State for a [B, S] source batch (every tensor batch-first)."""
        ...

    def step(self, state: State, prefix: torch.Tensor) -> tuple[torch.Tensor, State]:
        """[B, V] log-probabilities of the token after ``prefix`` [B, t] (starts with BOS)."""
        ...


def select(state: State, rows: torch.Tensor) -> State:
    """The state of the batch rows ``rows`` (beam reordering and expansion)."""
    return {key: value.index_select(0, rows) for key, value in state.items()}


@torch.no_grad()
def greedy(model: Decodable, src: torch.Tensor, max_len: int) -> torch.Tensor:
    """[B, <= max_len] token ids: the most probable token at each step; PAD after EOS."""
    state = model.encode(src)
    prefix = torch.full((src.size(0), 1), BOS, dtype=torch.long, device=src.device)
    finished = torch.zeros(src.size(0), dtype=torch.bool, device=src.device)
    for _ in range(max_len):
        log_probs, state = model.step(state, prefix)  # [B, V]
        token = log_probs.argmax(-1).masked_fill(finished, PAD)  # [B]
        prefix = torch.cat([prefix, token[:, None]], dim=1)
        finished |= token == EOS
        if bool(finished.all()):
            break
    return prefix[:, 1:]


@torch.no_grad()
def beam_search(
    model: Decodable,
    src: torch.Tensor,
    max_len: int,
    beam: int,
    length_penalty: float = 0.0,
) -> torch.Tensor:
    """[B, <= max_len] token ids of the best of ``beam`` hypotheses per input.

    Finished hypotheses keep their score and are extended with PAD only; the best hypothesis
    maximises ``score / length ** length_penalty`` (0: the plain log-probability). With
    ``beam=1`` this is greedy decoding.
    """
    batch, device = src.size(0), src.device
    rows = torch.arange(batch, device=device).repeat_interleave(beam)  # [B*K]
    state = select(model.encode(src), rows)
    prefix = torch.full((batch * beam, 1), BOS, dtype=torch.long, device=device)
    scores = torch.zeros(batch, beam, device=device)
    scores[:, 1:] = float("-inf")  # all beams start equal: keep one
    scores = scores.view(-1)  # [B*K]
    finished = torch.zeros(batch * beam, dtype=torch.bool, device=device)
    offsets = torch.arange(batch, device=device)[:, None] * beam  # [B, 1]
    for _ in range(max_len):
        log_probs, state = model.step(state, prefix)  # [B*K, V]
        log_probs = log_probs.float()
        vocab = log_probs.size(-1)
        pad_only = torch.full((vocab,), float("-inf"), device=device)
        pad_only[PAD] = 0.0
        log_probs = torch.where(finished[:, None], pad_only, log_probs)
        candidates = (scores[:, None] + log_probs).view(batch, beam * vocab)
        top, index = candidates.topk(beam, dim=1)  # [B, K]
        origin = (index // vocab + offsets).view(-1)  # [B*K] rows the winners extend
        token = (index % vocab).view(-1)
        state = select(state, origin)
        prefix = torch.cat([prefix.index_select(0, origin), token[:, None]], dim=1)
        finished = finished.index_select(0, origin) | (token == EOS)
        scores = top.view(-1)
        if bool(finished.all()):
            break
    lengths = (prefix[:, 1:] != PAD).sum(1).clamp(min=1).float()  # EOS counted
    ranked = scores / lengths.pow(length_penalty) if length_penalty else scores
    best = ranked.view(batch, beam).argmax(1) + offsets[:, 0]  # [B]
    return prefix.index_select(0, best)[:, 1:]


def decode(
    model: Decodable, src: torch.Tensor, max_len: int, beam: int = 1, length_penalty: float = 0.0
) -> torch.Tensor:
    """Greedy for ``beam == 1``, beam search otherwise."""
    if beam <= 1:
        return greedy(model, src, max_len)
    return beam_search(model, src, max_len, beam, length_penalty)
