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

The occurrences of a pool come as a sequence of :class:`OccurrenceChunk` (consecutive
examples, flat integer arrays with one entry per occurrence and per super-compound pair):
:func:`compound_rows` reads them twice, a chunk at a time (once to count how often each
compound lies inside each super-compound, pool-wide; once to weigh), vectorised with numpy,
so that its temporaries are the size of a chunk and no array spans the pool's occurrences.

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
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

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


def pointers(lengths: npt.ArrayLike) -> IntArray:
    """Row pointers (CSR) of rows of ``lengths`` entries.

    >>> pointers([2, 0, 1]).tolist()
    [0, 2, 2, 3]
    """
    counts = np.asarray(lengths, dtype=np.int64)
    result: IntArray = np.zeros(len(counts) + 1, dtype=np.int64)
    np.cumsum(counts, out=result[1:])
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


@dataclass(frozen=True)
class OccurrenceChunk:
    """The compound occurrences of consecutive examples, numbered within the chunk: example
    ``i`` holds occurrences ``indptr[i]`` to ``indptr[i + 1] - 1``, whose compound ids are
    ``kinds``; occurrence ``ext_occurrence[j]`` lies inside a compound of id ``ext_kinds[j]``
    (an immediate super-compound; a pair listed twice counts once). A pool's occurrences are
    a sequence of chunks (examples collected in memory, or feature shards).

    >>> chunk = OccurrenceChunk.of_examples([0, 0, 1], [0, 1, 0], [0], [1], examples=2)
    >>> chunk.indptr.tolist(), len(chunk)
    ([0, 2, 3], 2)
    """

    indptr: npt.NDArray[np.integer]
    kinds: npt.NDArray[np.integer]
    ext_occurrence: npt.NDArray[np.integer]
    ext_kinds: npt.NDArray[np.integer]

    def __len__(self) -> int:
        return len(self.indptr) - 1

    @classmethod
    def of_examples(
        cls,
        example: npt.ArrayLike,
        kind: npt.ArrayLike,
        ext_occurrence: npt.ArrayLike,
        ext_kind: npt.ArrayLike,
        examples: int,
    ) -> OccurrenceChunk:
        """The chunk of occurrences listed with their example (non-decreasing, from 0 to
        ``examples - 1``)."""
        lengths = np.bincount(np.asarray(example, dtype=np.int64), minlength=examples)
        return cls(
            pointers(lengths), np.asarray(kind), np.asarray(ext_occurrence), np.asarray(ext_kind)
        )

    def rows(self) -> IntArray:
        """The example (within the chunk) of each occurrence."""
        starts = np.asarray(self.indptr, dtype=np.int64)
        return np.repeat(np.arange(len(self), dtype=np.int64), starts[1:] - starts[:-1])


# the weights (or counts) per (example, compound) of one chunk's examples, as CSR rows: row
# pointers, compound ids ascending within a row, values
RowPiece = tuple[IntArray, npt.NDArray[np.int32], FloatArray]


def compound_rows(
    chunks: Iterable[OccurrenceChunk], n_kinds: int, *, with_extensions: bool
) -> list[RowPiece]:
    """DBCA weights (``with_extensions``) or raw counts per (example, compound) of the
    examples of every chunk of ``chunks``, in order, as CSR rows, one piece per chunk; zero
    weights left out. ``chunks`` is gone over twice (a sequence, or an iterable that starts
    afresh each time), so that only one chunk's arrays need be in memory at a time.

    >>> chunk = OccurrenceChunk.of_examples([0, 0, 1], [0, 1, 0], [0], [1], examples=2)
    >>> [piece] = compound_rows([chunk], 2, with_extensions=True)
    >>> [array.tolist() for array in piece]
    [[0, 2, 3], [0, 1, 0], [0.5, 1.0, 1.0]]
    """
    if iter(chunks) is chunks:
        raise TypeError(
            "compound_rows goes over its chunks twice: give a sequence, not an iterator"
        )
    inside = InsideProbability(chunks, n_kinds) if with_extensions else None
    return [chunk_rows(chunk, n_kinds, inside) for chunk in chunks]


