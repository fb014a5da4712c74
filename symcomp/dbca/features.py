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

from symcomp.dbca.compounds import CompoundSpec, Dag, extract, parent_child_pairs
from symcomp.dbca.extractors.ngrams import ngrams
from symcomp.dbca.weights import FloatArray, IntArray, dbca_weights, raw_counts
from symcomp.errors import DataError

DEFAULT_TOP_K = 100_000  # Keysers et al. 2020: the 100,000 compounds of largest total weight
WEIGHTINGS = ("dbca", "counts")
# An atom counts once per example that holds it (as DBCA weights a compound at most once per
# sample and NQG/TMCD count atom sets), or once per occurrence (splits whose meta names no
# atom frequency were measured so).
ATOM_FREQUENCIES = ("example", "occurrence")
MAX_OCCURRENCES = 2**31 - 1  # occurrences are numbered in 32 bits


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
        rows, columns = _integers(rows), _integers(columns)  # 32-bit ones are not widened
        values = np.asarray(values, dtype=np.float64)
        counts = np.bincount(rows, minlength=shape[0])
        indptr = np.zeros(shape[0] + 1, dtype=np.int64)
        np.cumsum(counts, out=indptr[1:])
        if len(rows) > 1 and not bool(np.all(rows[1:] >= rows[:-1])):
            order = np.lexsort((columns, rows))
            return cls(indptr, columns[order].astype(np.int32), values[order], shape[1])
        # rows in order already (as feature shards give them): sort each row's columns, a
        # slice of rows at a time, so that no index array of the whole pool is made
        return cls(indptr, *_sorted_rows(indptr, columns, values), shape[1])

    @classmethod
    def stacked(
        cls,
        parts: Iterable[tuple[npt.NDArray[Any], npt.NDArray[Any], npt.NDArray[Any]]],
        width: int,
    ) -> SparseRows:
        """The rows of CSR parts ``(indptr, indices, values)`` one after the other (as feature
        shards hold them), copied once into arrays of 12 bytes an entry; a part whose rows
        are not sorted by column is sorted.

        >>> part = (np.array([0, 2, 3]), np.array([4, 1, 0]), np.array([1, 2, 3]))
        >>> rows = SparseRows.stacked([part, (np.array([0, 1]), np.array([2]), np.array([5]))], 5)
        >>> rows.indptr.tolist(), rows.indices.tolist(), rows.values.tolist()
        ([0, 2, 3, 4], [1, 4, 0, 2], [2.0, 1.0, 3.0, 5.0])
        """
        pending = list(parts)  # memory-mapped parts: each is read, copied, then let go
        sizes = [len(indptr) - 1 for indptr, _columns, _counts in pending]
        total = sum(int(np.asarray(indptr)[-1]) for indptr, _columns, _counts in pending)
        pointers = np.zeros(sum(sizes) + 1, dtype=np.int64)
        indices = np.empty(total, dtype=np.int32)
        values = np.empty(total, dtype=np.float64)
        row = entry = 0
        while pending:
            indptr, columns, counts = (np.asarray(part) for part in pending.pop(0))
            size, length = len(indptr) - 1, int(indptr[-1])
            if length > 1 and not _rows_sorted(indptr, columns):
                columns, counts = _sorted_rows(indptr.astype(np.int64), columns, counts)
            pointers[row + 1 : row + size + 1] = indptr[1:] + entry
            indices[entry : entry + length] = columns
            values[entry : entry + length] = counts
            row, entry = row + size, entry + length
        return cls(pointers, indices, values, width)

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

    def renumbered(self, new_index: npt.NDArray[np.int64], width: int) -> SparseRows:
        """The same entries with column ``c`` renamed ``new_index[c]`` (each row sorted again).

        >>> m = SparseRows.from_triples([0, 0, 1], [0, 1, 1], [1.0, 2.0, 3.0], (2, 2))
        >>> m.renumbered(np.array([1, 0]), 2).row(0)
        (array([0, 1], dtype=int32), array([2., 1.]))
        """
        indices, values = _sorted_rows(self.indptr, self.indices, self.values, new_index)
        return SparseRows(self.indptr, indices, values, width)

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


