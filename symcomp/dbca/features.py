"""Atom and compound count vectors of every example of a pool, as sparse rows (numpy).

:class:`Features` holds, for each example, its atom counts and its compound weights (DBCA
weights or raw counts) as rows of two :class:`SparseRows` matrices, with the names of the atoms
and compounds. Split search and divergence measurement work only on these.

Four ways to get compounds:

``dag`` (default)
    Connected subgraphs of each example's rule-application DAG
    (:mod:`symcomp.dbca.compounds`), weighted as in DBCA (:mod:`symcomp.dbca.weights`) or
    counted.
``pairs``
    Parent-child pairs of the DAG with the child's position (TMCD-style compounds).
``ngrams``
    For data without a grammar: atoms are input tokens, compounds the distinct n-grams of an
    input (the NQG test vectors use unigrams and bigram sets).
extractors
    Atoms and compounds an extractor lists per example (:mod:`symcomp.dbca.extractors`:
    TMCD trees, dependency triples, a user's function), counted by :func:`set_features`.

>>> features = ngram_features(["jump twice", "walk twice"], n=2)
>>> features.compound_names, features.atom_names
(('jump twice', 'walk twice'), ('jump', 'twice', 'walk'))
>>> features.compounds.row(1)
(array([1], dtype=int32), array([1.]))
"""

from __future__ import annotations

import array
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, overload

import numpy as np
import numpy.typing as npt

from symcomp.dbca.compounds import CompoundSpec, Dag
from symcomp.dbca.extractors.ngrams import ngrams
from symcomp.dbca.occurrences import collect, names_of
from symcomp.dbca.weights import (
    InsideProbability,
    IntArray,
    OccurrenceChunk,
    RowPiece,
    chunk_rows,
    raw_counts,
)
from symcomp.errors import DataError

DEFAULT_TOP_K = 100_000  # Keysers et al. 2020: the 100,000 compounds of largest total weight
WEIGHTINGS = ("dbca", "counts")
# An atom counts once per example that holds it (as DBCA weights a compound at most once per
# sample and NQG/TMCD count atom sets), or once per occurrence (splits whose meta names no
# atom frequency were measured so).
ATOM_FREQUENCIES = ("example", "occurrence")


