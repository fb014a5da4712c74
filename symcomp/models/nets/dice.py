"""DICE number embeddings (Sundararaman et al. 2020): deterministic, frozen vectors whose cosine
similarity falls as the distance between two numbers grows.

A number ``x`` in ``[low, high]`` becomes the angle ``θ = π (x - low) / (high - low)`` and the
unit vector with every hyperspherical angle equal to ``θ`` (``cos θ``, ``sin θ cos θ``, ...,
``sin^(d-1) θ``), turned by a fixed random rotation so no coordinate is special. CobA's models
embed numbers this way, frozen; every other token keeps a learned embedding.

>>> table = dice_vectors([1, 50, 100], 8, 1, 100)
>>> table.shape
torch.Size([3, 8])
>>> near, far = (float(table[0] @ table[i]) for i in (1, 2))
>>> near > far
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import torch
from torch import nn

ROTATION_SEED = 20200701  # the rotation is part of the definition: fixed, not the run's seed


def dice_vectors(numbers: Sequence[float], dim: int, low: float, high: float) -> torch.Tensor:
    """[len(numbers), dim] unit DICE vectors of ``numbers`` over the range ``[low, high]``."""
    if dim < 2:
        raise ValueError(f"DICE needs at least 2 dimensions, got {dim}")
    span = max(high - low, 1e-9)
    rows = []
    for number in numbers:
        theta = math.pi * (float(number) - low) / span
        polar = [math.cos(theta)]
        polar += [math.sin(theta) ** (k - 1) * math.cos(theta) for k in range(2, dim)]
        polar.append(math.sin(theta) ** (dim - 1))
        rows.append(polar)
    generator = torch.Generator().manual_seed(ROTATION_SEED)
    rotation, _ = torch.linalg.qr(torch.randn(dim, dim, generator=generator))
    rotated: torch.Tensor = torch.tensor(rows) @ rotation.T  # keeps lengths and angles
    return rotated


class DiceEmbedding(nn.Module):
    """An embedding whose number tokens are frozen DICE vectors and the rest learned.

    The numbers live in a buffer, not in the learned weight, so no optimiser (nor weight
    decay) ever moves them.
    """

    def __init__(self, learned: nn.Embedding, tokens: Sequence[str]) -> None:
        super().__init__()
        self.learned = learned
        numbers = {i: float(t) for i, t in enumerate(tokens) if _is_number(t)}
        dim = learned.embedding_dim
        table = torch.zeros(learned.num_embeddings, dim)
        if numbers:
            low, high = min(numbers.values()), max(numbers.values())
            vectors = dice_vectors(list(numbers.values()), dim, low, high)
            table[list(numbers)] = vectors
        is_number = torch.zeros(learned.num_embeddings, dtype=torch.bool)
        is_number[list(numbers)] = True
        self.register_buffer("table", table)
        self.register_buffer("is_number", is_number)

    def forward(self, ids: torch.Tensor) -> torch.Tensor:  # [...] -> [..., E]
        fixed = self.get_buffer("table")[ids]
        return torch.where(self.get_buffer("is_number")[ids][..., None], fixed, self.learned(ids))


def install_dice(encoder: nn.Module, tokens: Sequence[str]) -> int:
    """Replace the token embeddings of ``encoder`` (embeddings over exactly ``tokens``, with a
    padding index) by :class:`DiceEmbedding`; return how many were replaced."""
    replaced = 0
    for owner in list(encoder.modules()):
        for name, child in list(owner.named_children()):
            if (
                isinstance(child, nn.Embedding)
                and child.padding_idx is not None
                and child.num_embeddings == len(tokens)
            ):
                setattr(owner, name, DiceEmbedding(child, tokens))
                replaced += 1
    return replaced


def _is_number(token: str) -> bool:
    try:
        return math.isfinite(float(token))
    except ValueError:
        return False
