"""Chernoff coefficient and the atom/compound divergences of DBCA, as small pure functions.

Keysers et al. (2020, §2.1) compare the normalised frequency distributions P (train) and Q
(test) of atoms and of compounds with the Chernoff coefficient

    C_α(P‖Q) = Σ_k p_k^α q_k^(1−α)  ∈ [0, 1]

and define atom divergence ``D_A = 1 − C_0.5(F_A(train)‖F_A(test))`` (symmetric; atoms should
be distributed alike) and compound divergence ``D_C = 1 − C_0.1(F_C(train)‖F_C(test))``
(α = 0.1: that a test compound occurs in train at all matters more than how often). A side with
no mass has divergence 1, as in the NQG/TMCD code.

Inputs are unnormalised counts: numpy arrays over a shared index, or mappings from names.

>>> atom_divergence({"a": 1, "b": 1}, {"a": 2, "b": 2})
0.0
>>> compound_divergence({"x": 3}, {"y": 1})
1.0
>>> round(chernoff_coefficient([1, 1], [1, 3], 0.5), 6)
0.965926
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import numpy.typing as npt

ATOM_ALPHA = 0.5  # Keysers et al. 2020, §2.1: D_A uses C_0.5 (symmetric)
COMPOUND_ALPHA = 0.1  # Keysers et al. 2020, §2.1: D_C uses C_0.1 (presence in train matters)

Counts = npt.ArrayLike | Mapping[str, float]


def _aligned(p: Counts, q: Counts) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    if isinstance(p, Mapping) or isinstance(q, Mapping):
        if not (isinstance(p, Mapping) and isinstance(q, Mapping)):
            raise TypeError("give both distributions as mappings or both as arrays")
        keys = sorted(set(p) | set(q))
        return (
            np.array([float(p.get(k, 0.0)) for k in keys], dtype=np.float64),
            np.array([float(q.get(k, 0.0)) for k in keys], dtype=np.float64),
        )
    left = np.asarray(p, dtype=np.float64)
    right = np.asarray(q, dtype=np.float64)
    if left.shape != right.shape:
        raise ValueError(f"count vectors differ in shape: {left.shape} vs {right.shape}")
    return left, right


def chernoff_terms_sum(
    p: npt.NDArray[np.float64], q: npt.NDArray[np.float64], alpha: float
) -> float:
    """``Σ p_k^α q_k^(1−α)`` of unnormalised counts (terms with a zero side vanish)."""
    both = (p > 0) & (q > 0)
    return float(np.sum(np.power(p[both], alpha) * np.power(q[both], 1.0 - alpha)))


def coefficient_from_sums(terms: float, total_p: float, total_q: float, alpha: float) -> float:
    """The Chernoff coefficient from ``Σ p^α q^(1−α)`` of counts and the two totals.

    Normalising counts ``p/P``, ``q/Q`` divides the sum by ``P^α Q^(1−α)``; an empty side
    gives 0 (divergence 1).

    >>> coefficient_from_sums(2.0, 2.0, 2.0, 0.1)
    1.0
    """
    if total_p <= 0 or total_q <= 0:
        return 0.0
    value = float(terms / (total_p**alpha * total_q ** (1.0 - alpha)))
    return min(max(value, 0.0), 1.0)


def chernoff_coefficient(p: Counts, q: Counts, alpha: float) -> float:
    """``C_α(P‖Q)`` of the distributions obtained by normalising the counts ``p`` and ``q``."""
    if not 0.0 <= alpha <= 1.0:
        raise ValueError(f"alpha must lie in [0, 1], got {alpha}")
    left, right = _aligned(p, q)
    total_p, total_q = float(left.sum()), float(right.sum())
    if total_p <= 0 or total_q <= 0:
        return 0.0
    # normalised first, each term as exp(α log p + (1−α) log q): GenBench's formula
    # (europarl_dbca_splits), so its published vectors come out to the last digit
    both = (left > 0) & (right > 0)
    logs = alpha * np.log(left[both] / total_p) + (1.0 - alpha) * np.log(right[both] / total_q)
    return min(max(float(np.sum(np.exp(logs))), 0.0), 1.0)


def divergence(p: Counts, q: Counts, alpha: float) -> float:
    """``1 − C_α(P‖Q)``; 1 when either side is empty.

    >>> divergence([1, 0], [0, 1], 0.1), round(divergence([2, 2], [1, 1], 0.1), 12)
    (1.0, 0.0)
    """
    return 1.0 - chernoff_coefficient(p, q, alpha)


def atom_divergence(train: Counts, test: Counts, alpha: float = ATOM_ALPHA) -> float:
    """``D_A``: divergence of the atom distributions (α = 0.5)."""
    return divergence(train, test, alpha)


def compound_divergence(train: Counts, test: Counts, alpha: float = COMPOUND_ALPHA) -> float:
    """``D_C``: divergence of the compound distributions (α = 0.1; train is P)."""
    return divergence(train, test, alpha)