@dataclass(frozen=True)
class SparseRows:
    """Rows of a sparse non-negative matrix in CSR layout (one row per example).

    ``indices`` within a row are sorted and distinct.
    """

    indptr: npt.NDArray[np.int64]
    indices: npt.NDArray[np.int32]
    values: npt.NDArray[np.float64]
    width: int

    @classmethod
    def from_triples(
        cls,
        rows: npt.ArrayLike,
        columns: npt.ArrayLike,
        values: npt.ArrayLike,
        shape: tuple[int, int],
    ) -> SparseRows:
        """From (row, column, value) triples with distinct (row, column) pairs.

        >>> SparseRows.from_triples([1, 0], [0, 2], [5.0, 1.0], (2, 3)).row(0)
        (array([2], dtype=int32), array([1.]))
        """
        rows = np.asarray(rows, dtype=np.int64)
        columns = np.asarray(columns, dtype=np.int64)
        order = np.lexsort((columns, rows))
        counts = np.bincount(rows, minlength=shape[0])
        indptr = np.zeros(shape[0] + 1, dtype=np.int64)
        np.cumsum(counts, out=indptr[1:])
        return cls(
            indptr,
            columns[order].astype(np.int32),
            np.asarray(values, dtype=np.float64)[order],
            shape[1],
        )

    @classmethod
    def joined(
        cls,
        parts: Iterable[tuple[npt.NDArray[Any], ...]],
        width: int,
        *,
        renumber: npt.NDArray[np.integer] | None = None,
        ones: bool = False,
    ) -> SparseRows:
        """The rows of consecutive CSR parts (row pointers, column ids, values) end to end, in
        arrays made once. ``renumber`` gives each column id a new one (-1: the entry is left
        out), each row's entries then sorted again a part at a time; ``ones`` makes every
        value 1 (one broadcast 1.0, :func:`_ones`).

        >>> part = (np.array([0, 2]), np.array([3, 1]), np.array([5, 6]))
        >>> joined = SparseRows.joined([part, part], 2, renumber=np.array([0, 1, -1, 0]))
        >>> joined.indptr.tolist(), joined.indices.tolist(), joined.values.tolist()
        ([0, 2, 4], [0, 1, 0, 1], [5.0, 6.0, 5.0, 6.0])
        """
        listed = list(parts)
        rows = sum(len(indptr) - 1 for indptr, _columns, _values in listed)
        kept = [
            len(columns) if renumber is None else int(np.count_nonzero(renumber[columns] >= 0))
            for _indptr, columns, _values in listed
        ]
        indptr = np.zeros(rows + 1, dtype=np.int64)
        indices = np.empty(sum(kept), dtype=np.int32)
        values = np.empty(0 if ones else sum(kept), dtype=np.float64)
        first = start = 0
        for (part_indptr, columns, counts), count in zip(listed, kept, strict=True):
            starts = np.asarray(part_indptr, dtype=np.int64)
            size = len(starts) - 1
            rows_of = np.repeat(np.arange(size), np.diff(starts))
            keep: slice | npt.NDArray[np.bool_] = slice(None)
            if renumber is not None:
                columns = renumber[columns]
                keep = columns >= 0
                rows_of, columns = rows_of[keep], columns[keep]
            order = np.lexsort((columns, rows_of)) if renumber is not None else slice(None)
            indices[start : start + count] = np.asarray(columns)[order]
            if not ones:
                values[start : start + count] = np.asarray(counts)[keep][order]
            lengths = np.bincount(rows_of, minlength=size)
            indptr[first + 1 : first + size + 1] = start + np.cumsum(lengths)
            first, start = first + size, start + count
        return cls(indptr, indices, _ones(sum(kept)) if ones else values, width)

    def __len__(self) -> int:
        return len(self.indptr) - 1

    def row(self, index: int) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.float64]]:
        """Column indices and values of one row."""
        start, end = self.indptr[index], self.indptr[index + 1]
        return self.indices[start:end], self.values[start:end]

    def entries(self, rows: npt.ArrayLike) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """Positions of the entries of ``rows`` (concatenated) and, per entry, its row's slot.

        >>> m = SparseRows.from_triples([0, 1, 1], [0, 0, 1], [1.0, 2.0, 3.0], (2, 2))
        >>> m.entries([1, 0])
        (array([1, 2, 0]), array([0, 0, 1]))
        """
        chosen = np.asarray(rows, dtype=np.int64)
        starts = self.indptr.take(chosen)
        lengths = self.indptr.take(chosen + 1) - starts
        slot = np.repeat(np.arange(len(chosen)), lengths)
        # entry j of the concatenation is entry j - (entries before its row) of its row
        shift = starts - (np.cumsum(lengths) - lengths)
        return np.arange(len(slot), dtype=np.int64) + shift.take(slot), slot

    def values_at(self, positions: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
        """The values of the entries at ``positions`` (a gather that never copies a broadcast
        constant, such as atoms counted once per example, whole).

        >>> ones = np.broadcast_to(1.0, (2,))
        >>> m = SparseRows(np.array([0, 2]), np.array([0, 1], np.int32), ones, 2)
        >>> m.values_at(np.array([1])).tolist()
        [1.0]
        """
        if self.values.strides == (0,):
            return np.broadcast_to(self.values[:1], positions.shape)
        taken: npt.NDArray[np.float64] = self.values.take(positions)
        return taken

    def sum_rows(self, rows: npt.ArrayLike) -> npt.NDArray[np.float64]:
        """The dense sum of the given rows (a count vector of length ``width``).

        >>> m = SparseRows.from_triples([0, 1, 1], [0, 0, 1], [1.0, 2.0, 3.0], (2, 2))
        >>> m.sum_rows([0, 1])
        array([3., 3.])
        """
        chosen = np.asarray(rows, dtype=np.int64)
        if len(chosen) * 4 < len(self):
            positions, _slot = self.entries(chosen)
            columns, values = self.indices[positions], self.values[positions]
        else:
            selected = np.zeros(len(self), dtype=bool)
            selected[chosen] = True
            mask = np.repeat(selected, np.diff(self.indptr))
            columns, values = self.indices[mask], self.values[mask]
        return np.bincount(columns, weights=values, minlength=self.width).astype(np.float64)

    def take_rows(self, rows: npt.ArrayLike) -> tuple[SparseRows, npt.NDArray[np.int64]]:
        """The given rows alone, their columns renumbered to those they hold (in ascending
        order, so sums over columns cost what the rows hold, not the width of the pool), and
        the original column of each new one.

        >>> m = SparseRows.from_triples([0, 1, 2], [5, 2, 7], [1.0, 2.0, 3.0], (3, 8))
        >>> part, columns = m.take_rows([2, 0])
        >>> part.row(0), part.width, columns.tolist()
        ((array([1], dtype=int32), array([3.])), 2, [5, 7])
        """
        chosen = np.asarray(rows, dtype=np.int64)
        positions, _slot = self.entries(chosen)
        kept, columns = np.unique(self.indices.take(positions), return_inverse=True)
        indptr = np.zeros(len(chosen) + 1, dtype=np.int64)
        np.cumsum(self.indptr.take(chosen + 1) - self.indptr.take(chosen), out=indptr[1:])
        values = self.values_at(positions)
        part = SparseRows(indptr, columns.astype(np.int32), values, len(kept))
        return part, kept.astype(np.int64)

    def lengths(self) -> npt.NDArray[np.int64]:
        """Number of stored entries per row."""
        return np.diff(self.indptr)

    def row_totals(self) -> npt.NDArray[np.float64]:
        """The sum of each row's values.

        >>> SparseRows.from_triples([0, 1, 1], [0, 0, 1], [1.0, 2.0, 3.0], (2, 2)).row_totals()
        array([1., 5.])
        """
        if self.values.strides == (0,) and len(self.values):  # one value: no copy of it
            return (self.lengths() * float(self.values[0])).astype(np.float64)
        owners = np.repeat(np.arange(len(self)), self.lengths())
        return np.bincount(owners, weights=self.values, minlength=len(self)).astype(np.float64)


@dataclass(frozen=True)
class Features:
    """Atom counts and compound weights of every example of a pool."""

    atoms: SparseRows
    compounds: SparseRows
    atom_names: Sequence[str]  # a tuple, or a view of names on disk (feature shards)
    compound_names: Sequence[str]
    description: dict[str, Any] = field(default_factory=dict)
    pairs: SparseRows | None = None  # parent-child pair counts (for held-out pair seeding)
    pair_names: Sequence[str] = ()

    def __len__(self) -> int:
        return len(self.atoms)

    def sample(self, rows: npt.ArrayLike) -> tuple[Features, npt.NDArray[np.int64]]:
        """The features of ``rows`` alone, without names, each matrix's columns renumbered to
        those the rows hold (:meth:`SparseRows.take_rows`); and the pool's pair column of each
        pair column of the sample (empty without pairs).

        >>> features = ngram_features(["jump twice", "walk twice", "jump thrice"])
        >>> part, pairs = features.sample([0, 2])
        >>> len(part), part.compounds.width, [features.pair_names[i] for i in pairs]
        (2, 2, ['jump thrice', 'jump twice'])
        """
        atoms, _columns = self.atoms.take_rows(rows)
        compounds, compound_columns = self.compounds.take_rows(rows)
        pairs: SparseRows | None = None
        pair_columns = np.zeros(0, dtype=np.int64)
        if self.pairs is self.compounds:  # counted compounds are their own pairs
            pairs, pair_columns = compounds, compound_columns
        elif self.pairs is not None:
            pairs, pair_columns = self.pairs.take_rows(rows)
        return Features(atoms, compounds, (), (), self.description, pairs, ()), pair_columns

    def with_description(self, description: dict[str, Any]) -> Features:
        """The same features with another description."""
        return Features(
            self.atoms,
            self.compounds,
            self.atom_names,
            self.compound_names,
            description,
            self.pairs,
            self.pair_names,
        )


def dag_features(
    dags: Iterable[Dag],
    spec: CompoundSpec | None = None,
    *,
    weighting: str = "dbca",
    top_k: int | None = DEFAULT_TOP_K,
    atom_frequency: str = "example",
) -> Features:
    """Atoms (node rules) and compounds (subgraphs) of DAGs.

    Parameters
    ----------
    dags : iterable of Dag
        One DAG per example, in pool order.
    spec : CompoundSpec, optional
        Which subgraphs are compounds (default: :class:`CompoundSpec` defaults).
    weighting : {"dbca", "counts"}
        DBCA weights (default) or raw occurrence counts.
    top_k : int or None
        Keep the compounds of largest total weight (ties: first seen); None keeps all.
    atom_frequency : {"example", "occurrence"}
        Count an atom once per example that holds it (default) or once per occurrence.

    >>> dags = [Dag.from_edges(["a", "b"], [(0, 1, 0)]), Dag.from_edges(["a", "c"], [(0, 1, 0)])]
    >>> dag_features(dags).compound_names
    ('a(0:b)', 'a(0:c)')
    """
    spec = spec if spec is not None else CompoundSpec()
    if weighting not in WEIGHTINGS:
        raise DataError(f"unknown weighting {weighting!r}; choose one of {', '.join(WEIGHTINGS)}.")
    check_atom_frequency(atom_frequency)
    collected = collect(dags, spec, with_extensions=weighting == "dbca")
    counted = Counted(
        SparseRows.joined(collected.atoms, len(collected.atom_names)),
        SparseRows.joined(collected.pairs, len(collected.pair_names)),
        collected.atom_names,
        collected.pair_names,
        collected.compound_names,
    )
    chunks = collected.chunks
    del collected  # its atoms and pairs, joined; its chunks go once weighed
    weights = _weighed(chunks, len(counted.subgraph_names), weighting == "dbca")
    return weighted_dag_features(
        counted,
        weights,
        spec,
        weighting=weighting,
        top_k=top_k,
        atom_frequency=atom_frequency,
    )


def _weighed(chunks: list[OccurrenceChunk], n_kinds: int, with_extensions: bool) -> list[RowPiece]:
    """:func:`compound_rows` of the chunks of a collection, each let go once weighed (the
    occurrences are the largest arrays of a pool's features: they and the weights are not
    held in full at once). ``chunks`` is emptied."""
    inside = InsideProbability(chunks, n_kinds) if with_extensions else None
    chunks.reverse()
    pieces = []
    while chunks:
        pieces.append(chunk_rows(chunks.pop(), n_kinds, inside))
    return pieces


@dataclass(frozen=True)
class Counted:
    """Per-example counts of atoms and of compounds, columns numbered in the order their names
    were first seen: what an extraction gives before weighting and ordering (held in memory,
    or read back from feature shards, :mod:`symcomp.dbca.shards`). For DAGs, ``compounds``
    are the parent-child pairs and ``subgraph_names`` name the subgraph compounds, whose
    weights come from all their occurrences at once."""

    atoms: SparseRows
    compounds: SparseRows
    atom_names: Sequence[str]
    compound_names: Sequence[str]
    subgraph_names: Sequence[str] = ()

    def __len__(self) -> int:
        return len(self.atoms)


def weighted_dag_features(
    counted: Counted,
    weights: Sequence[RowPiece],
    spec: CompoundSpec,
    *,
    weighting: str,
    top_k: int | None,
    atom_frequency: str,
) -> Features:
    """Features of DAGs from their atom and pair counts (``counted``) and the weights of
    their subgraph compounds per example (CSR rows a piece per chunk, :func:`compound_rows`)."""
    n_kinds = len(counted.subgraph_names)
    compounds, kept, weighted = _top_k(weights, n_kinds, top_k)
    description = {
        "compounds": "dag",
        "spec": spec.describe(),
        "weighting": weighting,
        "top_k": top_k,
        "distinct_compounds": n_kinds,
        "weighted_compounds": weighted,  # with a positive total weight
        "kept_compounds": len(kept),
        "atom_frequency": atom_frequency,
    }
    return Features(
        _atom_matrix(counted.atoms, atom_frequency),
        compounds,
        counted.atom_names,
        _picked(counted.subgraph_names, kept),
        description,
        counted.compounds,
        counted.compound_names,
    )


def _picked(names: Sequence[str], kept: npt.ArrayLike) -> Sequence[str]:
    """``names`` at ``kept``: a view of stored names, else a tuple."""
    if isinstance(names, StoredNames):
        return names.picked(kept)
    return tuple(names[i] for i in np.asarray(kept, dtype=np.int64).tolist())


class StoredNames(Sequence[str]):
    """Names kept as UTF-8 bytes end to end (``blob``, an array of uint8, possibly
    memory-mapped) with ``offsets`` (n + 1 ascending positions), in the order ``order`` gives
    (ids; None: as stored): one string is made only when it is asked for.

    >>> blob = np.frombuffer(b"abxyz", dtype=np.uint8)
    >>> names = StoredNames(blob, np.array([0, 2, 5]))
    >>> list(names), list(names.picked([1, 0]))
    (['ab', 'xyz'], ['xyz', 'ab'])
    """

    def __init__(
        self,
        blob: npt.NDArray[np.uint8],
        offsets: npt.NDArray[np.integer],
        order: npt.NDArray[np.integer] | None = None,
    ) -> None:
        self.blob, self.offsets, self.order = blob, offsets, order

    def __len__(self) -> int:
        return len(self.offsets) - 1 if self.order is None else len(self.order)

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> list[str]: ...
    def __getitem__(self, index: int | slice) -> str | list[str]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if not -len(self) <= index < len(self):
            raise IndexError(index)
        stored = int(index % len(self) if self.order is None else self.order[index])
        start, end = int(self.offsets[stored]), int(self.offsets[stored + 1])
        return bytes(self.blob[start:end]).decode("utf-8")

    def picked(self, kept: npt.ArrayLike) -> StoredNames:
        """The names at positions ``kept`` of this sequence, as a view."""
        chosen = np.asarray(kept, dtype=np.int64)
        order = chosen if self.order is None else np.asarray(self.order)[chosen]
        return StoredNames(self.blob, self.offsets, order)


def ngram_features(
    texts: Iterable[str], n: int = 2, *, atom_frequency: str = "example"
) -> Features:
    """Atoms = whitespace tokens (once per text, or per occurrence), compounds = the distinct
    ``n``-grams of each text."""
    check_ngram(n)
    features = set_features((ngrams(text, n) for text in texts), atom_frequency=atom_frequency)
    return features.with_description(ngram_description(n, atom_frequency))


def check_ngram(n: int) -> None:
    """Raise :class:`DataError` for an n-gram size below 1."""
    if n < 1:
        raise DataError(f"n-gram size must be at least 1, got {n}.")


def ngram_description(n: int, atom_frequency: str) -> dict[str, Any]:
    """What features of n-grams record about themselves."""
    return {"compounds": "ngrams", "n": n, "weighting": "counts", "atom_frequency": atom_frequency}


def set_features(
    extracted: Iterable[tuple[Sequence[str], Sequence[str]]], *, atom_frequency: str = "example"
) -> Features:
    """Features of examples given as (atoms, compounds) lists, one entry per occurrence (what
    an extractor such as TMCD's or the dependency-triple one returns): compounds are counted
    per occurrence and all kept (as in the NQG code), atoms once per example or per occurrence.

    >>> features = set_features([(["f", "x"], ["f(0:x)"]), (["f", "y"], ["f(0:y)", "f(0:y)"])])
    >>> features.compound_names, features.compounds.row(1)[1].tolist()
    (('f(0:x)', 'f(0:y)'), [2.0])
    """
    check_atom_frequency(atom_frequency)
    atom_ids: dict[str, int] = {}
    compound_ids: dict[str, int] = {}
    atom_rows, atom_cols = array.array("q"), array.array("q")
    compound_rows, compound_cols = array.array("q"), array.array("q")
    number = -1
    for number, (atoms, compounds) in enumerate(extracted):
        atom_cols.extend(atom_ids.setdefault(atom, len(atom_ids)) for atom in atoms)
        atom_rows.extend([number] * len(atoms))
        compound_cols.extend(compound_ids.setdefault(c, len(compound_ids)) for c in compounds)
        compound_rows.extend([number] * len(compounds))
    n_examples = number + 1
    atom_counts = _count_matrix(atom_rows, atom_cols, n_examples, len(atom_ids))
    del atom_rows, atom_cols
    counts = _count_matrix(compound_rows, compound_cols, n_examples, len(compound_ids))
    del compound_rows, compound_cols
    counted = Counted(atom_counts, counts, names_of(atom_ids), names_of(compound_ids))
    return counted_features(counted, atom_frequency=atom_frequency)


def counted_features(counted: Counted, *, atom_frequency: str) -> Features:
    """Features of counted atoms and compounds (all kept, as in the NQG code), the columns of
    each sorted by name."""
    counts_of_atoms, atom_names = _sorted_columns(counted.atoms, counted.atom_names)
    atoms = _atom_matrix(counts_of_atoms, atom_frequency)  # after the sort, which copies values
    counts, compound_names = _sorted_columns(counted.compounds, counted.compound_names)
    return sorted_counted_features(atoms, counts, atom_names, compound_names, atom_frequency)


def sorted_counted_features(
    atoms: SparseRows,
    counts: SparseRows,
    atom_names: Sequence[str],
    compound_names: Sequence[str],
    atom_frequency: str,
) -> Features:
    """Features of atoms (counted as ``atom_frequency`` says) and compounds whose columns are
    in the order of their names (:func:`counted_features` sorts them; feature shards store
    that order)."""
    description = {
        "weighting": "counts",
        "top_k": None,
        "distinct_compounds": len(compound_names),
        "weighted_compounds": len(compound_names),
        "kept_compounds": len(compound_names),
        "atom_frequency": atom_frequency,
    }
    return Features(atoms, counts, atom_names, compound_names, description, counts, compound_names)


def _count_matrix(
    rows: array.array[int], columns: array.array[int], n_rows: int, n_columns: int
) -> SparseRows:
    examples, kinds, counts = raw_counts(
        np.frombuffer(rows, dtype=np.int64) if rows else np.zeros(0, dtype=np.int64),
        np.frombuffer(columns, dtype=np.int64) if columns else np.zeros(0, dtype=np.int64),
        n_kinds=max(n_columns, 1),
    )
    return SparseRows.from_triples(examples, kinds, counts, (n_rows, n_columns))


def check_atom_frequency(atom_frequency: str) -> None:
    """Raise :class:`DataError` for an atom frequency other than those of ATOM_FREQUENCIES."""
    if atom_frequency not in ATOM_FREQUENCIES:
        raise DataError(
            f"unknown atom frequency {atom_frequency!r}; choose one of "
            f"{', '.join(ATOM_FREQUENCIES)}."
        )


def _atom_matrix(counts: SparseRows, atom_frequency: str) -> SparseRows:
    """Atom counts per example; 1 for every atom held under ``atom_frequency`` "example".

    >>> counts = SparseRows.from_triples([0, 0], [0, 1], [1.0, 2.0], (1, 2))
    >>> _atom_matrix(counts, "occurrence").row(0)[1].tolist()
    [1.0, 2.0]
    >>> _atom_matrix(counts, "example").row(0)[1].tolist()
    [1.0, 1.0]
    """
    if atom_frequency == "occurrence":
        return counts
    return replace(counts, values=_ones(len(counts.values)))


def _ones(count: int) -> npt.NDArray[np.float64]:
    """``count`` values of 1.0 that are one read-only 1.0 seen at every entry (atoms counted
    once per example): 8 bytes an atom entry fewer, 0.5 GB at 2M examples.
    :meth:`SparseRows.values_at` and :meth:`SparseRows.row_totals` never copy them whole.

    >>> ones = _ones(3)
    >>> ones.tolist(), ones.strides
    ([1.0, 1.0, 1.0], (0,))
    """
    return np.broadcast_to(np.float64(1.0), (count,))


def _sorted_columns(matrix: SparseRows, names: Sequence[str]) -> tuple[SparseRows, tuple[str, ...]]:
    """The columns renumbered in the order of their names."""
    order = np.asarray(sorted(range(len(names)), key=names.__getitem__), dtype=np.int64)
    sorted_names = tuple(names[i] for i in order)
    new_index = np.empty(len(names), dtype=np.int64)
    new_index[order] = np.arange(len(names))
    rows = np.repeat(np.arange(len(matrix)), matrix.lengths())
    remapped = SparseRows.from_triples(
        rows, new_index[matrix.indices], matrix.values, (len(matrix), len(names))
    )
    return remapped, sorted_names


def _top_k(
    weights: Sequence[RowPiece], n_kinds: int, top_k: int | None
) -> tuple[SparseRows, IntArray, int]:
    """Keep the ``top_k`` compounds of largest total weight, renumbered in that order (ties:
    first seen); also return how many have a positive weight (all of them are kept when
    ``top_k`` is None)."""
    totals = np.zeros(n_kinds, dtype=np.float64)
    for _indptr, kinds, values in weights:  # exact sums: weights are multiples of 2**-16
        totals += np.bincount(kinds, weights=values, minlength=n_kinds)
    order = np.lexsort((np.arange(n_kinds), -totals))
    order = order[totals[order] > 0]
    weighted = len(order)
    if top_k is not None:
        order = order[:top_k]
    width = np.int32 if n_kinds < 2**31 else np.int64  # the kept pairs' new ids: 4 bytes each
    new_index: npt.NDArray[np.integer] = np.full(n_kinds, -1, dtype=width)
    new_index[order] = np.arange(len(order))
    return SparseRows.joined(weights, len(order), renumber=new_index), order, weighted
