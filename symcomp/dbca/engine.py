"""Incremental atom and compound divergence between two growing sets of examples.

Split search moves one example at a time between *unused*, side 0 (train) and side 1 (test),
and scores many candidate moves per step. :class:`DivergenceEngine` keeps, per side, the summed
atom counts and compound weights and each raised to its exponent (the per-index Chernoff term
``c0^α c1^(1−α)`` is the product of the two), and the sum of the terms.
Moving an example changes only the entries of its own atoms and compounds, so both applying a
move and scoring a batch of candidate moves cost O(entries of the moved examples) — vectorised
over the batch with numpy — instead of O(number of compounds) per candidate
(:class:`ScratchEngine` does the latter, like the NQG code, for comparison).

Compound weights are multiples of a power of two (:mod:`symcomp.dbca.weights`), so per-index
counts are exact under any sequence of moves; the running sum of terms is re-added from scratch
every :data:`RESYNC_MOVES` moves so rounding cannot accumulate.

>>> from symcomp.dbca.features import ngram_features
>>> engine = DivergenceEngine(ngram_features(["jump twice", "walk twice", "jump thrice"]))
>>> engine.move(0, 0); engine.move(1, 1)
>>> [round(d, 4) for d in engine.divergences()]
[0.5, 1.0]
>>> atoms, compounds = engine.evaluate([2], to_side=0)  # what if example 2 joined train?
>>> round(float(compounds[0]), 4)
1.0
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from symcomp.dbca.divergence import ATOM_ALPHA, COMPOUND_ALPHA, coefficient_from_sums
from symcomp.dbca.features import Features, SparseRows

UNUSED = -1
RESYNC_MOVES = 512
FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


class Channel:
    """One divergence (atoms, or compounds) between side 0 and side 1."""

    def __init__(self, rows: SparseRows, alpha: float) -> None:
        if not 0.0 < alpha < 1.0:
            raise ValueError(f"alpha must lie strictly between 0 and 1, got {alpha}")
        self.rows = rows
        self.alpha = alpha
        # per index, one row: its count on side 0 and on side 1, and each raised to its side's
        # exponent (α, 1 − α). A candidate move changes one side, so scoring it needs only that
        # side's power (the costliest step of a search), and the four numbers of an index lie
        # in one cache line: scoring gathers one row per entry, where four arrays took four
        # scattered reads. The Chernoff term of an index is the product of its two powers.
        self.state = np.zeros((rows.width, 4), dtype=np.float64)
        self.totals = np.zeros(2, dtype=np.float64)
        self.exponents = (alpha, 1.0 - alpha)
        self.sum = 0.0
        self.row_totals = rows.row_totals()

    @property
    def counts(self) -> npt.NDArray[np.float64]:
        """Each side's counts, shape ``(2, width)`` (a view)."""
        view: npt.NDArray[np.float64] = self.state[:, :2].T
        return view

    def value(self) -> float:
        """The current divergence ``1 − C_α(side 0 ‖ side 1)``."""
        coefficient = coefficient_from_sums(
            self.sum, float(self.totals[0]), float(self.totals[1]), self.alpha
        )
        return 1.0 - coefficient

    def apply(self, example: int, source: int, target: int) -> None:
        """Move one example's entries from side ``source`` to ``target`` (−1: unused)."""
        columns, values = self.rows.row(example)
        cells = self.state.take(columns, axis=0)
        old = cells[:, 2] * cells[:, 3]
        for side, sign in ((source, -1.0), (target, 1.0)):
            if side != UNUSED:
                counts = cells[:, side] + sign * values
                cells[:, side] = counts
                self.totals[side] += sign * self.row_totals[example]
                cells[:, 2 + side] = np.power(counts, self.exponents[side])
        self.state[columns] = cells
        self.sum += float(np.sum(cells[:, 2] * cells[:, 3] - old))

    def resync(self) -> None:
        """Recompute the sum of terms from the per-index powers (removes rounding drift)."""
        self.sum = float(np.sum(self.state[:, 2] * self.state[:, 3]))

    def evaluate(self, examples: IntArray, sources: IntArray, target: int) -> FloatArray:
        """Divergence after moving each example (alone) from ``sources[i]`` to ``target``."""
        positions, slot = self.rows.entries(examples)
        values = self.rows.values_at(positions)
        # ``take`` gathers rows many times faster than fancy indexing of a 2-D array
        cells = self.state.take(self.rows.indices.take(positions), axis=0)
        powered = [cells[:, 2], cells[:, 3]]
        moved = self.row_totals.take(examples)
        totals = []
        for side in (0, 1):
            leaving = sources == side
            gone = bool(leaving.any())
            total = np.full(len(examples), self.totals[side])
            if gone:
                total -= np.where(leaving, moved, 0.0)
            if target == side:
                total += moved
            totals.append(total)
            if target != side and not gone:
                continue  # no candidate changes this side: its cached power is exact
            counts = cells[:, side].copy()
            if gone:
                counts -= np.where(leaving[slot], values, 0.0)
            if target == side:
                counts += values
            np.maximum(counts, 0.0, out=counts)
            powered[side] = np.power(counts, self.exponents[side])
        change = powered[0] * powered[1] - cells[:, 2] * cells[:, 3]
        delta = np.bincount(slot, weights=change, minlength=len(examples))
        return self.divergence_of(self.sum + delta, totals[0], totals[1])

    def terms_of(self, side0: FloatArray, side1: FloatArray) -> FloatArray:
        result: FloatArray = np.power(side0, self.alpha) * np.power(side1, 1.0 - self.alpha)
        return result

    def divergence_of(
        self, sums: npt.ArrayLike, total0: npt.ArrayLike, total1: npt.ArrayLike
    ) -> FloatArray:
        """``1 − sums / (total0^α total1^(1−α))`` elementwise; 1 where a side is empty."""
        sums = np.asarray(sums, dtype=np.float64)
        total0 = np.asarray(total0, dtype=np.float64)
        total1 = np.asarray(total1, dtype=np.float64)
        scale = np.power(total0, self.alpha) * np.power(total1, 1 - self.alpha)
        filled = (total0 > 0) & (total1 > 0)
        if filled.all():  # the usual case: no division by zero to silence
            coefficient = np.clip(sums / scale, 0.0, 1.0)
        else:
            with np.errstate(divide="ignore", invalid="ignore"):
                coefficient = np.where(filled, np.clip(sums / scale, 0.0, 1.0), 0.0)
        result: FloatArray = 1.0 - coefficient
        return result


