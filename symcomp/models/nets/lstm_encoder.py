"""LSTM encoder (uni- or bidirectional): the final states of both directions, concatenated.

>>> import torch
>>> encoder = LSTMEncoder(LSTMEncoderConfig(embedding=8, hidden=6, bidirectional=True), 10)
>>> encoder(torch.tensor([[4, 5, 0], [6, 0, 0]])).shape
torch.Size([2, 12])
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn

from symcomp.models.inputs.vocab import PAD


@dataclass(frozen=True)
class LSTMEncoderConfig:
    embedding: int = 64
    hidden: int = 128  # per direction
    layers: int = 1
    bidirectional: bool = True
    dropout: float = 0.1


class LSTMEncoder(nn.Module):
    def __init__(self, config: LSTMEncoderConfig, vocab: int) -> None:
        super().__init__()
        self.config = config
        self.output_size = config.hidden * (2 if config.bidirectional else 1)
        self.embed = nn.Embedding(vocab, config.embedding, padding_idx=PAD)
        self.lstm = nn.LSTM(
            config.embedding,
            config.hidden,
            config.layers,
            batch_first=True,
            bidirectional=config.bidirectional,
            dropout=config.dropout if config.layers > 1 else 0.0,
        )
        self.dropout = nn.Dropout(config.dropout)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:  # [B, S] -> [B, H * dirs]
        lengths = (tokens != PAD).sum(1).clamp(min=1).cpu()
        packed = nn.utils.rnn.pack_padded_sequence(
            self.dropout(self.embed(tokens)), lengths, batch_first=True, enforce_sorted=False
        )
        _, (h, _) = self.lstm(packed)  # h [layers * dirs, B, H]
        directions = 2 if self.config.bidirectional else 1
        last = h[-directions:]  # the top layer's final state(s)
        return self.dropout(torch.cat(list(last), dim=-1))  # type: ignore[no-any-return]