def _integers(values: npt.ArrayLike) -> npt.NDArray[np.integer]:
    """An integer array as it is (any width), other numbers as 64-bit integers.

    >>> _integers(np.array([1], np.int32)).dtype, _integers([1.0]).dtype
    (dtype('int32'), dtype('int64'))
    """
    array = np.asarray(values)
    return array if array.dtype.kind in "iu" else array.astype(np.int64)


SORT_SLICE = 1 << 20  # entries sorted at a time by _sorted_rows (bounds its temporaries)


def _rows_sorted(indptr: npt.NDArray[np.int64], columns: npt.NDArray[np.integer]) -> bool:
    """Whether the columns rise strictly within every row.

    >>> _rows_sorted(np.array([0, 2, 3]), np.array([1, 4, 0]))
    True
    >>> _rows_sorted(np.array([0, 2]), np.array([4, 1]))
    False
    """
    rising = np.diff(np.asarray(columns, dtype=np.int64)) > 0
    rising[indptr[1:-1][(indptr[1:-1] > 0) & (indptr[1:-1] < len(columns))] - 1] = True
    return bool(rising.all())


def _sorted_rows(
    indptr: npt.NDArray[np.int64],
    columns: npt.NDArray[np.integer],
    values: npt.NDArray[np.float64],
    new_index: npt.NDArray[np.int64] | None = None,
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.float64]]:
    """Each row's entries sorted by column (renamed by ``new_index`` first, if given), about
    :data:`SORT_SLICE` entries at a time: 12 bytes an entry for the result and temporaries of a
    slice, where one sort of the whole matrix takes 40.

    >>> _sorted_rows(np.array([0, 2, 3]), np.array([5, 1, 0]), np.array([1.0, 2.0, 3.0]))
    (array([1, 5, 0], dtype=int32), array([2., 1., 3.]))
    """
    indices = np.empty(len(columns), dtype=np.int32)
    constant = values.strides == (0,)  # one value everywhere (atoms once per example): kept
    ordered = values if constant else np.empty(len(columns), dtype=np.float64)
    ends = np.searchsorted(indptr, np.arange(SORT_SLICE, int(indptr[-1]), SORT_SLICE))
    first = 0
    for last in [*np.unique(ends).tolist(), len(indptr) - 1]:
        start, end = int(indptr[first]), int(indptr[last])
        if end > start:
            part = np.asarray(columns[start:end], dtype=np.int64)
            if new_index is not None:
                part = new_index.take(part)
            rows = np.repeat(np.arange(last - first), np.diff(indptr[first : last + 1]))
            order = np.lexsort((part, rows))
            indices[start:end] = part.take(order)
            if not constant:
                ordered[start:end] = np.asarray(values[start:end]).take(order)
        first = last
    return indices, ordered


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
    found = Occurrences(spec, with_extensions=weighting == "dbca")
    for dag in dags:
        found.add(dag)
    weights = found.compound_weights()
    return weighted_dag_features(
        found.counts(),
        weights,
        spec,
        weighting=weighting,
        top_k=top_k,
        atom_frequency=atom_frequency,
    )


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
    weights: tuple[IntArray, IntArray, FloatArray],
    spec: CompoundSpec,
    *,
    weighting: str,
    top_k: int | None,
    atom_frequency: str,
) -> Features:
    """Features of DAGs from their atom and pair counts (``counted``) and the (example,
    compound, weight) triples of their subgraph compounds."""
    n_kinds = len(counted.subgraph_names)
    compounds, kept, weighted = _top_k(*weights, len(counted), n_kinds, top_k)
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


def occurrence_weights(
    occurrences: tuple[npt.NDArray[np.integer], ...], n_kinds: int, *, with_extensions: bool
) -> tuple[IntArray, IntArray, FloatArray]:
    """DBCA weights (``with_extensions``) or raw counts of compound occurrences given as
    (example, kind, extended occurrence, extending kind) arrays."""
    rows, kinds, ext_occ, ext_kinds = occurrences
    if with_extensions:
        return dbca_weights(rows, kinds, ext_occ, ext_kinds, n_kinds=max(n_kinds, 1))
    return raw_counts(rows, kinds, n_kinds=max(n_kinds, 1))


