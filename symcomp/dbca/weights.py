"""DBCA compound weights (Keysers et al. 2020, §2.1) and the unweighted raw-count mode.

A compound that nearly always occurs inside a larger one adds little information, so DBCA
down-weights it: for compound ``G`` in example ``R``::

    w(G, R) = max over occurrences g of G in R of (1 - max over G' ⊃ g of P(G' | G))

where ``P(G' | G)`` is the empirical probability, over the whole pool, that an occurrence of
``G`` lies inside an occurrence of ``G'``. The super-compounds ``G'`` considered are the
*immediate* ones: ``g`` plus one adjacent node (:func:`symcomp.dbca.compounds.extract`). Every
larger super-occurrence contains one of them, and when ``G`` embeds in ``G'`` in one way only
``P(G''|G) <= P(G'|G)`` for ``G ⊂ G' ⊂ G''``, so the maximum is attained there; it can differ
only for compounds that embed in a super-compound at two symmetric places.

Weights are quantised to multiples of :data:`QUANTUM` (a power of two), so adding and removing
examples during split search is exact in floating point and incremental divergences never
drift from recomputed ones.

All functions take flat integer arrays over the whole pool (one entry per occurrence) and are
vectorised with numpy.

>>> import numpy as np
>>> # two examples; type 0 occurs in both, always inside type 1 in example 0 only
>>> example = np.array([0, 0, 1]); kind = np.array([0, 1, 0])
>>> ext_occurrence = np.array([0]); ext_kind = np.array([1])
>>> rows, kinds, values = dbca_weights(example, kind, ext_occurrence, ext_kind, n_kinds=2)
>>> [(int(r), int(k), float(v)) for r, k, v in zip(rows, kinds, values)]
[(0, 0, 0.5), (0, 1, 1.0), (1, 0, 1.0)]
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

QUANTUM = 2.0**-16  # weights are multiples of this: exact sums for < 2**37 weight units
IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]


def quantise(values: FloatArray) -> FloatArray:
    """Round weights to multiples of :data:`QUANTUM` (exact in float64 sums).

    >>> quantise(np.array([1 / 3])) * 2**16
    array([21845.])
    """
    result: FloatArray = np.round(values / QUANTUM) * QUANTUM
    return result


def distinct(values: npt.ArrayLike) -> IntArray:
    """The distinct values, ascending (a sort: faster here than numpy's hashing ``unique``).

    >>> distinct([3, 1, 3, 2]).tolist()
    [1, 2, 3]
    """
    ordered = np.sort(np.asarray(values, dtype=np.int64))
    result: IntArray = (
        ordered[np.r_[True, ordered[1:] != ordered[:-1]]] if len(ordered) else ordered
    )
    return result


def group_counts(values: npt.ArrayLike) -> tuple[IntArray, IntArray, IntArray]:
    """Distinct values (ascending), each value's group number, and each group's size.

    >>> [a.tolist() for a in group_counts([5, 2, 5])]
    [[2, 5], [1, 0, 1], [1, 2]]
    """
    array = np.asarray(values, dtype=np.int64)
    order = np.argsort(array, kind="stable")
    ordered = array[order]
    starts = np.r_[True, ordered[1:] != ordered[:-1]] if len(ordered) else np.zeros(0, bool)
    group = np.cumsum(starts) - 1
    inverse = np.empty(len(array), dtype=np.int64)
    inverse[order] = group
    sizes = np.diff(np.r_[np.flatnonzero(starts), len(array)])
    return ordered[starts], inverse, sizes


def raw_counts(
    example: npt.ArrayLike, kind: npt.ArrayLike, n_kinds: int
) -> tuple[IntArray, IntArray, FloatArray]:
    """Occurrence counts per (example, compound), the NQG/TMCD unweighted mode.

    Returns ``(examples, kinds, counts)`` sorted by example then kind.

    >>> raw_counts([0, 0, 1], [2, 2, 0], n_kinds=3)
    (array([0, 1]), array([2, 0]), array([2., 1.]))
    """
    keys = np.asarray(example, dtype=np.int64) * n_kinds + np.asarray(kind, dtype=np.int64)
    unique, _inverse, counts = group_counts(keys)
    return unique // n_kinds, unique % n_kinds, counts.astype(np.float64)


def dbca_weights(
    example: npt.ArrayLike,
    kind: npt.ArrayLike,
    ext_occurrence: npt.ArrayLike,
    ext_kind: npt.ArrayLike,
    n_kinds: int,
) -> tuple[IntArray, IntArray, FloatArray]:
    """DBCA weights ``w(G, R)`` per (example, compound), zero weights left out.

    Parameters
    ----------
    example, kind : array of int
        For every occurrence in the pool: its example and compound id.
    ext_occurrence, ext_kind : array of int
        Immediate super-compounds: occurrence ``ext_occurrence[j]`` lies inside a compound
        of id ``ext_kind[j]`` (repeated pairs count once).
    n_kinds : int
        Number of compound ids.

    Returns
    -------
    examples, kinds, weights : arrays sorted by example then kind.
    """
    example = np.asarray(example, dtype=np.int64)
    kind = np.asarray(kind, dtype=np.int64)
    ext_occurrence = np.asarray(ext_occurrence, dtype=np.int64)
    ext_kind = np.asarray(ext_kind, dtype=np.int64)
    inside = _max_inside_probability(kind, ext_occurrence, ext_kind, n_kinds)
    keys = example * n_kinds + kind
    order = np.argsort(keys, kind="stable")
    sorted_keys = keys[order]
    starts = np.flatnonzero(np.r_[True, sorted_keys[1:] != sorted_keys[:-1]])
    weights = quantise(np.maximum.reduceat(1.0 - inside[order], starts))
    unique = sorted_keys[starts]
    keep = weights > 0
    return unique[keep] // n_kinds, unique[keep] % n_kinds, weights[keep]


def _max_inside_probability(
    kind: IntArray, ext_occurrence: IntArray, ext_kind: IntArray, n_kinds: int
) -> FloatArray:
    """For each occurrence g of G: the largest P(G'|G) over its immediate super-compounds."""
    inside = np.zeros(len(kind), dtype=np.float64)
    if len(ext_occurrence) == 0:
        return inside
    occurrences_of = np.bincount(kind, minlength=n_kinds).astype(np.float64)
    # an occurrence counts once per super-compound, however many ways it extends to it
    pairs_once = distinct(ext_occurrence * n_kinds + ext_kind)
    ext_occurrence, ext_kind = pairs_once // n_kinds, pairs_once % n_kinds
    pairs = kind[ext_occurrence] * n_kinds + ext_kind
    _, inverse, pair_counts = group_counts(pairs)
    probability = pair_counts[inverse] / occurrences_of[kind[ext_occurrence]]
    np.maximum.at(inside, ext_occurrence, probability)
    return inside
