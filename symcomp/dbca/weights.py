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

import itertools
from collections.abc import Callable
from typing import Any

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

    Notes
    -----
    The arrays have one entry per occurrence (about 300 per CFQ question) and per super-compound
    pair (about 600), so a CFQ-size pool holds hundreds of millions. They are processed in
    slices of about :data:`SLICE` entries that never cut an example in two, so that the
    temporaries stay that small whatever the pool size; occurrences listed example by example
    (as :func:`symcomp.dbca.features.dag_features` lists them) need no reordering.
    """
    example = np.asarray(example)
    kind = np.asarray(kind)
    ext_occurrence = np.asarray(ext_occurrence)
    ext_kind = np.asarray(ext_kind)
    if len(example) > 1 and np.any(example[1:] < example[:-1]):
        return _reordered(example, kind, ext_occurrence, ext_kind, n_kinds)
    inside = _max_inside_probability(example, kind, ext_occurrence, ext_kind, n_kinds)
    slices = _slices(lambda i: int(example[i]), len(example))
    parts = [_example_weights(example[a:b], kind[a:b], inside[a:b], n_kinds) for a, b in slices]
    del inside
    if not parts:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty.copy(), np.zeros(0, dtype=np.float64)
    # rows and compounds in 32 bits where they fit, each column joined and its parts let go
    # before the next: 16 bytes a pair and one column's copy, not 24 and all three
    columns = [list(column) for column in zip(*parts, strict=True)]
    del parts
    joined = []
    for column in columns:
        joined.append(_compact(np.concatenate(column)))
        column.clear()
    return joined[0], joined[1], joined[2]


def _compact(values: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """Integers in 32 bits when they all fit (others as they are).

    >>> _compact(np.array([1, 2])).dtype, _compact(np.array([2**40])).dtype
    (dtype('int32'), dtype('int64'))
    """
    if values.dtype.kind != "i" or not len(values):
        return values
    if values.min() >= -(2**31) and values.max() < 2**31:
        return values.astype(np.int32)
    return values


SLICE = 1 << 22  # entries per slice of the weight computation (a few hundred MB of temporaries)


def _reordered(
    example: npt.NDArray[np.integer],
    kind: npt.NDArray[np.integer],
    ext_occurrence: npt.NDArray[np.integer],
    ext_kind: npt.NDArray[np.integer],
    n_kinds: int,
) -> tuple[IntArray, IntArray, FloatArray]:
    """:func:`dbca_weights` of occurrences not listed example by example: list them so."""
    order = np.argsort(example, kind="stable")
    position = np.empty(len(order), dtype=np.int64)
    position[order] = np.arange(len(order))
    return dbca_weights(example[order], kind[order], position[ext_occurrence], ext_kind, n_kinds)


def _slices(owner: Callable[[int], int], size: int, length: int = 0) -> list[tuple[int, int]]:
    """Bounds ``(a, b)`` of consecutive slices of ``size`` entries, about ``length`` (default
    :data:`SLICE`) each, where ``owner(i)``, the example of entry ``i`` (non-decreasing), does
    not change across a bound.

    >>> examples = [0, 0, 1, 1, 1, 2]
    >>> _slices(examples.__getitem__, 6, length=3)
    [(0, 5), (5, 6)]
    """
    length = length or SLICE
    bounds = [0]
    while bounds[-1] < size:
        end = min(bounds[-1] + length, size)
        while end < size and owner(end) == owner(end - 1):
            end += 1
        bounds.append(end)
    return list(itertools.pairwise(bounds))


def _example_weights(
    example: npt.NDArray[np.integer],
    kind: npt.NDArray[np.integer],
    inside: FloatArray,
    n_kinds: int,
) -> tuple[IntArray, IntArray, FloatArray]:
    """Weights of the (example, compound) pairs of one slice of whole examples."""
    keys = example.astype(np.int64) * n_kinds + kind
    order = np.argsort(keys, kind="stable")
    sorted_keys = keys[order]
    starts = np.flatnonzero(np.r_[True, sorted_keys[1:] != sorted_keys[:-1]])
    weights = quantise(np.maximum.reduceat(1.0 - inside[order], starts))
    unique = sorted_keys[starts]
    keep = weights > 0
    return unique[keep] // n_kinds, unique[keep] % n_kinds, weights[keep]


def _max_inside_probability(
    example: npt.NDArray[np.integer],
    kind: npt.NDArray[np.integer],
    ext_occurrence: npt.NDArray[np.integer],
    ext_kind: npt.NDArray[np.integer],
    n_kinds: int,
) -> FloatArray:
    """For each occurrence g of G: the largest P(G'|G) over its immediate super-compounds.

    Two passes over slices of the super-compound pairs, each slice holding whole examples (so
    a repeated pair is always inside one slice): the first counts, pool-wide, the occurrences
    of G inside G' for every pair (G, G'); the second turns the counts into probabilities.
    """
    inside = np.zeros(len(kind), dtype=np.float64)
    if len(ext_occurrence) == 0:
        return inside
    occurrences_of = np.bincount(kind, minlength=n_kinds).astype(np.float64)
    if not _grouped(example, ext_occurrence):
        order = np.argsort(ext_occurrence, kind="stable")
        ext_occurrence, ext_kind = ext_occurrence[order], ext_kind[order]
    slices = _slices(lambda i: int(example[ext_occurrence[i]]), len(ext_occurrence))
    pair_keys = np.zeros(0, dtype=np.int64)
    pair_counts = np.zeros(0, dtype=np.int64)
    for a, b in slices:
        _occurrence, pairs = _pairs_once(kind, ext_occurrence[a:b], ext_kind[a:b], n_kinds)
        keys, _inverse, counts = group_counts(pairs)
        pair_keys, pair_counts = _merge_counts(pair_keys, pair_counts, keys, counts)
    for a, b in slices:
        occurrence, pairs = _pairs_once(kind, ext_occurrence[a:b], ext_kind[a:b], n_kinds)
        counts = pair_counts[np.searchsorted(pair_keys, pairs)]
        np.maximum.at(inside, occurrence, counts / occurrences_of[kind[occurrence]])
    return inside


def _grouped(example: npt.NDArray[np.integer], occurrence: npt.NDArray[np.integer]) -> bool:
    """Whether the examples of ``occurrence`` never decrease (pairs listed example by example).

    >>> _grouped(np.array([0, 0, 1]), np.array([1, 2, 0]))
    False
    """
    for start in range(0, len(occurrence), SLICE):
        owners = example[occurrence[start : start + SLICE + 1]]
        if np.any(owners[1:] < owners[:-1]):
            return False
    return True


def _pairs_once(
    kind: npt.NDArray[np.integer],
    ext_occurrence: npt.NDArray[np.integer],
    ext_kind: npt.NDArray[np.integer],
    n_kinds: int,
) -> tuple[IntArray, IntArray]:
    """The distinct (occurrence, super-compound) pairs of a slice, as the occurrence and the
    pair key ``G * n_kinds + G'``: an occurrence counts once per super-compound, however
    many ways it extends to it."""
    once = distinct(ext_occurrence.astype(np.int64) * n_kinds + ext_kind)
    occurrence = once // n_kinds
    return occurrence, kind[occurrence].astype(np.int64) * n_kinds + once % n_kinds


def _merge_counts(
    keys: IntArray, counts: IntArray, more_keys: IntArray, more_counts: IntArray
) -> tuple[IntArray, IntArray]:
    """Two sorted key/count lists summed into one.

    >>> [a.tolist() for a in _merge_counts(np.array([1, 4]), np.array([2, 1]),
    ...                                     np.array([4, 5]), np.array([3, 1]))]
    [[1, 4, 5], [2, 4, 1]]
    """
    merged, inverse, _sizes = group_counts(np.concatenate([keys, more_keys]))
    total = np.bincount(inverse, weights=np.concatenate([counts, more_counts]))
    return merged, total.astype(np.int64)
