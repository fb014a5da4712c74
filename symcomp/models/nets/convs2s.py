"""Convolutional sequence-to-sequence with multi-step attention (Gehring et al. 2017).

Layers are written as fairseq does, ``channels x kernel * repeat`` joined by commas:
``"512x3*9,1024x3*4,2048x1*2"`` is ``fconv_wmt_en_de``'s stack. Every convolution is followed
by a GLU and a residual connection scaled by sqrt(1/2); every decoder layer attends to the
encoder outputs ``z`` and reads values ``z + e`` (e: the source embeddings). Decoder
convolutions are causal (left-padded). fairseq's weight normalisation is not used (plain
initialisation; see docs/models.md).

>>> parse_layers("512x3*2,256x1")
((512, 3), (512, 3), (256, 1))
>>> import torch
>>> model = ConvS2S(ConvS2SConfig(embedding=8, encoder="16x3*2", decoder="16x3*2", out=8), 10, 12)
>>> model(torch.tensor([[4, 5, 0]]), torch.tensor([[1, 6, 7]])).shape
torch.Size([1, 3, 12])
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import cast

import torch
import torch.nn.functional as F  # noqa: N812
from torch import nn

from symcomp.models.inputs.vocab import PAD
from symcomp.models.nets.decoding import State

SCALE = math.sqrt(0.5)


@dataclass(frozen=True)
class ConvS2SConfig:
    embedding: int = 128
    encoder: str = "128x3*4"
    decoder: str = "128x3*4"
    out: int = 128  # decoder output embedding before the vocabulary projection
    dropout: float = 0.1
    max_positions: int = 512


def parse_layers(spec: str) -> tuple[tuple[int, int], ...]:
    """``"CxK*N,..."`` -> ((channels, kernel), ...)."""
    layers: list[tuple[int, int]] = []
    for part in spec.replace(" ", "").split(","):
        match = re.fullmatch(r"(\d+)x(\d+)(?:\*(\d+))?", part)
        if not match:
            raise ValueError(f"bad layer spec {part!r} in {spec!r}; write channels x kernel * n")
        channels, kernel, repeat = int(match[1]), int(match[2]), int(match[3] or 1)
        layers.extend([(channels, kernel)] * repeat)
    return tuple(layers)


class ConvLayer(nn.Module):
    """Conv (to 2C channels) + GLU, with a projected residual when channels change."""

    def __init__(self, channels_in: int, channels: int, kernel: int, causal: bool) -> None:
        super().__init__()
        if not causal and kernel % 2 == 0:
            raise ValueError(f"encoder kernels must be odd (got {kernel})")
        self.kernel, self.causal = kernel, causal
        self.conv = nn.Conv1d(channels_in, 2 * channels, kernel)
        self.residual = nn.Linear(channels_in, channels) if channels_in != channels else None

    def forward(self, x: torch.Tensor) -> torch.Tensor:  # [B, T, Cin] -> [B, T, C]
        padding = (self.kernel - 1, 0) if self.causal else ((self.kernel - 1) // 2,) * 2
        y = self.conv(F.pad(x.transpose(1, 2), padding))  # [B, 2C, T]
        return F.glu(y, dim=1).transpose(1, 2)

    def last(self, window: torch.Tensor) -> torch.Tensor:  # [B, K, Cin] -> [B, 1, C]
        """The causal output at the newest position, from its ``kernel`` latest inputs."""
        return F.glu(self.conv(window.transpose(1, 2)), dim=1).transpose(1, 2)


class ConvS2S(nn.Module):
    def __init__(self, config: ConvS2SConfig, src_vocab: int, tgt_vocab: int) -> None:
        super().__init__()
        self.config = config
        encoder, decoder = parse_layers(config.encoder), parse_layers(config.decoder)
        e = config.embedding
        self.src_embed = nn.Embedding(src_vocab, e, padding_idx=PAD)
        self.tgt_embed = nn.Embedding(tgt_vocab, e, padding_idx=PAD)
        self.src_pos = nn.Embedding(config.max_positions, e)
        self.tgt_pos = nn.Embedding(config.max_positions, e)
        for table in (self.src_embed, self.tgt_embed, self.src_pos, self.tgt_pos):
            nn.init.normal_(table.weight, std=0.1)
        self.enc_in = nn.Linear(e, encoder[0][0])
        self.enc_layers = nn.ModuleList(self._stack(encoder, causal=False))
        self.enc_out = nn.Linear(encoder[-1][0], e)
        self.dec_in = nn.Linear(e, decoder[0][0])
        self.dec_layers = nn.ModuleList(self._stack(decoder, causal=True))
        self.att_in = nn.ModuleList([nn.Linear(c, e) for c, _ in decoder])
        self.att_out = nn.ModuleList([nn.Linear(e, c) for c, _ in decoder])
        self.dec_out = nn.Linear(decoder[-1][0], config.out)
        self.generator = nn.Linear(config.out, tgt_vocab)
        self.dropout = nn.Dropout(config.dropout)

    @staticmethod
    def _stack(layers: tuple[tuple[int, int], ...], causal: bool) -> list[ConvLayer]:
        widths = [layers[0][0], *(c for c, _ in layers)]
        return [ConvLayer(widths[i], c, k, causal) for i, (c, k) in enumerate(layers)]

    def _embed(self, ids: torch.Tensor, table: nn.Embedding, pos: nn.Embedding) -> torch.Tensor:
        if ids.size(1) > self.config.max_positions:
            raise ValueError(f"{ids.size(1)} tokens exceed max_positions")
        return self.dropout(table(ids) + pos.weight[: ids.size(1)])  # type: ignore[no-any-return]

    def encode(self, src: torch.Tensor) -> State:  # src [B, S]
        keep = (src != PAD)[..., None].float()  # [B, S, 1]
        embedded = self._embed(src, self.src_embed, self.src_pos)  # [B, S, E]
        x = self.enc_in(embedded)  # [B, S, C]
        for layer in cast(list[ConvLayer], list(self.enc_layers)):
            residual = x if layer.residual is None else layer.residual(x)
            x = (layer(self.dropout(x) * keep) + residual) * SCALE
        z = self.enc_out(x) * keep  # [B, S, E]
        return {"keys": z, "values": (z + embedded) * SCALE, "src_mask": src != PAD}

    def decode_all(self, state: State, prefix: torch.Tensor) -> torch.Tensor:
        """[B, T, V] logits for every position of ``prefix`` [B, T]."""
        target = self._embed(prefix, self.tgt_embed, self.tgt_pos)  # [B, T, E]
        x = self.dec_in(target)  # [B, T, C]
        for i, layer in enumerate(self._decoder()):
            residual = x if layer.residual is None else layer.residual(x)
            x = self._attend(state, i, layer(self.dropout(x)), target, residual)
        return self.generator(self.dropout(self.dec_out(x)))  # type: ignore[no-any-return]

    def _decoder(self) -> list[ConvLayer]:
        return cast(list[ConvLayer], list(self.dec_layers))

    def _attend(
        self, state: State, i: int, h: torch.Tensor, target: torch.Tensor, residual: torch.Tensor
    ) -> torch.Tensor:
        """Decoder layer ``i`` after its convolution ``h`` [B, T, C]: multi-step attention,
        then the residual."""
        lengths = state["src_mask"].sum(1).clamp(min=1).float()[:, None, None]  # [B, 1, 1]
        blocked = ~state["src_mask"][:, None, :]  # [B, 1, S]
        query = (self.att_in[i](h) + target) * SCALE  # [B, T, E]
        scores = query @ state["keys"].transpose(1, 2)  # [B, T, S]
        weights = torch.softmax(scores.masked_fill(blocked, float("-inf")), dim=-1)
        context = (weights @ state["values"]) * lengths.sqrt()  # [B, T, E], as fairseq scales
        h = (h + self.att_out[i](context)) * SCALE
        return (h + residual) * SCALE

    def forward(self, src: torch.Tensor, tgt_in: torch.Tensor) -> torch.Tensor:
        """[B, T, V] logits of the next token at each position of ``tgt_in`` [B, T]."""
        return self.decode_all(self.encode(src), tgt_in)

    def step(self, state: State, prefix: torch.Tensor) -> tuple[torch.Tensor, State]:
        """Incremental, as fairseq decodes: each decoder layer keeps its ``kernel - 1`` latest
        inputs (``window<i>``), so a step runs only the positions of ``prefix`` not ``seen``
        yet (the newest one when called token by token)."""
        state = dict(state)
        if "seen" not in state or int(state["seen"][0]) >= prefix.size(1):
            state = self._with_windows(state)  # nothing new (a repeated call): replay from 0
        logits = torch.empty(0)
        for position in range(int(state["seen"][0]), prefix.size(1)):
            logits = self._advance(state, prefix[:, position : position + 1], position)
        state["seen"] = torch.full_like(state["seen"], prefix.size(1))
        return torch.log_softmax(logits.float(), dim=-1), state

    def _with_windows(self, state: State) -> State:
        """Empty input windows per decoder layer: zeros, like ``decode_all``'s causal padding."""
        keys = state["keys"]
        windows = {
            f"window{i}": keys.new_zeros(keys.size(0), layer.kernel - 1, layer.conv.in_channels)
            for i, layer in enumerate(self._decoder())
        }
        seen = torch.zeros(keys.size(0), dtype=torch.long, device=keys.device)
        return {**state, **windows, "seen": seen}

    def _advance(self, state: State, token: torch.Tensor, position: int) -> torch.Tensor:
        """Run ``token`` [B, 1] at ``position``, sliding the windows in ``state``; [B, V]."""
        if position >= self.config.max_positions:
            raise ValueError(f"{position + 1} tokens exceed max_positions")
        target = self.dropout(self.tgt_embed(token) + self.tgt_pos.weight[position])  # [B, 1, E]
        x = self.dec_in(target)  # [B, 1, C]
        for i, layer in enumerate(self._decoder()):
            residual = x if layer.residual is None else layer.residual(x)
            window = torch.cat([state[f"window{i}"], self.dropout(x)], dim=1)  # [B, K, Cin]
            state[f"window{i}"] = window[:, 1:]
            x = self._attend(state, i, layer.last(window), target, residual)
        return self.generator(self.dropout(self.dec_out(x)))[:, 0]  # type: ignore[no-any-return]
