"""Bag-of-words encoder: the mean of the token embeddings (order is invisible to it).

>>> import torch
>>> encoder = BagOfWords(BagOfWordsConfig(embedding=8), 10)
>>> encoder(torch.tensor([[4, 5, 0], [6, 0, 0]])).shape
torch.Size([2, 8])
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn

from symcomp.models.inputs.vocab import PAD


@dataclass(frozen=True)
class BagOfWordsConfig:
    embedding: int = 128
    dropout: float = 0.1


class BagOfWords(nn.Module):
    def __init__(self, config: BagOfWordsConfig, vocab: int) -> None:
        super().__init__()
        self.config = config
        self.output_size = config.embedding
        self.embed = nn.Embedding(vocab, config.embedding, padding_idx=PAD)
        self.dropout = nn.Dropout(config.dropout)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:  # [B, S] -> [B, E]
        keep = (tokens != PAD)[..., None].float()  # [B, S, 1]
        total = (self.embed(tokens) * keep).sum(1)  # [B, E]
        return self.dropout(total / keep.sum(1).clamp(min=1.0))  # type: ignore[no-any-return]
