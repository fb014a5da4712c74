"""A classification head on any encoder: the encoding, an MLP, one logit per class.

Used for CobA (the value of an arithmetic expression as one of 100 classes) and any test whose
output is a label. The encoder maps its batch input (token ids, or a tree batch) to [B, H].

>>> import torch
>>> from symcomp.models.nets.bow import BagOfWords, BagOfWordsConfig
>>> model = Classifier(BagOfWords(BagOfWordsConfig(embedding=8), 10), 3, HeadConfig(hidden=4))
>>> model(torch.tensor([[4, 5]])).shape
torch.Size([1, 3])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import torch
from torch import nn


@dataclass(frozen=True)
class HeadConfig:
    hidden: int = 128  # 0: a linear head
    dropout: float = 0.1


def output_size(encoder: nn.Module) -> int:
    """The width of an encoder's output (its ``output_size`` attribute)."""
    size = vars(encoder).get("output_size")
    if not isinstance(size, int):
        raise TypeError(f"{type(encoder).__name__} has no integer output_size")
    return size


def mlp(inputs: int, classes: int, config: HeadConfig) -> nn.Module:
    """Linear, or Linear-ReLU-Dropout-Linear when ``config.hidden`` > 0."""
    if config.hidden <= 0:
        return nn.Linear(inputs, classes)
    return nn.Sequential(
        nn.Linear(inputs, config.hidden),
        nn.ReLU(),
        nn.Dropout(config.dropout),
        nn.Linear(config.hidden, classes),
    )


class Classifier(nn.Module):
    def __init__(self, encoder: nn.Module, classes: int, config: HeadConfig) -> None:
        super().__init__()
        self.encoder = encoder
        self.head = mlp(output_size(encoder), classes, config)

    def forward(self, inputs: Any) -> torch.Tensor:  # -> [B, classes]
        return self.head(self.encoder(inputs))  # type: ignore[no-any-return]
