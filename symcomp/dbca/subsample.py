"""CFQ's subsampling of a candidate pool: uniform complexity, greedy compound entropy.

Keysers et al. (2020, §4) generate many more questions than they keep, then subsample so that
(a) complexity — the number of rule applications — is uniformly distributed, and (b) the
compound distribution is as diverse as possible, by greedily maximising its entropy.

:func:`complexity_quotas` spreads ``n`` over the complexity levels as evenly as their sizes
allow (water-filling: a level with fewer candidates than its share gives all of them and the
rest is shared by the others). :func:`subsample` then fills each level's quota: levels whose
quota is all their candidates are taken whole; otherwise each step scores ``candidates``
random candidates of the level furthest behind and keeps the one that raises the entropy
``H = log T − (Σ_k c_k log c_k) / T`` of the compound counts most (vectorised, incremental).

>>> complexity_quotas([3, 3, 3, 3, 5, 7, 7, 7], n=5)
{5: 1, 7: 2, 3: 2}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import numpy.typing as npt

from symcomp._util import GeneratorSeed, make_generator
from symcomp.dbca.features import SparseRows
from symcomp.errors import DataError

CANDIDATES = 16  # candidates scored per step of the entropy greedy
FloatArray = npt.NDArray[np.float64]


def complexity_quotas(complexities: Sequence[int], n: int) -> dict[int, int]:
    """How many examples of each complexity a uniform subsample of ``n`` takes."""
    sizes: dict[int, int] = {}
    for value in complexities:
        sizes[int(value)] = sizes.get(int(value), 0) + 1
    if n > len(complexities):
        raise DataError(
            f"cannot subsample {n:,} examples from {len(complexities):,} candidates; draw more."
        )
    quotas: dict[int, int] = {}
    remaining = n
    levels = sorted(sizes, key=lambda level: (sizes[level], level))
    for position, level in enumerate(levels):
        share = remaining // (len(levels) - position)
        quotas[level] = min(sizes[level], share)
        remaining -= quotas[level]
    return quotas


def _xlogx(values: FloatArray) -> FloatArray:
    result: FloatArray = values * np.log(np.where(values > 0, values, 1.0))
    return result


class _Entropy:
    """Compound counts of the chosen examples, their total and Σ c log c."""

    def __init__(self, compounds: SparseRows) -> None:
        self.compounds = compounds
        self.counts = np.zeros(compounds.width, dtype=np.float64)
        self.total = 0.0
        self.plogp = 0.0

    def after(self, examples: npt.NDArray[np.int64]) -> FloatArray:
        """Entropy of the chosen examples plus each candidate (alone)."""
        positions, slot = self.compounds.entries(examples)
        columns = self.compounds.indices[positions]
        values = self.compounds.values[positions]
        old = self.counts[columns]
        delta = np.bincount(
            slot, weights=_xlogx(old + values) - _xlogx(old), minlength=len(examples)
        )
        added = np.bincount(slot, weights=values, minlength=len(examples))
        total = self.total + added
        with np.errstate(divide="ignore", invalid="ignore"):
            entropy = np.log(np.where(total > 0, total, 1.0)) - (self.plogp + delta) / total
        result: FloatArray = np.where(total > 0, entropy, 0.0)
        return result

    def add(self, example: int) -> None:
        columns, values = self.compounds.row(example)
        old = self.counts[columns]
        self.plogp += float(np.sum(_xlogx(old + values) - _xlogx(old)))
        self.counts[columns] = old + values
        self.total += float(values.sum())

    def value(self) -> float:
        if self.total <= 0:
            return 0.0
        return float(np.log(self.total) - float(np.sum(_xlogx(self.counts))) / self.total)


def subsample(
    complexities: Sequence[int],
    compounds: SparseRows,
    n: int,
    *,
    seed: GeneratorSeed = 0,
    uniform_complexity: bool = True,
    max_entropy: bool = True,
    candidates: int = CANDIDATES,
) -> tuple[list[int], float]:
    """Indices (ascending) of ``n`` candidates, and the compound entropy of the subsample.

    Parameters
    ----------
    complexities : sequence of int
        Complexity (number of rule applications) of every candidate.
    compounds : SparseRows
        Compound counts of every candidate.
    n : int
        Subsample size.
    seed : int or numpy Generator
        Source of the candidate draws.
    uniform_complexity : bool
        Equalise the complexity levels (else one level holding every candidate).
    max_entropy : bool
        Greedy entropy maximisation (else a uniform draw within each level).
    candidates : int
        Candidates scored per greedy step.
    """
    rng = make_generator(seed)
    levels = [int(c) for c in complexities] if uniform_complexity else [0] * len(complexities)
    quotas = complexity_quotas(levels, n)
    members: dict[int, list[int]] = {level: [] for level in quotas}
    for index, level in enumerate(levels):
        members[level].append(index)
    state = _Entropy(compounds)
    chosen: list[int] = []
    pending: dict[int, list[int]] = {}
    for level, quota in quotas.items():
        if quota == len(members[level]) or not max_entropy:
            picked = members[level] if quota == len(members[level]) else None
            if picked is None:
                draw = rng.choice(len(members[level]), quota, replace=False)
                picked = [members[level][int(i)] for i in draw]
            for example in picked:
                state.add(example)
            chosen.extend(picked)
        elif quota:
            pending[level] = list(members[level])
    chosen += _greedy(pending, quotas, state, rng, candidates)
    return sorted(chosen), state.value()


def _greedy(
    pending: dict[int, list[int]],
    quotas: Mapping[int, int],
    state: _Entropy,
    rng: np.random.Generator,
    candidates: int,
) -> list[int]:
    """Fill the ``pending`` levels to their quotas, each step from the level furthest behind,
    with the best of ``candidates`` random members for the entropy (``state`` is updated)."""
    chosen: list[int] = []
    taken = {level: 0 for level in pending}
    while pending:
        level = min(pending, key=lambda lv: (taken[lv] / quotas[lv], lv))
        pool = pending[level]
        picks = rng.choice(len(pool), min(candidates, len(pool)), replace=False)
        scores = state.after(np.array([pool[int(p)] for p in picks], dtype=np.int64))
        best = int(picks[int(np.argmax(scores))])
        example = pool[best]
        pool[best] = pool[-1]
        pool.pop()
        state.add(example)
        chosen.append(example)
        taken[level] += 1
        if taken[level] == quotas[level]:
            del pending[level]
    return chosen