ATTRIBUTES = (  # the columns an :class:`Occurrences` collects
    "atom_rows",
    "atom_cols",
    "pair_rows",
    "pair_cols",
    "occ_rows",
    "occ_kinds",
    "ext_occ",
    "ext_kinds",
)


class Occurrences:
    """What :func:`dag_features` collects from the DAGs, one example at a time: atom, pair and
    compound occurrences as (example, kind) columns, and which compound occurrences extend
    which (DBCA's super-compounds)."""

    def __init__(self, spec: CompoundSpec, *, with_extensions: bool) -> None:
        self.spec = spec
        self.with_extensions = with_extensions
        self.examples = 0
        self.taken = 0  # occurrences handed out by :meth:`take` (feature shards)
        self.atom_ids: dict[str, int] = {}
        self.compound_ids: dict[str, int] = {}
        self.pair_ids: dict[str, int] = {}
        self.atom_rows, self.atom_cols = array.array("q"), array.array("q")
        self.pair_rows, self.pair_cols = array.array("q"), array.array("q")
        # one entry per occurrence and per super-compound pair: hundreds per example, so 32
        # bits (2**31 occurrences are some 7 million CFQ questions: refused beyond, see add)
        self.occ_rows, self.occ_kinds = array.array("i"), array.array("i")
        self.ext_occ, self.ext_kinds = array.array("i"), array.array("i")

    def add(self, dag: Dag) -> None:
        number = self.examples
        self.atom_cols.extend(self.atom_ids.setdefault(x, len(self.atom_ids)) for x in dag.labels)
        self.atom_rows.extend([number] * len(dag))
        pairs = parent_child_pairs(dag)
        self.pair_cols.extend(self.pair_ids.setdefault(pair, len(self.pair_ids)) for pair in pairs)
        self.pair_rows.extend([number] * len(pairs))
        keys, extensions = extract(dag, self.spec, extensions=self.with_extensions)
        first = len(self.occ_kinds)
        if self.taken + first + len(keys) > MAX_OCCURRENCES:
            raise DataError(
                f"example {number + 1:,} brings the pool past {MAX_OCCURRENCES:,} compound "
                "occurrences, more than one split search holds; split a subsample of the pool "
                "or lower `max_nodes`."
            )
        ids = self.compound_ids
        self.occ_kinds.extend(ids.setdefault(key, len(ids)) for key in keys)
        self.occ_rows.extend([number] * len(keys))
        if extensions is not None:
            once = dict.fromkeys(extensions)  # a pair found twice counts once
            self.ext_occ.extend(first + offset for offset, _key in once)
            self.ext_kinds.extend(ids[key] for _offset, key in once)
        self.examples += 1

    def compound_weights(self) -> tuple[IntArray, IntArray, FloatArray]:
        """(example, compound, weight) triples: DBCA weights, or raw counts without
        extensions. The occurrence columns are let go afterwards: they are the largest."""
        occurrences = tuple(
            _int_array(column)
            for column in (self.occ_rows, self.occ_kinds, self.ext_occ, self.ext_kinds)
        )
        weights = occurrence_weights(
            occurrences, len(self.compound_ids), with_extensions=self.with_extensions
        )
        del occurrences
        self.occ_rows, self.occ_kinds = array.array("i"), array.array("i")
        self.ext_occ, self.ext_kinds = array.array("i"), array.array("i")
        return weights

    def take(self) -> dict[str, npt.NDArray[np.integer]]:
        """The columns collected since the last call, as numpy arrays (examples numbered in
        the pool, super-compound occurrences from the first occurrence taken), and start
        afresh, keeping the names: how feature shards stream them to disk."""
        columns = {name: _int_array(getattr(self, name)) for name in ATTRIBUTES}
        self.taken += len(self.occ_kinds)
        for name in ATTRIBUTES:
            setattr(self, name, array.array(getattr(self, name).typecode))
        return columns

    def counts(self) -> Counted:
        """Atom and pair counts per example, with the names of atoms, pairs and compounds."""
        n = self.examples
        return Counted(
            _count_matrix(self.atom_rows, self.atom_cols, n, len(self.atom_ids)),
            _count_matrix(self.pair_rows, self.pair_cols, n, len(self.pair_ids)),
            _names(self.atom_ids),
            _names(self.pair_ids),
            _names(self.compound_ids),
        )


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
    counted = Counted(atom_counts, counts, _names(atom_ids), _names(compound_ids))
    return counted_features(counted, atom_frequency=atom_frequency)