class DivergenceEngine:
    """Atom and compound divergence of side 0 vs side 1, updated move by move.

    Parameters
    ----------
    features : Features
        Atom counts and compound weights of every example.
    atom_alpha, compound_alpha : float
        The Chernoff α of each divergence (DBCA: 0.5 and 0.1).
    """

    def __init__(
        self,
        features: Features,
        atom_alpha: float = ATOM_ALPHA,
        compound_alpha: float = COMPOUND_ALPHA,
    ) -> None:
        self.features = features
        self.atoms = Channel(features.atoms, atom_alpha)
        self.compounds = Channel(features.compounds, compound_alpha)
        self.side = np.full(len(features), UNUSED, dtype=np.int64)
        self.sizes = [0, 0]
        self.moves = 0

    def __len__(self) -> int:
        return len(self.side)

    def move(self, example: int, to_side: int) -> None:
        """Put ``example`` on side 0 or 1, or back to unused (−1)."""
        source = int(self.side[example])
        if source == to_side:
            return
        for channel in (self.atoms, self.compounds):
            channel.apply(example, source, to_side)
        if source != UNUSED:
            self.sizes[source] -= 1
        if to_side != UNUSED:
            self.sizes[to_side] += 1
        self.side[example] = to_side
        self.moves += 1
        if self.moves % RESYNC_MOVES == 0:
            self.atoms.resync()
            self.compounds.resync()

    def assign(self, sides: Sequence[Sequence[int]]) -> None:
        """Put the examples of ``sides[0]`` on side 0 and of ``sides[1]`` on side 1."""
        for side, examples in enumerate(sides):
            for example in examples:
                self.move(int(example), side)

    def divergences(self) -> tuple[float, float]:
        """The current ``(D_A, D_C)``."""
        return self.atoms.value(), self.compounds.value()

    def members(self, side: int) -> IntArray:
        """Examples currently on ``side`` (ascending)."""
        return np.flatnonzero(self.side == side)

    def evaluate(self, examples: npt.ArrayLike, to_side: int) -> tuple[FloatArray, FloatArray]:
        """``(D_A, D_C)`` after moving each of ``examples`` (one at a time) to ``to_side``."""
        batch = np.asarray(examples, dtype=np.int64)
        sources = self.side[batch]
        return (
            self.atoms.evaluate(batch, sources, to_side),
            self.compounds.evaluate(batch, sources, to_side),
        )


class ScratchEngine(DivergenceEngine):
    """The same engine, but scoring each candidate by recomputing the divergence sums over every
    atom and compound (what the NQG/TMCD code does); for speed comparisons and tests."""

    def evaluate(self, examples: npt.ArrayLike, to_side: int) -> tuple[FloatArray, FloatArray]:
        batch = np.asarray(examples, dtype=np.int64)
        atoms = np.empty(len(batch))
        compounds = np.empty(len(batch))
        for slot, example in enumerate(batch):
            source = int(self.side[example])
            atoms[slot] = _scratch_value(self.atoms, int(example), source, to_side)
            compounds[slot] = _scratch_value(self.compounds, int(example), source, to_side)
        return atoms, compounds


def _scratch_value(channel: Channel, example: int, source: int, target: int) -> float:
    counts = channel.counts.copy()
    columns, values = channel.rows.row(example)
    if source != UNUSED:
        counts[source, columns] -= values
    if target != UNUSED:
        counts[target, columns] += values
    np.maximum(counts, 0.0, out=counts)
    terms = float(np.sum(channel.terms_of(counts[0], counts[1])))
    return 1.0 - coefficient_from_sums(
        terms, float(counts[0].sum()), float(counts[1].sum()), channel.alpha
    )
