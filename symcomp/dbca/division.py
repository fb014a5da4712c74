"""Dividing an MCD split's held-out side into dev and test, both within the atom bound.

The MCD search bounds the atom divergence between train and the whole held-out side; dev and
test are then a random partition of it (CFQ's dev and test share one distribution). A random
half can land above the bound although the whole is below it, so this module swaps examples
between dev and test until train vs dev and train vs test both meet the bound (or no swap helps
any more). The bound holds for what is reported: ``D_A(train, test)`` and ``D_A(train, dev)``.

>>> from symcomp.dbca.features import ngram_features
>>> texts = [f"{a} {b}" for a in "abcd" for b in "wxyz"] * 2
>>> features = ngram_features(texts)
>>> parts = divide_within_bound(features, list(range(16)), list(range(16, 32)), 8, 0.05, 0)
>>> len(parts.dev), len(parts.test), worst_atom_divergence(features, parts) <= 0.05
(8, 8, True)
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from symcomp._util import Seed, make_rng
from symcomp.dbca.baselines import Parts
from symcomp.dbca.features import Features

SWAP_CANDIDATES = 256  # dev-test pairs scored per swap
MAX_SWAPS = 2_000
PATIENCE = 50  # draws of candidates without a better swap before giving up
FloatArray = npt.NDArray[np.float64]


def _atom_divergences(train: FloatArray, sides: FloatArray) -> FloatArray:
    """``1 − C_0.5(train ‖ side)`` for each row of ``sides`` (atom counts)."""
    p = train / max(float(train.sum()), 1e-300)
    totals = sides.sum(axis=-1, keepdims=True)
    q = np.divide(sides, totals, out=np.zeros_like(sides), where=totals > 0)
    result: FloatArray = 1.0 - np.sqrt(p * q).sum(axis=-1)
    return result


def worst_atom_divergence(features: Features, parts: Parts) -> float:
    """The larger of D_A(train, test) and D_A(train, dev) (dev only when it is not empty)."""
    train = features.atoms.sum_rows(parts.train)
    sides = [features.atoms.sum_rows(parts.test)]
    if parts.dev:
        sides.append(features.atoms.sum_rows(parts.dev))
    return float(_atom_divergences(train, np.stack(sides)).max())


def divide_within_bound(
    features: Features,
    train: Sequence[int],
    held_out: Sequence[int],
    dev_size: int,
    max_da: float,
    seed: Seed,
) -> Parts:
    """Dev (``dev_size`` examples) and test from ``held_out``: a random partition, then swaps
    between them (each the best of :data:`SWAP_CANDIDATES` random pairs) while the larger of
    the two atom divergences from ``train`` exceeds ``max_da`` and a swap lowers it."""
    rng = make_rng(seed)
    order = list(held_out)
    rng.shuffle(order)
    dev, test = order[:dev_size], order[dev_size:]
    if not dev or not test:
        return Parts(sorted(train), sorted(dev), sorted(test))
    rows = _dense_rows(features, order)
    train_atoms = features.atoms.sum_rows(train)
    position = {example: number for number, example in enumerate(order)}
    dev_index = np.array([position[e] for e in dev])
    test_index = np.array([position[e] for e in test])
    sides = np.stack([rows[dev_index].sum(axis=0), rows[test_index].sum(axis=0)])
    worst = float(_atom_divergences(train_atoms, sides).max())
    generator = np.random.default_rng(rng.randrange(2**32))
    misses = 0
    for _swap in range(MAX_SWAPS):
        if worst <= max_da or misses >= PATIENCE:
            break
        a = generator.integers(len(dev_index), size=SWAP_CANDIDATES)
        b = generator.integers(len(test_index), size=SWAP_CANDIDATES)
        delta = rows[test_index[b]] - rows[dev_index[a]]  # dev gains b, loses a
        candidates = np.stack([sides[0] + delta, sides[1] - delta], axis=1)
        scores = _atom_divergences(train_atoms, candidates).max(axis=1)
        best = int(np.argmin(scores))
        if scores[best] >= worst:
            misses += 1
            continue
        misses = 0
        sides = candidates[best]
        dev_index[a[best]], test_index[b[best]] = test_index[b[best]], dev_index[a[best]]
        worst = float(scores[best])
    return Parts(
        sorted(train),
        sorted(order[i] for i in dev_index),
        sorted(order[i] for i in test_index),
    )


def _dense_rows(features: Features, examples: Sequence[int]) -> FloatArray:
    """Atom counts of ``examples`` as a dense matrix (atoms are few: hundreds at most)."""
    matrix = np.zeros((len(examples), features.atoms.width))
    positions, slot = features.atoms.entries(np.asarray(examples, dtype=np.int64))
    np.add.at(matrix, (slot, features.atoms.indices[positions]), features.atoms.values[positions])
    return matrix