def counted_features(
    counted: Counted,
    *,
    atom_frequency: str,
    orders: tuple[IntArray, IntArray] | None = None,
) -> Features:
    """Features of counted atoms and compounds (all kept, as in the NQG code), the columns of
    each sorted by name: ``orders`` gives the sorted ids of atoms and compounds when known (the
    names are then taken as they are, a view of names on disk), else they are sorted here.
    """
    atom_order, compound_order = orders if orders is not None else (None, None)
    atoms, atom_names = _sorted_columns(
        _atom_matrix(counted.atoms, atom_frequency), counted.atom_names, atom_order
    )
    counts, compound_names = _sorted_columns(
        counted.compounds, counted.compound_names, compound_order
    )
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


def _int_array(values: array.array[int]) -> npt.NDArray[np.integer]:
    """The integers of an ``array.array`` as a numpy array (no copy)."""
    dtype = np.int32 if values.itemsize == 4 else np.int64
    return np.frombuffer(values, dtype=dtype) if values else np.zeros(0, dtype=dtype)


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
    # one read-only 1.0 seen at every entry: 8 bytes an atom entry fewer (0.5 GB at 2M examples)
    ones = np.broadcast_to(np.float64(1.0), counts.values.shape)
    return replace(counts, values=ones)


def _sorted_columns(
    matrix: SparseRows, names: Sequence[str], order: IntArray | None = None
) -> tuple[SparseRows, Sequence[str]]:
    """The columns renumbered in the order of their names (``order``: the ids in that order,
    when known; the names are then kept as given, ``picked`` in that order if they can be)."""
    if order is None:
        order = np.asarray(sorted(range(len(names)), key=names.__getitem__), dtype=np.int64)
        sorted_names: Sequence[str] = tuple(names[i] for i in order)
    else:
        sorted_names = _picked(names, order)
    new_index = np.empty(len(names), dtype=np.int64)
    new_index[order] = np.arange(len(names))
    return matrix.renumbered(new_index, len(names)), sorted_names


def _top_k(
    rows: npt.NDArray[np.int64],
    kinds: npt.NDArray[np.int64],
    values: npt.NDArray[np.float64],
    n_examples: int,
    n_kinds: int,
    top_k: int | None,
) -> tuple[SparseRows, IntArray, int]:
    """Keep the ``top_k`` compounds of largest total weight, renumbered in that order; also
    return how many have a positive weight (all of them are kept when ``top_k`` is None)."""
    totals = np.bincount(kinds, weights=values, minlength=n_kinds)
    order = np.lexsort((np.arange(n_kinds), -totals))
    order = order[totals[order] > 0]
    weighted = len(order)
    if top_k is not None:
        order = order[:top_k]
    width = np.int32 if n_kinds < 2**31 else np.int64  # the kept pairs' new ids: 4 bytes each
    new_index: npt.NDArray[np.integer] = np.full(n_kinds, -1, dtype=width)
    new_index[order] = np.arange(len(order))
    keep = new_index[kinds] >= 0
    matrix = SparseRows.from_triples(
        rows[keep], new_index[kinds[keep]], values[keep], (n_examples, len(order))
    )
    return matrix, order, weighted


def _names(ids: dict[str, int]) -> tuple[str, ...]:
    names = [""] * len(ids)
    for name, index in ids.items():
        names[index] = name
    return tuple(names)
