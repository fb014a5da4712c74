"""Transformer encoder-decoder (Vaswani et al. 2017), pre-layer-norm as in OpenNMT-py.

Positions are sinusoidal or learned. Attention is ``scaled_dot_product_attention`` with
boolean masks (True = may attend). Decoding is incremental: each step runs only the newest
token, against the cached keys and values of the earlier ones (and of the encoder memory).
The encoder stack is reused by the BERT-like classifiers (:mod:`symcomp.models.nets.bert`).

>>> import torch
>>> model = Transformer(TransformerConfig(d_model=16, heads=2, ff=32, layers=1), 10, 12)
>>> model(torch.tensor([[4, 5, 0]]), torch.tensor([[1, 6, 7]])).shape
torch.Size([1, 3, 12])
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal, cast

import torch
import torch.nn.functional as F  # noqa: N812
from torch import nn

from symcomp.models.inputs.vocab import PAD
from symcomp.models.nets.decoding import State


@dataclass(frozen=True)
class TransformerConfig:
    d_model: int = 128
    heads: int = 4
    ff: int = 256
    layers: int = 3  # encoder layers
    decoder_layers: int | None = None  # None: as many as the encoder
    dropout: float = 0.1
    positions: Literal["sinusoidal", "learned"] = "sinusoidal"
    max_positions: int = 512
    tie_embeddings: bool = True  # decoder input embedding = output projection
    # Universal Transformer (Dehghani et al. 2019, without adaptive halting): one encoder and
    # one decoder block, each applied `layers` times, a depth signal added before every pass
    universal: bool = False


def sinusoids(length: int, dim: int) -> torch.Tensor:
    """[length, dim] sinusoidal position table."""
    position = torch.arange(length, dtype=torch.float32)[:, None]
    rate = torch.exp(torch.arange(0, dim, 2, dtype=torch.float32) * (-math.log(10000.0) / dim))
    table = torch.zeros(length, dim)
    table[:, 0::2] = torch.sin(position * rate)
    table[:, 1::2] = torch.cos(position * rate)[:, : dim // 2]
    return table


class Embedding(nn.Module):
    """Token embedding scaled by sqrt(d), plus positions, then dropout."""

    def __init__(self, vocab: int, config: TransformerConfig) -> None:
        super().__init__()
        self.config = config
        self.tokens = nn.Embedding(vocab, config.d_model, padding_idx=PAD)
        nn.init.normal_(self.tokens.weight, std=config.d_model**-0.5)
        self.learned = (
            nn.Embedding(config.max_positions, config.d_model)
            if config.positions == "learned"
            else None
        )
        self.register_buffer("table", sinusoids(config.max_positions, config.d_model), False)
        self.dropout = nn.Dropout(config.dropout)

    def forward(
        self, ids: torch.Tensor, offset: int = 0, shifts: torch.Tensor | None = None
    ) -> torch.Tensor:  # [B, T] -> [B, T, D]
        """Embedded ``ids`` at positions ``offset ..``, each row moved on by ``shifts`` [B]."""
        end = offset + ids.size(1) + (int(shifts.max()) if shifts is not None else 0)
        if end > self.config.max_positions:
            raise ValueError(
                f"sequence of {end} tokens exceeds max_positions={self.config.max_positions}"
            )
        table = self.learned.weight if self.learned is not None else self.get_buffer("table")
        if shifts is None:
            positions = table[offset : offset + ids.size(1)]  # [T, D]
        else:  # [B, T, D]
            steps = torch.arange(ids.size(1), device=ids.device)
            positions = table[offset + shifts[:, None] + steps[None, :]]
        x = self.tokens(ids) * math.sqrt(self.config.d_model) + positions
        return self.dropout(x)  # type: ignore[no-any-return]


class Attention(nn.Module):
    """Multi-head attention; ``mask`` [B or 1, 1 or Tq, Tk] is True where attending is allowed."""

    def __init__(self, d_model: int, heads: int, dropout: float) -> None:
        super().__init__()
        if d_model % heads:
            raise ValueError(f"d_model={d_model} is not divisible by heads={heads}")
        self.heads = heads
        self.dropout = dropout
        self.query = nn.Linear(d_model, d_model)
        self.key_value = nn.Linear(d_model, 2 * d_model)
        self.out = nn.Linear(d_model, d_model)

    def keys_values(self, context: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Projected keys and values [B, Tk, D] of ``context`` [B, Tk, D]."""
        k, v = self.key_value(context).chunk(2, dim=-1)
        return k, v

    def attend(
        self, x: torch.Tensor, k: torch.Tensor, v: torch.Tensor, mask: torch.Tensor
    ) -> torch.Tensor:  # x [B, Tq, D], k/v [B, Tk, D] -> [B, Tq, D]
        batch, length, dim = x.shape

        def heads(t: torch.Tensor) -> torch.Tensor:  # [B, T, D] -> [B, h, T, D / h]
            return t.view(batch, t.size(1), self.heads, -1).transpose(1, 2)

        y = F.scaled_dot_product_attention(
            heads(self.query(x)),
            heads(k),
            heads(v),
            attn_mask=mask[:, None],
            dropout_p=self.dropout if self.training else 0.0,
        )  # [B, h, Tq, D / h]
        return self.out(y.transpose(1, 2).reshape(batch, length, dim))  # type: ignore[no-any-return]

    def forward(
        self, x: torch.Tensor, context: torch.Tensor, mask: torch.Tensor
    ) -> torch.Tensor:  # x [B, Tq, D], context [B, Tk, D] -> [B, Tq, D]
        return self.attend(x, *self.keys_values(context), mask)


