"""The NQG/TMCD swap search (Shaw et al. 2021, ``mcd_utils.swap_examples``) on the
incremental divergence engine.

Two fixed-size lists of examples are changed only by exchanging members, in place:

1. *balance atoms*: while some atom of the second list occurs in fewer than
   ``min_atom_count`` examples of the first, exchange the first example of the first list that
   holds no atom at or below that count with the first example of the second list that holds
   a missing atom;
2. *maximise divergence*: per iteration, take the first example of the first list (scanning
   from a rotating start) whose move to the second list raises the compound divergence and
   holds no atom at or below ``min_atom_count``; then the first example of the second list whose
   move back raises the divergence above its value before the iteration; exchange them. Stop
   when no such pair exists, at ``max_divergence``, or after ``max_iterations``.

The compound divergence is scored with :class:`DivergenceEngine` (raw counts in NQG;
any :class:`Features` here); candidates are scored in vectorised batches in scan order.

>>> from symcomp.dbca.features import ngram_features
>>> first = ["jump twice", "walk twice", "jump thrice", "look and walk"]
>>> second = ["walk thrice", "walk and jump", "jump and walk"]
>>> features = ngram_features(first + second)
>>> result = swap_search(features, [0, 1, 2, 3], [4, 5, 6])
>>> [(first + second)[i] for i in result.first], round(result.compound_divergence, 6)
(['jump and walk', 'walk twice', 'jump thrice', 'look and walk'], 1.0)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from symcomp.dbca.engine import DivergenceEngine
from symcomp.dbca.features import Features
from symcomp.errors import DataError

BATCH = 256  # candidates scored per vectorised batch while scanning
EPSILON = 1e-12  # a move "raises" the divergence only by more than this


@dataclass(frozen=True)
class SwapResult:
    """The two lists after the search, in their final order, and the divergences."""

    first: list[int]
    second: list[int]
    atom_divergence: float
    compound_divergence: float
    swaps: int
    balanced_swaps: int


def swap_search(
    features: Features,
    first: Sequence[int],
    second: Sequence[int],
    *,
    max_iterations: int = 1000,
    max_divergence: float | None = None,
    min_atom_count: int = 1,
) -> SwapResult:
    """Balance atoms, then exchange examples that raise the compound divergence."""
    engine = DivergenceEngine(features)
    lists = [[int(i) for i in first], [int(i) for i in second]]
    engine.assign(lists)
    presence = _AtomPresence(features, lists[0])
    balanced = _balance(engine, lists, presence, max_iterations, min_atom_count)
    swaps = _maximise(engine, lists, presence, max_iterations, max_divergence, min_atom_count)
    engine.atoms.resync()
    engine.compounds.resync()
    da, dc = engine.divergences()
    return SwapResult(lists[0], lists[1], da, dc, swaps, balanced)


class _AtomPresence:
    """For the first list: in how many of its examples each atom occurs."""

    def __init__(self, features: Features, members: Sequence[int]) -> None:
        self.features = features
        self.counts = np.zeros(features.atoms.width, dtype=np.int64)
        for example in members:
            self.add(example, 1)

    def atoms_of(self, example: int) -> npt.NDArray[np.int32]:
        return self.features.atoms.row(example)[0]

    def add(self, example: int, sign: int) -> None:
        self.counts[self.atoms_of(example)] += sign

    def removable(self, example: int, min_atom_count: int) -> bool:
        """True when the example holds no atom at or below ``min_atom_count``."""
        return bool(np.all(self.counts[self.atoms_of(example)] > min_atom_count))

    def removable_batch(
        self, min_atom_count: int
    ) -> Callable[[npt.NDArray[np.int64]], npt.NDArray[np.bool_]]:
        """A vectorised :meth:`removable` for the current counts."""
        rare = self.counts <= min_atom_count

        def check(examples: npt.NDArray[np.int64]) -> npt.NDArray[np.bool_]:
            positions, slot = self.features.atoms.entries(examples)
            hits = np.bincount(
                slot, weights=rare[self.features.atoms.indices[positions]], minlength=len(examples)
            )
            result: npt.NDArray[np.bool_] = hits == 0
            return result

        return check


def _exchange(
    engine: DivergenceEngine, lists: list[list[int]], presence: _AtomPresence, i: int, j: int
) -> None:
    a, b = lists[0][i], lists[1][j]
    engine.move(a, 1)
    engine.move(b, 0)
    presence.add(a, -1)
    presence.add(b, 1)
    lists[0][i], lists[1][j] = b, a


def _balance(
    engine: DivergenceEngine,
    lists: list[list[int]],
    presence: _AtomPresence,
    max_iterations: int,
    min_atom_count: int,
) -> int:
    for iteration in range(max_iterations + 1):
        missing = {
            int(atom)
            for example in lists[1]
            for atom in presence.atoms_of(example)
            if presence.counts[atom] < min_atom_count
        }
        if not missing:
            return iteration
        if iteration == max_iterations:
            break
        i = next((k for k, e in enumerate(lists[0]) if presence.removable(e, min_atom_count)), None)
        j = next(
            (k for k, e in enumerate(lists[1]) if missing & set(presence.atoms_of(e).tolist())),
            None,
        )
        if i is None or j is None:
            break
        _exchange(engine, lists, presence, i, j)
    raise DataError(
        f"could not make every test atom occur {min_atom_count}+ times in train within "
        f"{max_iterations} swaps; use a larger train part or lower min_atom_count."
    )


def _first_raising(
    engine: DivergenceEngine,
    members: list[int],
    start: int,
    to_side: int,
    threshold: float,
    allowed: Callable[[npt.NDArray[np.int64]], npt.NDArray[np.bool_]] | None = None,
) -> int | None:
    """Position (from ``start``, wrapping) of the first member whose move raises D_C."""
    size = len(members)
    for offset in range(0, size, BATCH):
        positions = [(start + k) % size for k in range(offset, min(offset + BATCH, size))]
        examples = np.array([members[p] for p in positions], dtype=np.int64)
        good = engine.evaluate(examples, to_side)[1] > threshold + EPSILON
        if allowed is not None:
            good &= allowed(examples)
        hits = np.flatnonzero(good)
        if len(hits):
            return positions[int(hits[0])]
    return None


def _maximise(
    engine: DivergenceEngine,
    lists: list[list[int]],
    presence: _AtomPresence,
    max_iterations: int,
    max_divergence: float | None,
    min_atom_count: int,
) -> int:
    start = [0, 0]
    swaps = 0
    for _iteration in range(max_iterations):
        before = engine.divergences()[1]
        if max_divergence is not None and before >= max_divergence:
            break
        i = _first_raising(
            engine, lists[0], start[0], 1, before, presence.removable_batch(min_atom_count)
        )
        if i is None:
            break
        moved = lists[0][i]
        engine.move(moved, 1)
        j = _first_raising(engine, lists[1], start[1], 0, before)
        engine.move(moved, 0)
        if j is None:
            break
        _exchange(engine, lists, presence, i, j)
        start = [(i + 1) % len(lists[0]), (j + 1) % len(lists[1])]
        swaps += 1
    return swaps
