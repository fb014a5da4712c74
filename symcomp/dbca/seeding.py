"""Held-out pair seeding: which parent-child rule pairs should never occur in train.

Compound divergence with α = 0.1 rewards a test compound mainly when it is *absent* from train,
and a compound is absent from train only if every example containing it is kept out. Moving
examples one at a time cannot see that gain until the last one is gone, so a greedy search
tends to spread every small compound over both sides. This module looks for a small set H of
parent-child pairs (2-node compounds, the parts every larger compound is built from) to hold
out, by forward selection: each step adds the pair that most improves the score of the split

* train ≈ every example without a pair of H (its distribution stands in for a random draw),
* test = the ``test_size`` examples with the largest share of H pairs,

subject to the atom-divergence penalty and to enough examples staying available for train.
Swapped pairings (``twice`` with ``around`` held out, ``twice`` with ``opposite`` kept) keep
the atoms balanced while all larger compounds over a held-out pair leave train too. The MCD
construction (:mod:`symcomp.dbca.mcd`) then draws train candidates from the examples without H
and test candidates from those with H.

>>> from symcomp.dbca.features import ngram_features
>>> texts = [f"{a} {b} {c}" for a in "ab" for b in "wxyz" for c in "ijkl"]
>>> features = ngram_features(texts)
>>> [features.pair_names[i] for i in held_out_pairs(features, features.compounds, 16, 4)]
['x l', 'b w', 'z k', 'y j']
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from symcomp._util import GeneratorSeed, make_generator
from symcomp.dbca.divergence import (
    ATOM_ALPHA,
    COMPOUND_ALPHA,
    chernoff_terms_sum,
    coefficient_from_sums,
)
from symcomp.dbca.features import Features, SparseRows
from symcomp.dbca.weights import distinct

LOG = logging.getLogger(__name__)
MAX_PAIRS = 12  # forward-selection steps
BREADTH = 64  # most frequent pairs considered per step
CHOICE = 3  # pick at random among this many best pairs (different seeds, different splits)
TRIES = 4  # forward selections; the best-scoring set is kept
FloatArray = npt.NDArray[np.float64]
Scorer = Callable[[float, float], float]


@dataclass
class _Columns:
    """For each column of a sparse matrix, the rows holding it and the values."""

    starts: npt.NDArray[np.int64]
    rows: npt.NDArray[np.int64]
    values: FloatArray

    @classmethod
    def of(cls, matrix: SparseRows) -> _Columns:
        owners = np.repeat(np.arange(len(matrix)), matrix.lengths())
        order = np.argsort(matrix.indices, kind="stable")
        starts = np.zeros(matrix.width + 1, dtype=np.int64)
        np.cumsum(np.bincount(matrix.indices, minlength=matrix.width), out=starts[1:])
        return cls(starts, owners[order], matrix.values[order])

    def column(self, index: int) -> tuple[npt.NDArray[np.int64], FloatArray]:
        start, end = self.starts[index], self.starts[index + 1]
        return self.rows[start:end], self.values[start:end]


def _divergence(p: FloatArray, q: FloatArray, alpha: float) -> float:
    return 1.0 - coefficient_from_sums(
        chernoff_terms_sum(p, q, alpha), float(p.sum()), float(q.sum()), alpha
    )


def held_out_pairs(
    features: Features,
    pairs: SparseRows,
    train_size: int,
    test_size: int,
    *,
    score: Scorer | None = None,
    seed: GeneratorSeed = 0,
    barred: npt.NDArray[np.bool_] | None = None,
) -> list[int]:
    """Columns of ``pairs`` to keep out of train (empty when none improves the score).

    Parameters
    ----------
    features : Features
        Atoms and compounds the score is measured on.
    pairs : SparseRows
        Per example, its parent-child pair counts.
    train_size, test_size : int
        Sizes of the split to seed.
    score : callable (D_A, D_C) -> float, optional
        Lower is better; default ``1 - D_C`` plus 10 per unit of D_A above 0.02.
    seed : int or numpy Generator
        Each of :data:`TRIES` forward selections picks at random among the :data:`CHOICE` best
        pairs per step; the set with the best score is returned.
    barred : array of bool, optional
        Examples that may not be tested (the tests of earlier splits): pairs are scored by
        the test the other examples can make.
    """
    rng = make_generator(seed)
    scorer = score or (lambda da, dc: 1.0 - dc + 10.0 * max(0.0, da - 0.02))
    columns = _Columns.of(pairs)
    frequency = np.diff(columns.starts)
    allowed = np.flatnonzero((frequency > 0) & (frequency <= len(features) - train_size))
    breadth = allowed[np.argsort(-frequency[allowed], kind="stable")[:BREADTH]]
    best: tuple[float, list[int]] = (np.inf, [])
    for _try in range(TRIES):
        value, chosen = _forward(
            features, pairs, columns, breadth, train_size, test_size, scorer, rng, barred
        )
        LOG.info("held-out pairs %s: score %.4f", chosen, value)
        if value < best[0]:
            best = (value, chosen)
    return best[1]


def _forward(
    features: Features,
    pairs: SparseRows,
    columns: _Columns,
    breadth: npt.NDArray[np.int64],
    train_size: int,
    test_size: int,
    scorer: Scorer,
    rng: np.random.Generator,
    barred: npt.NDArray[np.bool_] | None,
) -> tuple[float, list[int]]:
    """One forward selection; each step picks at random among the best :data:`CHOICE`."""
    state = _State.start(features, pairs, barred)
    chosen: list[int] = []
    current = np.inf
    for _step in range(MAX_PAIRS):
        scored = []
        for pair in breadth:
            if int(pair) in chosen:
                continue
            value = state.score_with(columns.column(int(pair)), train_size, test_size, scorer)
            if value is not None:
                scored.append((value, int(pair)))
        scored.sort()
        better = [(value, pair) for value, pair in scored[:CHOICE] if value < current]
        if not better:
            break
        value, pair = better[int(rng.integers(len(better)))]
        state.block(columns.column(pair))
        chosen.append(pair)
        current = value
    return current, chosen


@dataclass
class _State:
    """Blocked examples, their sums, and each example's held-out share."""

    features: Features
    totals: FloatArray  # pair occurrences per example
    held: FloatArray  # held-out pair occurrences per example
    blocked: npt.NDArray[np.bool_]
    free_atoms: FloatArray  # atom counts over unblocked examples
    free_compounds: FloatArray
    testable: FloatArray  # 1 for examples that may be tested, 0 for barred ones

    @classmethod
    def start(
        cls, features: Features, pairs: SparseRows, barred: npt.NDArray[np.bool_] | None = None
    ) -> _State:
        everyone = np.arange(len(features))
        owners = np.repeat(everyone, pairs.lengths())
        testable = np.ones(len(features)) if barred is None else (~barred).astype(float)
        return cls(
            features,
            np.bincount(owners, weights=pairs.values, minlength=len(features)).astype(float),
            np.zeros(len(features)),
            np.zeros(len(features), dtype=bool),
            features.atoms.sum_rows(everyone),
            features.compounds.sum_rows(everyone),
            testable,
        )

    def score_with(
        self,
        column: tuple[npt.NDArray[np.int64], FloatArray],
        train_size: int,
        test_size: int,
        scorer: Scorer,
    ) -> float | None:
        rows, values = column
        newly = distinct(rows[~self.blocked[rows]])
        if int((~self.blocked).sum()) - len(newly) < train_size:
            return None
        held = self.held.copy()
        np.add.at(held, rows, values)
        share = np.divide(held, self.totals, out=np.zeros_like(held), where=self.totals > 0)
        share *= self.testable
        test = _largest(share, test_size)
        if test is None:
            return None
        atoms = self.free_atoms - self.features.atoms.sum_rows(newly)
        compounds = self.free_compounds - self.features.compounds.sum_rows(newly)
        da = _divergence(atoms, self.features.atoms.sum_rows(test), ATOM_ALPHA)
        dc = _divergence(compounds, self.features.compounds.sum_rows(test), COMPOUND_ALPHA)
        return scorer(da, dc)

    def block(self, column: tuple[npt.NDArray[np.int64], FloatArray]) -> None:
        rows, values = column
        newly = distinct(rows[~self.blocked[rows]])
        np.add.at(self.held, rows, values)
        self.free_atoms = self.free_atoms - self.features.atoms.sum_rows(newly)
        self.free_compounds = self.free_compounds - self.features.compounds.sum_rows(newly)
        self.blocked[newly] = True


def _largest(share: FloatArray, size: int) -> npt.NDArray[np.int64] | None:
    """The ``size`` examples of largest share, ties by example index (None if all are 0): what
    a stable descending sort gives (not argpartition: its SIMD kernels break ties differently
    per CPU), sorting only the examples with a share, which are few.

    >>> _largest(np.array([0.0, 0.5, 0.0, 1.0, 0.5]), 4).tolist()
    [3, 1, 4, 0]
    >>> _largest(np.zeros(3), 2) is None
    True
    """
    held = np.flatnonzero(share)
    if not len(held):
        return None
    ranked = held[np.argsort(-share[held], kind="stable")][:size]
    if len(ranked) < size:  # then the examples without a share, in index order
        ranked = np.concatenate([ranked, np.flatnonzero(share == 0)[: size - len(ranked)]])
    return ranked