class Block(nn.Module):
    """Pre-LN block: self-attention, optional cross-attention, feed-forward; residuals."""

    def __init__(self, config: TransformerConfig, cross: bool) -> None:
        super().__init__()
        d = config.d_model
        self.norm1 = nn.LayerNorm(d)
        self.attention = Attention(d, config.heads, config.dropout)
        self.norm2 = nn.LayerNorm(d) if cross else None
        self.cross = Attention(d, config.heads, config.dropout) if cross else None
        self.norm3 = nn.LayerNorm(d)
        self.ff = nn.Sequential(
            nn.Linear(d, config.ff), nn.ReLU(), nn.Dropout(config.dropout), nn.Linear(config.ff, d)
        )
        self.dropout = nn.Dropout(config.dropout)

    def forward(
        self,
        x: torch.Tensor,  # [B, T, D]
        mask: torch.Tensor,  # [B or 1, T, T] or [B, 1, T]
        memory: torch.Tensor | None = None,  # [B, S, D]
        memory_mask: torch.Tensor | None = None,  # [B, 1, S]
    ) -> torch.Tensor:  # [B, T, D]
        h = self.norm1(x)
        x = x + self.dropout(self.attention(h, h, mask))
        if self.cross is not None and self.norm2 is not None:
            assert memory is not None and memory_mask is not None
            x = x + self.dropout(self.cross(self.norm2(x), memory, memory_mask))
        return x + self.dropout(self.ff(self.norm3(x)))  # type: ignore[no-any-return]

    def extend(
        self,
        x: torch.Tensor,
        cache: tuple[torch.Tensor, torch.Tensor],
        position: int,
        memory: State,
        layer: int,
    ) -> tuple[torch.Tensor, tuple[torch.Tensor, torch.Tensor]]:
        """Decoder step for the newest position ``x`` [B, 1, D]. ``cache`` holds the keys and
        values of the earlier positions in its first ``position`` rows ([B, capacity, D] each,
        grown by doubling and written in place, so a decode costs O(T), not O(T^2), copies)."""
        assert self.cross is not None and self.norm2 is not None
        h = self.norm1(x)
        k, v = self.attention.keys_values(h)  # [B, 1, D] each
        keys, values = (_room(c, position + 1) for c in cache)
        keys[:, position : position + 1] = k
        values[:, position : position + 1] = v
        seen = slice(0, position + 1)
        allowed = torch.ones(1, 1, position + 1, dtype=torch.bool, device=x.device)
        x = x + self.dropout(self.attention.attend(h, keys[:, seen], values[:, seen], allowed))
        mk, mv = memory[f"memory_k{layer}"], memory[f"memory_v{layer}"]
        x = x + self.dropout(self.cross.attend(self.norm2(x), mk, mv, memory["src_mask"]))
        return x + self.dropout(self.ff(self.norm3(x))), (keys, values)


def _room(cache: torch.Tensor, needed: int) -> torch.Tensor:
    """``cache`` [B, capacity, D], or a copy with twice the capacity when ``needed`` exceeds it."""
    if cache.size(1) >= needed:
        return cache
    grown = cache.new_zeros(cache.size(0), max(needed, 2 * cache.size(1)), cache.size(2))
    grown[:, : cache.size(1)] = cache
    return grown


