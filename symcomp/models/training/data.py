"""Batching: padding, masks and batches of similar length (seeded).

Sequences are padded with ``PAD`` (id 0) on the right; a model derives its masks from the
padding (``tokens != PAD``). Batches group inputs of similar length so little is padded; the
order of batches is shuffled with a generator seeded by (seed, epoch), so an epoch's batches
depend on nothing else and a resumed run sees the same data as an uninterrupted one.

>>> import torch
>>> pad_sequences([[5, 6, 7], [8]])
tensor([[5, 6, 7],
        [8, 0, 0]])
>>> length_batches([3, 1, 2, 1], batch_size=2, seed=None)
[[1, 3], [2, 0]]
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import torch

from symcomp.models.inputs.vocab import PAD


def pad_sequences(sequences: Sequence[Sequence[int]], value: int = PAD) -> torch.Tensor:
    """A [B, max length] long tensor of right-padded sequences."""
    width = max((len(s) for s in sequences), default=0)
    out = torch.full((len(sequences), max(width, 1)), value, dtype=torch.long)
    for row, sequence in enumerate(sequences):
        out[row, : len(sequence)] = torch.tensor(sequence, dtype=torch.long)
    return out


def length_batches(
    lengths: Sequence[int], batch_size: int, seed: int | None, epoch: int = 0
) -> list[list[int]]:
    """Indices grouped into batches of similar length.

    With ``seed=None`` batches follow length order (for prediction); otherwise ties in length
    are broken at random and the batch order is shuffled, both from ``(seed, epoch)``.
    """
    if batch_size < 1:
        raise ValueError(f"batch_size must be positive, got {batch_size}.")
    keys = np.asarray(lengths, dtype=np.float64)
    if seed is None:
        order = np.argsort(keys, kind="stable")
        return [order[i : i + batch_size].tolist() for i in range(0, len(order), batch_size)]
    rng = np.random.default_rng([seed, epoch])
    order = np.lexsort((rng.random(len(keys)), keys))
    batches = [order[i : i + batch_size].tolist() for i in range(0, len(order), batch_size)]
    return [batches[i] for i in rng.permutation(len(batches))]
