"""The atoms, parent-child pairs and compound occurrences of a pool's DAGs, collected example
by example into compact integer arrays, a chunk of examples at a time.

:class:`Occurrences` extracts each DAG's compounds (:func:`symcomp.dbca.compounds.extract`)
and appends its atoms, pairs, compound occurrences and super-compound pairs to columns of
integers. Every :data:`FOLD` examples, :func:`collect` turns the columns into the arrays of
one chunk (:func:`dag_arrays`: per-example counts of atoms and pairs as CSR rows, the compound
of every occurrence with a row pointer per example, the super-compound pairs numbered within
the chunk), the layout of a feature shard (:mod:`symcomp.dbca.shard_layout`); so a pool
collected in memory and a pool read from its shards are the same chunks, and the weights read
them a chunk at a time (:func:`symcomp.dbca.weights.compound_rows`). What a pool holds per
example is then some 4 bytes per occurrence and 8 per super-compound pair, not a Python
object.

>>> from symcomp.dbca.compounds import CompoundSpec, Dag
>>> dags = [Dag.from_edges(["a", "b"], [(0, 1, 0)])] * 3
>>> collected = collect(dags, CompoundSpec(), with_extensions=True, fold=2)
>>> [len(chunk) for chunk in collected.chunks], collected.compound_names
([2, 1], ('a(0:b)',))
>>> [indices.tolist() for _indptr, indices, _counts in collected.atoms]
[[0, 1, 0, 1], [0, 1]]
"""

from __future__ import annotations

import array
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from symcomp.dbca.compounds import CompoundSpec, Dag, extract, parent_child_pairs
from symcomp.dbca.shard_layout import CSR, compact
from symcomp.dbca.weights import OccurrenceChunk, pointers, raw_counts
from symcomp.errors import DataError

MAX_OCCURRENCES = 2**31 - 1  # the occurrences of one chunk are numbered in 32 bits
FOLD = 65_536  # examples collected before their columns become a chunk's arrays
REMEMBERED = 1 << 15  # distinct DAGs whose columns a collector keeps (some 1 KB each)
Columns = tuple["array.array[int]", ...]  # of one DAG: atoms, pairs, occurrences, extensions
Arrays = dict[str, npt.NDArray[np.integer]]
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
    """What is collected from DAGs, one example at a time: atom, pair and compound
    occurrences as (example, kind) columns, and which compound occurrences extend which
    (DBCA's super-compounds), until :meth:`take` hands them over; the names keep their ids."""

    def __init__(self, spec: CompoundSpec, *, with_extensions: bool) -> None:
        self.spec = spec
        self.with_extensions = with_extensions
        self.examples = 0
        self.pending = 0  # examples added since the last :meth:`take`
        self.atom_ids: dict[str, int] = {}
        self.compound_ids: dict[str, int] = {}
        self.pair_ids: dict[str, int] = {}
        self.atom_rows, self.atom_cols = array.array("q"), array.array("q")
        self.pair_rows, self.pair_cols = array.array("q"), array.array("q")
        # one entry per occurrence and per super-compound pair: tens to hundreds per example,
        # so 32 bits (2**31 occurrences in one chunk are refused, see add)
        self.occ_rows, self.occ_kinds = array.array("i"), array.array("i")
        self.ext_occ, self.ext_kinds = array.array("i"), array.array("i")
        # what each DAG met so far gives (a pool repeats its structures: 997 distinct DAGs
        # among 100,000 cogs sentences, whose words are not rules)
        self.remembered: dict[Dag, Columns] = {}

    def add(self, dag: Dag) -> None:
        columns = self.remembered.get(dag)
        if columns is None:
            columns = self._columns(dag)
            if len(self.remembered) < REMEMBERED:
                self.remembered[dag] = columns
        atoms, pairs, kinds, extended, extending = columns
        number, first = self.pending, len(self.occ_kinds)
        if first + len(kinds) > MAX_OCCURRENCES:
            raise DataError(
                f"example {self.examples + 1:,} brings its chunk of {number + 1:,} examples "
                f"past {MAX_OCCURRENCES:,} compound occurrences, more than a chunk numbers; "
                "lower `max_nodes` (or `shard_size`)."
            )
        for rows, cols, ids in (
            (self.atom_rows, self.atom_cols, atoms),
            (self.pair_rows, self.pair_cols, pairs),
            (self.occ_rows, self.occ_kinds, kinds),
        ):
            cols.extend(ids)
            rows.extend([number] * len(ids))
        self.ext_occ.extend([first + offset for offset in extended])
        self.ext_kinds.extend(extending)
        self.examples += 1
        self.pending += 1

    def _columns(self, dag: Dag) -> Columns:
        """The ids of the atoms, parent-child pairs and compound occurrences of ``dag`` (new
        names numbered as met), and its super-compound pairs: (occurrence in ``dag``, id)."""
        atom_ids, pair_ids, ids = self.atom_ids, self.pair_ids, self.compound_ids
        atoms = array.array("q", (atom_ids.setdefault(x, len(atom_ids)) for x in dag.labels))
        pairs = parent_child_pairs(dag)
        pair_cols = array.array("q", (pair_ids.setdefault(p, len(pair_ids)) for p in pairs))
        keys, extensions = extract(dag, self.spec, extensions=self.with_extensions)
        kinds = array.array("i", (ids.setdefault(key, len(ids)) for key in keys))
        once = dict.fromkeys(extensions or ())  # a pair found twice counts once
        extended = array.array("i", (offset for offset, _key in once))
        extending = array.array("i", (ids[key] for _offset, key in once))
        return atoms, pair_cols, kinds, extended, extending

    def take(self) -> dict[str, npt.NDArray[np.integer]]:
        """The columns collected since the last call, as numpy arrays (examples and
        super-compound occurrences numbered from the first taken), and start afresh, keeping
        the names."""
        columns = {name: _int_array(getattr(self, name)) for name in ATTRIBUTES}
        self.pending = 0
        for name in ATTRIBUTES:
            setattr(self, name, array.array(getattr(self, name).typecode))
        return columns


