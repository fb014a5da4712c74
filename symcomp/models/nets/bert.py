"""BERT-like and ALBERT-like Transformer encoders for classification (trained from scratch).

A ``<bos>`` token is prepended and its final state is the encoding (BERT's [CLS]). The
ALBERT-like variant factorises the embedding (``embedding`` < ``d_model``, projected up) and
ties the layers: one block applied ``layers`` times. No pre-training: these are the
architectures, trained on the task like the other encoders.

>>> import torch
>>> encoder = BertEncoder(BertConfig(d_model=16, heads=2, ff=32, layers=2, tied=True), 10)
>>> encoder(torch.tensor([[4, 5, 0], [6, 0, 0]])).shape
torch.Size([2, 16])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import torch
from torch import nn

from symcomp.models.inputs.vocab import BOS, PAD
from symcomp.models.nets.transformer import Encoder, TransformerConfig


@dataclass(frozen=True)
class BertConfig:
    d_model: int = 128
    heads: int = 4
    ff: int = 256
    layers: int = 4
    dropout: float = 0.1
    positions: Literal["sinusoidal", "learned"] = "learned"
    max_positions: int = 512
    tied: bool = False  # ALBERT: one block applied `layers` times
    embedding: int | None = None  # ALBERT: factorised embedding size (None: d_model)
    # CobA's random left-padding: while training, each input starts at a random position in
    # 0..random_shift, so no token is tied to one absolute position
    random_shift: int = 0


class BertEncoder(nn.Module):
    def __init__(self, config: BertConfig, vocab: int) -> None:
        super().__init__()
        self.config = config
        self.output_size = config.d_model
        inner = TransformerConfig(
            d_model=config.d_model,
            heads=config.heads,
            ff=config.ff,
            layers=config.layers,
            dropout=config.dropout,
            positions=config.positions,
            max_positions=config.max_positions,
        )
        self.encoder = Encoder(vocab, inner, tied=config.tied)
        small = config.embedding
        if small is not None and small != config.d_model:  # factorised: vocab -> E -> D
            self.encoder.embed.tokens = nn.Sequential(  # type: ignore[assignment]
                nn.Embedding(vocab, small, padding_idx=PAD), nn.Linear(small, config.d_model)
            )

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:  # [B, S] -> [B, D]
        ids = torch.cat([torch.full_like(tokens[:, :1], BOS), tokens], dim=1)  # [B, 1 + S]
        shifts = None
        if self.training and self.config.random_shift:
            shifts = torch.randint(  # global torch RNG: seeded by the trainer
                0, self.config.random_shift + 1, (ids.size(0),), device=ids.device
            )
        states = self.encoder(self.encoder.embed(ids, shifts=shifts), ids)  # [B, 1 + S, D]
        return states[:, 0]  # type: ignore[no-any-return]
