"""NLI: one encoder reads premise and hypothesis; the head classifies a combination.

With encodings u (premise) and v (hypothesis), the features are any of ``concat`` [u; v],
``diff`` u - v, ``absdiff`` |u - v| and ``prod`` u * v (Mou et al. 2016; Conneau et al. 2017),
concatenated, then an MLP gives one logit per label.

>>> import torch
>>> from symcomp.models.nets.bow import BagOfWords, BagOfWordsConfig
>>> head = NLIHeadConfig(combine="concat,diff,prod", hidden=4)
>>> model = PairClassifier(BagOfWords(BagOfWordsConfig(embedding=8), 10), 2, head)
>>> model((torch.tensor([[4, 5]]), torch.tensor([[6, 7]]))).shape
torch.Size([1, 2])
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import torch
from torch import nn

from symcomp.models.nets.classifier import HeadConfig, mlp, output_size

Combine = Callable[[torch.Tensor, torch.Tensor], torch.Tensor]
FEATURES: dict[str, tuple[int, Combine]] = {
    "concat": (2, lambda u, v: torch.cat([u, v], dim=-1)),
    "diff": (1, lambda u, v: u - v),
    "absdiff": (1, lambda u, v: (u - v).abs()),
    "prod": (1, lambda u, v: u * v),
}


@dataclass(frozen=True)
class NLIHeadConfig:
    combine: str = "concat,diff,prod"
    hidden: int = 128
    dropout: float = 0.1

    def parts(self) -> list[str]:
        names = [name.strip() for name in self.combine.split(",") if name.strip()]
        unknown = [name for name in names if name not in FEATURES]
        if unknown or not names:
            raise ValueError(
                f"combine={self.combine!r}: use a comma-separated subset of {', '.join(FEATURES)}"
            )
        return names


class PairClassifier(nn.Module):
    def __init__(self, encoder: nn.Module, classes: int, config: NLIHeadConfig) -> None:
        super().__init__()
        self.encoder = encoder
        self.parts = config.parts()
        width = sum(FEATURES[name][0] for name in self.parts) * output_size(encoder)
        self.head = mlp(width, classes, HeadConfig(config.hidden, config.dropout))

    def forward(self, inputs: tuple[Any, Any]) -> torch.Tensor:  # -> [B, classes]
        u, v = self.encoder(inputs[0]), self.encoder(inputs[1])  # [B, H] each
        features = torch.cat([FEATURES[name][1](u, v) for name in self.parts], dim=-1)
        return self.head(features)  # type: ignore[no-any-return]
