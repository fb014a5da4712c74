"""Sampling rules of a sidecar beyond alternative weights: weighted words, depth kinds,
constraints within one example, and named weight tables.

``[lexicon]`` entries may carry weights::

    N = { words = ["girl", "boy"], weights = [3, 1] }      # explicit
    N = { words = ["girl", "boy", "cat"], zipf = 1.4 }      # Zipf(a) over list order
    N = { words = [...], zipf = 1.4, unsampled = ["hedgehog"] }  # parseable, never drawn

``zipf = a`` gives word ``k`` (1-based, in list order) the probability ``k^-a / ζ(a)`` plus an
equal share of what the list leaves over (``(1 - Σ) / n``), as SLOG's ``cogs-preprocess.py``
does. ``[depths.<kind>]`` names the aliases whose nesting is a recursion kind (``aliases``)
and caps it (``max``; ``min`` asks for at least that depth): a kind's depth is the most such
nodes on one root-to-leaf path (Alto's ``getEmbeddingDepth``). ``[constraints.distinct]``
maps a name to terminals whose drawn words must all differ within one example (COGS: no noun
twice). ``[tables.<name>]`` is a named set of alternative weights (``weights``, overriding the
main ones) and depth windows (``depths``), switched for one part of a dataset.

>>> zipf_weights(3, 1.4)[0] > zipf_weights(3, 1.4)[1] > zipf_weights(3, 1.4)[2]
True
>>> round(sum(zipf_weights(100, 1.4)), 12)
1.0
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

# Bernoulli numbers B_2, B_4, ... for the Euler-Maclaurin tail of ζ
_BERNOULLI = (1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6)


def zeta(s: float, terms: int = 40) -> float:
    """Riemann ζ(s) for s > 1 (Euler-Maclaurin; agrees with ``scipy.special.zeta`` to ~1e-15).

    >>> round(zeta(2.0), 12) == round(math.pi ** 2 / 6, 12)
    True
    """
    if not s > 1:
        raise ValueError(f"zeta needs s > 1, got {s}")
    total: float = math.fsum(float(k) ** -s for k in range(1, terms))
    n = float(terms)
    total += n ** (1 - s) / (s - 1) + n**-s / 2
    rising, power = s, n ** (-s - 1)
    for j, bernoulli in enumerate(_BERNOULLI, start=1):
        total += bernoulli / math.factorial(2 * j) * rising * power
        rising *= (s + 2 * j - 1) * (s + 2 * j)
        power /= n * n
    return total


def zipf_weights(n: int, a: float) -> tuple[float, ...]:
    """SLOG's word probabilities: Zipf(a) pmf over ranks 1..n plus a uniform leftover."""
    norm = zeta(a)
    pmf = [k**-a / norm for k in range(1, n + 1)]
    leftover = (1.0 - math.fsum(pmf)) / n
    return tuple(p + leftover for p in pmf)


@dataclass(frozen=True)
class DepthKind:
    """A recursion kind: the aliases that count, and the allowed depth window."""

    aliases: tuple[str, ...]
    minimum: int = 0
    maximum: int | None = None

    def describe(self) -> dict[str, Any]:
        return {"aliases": list(self.aliases), "min": self.minimum, "max": self.maximum}


@dataclass(frozen=True)
class WeightTable:
    """A named switch of alternative weights and depth windows (``[tables.<name>]``)."""

    name: str
    weights: Mapping[str, float] = field(default_factory=dict)
    depths: Mapping[str, tuple[int, int | None]] = field(default_factory=dict)
    description: str = ""

    def describe(self) -> dict[str, Any]:
        return {
            "weights": dict(self.weights),
            "depths": {kind: list(window) for kind, window in self.depths.items()},
            "description": self.description,
        }