def _int_array(values: array.array[int]) -> npt.NDArray[np.integer]:
    """The integers of an ``array.array`` as a numpy array (no copy)."""
    dtype = np.int32 if values.itemsize == 4 else np.int64
    return np.frombuffer(values, dtype=dtype) if values else np.zeros(0, dtype=dtype)


CsrPart = tuple[npt.NDArray[np.integer], ...]  # row pointers, ids, counts


@dataclass(frozen=True)
class Collected:
    """DAGs collected in chunks of consecutive examples: per chunk, the counts of atoms and
    of pairs (CSR arrays) and the compound occurrences; the names of the atoms, pairs and
    compounds in id order."""

    atoms: list[CsrPart]
    pairs: list[CsrPart]
    chunks: list[OccurrenceChunk]
    atom_names: tuple[str, ...]
    pair_names: tuple[str, ...]
    compound_names: tuple[str, ...]


def collect(
    dags: Iterable[Dag], spec: CompoundSpec, *, with_extensions: bool, fold: int | None = None
) -> Collected:
    """The atoms, pairs and compound occurrences of ``dags``, in chunks of ``fold`` (default
    :data:`FOLD`) examples."""
    fold_size = fold or FOLD
    found = Occurrences(spec, with_extensions=with_extensions)
    atoms: list[CsrPart] = []
    pairs: list[CsrPart] = []
    chunks: list[OccurrenceChunk] = []

    def make_chunk(size: int) -> None:
        arrays = dag_arrays(found.take(), size)
        atoms.append(tuple(arrays[f"atoms.{part}"] for part in CSR))
        pairs.append(tuple(arrays[f"pairs.{part}"] for part in CSR))
        chunks.append(occurrence_chunk(arrays))

    for dag in dags:
        found.add(dag)
        if found.pending == fold_size:
            make_chunk(fold_size)
    if found.pending or not chunks:
        make_chunk(found.pending)
    names = (names_of(ids) for ids in (found.atom_ids, found.pair_ids, found.compound_ids))
    return Collected(atoms, pairs, chunks, *names)


def names_of(ids: Mapping[str, int]) -> tuple[str, ...]:
    """The names of ``ids`` in id order.

    >>> names_of({"b": 1, "a": 0})
    ('a', 'b')
    """
    names = [""] * len(ids)
    for name, index in ids.items():
        names[index] = name
    return tuple(names)


def occurrence_chunk(arrays: Mapping[str, npt.NDArray[np.integer]]) -> OccurrenceChunk:
    """The compound occurrences of a chunk's arrays (:func:`dag_arrays`, or a shard's)."""
    return OccurrenceChunk(
        arrays["occurrences.indptr"],
        arrays["occurrences.kinds"],
        arrays["extensions.occurrence"],
        arrays["extensions.kinds"],
    )


def dag_arrays(taken: Mapping[str, npt.NDArray[np.integer]], size: int) -> Arrays:
    """The chunk (shard) arrays of DAG occurrences (:meth:`Occurrences.take`) of ``size``
    examples."""
    arrays = csr("atoms", taken["atom_rows"], taken["atom_cols"], size)
    arrays |= csr("pairs", taken["pair_rows"], taken["pair_cols"], size)
    lengths = np.bincount(np.asarray(taken["occ_rows"], dtype=np.int64), minlength=size)
    arrays["occurrences.indptr"] = indptr_of(lengths)
    arrays["occurrences.kinds"] = np.asarray(taken["occ_kinds"], dtype=np.int32)
    arrays["extensions.occurrence"] = np.asarray(taken["ext_occ"], dtype=np.int32)
    arrays["extensions.kinds"] = np.asarray(taken["ext_kinds"], dtype=np.int32)
    return arrays


def csr(
    name: str, rows: npt.NDArray[np.integer], columns: npt.NDArray[np.integer], size: int
) -> Arrays:
    """Per-example counts of (row, column) occurrences as CSR arrays (columns ascending).

    >>> arrays = csr("x", np.array([0, 0, 2]), np.array([3, 3, 1]), 3)
    >>> sorted((k, v.tolist()) for k, v in arrays.items())
    [('x.counts', [2, 1]), ('x.indices', [3, 1]), ('x.indptr', [0, 1, 1, 2])]
    """
    n_kinds = int(columns.max()) + 1 if len(columns) else 1
    examples, kinds, counts = raw_counts(rows, columns, n_kinds=n_kinds)
    return {
        f"{name}.indptr": indptr_of(np.bincount(examples, minlength=size)),
        f"{name}.indices": kinds.astype(np.int32),
        f"{name}.counts": compact(counts.astype(np.int64)),
    }


def indptr_of(lengths: npt.NDArray[np.integer]) -> npt.NDArray[np.integer]:
    """Row pointers of rows of ``lengths`` entries."""
    return compact(pointers(lengths))