def chunk_rows(chunk: OccurrenceChunk, n_kinds: int, inside: InsideProbability | None) -> RowPiece:
    """The DBCA weights (``inside``: the pool's inside probabilities) or raw counts (None)
    per (example, compound) of one chunk, as CSR rows: :func:`compound_rows` a chunk at a
    time, for a caller that lets each chunk go once weighed."""
    n_kinds = max(n_kinds, 1)
    if inside is None:
        return _counted_piece(chunk, n_kinds)
    return _weighted_piece(chunk, inside, n_kinds)


def dbca_weights(
    example: npt.ArrayLike,
    kind: npt.ArrayLike,
    ext_occurrence: npt.ArrayLike,
    ext_kind: npt.ArrayLike,
    n_kinds: int,
) -> tuple[IntArray, IntArray, FloatArray]:
    """DBCA weights ``w(G, R)`` per (example, compound), zero weights left out, of
    occurrences given in flat arrays over the pool (:func:`compound_rows` on them, cut into
    chunks of whole examples of about :data:`SLICE` occurrences).

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
    if len(example) > 1 and np.any(example[1:] < example[:-1]):
        return _reordered(example, kind, ext_occurrence, ext_kind, n_kinds)
    examples = int(example.max()) + 1 if len(example) else 0
    whole = OccurrenceChunk.of_examples(example, kind, ext_occurrence, ext_kind, examples)
    return _triples(compound_rows(list(_sliced(whole)), n_kinds, with_extensions=True))


def _triples(pieces: Iterable[RowPiece]) -> tuple[IntArray, IntArray, FloatArray]:
    """The (example, compound, value) entries of consecutive pieces, examples numbered on
    from one piece to the next."""
    rows, kinds, values = [np.zeros(0, np.int64)], [np.zeros(0, np.int64)], [np.zeros(0)]
    first = 0
    for indptr, piece_kinds, piece_values in pieces:
        size = len(indptr) - 1
        rows.append(first + np.repeat(np.arange(size, dtype=np.int64), np.diff(indptr)))
        kinds.append(piece_kinds.astype(np.int64))
        values.append(piece_values)
        first += size
    return np.concatenate(rows), np.concatenate(kinds), np.concatenate(values)


SLICE = 1 << 22  # occurrences of a chunk cut from whole arrays (a few hundred MB of temporaries)


def _sliced(whole: OccurrenceChunk) -> Iterator[OccurrenceChunk]:
    """``whole`` as chunks of whole examples of about :data:`SLICE` occurrences each, with
    their own super-compound pairs.

    >>> whole = OccurrenceChunk.of_examples([0, 0, 1, 2], [5, 6, 5, 5], [3, 0], [7, 7], 3)
    >>> [(c.indptr.tolist(), c.ext_occurrence.tolist()) for c in _sliced(whole)]
    [([0, 2, 3, 4], [0, 3])]
    """
    order = np.argsort(whole.ext_occurrence, kind="stable")
    extended, ext_kinds = whole.ext_occurrence[order], whole.ext_kinds[order]
    for first, last in _example_slices(whole.indptr):
        a, b = int(whole.indptr[first]), int(whole.indptr[last])
        x, y = np.searchsorted(extended, [a, b])
        yield OccurrenceChunk(
            whole.indptr[first : last + 1] - a, whole.kinds[a:b], extended[x:y] - a, ext_kinds[x:y]
        )


def _example_slices(indptr: npt.NDArray[np.integer], length: int = 0) -> list[tuple[int, int]]:
    """Bounds ``(first, last)`` of consecutive runs of the examples of CSR rows ``indptr``,
    each of about ``length`` (default :data:`SLICE`) entries, covering every example: an
    example is never cut.

    >>> _example_slices(np.array([0, 2, 3, 4]), length=2)
    [(0, 1), (1, 3)]
    """
    length = length or SLICE
    examples = len(indptr) - 1
    bounds = [0]
    while bounds[-1] < examples:
        end = int(np.searchsorted(indptr, indptr[bounds[-1]] + length, side="left"))
        bounds.append(min(max(end, bounds[-1] + 1), examples))
    return list(itertools.pairwise(bounds))


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


class InsideProbability:
    """``P(G'|G)`` over a whole pool for every compound ``G`` and immediate super-compound
    ``G'`` (the share of the occurrences of ``G`` that lie inside one of ``G'``), counted a
    chunk at a time; called with a chunk, the largest of them for each of its occurrences."""

    def __init__(self, chunks: Iterable[OccurrenceChunk], n_kinds: int) -> None:
        n_kinds = max(n_kinds, 1)
        self.n_kinds = n_kinds
        self.occurrences_of = np.zeros(n_kinds, dtype=np.float64)
        keys, counts = np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
        for chunk in chunks:
            self.occurrences_of += np.bincount(chunk.kinds, minlength=n_kinds)
            _occurrence, pairs = _pairs_once(chunk, n_kinds)
            found, _inverse, sizes = group_counts(pairs)
            keys, counts = _merge_counts(keys, counts, found, sizes)
        self.pair_keys, self.pair_counts = keys, counts

    def __call__(self, chunk: OccurrenceChunk) -> FloatArray:
        inside = np.zeros(len(chunk.kinds), dtype=np.float64)
        occurrence, pairs = _pairs_once(chunk, self.n_kinds)
        if len(occurrence):
            counts = self.pair_counts[np.searchsorted(self.pair_keys, pairs)]
            shares = counts / self.occurrences_of[chunk.kinds[occurrence]]
            np.maximum.at(inside, occurrence, shares)
        return inside


def _counted_piece(chunk: OccurrenceChunk, n_kinds: int) -> RowPiece:
    """Occurrence counts per (example, compound) of one chunk."""
    rows, kinds, counts = raw_counts(chunk.rows(), chunk.kinds, n_kinds)
    return pointers(np.bincount(rows, minlength=len(chunk))), kinds.astype(np.int32), counts


def _weighted_piece(chunk: OccurrenceChunk, inside: InsideProbability, n_kinds: int) -> RowPiece:
    """DBCA weights per (example, compound) of one chunk: per (example, compound), one minus
    the least, over its occurrences, of the largest inside probability."""
    keys = chunk.rows() * n_kinds + np.asarray(chunk.kinds, dtype=np.int64)
    if not len(keys):
        return pointers(np.zeros(len(chunk))), np.zeros(0, np.int32), np.zeros(0, np.float64)
    order = np.argsort(keys, kind="stable")
    sorted_keys = keys[order]
    starts = np.flatnonzero(np.r_[True, sorted_keys[1:] != sorted_keys[:-1]])
    weights = quantise(np.maximum.reduceat(1.0 - inside(chunk)[order], starts))
    unique = sorted_keys[starts][weights > 0]
    lengths = np.bincount(unique // n_kinds, minlength=len(chunk))
    return pointers(lengths), (unique % n_kinds).astype(np.int32), weights[weights > 0]


def _pairs_once(chunk: OccurrenceChunk, n_kinds: int) -> tuple[IntArray, IntArray]:
    """The distinct (occurrence, super-compound) pairs of a chunk, as the occurrence and the
    pair key ``G * n_kinds + G'``: an occurrence counts once per super-compound, however
    many ways it extends to it."""
    extended = np.asarray(chunk.ext_occurrence, dtype=np.int64)
    once = distinct(extended * n_kinds + np.asarray(chunk.ext_kinds, dtype=np.int64))
    occurrence = once // n_kinds
    kinds = np.asarray(chunk.kinds, dtype=np.int64)
    return occurrence, kinds[occurrence] * n_kinds + once % n_kinds


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