class Encoder(nn.Module):
    """Embedding, ``layers`` blocks (or one block applied ``layers`` times when ``tied``, with a
    depth signal before every pass when ``universal``), final layer norm."""

    depth_signal: torch.Tensor | None  # a buffer: [layers, D] when universal

    def __init__(
        self, vocab: int, config: TransformerConfig, tied: bool = False, universal: bool = False
    ) -> None:
        super().__init__()
        self.embed = Embedding(vocab, config)
        self.depth = config.layers
        self.blocks = nn.ModuleList(
            [Block(config, cross=False) for _ in range(1 if tied or universal else config.layers)]
        )
        self.register_buffer(
            "depth_signal", sinusoids(config.layers, config.d_model) if universal else None, False
        )
        self.norm = nn.LayerNorm(config.d_model)

    def forward(self, x: torch.Tensor, src: torch.Tensor) -> torch.Tensor:
        """[B, S, D] encodings of embedded ``x`` [B, S, D]; ``src`` [B, S] gives the padding."""
        mask = (src != PAD)[:, None, :]  # [B, 1, S]
        signal = self.depth_signal
        for layer in range(self.depth):
            if signal is not None:
                x = x + signal[layer]
            x = self.blocks[min(layer, len(self.blocks) - 1)](x, mask)
        return self.norm(x)  # type: ignore[no-any-return]


class Transformer(nn.Module):
    """Encoder-decoder; ``forward`` is teacher-forced, ``encode``/``step`` decode."""

    depth_signal: torch.Tensor | None  # a buffer: [layers, D] when universal

    def __init__(self, config: TransformerConfig, src_vocab: int, tgt_vocab: int) -> None:
        super().__init__()
        self.config = config
        self.encoder = Encoder(src_vocab, config, universal=config.universal)
        self.tgt_embed = Embedding(tgt_vocab, config)
        layers = config.decoder_layers or config.layers
        self.depth = layers
        self.decoder = nn.ModuleList(
            [Block(config, cross=True) for _ in range(1 if config.universal else layers)]
        )
        self.register_buffer(
            "depth_signal", sinusoids(layers, config.d_model) if config.universal else None, False
        )
        self.norm = nn.LayerNorm(config.d_model)
        self.generator = nn.Linear(config.d_model, tgt_vocab)
        if config.tie_embeddings:
            self.generator.weight = self.tgt_embed.tokens.weight

    def blocks(self) -> list[Block]:
        """The decoder block of every layer (the same block throughout when universal)."""
        return [cast(Block, self.decoder[min(i, len(self.decoder) - 1)]) for i in range(self.depth)]

    def _signal(self, x: torch.Tensor, layer: int) -> torch.Tensor:
        signal = self.depth_signal
        return x if signal is None else x + signal[layer]

    def encode(self, src: torch.Tensor) -> State:  # src [B, S]
        memory = self.encoder(self.encoder.embed(src), src)  # [B, S, D]
        return {"memory": memory, "src_mask": (src != PAD)[:, None, :]}  # [B, 1, S]

    def decode_all(self, state: State, prefix: torch.Tensor) -> torch.Tensor:
        """[B, T, V] logits for every position of ``prefix`` [B, T]."""
        length = prefix.size(1)
        causal = torch.ones(length, length, dtype=torch.bool, device=prefix.device).tril()
        x = self.tgt_embed(prefix)  # [B, T, D]
        for layer, block in enumerate(self.blocks()):
            x = block(self._signal(x, layer), causal[None], state["memory"], state["src_mask"])
        return self.generator(self.norm(x))  # type: ignore[no-any-return]

    def forward(self, src: torch.Tensor, tgt_in: torch.Tensor) -> torch.Tensor:
        """[B, T, V] logits of the next token at each position of ``tgt_in`` [B, T]."""
        return self.decode_all(self.encode(src), tgt_in)

    def step(self, state: State, prefix: torch.Tensor) -> tuple[torch.Tensor, State]:
        """Incremental: only the newest token is run, against cached keys and values."""
        if "memory_k0" not in state:
            state = self._with_caches(state)
        position = prefix.size(1) - 1
        x = self.tgt_embed(prefix[:, -1:], offset=position)  # [B, 1, D]
        new = dict(state)
        for layer, block in enumerate(self.blocks()):
            cache = (state[f"k{layer}"], state[f"v{layer}"])
            x, (new[f"k{layer}"], new[f"v{layer}"]) = block.extend(
                self._signal(x, layer), cache, position, state, layer
            )
        logits = self.generator(self.norm(x))[:, 0]  # [B, V]
        return torch.log_softmax(logits.float(), dim=-1), new

    def _with_caches(self, state: State) -> State:
        """Add the cross-attention keys/values of the memory and empty self-attention caches."""
        memory = state["memory"]
        shape = (memory.size(0), 16, self.config.d_model)  # capacity 16, grows as needed
        state = dict(state)
        for layer, block in enumerate(self.blocks()):
            assert block.cross is not None
            state[f"memory_k{layer}"], state[f"memory_v{layer}"] = block.cross.keys_values(memory)
            # separate buffers: they are written in place
            state[f"k{layer}"], state[f"v{layer}"] = (
                memory.new_zeros(shape),
                memory.new_zeros(shape),
            )
        return state
