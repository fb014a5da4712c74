"""Choosing in-context demonstrations by DBCA's structures: random, similar and Cover-LS.

For each query (a test item) a prompt holds ``shots`` demonstrations drawn from a pool (a test's
train part). Three methods choose them:

``random``
    A seeded sample of the pool. Each query draws from its own stream, derived from ``seed`` and
    the query's ``id`` (its position when it has none), so a query's demonstrations do not
    depend on which other queries are asked.
``similar``
    The pool items sharing the most with the query, scored by BM25 over structures (below).
``cover``
    Cover-LS (Levy et al. 2023, *Diverse Demonstrations Improve In-context Compositional
    Generalization*): greedily cover the query's structures, largest first, with items of
    different skeletons (below).

**Structures** of an input come from its parse by the language, never from its output: the
input is parsed (``language.parse``), its DAG is the one DBCA uses
(``Dag.from_node_link(language.node_link(tree))``), and its structures are the DAG's *atoms*
(rule labels, size 1), its *compounds* (the keys of :func:`~symcomp.dbca.compounds.compound_counts`
with DBCA's default :class:`~symcomp.dbca.compounds.CompoundSpec`; size: the compound's number of
nodes) and its *words* (whitespace tokens, size 1). They are kept apart by a prefix: ``a:``,
``c:``, ``w:``. A record's stored ``derivation`` and its ``output`` are never read, so nothing of
the gold answer leaks into the choice. An NLI record (``premise`` and ``hypothesis``) has the
structures of both sentences, each parsed on its own.

**Skeleton** of an input: its parse tree with the words dropped and every lexical filler (an
alias of a rule whose alternatives are single literals, e.g. SCAN's ``walk``/``jump``; see
:mod:`symcomp.dbca.patterns`) replaced by its rule's first alias, written in pre-order as
``label/number-of-subtrees``. For grammars whose rules name the lexical class and whose tokens
carry the word (COGS: ``nsubj_common`` over ``a dog``), this is the input with its words replaced
by their class.

**Similarity** (``similar``, and the tie-breaks of ``cover``) is BM25 over structures, with the
query's structures as a set and a pool item's structure counts as term frequencies::

    score(q, d) = sum over s in S(q) ∩ S(d) of
                  idf(s) * tf(s, d) * (K1 + 1) / (tf(s, d) + K1 * (1 - B + B * |d| / avgdl))
    idf(s)      = ln(1 + (N - df(s) + 0.5) / (df(s) + 0.5))

with ``K1 = 1.2``, ``B = 0.75``, ``N`` the pool size, ``df(s)`` the number of pool items holding
``s``, ``|d|`` the item's total structure count and ``avgdl`` its pool mean. Each term is
rounded to a multiple of 2**-20, so sums are exact and the ranking is the same on every machine.
Equal scores are ordered by a key hashed from the query's stream and the pool position.

Every method returns pool positions in prompt order: ``similar`` and ``cover`` put the least
similar demonstration first and the most similar last, next to the query (models weigh the
nearest demonstrations most); ``random`` keeps its drawing order. A pool item with the query's
``id`` is never chosen, and no item twice.

>>> from lark import Tree
>>> structure_size("c:around(0:act(0:jump),1:left)"), structure_size("w:jump")
(4, 1)
>>> skeleton(Tree("twice", [Tree("jump", [])]), {"jump": "walk"})
'twice/1 walk/0'
"""

from __future__ import annotations

import hashlib
import logging
import random
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from symcomp._util import did_you_mean
from symcomp.dbca.compounds import CompoundSpec, Dag, atoms, compound_counts
from symcomp.errors import DataError, SymcompError

if TYPE_CHECKING:
    from lark import Tree

    from symcomp.core.language import Language

LOG = logging.getLogger(__name__)
METHODS = ("random", "similar", "cover")
ATOM, COMPOUND, WORD = "a:", "c:", "w:"
_ESCAPED = re.compile(r"\\.")


@dataclass(frozen=True)
class InputStructures:
    """The structures of one input: prefixed names with their counts, and its skeleton."""

    counts: Mapping[str, int]
    skeleton: str


def structure_size(name: str) -> int:
    """The size of a prefixed structure: 1 for atoms and words, nodes for compounds.

    A tree compound's key has one ``position:`` per edge, a ``dag[...]`` key one label per node
    before its ``;`` (escaped characters never count).

    >>> structure_size("a:declarative"), structure_size("c:a(0:b,1:c(0:d))")
    (1, 4)
    >>> structure_size("c:dag[a,b,c;0-0>2,1-0>2]")
    3
    """
    if not name.startswith(COMPOUND):
        return 1
    key = _ESCAPED.sub("", name[len(COMPOUND) :])
    if key.startswith("dag["):
        return key.partition(";")[0].count(",") + 1
    return key.count(":") + 1


def input_texts(record: Mapping[str, Any]) -> tuple[str, ...]:
    """The texts of a record that are parsed: premise and hypothesis of an NLI record, else its
    ``input``.

    >>> input_texts({"id": "x", "input": "p ||| h", "premise": "p", "hypothesis": "h"})
    ('p', 'h')
    >>> input_texts({"id": "y", "input": "jump twice"})
    ('jump twice',)
    """
    if "premise" in record and "hypothesis" in record:
        return (str(record["premise"]), str(record["hypothesis"]))
    if "input" not in record:
        raise DataError(
            f"record {record.get('id', '(no id)')!r} has no `input` (nor `premise` and "
            f"`hypothesis`); demonstrations are chosen by the structures of the input."
        )
    return (str(record["input"]),)


def skeleton(tree: Tree[Any], canonical: Mapping[str, str]) -> str:
    """The skeleton of a parse tree: labels in pre-order with their number of subtrees, words
    dropped, lexical fillers mapped to their rule's first alias (``canonical``)."""
    from lark import Tree

    parts = []
    stack = [tree]
    while stack:
        node = stack.pop()
        label = str(node.data)
        subtrees = [child for child in node.children if isinstance(child, Tree)]
        parts.append(f"{canonical.get(label, label)}/{len(subtrees)}")
        stack.extend(reversed(subtrees))
    return " ".join(parts)


class StructureReader:
    """Reads the structures of records of one language. With ``remember``, each distinct text
    is parsed once and kept: pools that share records (the tests of one suite) then share a
    reader, at the memory of every text's structures (twice the peak RSS of one COGS pool)."""

    def __init__(self, language: Language, *, remember: bool = False) -> None:
        from symcomp.dbca.patterns import Patterns

        self.language = language
        self.spec = CompoundSpec()
        self.canonical = dict(Patterns.of(language, "fillers").canonical)
        self._read: dict[str, tuple[Counter[str], str]] | None = {} if remember else None

    def read(self, record: Mapping[str, Any], where: str = "") -> InputStructures:
        """The structures of ``record`` (a :class:`DataError` naming it when a text does not
        parse)."""
        counts: Counter[str] = Counter()
        skeletons = []
        for text in input_texts(record):
            found, shape = self._text(text, record, where)
            counts.update(found)
            skeletons.append(shape)
        return InputStructures(counts, " ||| ".join(skeletons))

    def _text(self, text: str, record: Mapping[str, Any], where: str) -> tuple[Counter[str], str]:
        if self._read is None:
            return self._parsed(text, record, where)
        if text not in self._read:
            self._read[text] = self._parsed(text, record, where)
        return self._read[text]

    def _parsed(self, text: str, record: Mapping[str, Any], where: str) -> tuple[Counter[str], str]:
        try:
            tree = self.language.parse(text)
            dag = Dag.from_node_link(self.language.node_link(tree))
        except SymcompError as error:
            raise DataError(
                f"record {record.get('id', '(no id)')!r}{where}: its input does not parse as "
                f"{self.language.name}, so its structures are unknown: {error}. Remove the "
                f"record or pass the language it was written in."
            ) from None
        counts: Counter[str] = Counter(ATOM + label for label in atoms(dag))
        for key, count in compound_counts(dag, self.spec).items():
            counts[COMPOUND + key] += count
        counts.update(WORD + word for word in text.split())
        return counts, skeleton(tree, self.canonical)


def query_seed(seed: int, key: object) -> int:
    """The seed of one query's stream: a hash of ``seed`` and the query's id (or position).

    >>> query_seed(0, "a") == query_seed(0, "a") != query_seed(1, "a")
    True
    """
    digest = hashlib.blake2b(f"{seed}\x00{key}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little")


K1 = 1.2  # BM25 term-frequency saturation
B = 0.75  # BM25 length normalisation
UNIT = 2.0**-12  # each BM25 term is rounded to a multiple of this, so sums are exact
DENSE_SHARE = 1 / 32  # structures held by at least this share of the pool are scored densely
DENSE_BYTES = 256 * 2**20  # the most memory the dense part of the pool may take
CHUNK = 256  # queries scored together
_FLOAT32_EXACT = 2.0**24  # integers below this add exactly in float32


@dataclass(frozen=True)
class _Postings:
    """Pool items by structure (CSC) with their rounded BM25 term weights (in ``UNIT``)."""

    pointer: np.ndarray  # structure s holds items[pointer[s]:pointer[s + 1]]
    items: np.ndarray
    weights: np.ndarray
    dense: np.ndarray  # structure -> row of ``matrix``, or -1
    matrix: np.ndarray  # float32 (dense structures, pool items)
    largest: np.ndarray  # largest weight of each structure


class DemonstrationPool:
    """A pool whose items are chosen as demonstrations: its records' structures and BM25 index.

    Parameters
    ----------
    pool : sequence of records
        The records demonstrations are drawn from (a test's train part); not modified.
    language : Language
        The language their inputs are parsed with.

    >>> import symcomp
    >>> scan = symcomp.get_language("scan")
    >>> texts = ["jump", "jump twice", "walk left", "walk twice", "look around right"]
    >>> pool = DemonstrationPool([{"id": t, "input": t} for t in texts], language=scan)
    >>> query = [{"id": "q", "input": "jump left twice"}]
    >>> chosen = pool.select(query, shots=2, method="similar", seed=0)
    >>> [texts[i] for i in chosen[0]]
    ['jump twice', 'walk left']
    >>> pool.coverage(query, chosen)[0] > pool.coverage(query, [[0]])[0]
    True
    """

    def __init__(
        self,
        pool: Sequence[Mapping[str, Any]],
        *,
        language: Language,
        reader: StructureReader | None = None,
    ) -> None:
        if len(pool) == 0:
            raise DataError("the pool is empty; demonstrations need at least one pool record.")
        self._reader = reader if reader is not None else StructureReader(language)
        self._names: dict[str, int] = {}
        self._queries: dict[tuple[str, ...], np.ndarray] = {}
        self._read_pool(pool)
        self._postings = self._index()

    def __len__(self) -> int:
        return len(self._skeletons)

    def _read_pool(self, pool: Sequence[Mapping[str, Any]]) -> None:
        skeletons: dict[str, int] = {}
        rows: dict[tuple[str, ...], int] = {}
        ids: list[np.ndarray] = []
        counts: list[np.ndarray] = []
        row_of: list[int] = []
        shapes: list[int] = []
        self._positions: dict[str, list[int]] = {}
        for position, record in enumerate(pool):
            texts = input_texts(record)
            seen = rows.get(texts)
            if seen is None:
                found = self._reader.read(record, f" (pool position {position})")
                rows[texts] = seen = len(ids)
                names = [self._names.setdefault(name, len(self._names)) for name in found.counts]
                order = np.argsort(names)
                ids.append(np.asarray(names, dtype=np.int32)[order])
                counts.append(np.fromiter(found.counts.values(), dtype=np.float64)[order])
                shapes.append(skeletons.setdefault(found.skeleton, len(skeletons)))
            row_of.append(seen)
            if "id" in record:
                self._positions.setdefault(str(record["id"]), []).append(position)
        self._rows = rows
        self._row_of = np.asarray(row_of, dtype=np.int64)
        self._skeletons = np.asarray(shapes, dtype=np.int64)[self._row_of]
        self._skeleton_count = len(skeletons)
        self._first = np.unique(self._row_of, return_index=True)[1].tolist()
        self._sizes = np.asarray([structure_size(name) for name in self._names], dtype=np.int32)
        self._pointer = np.zeros(len(pool) + 1, dtype=np.int64)
        self._pointer[1:] = np.cumsum([len(ids[row]) for row in self._row_of])
        self._ids = np.concatenate([ids[row] for row in self._row_of])
        self._tf = np.concatenate([counts[row] for row in self._row_of])

    def _index(self) -> _Postings:
        n = len(self)
        items = np.repeat(np.arange(n, dtype=np.int32), np.diff(self._pointer))
        df = np.bincount(self._ids, minlength=len(self._names))
        idf = np.log1p((n - df + 0.5) / (df + 0.5))
        length = np.add.reduceat(self._tf, self._pointer[:-1]) if len(self._tf) else np.zeros(n)
        norm = K1 * (1 - B + B * length / max(float(length.mean()), 1e-9))
        weight = idf[self._ids] * self._tf * (K1 + 1) / (self._tf + norm[items])
        weight = np.maximum(np.rint(weight / UNIT), 1.0)
        order = np.argsort(self._ids, kind="stable")
        pointer = np.zeros(len(self._names) + 1, dtype=np.int64)
        pointer[1:] = np.cumsum(df)
        dense = self._dense_structures(df)
        matrix = np.zeros((int(dense.max()) + 1, n), dtype=np.float32)
        in_dense = dense[self._ids] >= 0
        matrix[dense[self._ids[in_dense]], items[in_dense]] = weight[in_dense]
        largest = np.zeros(len(self._names))
        np.maximum.at(largest, self._ids, weight)
        return _Postings(pointer, items[order], weight[order], dense, matrix, largest)

    def _dense_structures(self, df: np.ndarray) -> np.ndarray:
        """Structure -> dense row: those held by at least ``DENSE_SHARE`` of the pool, most
        frequent first, as many as ``DENSE_BYTES`` allows."""
        n = len(self)
        limit = max(DENSE_BYTES // (4 * n), 0)
        frequent = np.flatnonzero(df >= max(DENSE_SHARE * n, 1.0))
        frequent = frequent[np.argsort(-df[frequent], kind="stable")][:limit]
        dense = np.full(len(df), -1, dtype=np.int64)
        dense[np.sort(frequent)] = np.arange(len(frequent))
        return dense

    def structures(self, record: Mapping[str, Any], where: str = "") -> np.ndarray:
        """The ids of the structures of ``record`` that occur in the pool (sorted)."""
        texts = input_texts(record)
        row = self._rows.get(texts)
        if row is not None:
            position = self._first[row]
            return self._ids[self._pointer[position] : self._pointer[position + 1]]
        found = self._queries.get(texts)
        if found is None:
            names = self._reader.read(record, where).counts
            known = [self._names[name] for name in names if name in self._names]
            found = np.unique(np.asarray(known, dtype=np.int32))
            self._queries[texts] = found
        return found

    def select(
        self, queries: Sequence[Mapping[str, Any]], *, shots: int, method: str, seed: int
    ) -> list[list[int]]:
        """Pool positions of each query's demonstrations, in prompt order (see the module).

        Each list holds ``shots`` positions, or every eligible pool item when there are fewer.
        """
        _check(shots, method)
        chosen: list[list[int]] = []
        for start in range(0, len(queries), CHUNK):
            chunk = queries[start : start + CHUNK]
            streams = [
                query_seed(seed, record.get("id", start + offset))
                for offset, record in enumerate(chunk)
            ]
            if method == "random":
                chosen.extend(
                    _random(self._positions, len(self), shots, r, s)
                    for r, s in zip(chunk, streams, strict=True)
                )
                continue
            where = [f" (query position {start + offset})" for offset in range(len(chunk))]
            ids = [self.structures(r, w) for r, w in zip(chunk, where, strict=True)]
            scores = self._scores(ids)
            for row, record in enumerate(chunk):
                scores[row, self._positions.get(str(record.get("id")), [])] = -np.inf
                if method == "similar":
                    best = _ranked(scores[row], shots, streams[row])
                    chosen.append(best[::-1].tolist())
                else:
                    chosen.append(self._cover(ids[row], scores[row], shots, streams[row]))
        return chosen

    def _scores(self, ids: Sequence[np.ndarray]) -> np.ndarray:
        """BM25 scores (in ``UNIT``) of every pool item for each query: sums of integers, in
        float32 where they stay below 2**24 and in float64 beyond, so they are exact."""
        n, post = len(self), self._postings
        rows = np.repeat(np.arange(len(ids)), [len(found) for found in ids])
        flat = np.concatenate(ids) if len(ids) else np.zeros(0, dtype=np.int32)
        dense = post.dense[flat]
        exact = np.bincount(rows, post.largest[flat], len(ids)).max(initial=0.0) < _FLOAT32_EXACT
        kind = np.float32 if exact else np.float64
        indicator = np.zeros((len(ids), len(post.matrix)), dtype=kind)
        indicator[rows[dense >= 0], dense[dense >= 0]] = 1.0
        scores = indicator @ post.matrix.astype(kind, copy=False)
        rows, flat = rows[dense < 0], flat[dense < 0]
        start, stop = post.pointer[flat], post.pointer[flat + 1]
        sizes = stop - start
        spans = np.repeat(start - np.cumsum(sizes) + sizes, sizes) + np.arange(int(sizes.sum()))
        where = np.repeat(rows, sizes) * n + post.items[spans]
        np.add.at(scores.reshape(-1), where, post.weights[spans].astype(kind))
        return np.asarray(scores)

    def _cover(self, ids: np.ndarray, scores: np.ndarray, shots: int, stream: int) -> list[int]:
        """Cover-LS: cover the query's structures, largest first, one skeleton per item."""
        rng = random.Random(stream)
        uncovered = set(ids.tolist())
        used = np.zeros(self._skeleton_count, dtype=bool)
        chosen: list[int] = []
        sizes = self._sizes[ids]
        for size in sorted(set(sizes.tolist()), reverse=True):
            pending = ids[sizes == size].tolist()
            while len(chosen) < shots:
                live = [s for s in pending if s in uncovered]
                if not live:
                    break
                picked = live[rng.randrange(len(live))]
                item = self._best_holder(picked, scores, used, stream)
                if item is None:  # every holder's skeleton is used: it cannot be covered now
                    pending.remove(picked)
                    continue
                chosen.append(item)
                used[self._skeletons[item]] = True
                held = self._ids[self._pointer[item] : self._pointer[item + 1]]
                uncovered.difference_update(held.tolist())
        chosen += self._fill(chosen, used, scores, shots, stream)
        order = _ranked_among(np.asarray(chosen, dtype=np.int64), scores, stream)
        return [int(item) for item in order[::-1]]

    def _best_holder(
        self, structure: int, scores: np.ndarray, used: np.ndarray, stream: int
    ) -> int | None:
        """The most similar pool item holding ``structure`` whose skeleton is not used."""
        post = self._postings
        holders = post.items[post.pointer[structure] : post.pointer[structure + 1]]
        values = scores[holders]
        values = np.where(used[self._skeletons[holders]], -np.inf, values)
        best = values.max()
        if best == -np.inf:
            return None
        tied = holders[values == best]
        return int(tied[np.argmin(_tie_keys(stream, tied))]) if len(tied) > 1 else int(tied[0])

    def _fill(
        self, chosen: list[int], used: np.ndarray, scores: np.ndarray, shots: int, stream: int
    ) -> list[int]:
        """The most similar items after ``chosen``: new skeletons first, then any."""
        need = shots - len(chosen)
        if need <= 0:
            return []
        taken = np.asarray(chosen, dtype=np.int64)
        wanted = min(len(self), 32 * shots)
        while True:
            ranked = _ranked(scores, wanted, stream)
            ranked = ranked[~np.isin(ranked, taken)]
            shapes = self._skeletons[ranked]
            fresh = ~used[shapes]
            _, first = np.unique(shapes[fresh], return_index=True)
            added = ranked[fresh][np.sort(first)][:need]
            if len(added) >= need or wanted >= len(self):
                break
            wanted = min(len(self), wanted * 8)
        if len(added) < need:  # no new skeleton is left: repeat skeletons, most similar first
            rest = ranked[~np.isin(ranked, added)]
            added = np.concatenate([added, rest[: need - len(added)]])
        return [int(item) for item in added]

    def coverage(
        self, queries: Sequence[Mapping[str, Any]], selections: Sequence[Sequence[int]]
    ) -> list[float]:
        """Per query, the share of its coverable structures (those occurring in the pool) held
        by its demonstrations; 1.0 when none is coverable."""
        if len(selections) != len(queries):
            raise DataError(
                f"got {len(selections)} selections for {len(queries)} queries; pass one list of "
                f"pool positions per query."
            )
        shares = []
        for position, (record, chosen) in enumerate(zip(queries, selections, strict=True)):
            ids = self.structures(record, f" (query position {position})")
            bad = [i for i in chosen if not 0 <= i < len(self)]
            if bad:
                raise DataError(
                    f"selection {position} names pool position {bad[0]}, outside the pool of "
                    f"{len(self)}; pass positions returned by `select`."
                )
            if len(ids) == 0:
                shares.append(1.0)
                continue
            held = [self._ids[self._pointer[i] : self._pointer[i + 1]] for i in chosen]
            covered = np.isin(ids, np.concatenate(held)) if held else np.zeros(len(ids), bool)
            shares.append(float(covered.mean()))
        return shares


def _check(shots: int, method: str) -> None:
    if method not in METHODS:
        raise DataError(
            f"unknown `method` {method!r}{did_you_mean(method, METHODS)}; choose one of "
            f"{', '.join(METHODS)}."
        )
    if isinstance(shots, bool) or not isinstance(shots, int) or shots < 1:
        raise DataError(f"`shots` must be a whole number of at least 1, got {shots!r}.")


def _random(
    positions: Mapping[str, list[int]],
    size: int,
    shots: int,
    record: Mapping[str, Any],
    stream: int,
) -> list[int]:
    """A seeded sample of pool positions without the query's own (``positions``: by id)."""
    own = set(positions.get(str(record.get("id")), []))
    drawn = random.Random(stream).sample(range(size), min(size, shots + len(own)))
    return [position for position in drawn if position not in own][:shots]


def _tie_keys(stream: int, positions: np.ndarray) -> np.ndarray:
    """A hash of (stream, position) per position (splitmix64): the order of equal scores.

    >>> keys = _tie_keys(7, np.arange(3))
    >>> bool((keys == _tie_keys(7, np.arange(3))).all()), len(set(keys.tolist()))
    (True, 3)
    """
    with np.errstate(over="ignore"):
        x = positions.astype(np.uint64) * np.uint64(0x9E3779B97F4A7C15) + np.uint64(stream)
        x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return x ^ (x >> np.uint64(31))


def _ranked_among(items: np.ndarray, scores: np.ndarray, stream: int) -> np.ndarray:
    """``items`` best first: by score, then by tie key."""
    return items[np.lexsort((_tie_keys(stream, items), -scores[items]))]


def _ranked(scores: np.ndarray, count: int, stream: int) -> np.ndarray:
    """The ``count`` best positions of ``scores`` (finite ones only), best first."""
    n = len(scores)
    count = min(count, n)
    if count <= 0:
        return np.zeros(0, dtype=np.int64)
    threshold = np.partition(scores, n - count)[n - count]
    candidates = np.flatnonzero((scores >= threshold) & np.isfinite(scores))
    return _ranked_among(candidates, scores, stream)[:count]


def select_demonstrations(
    queries: Sequence[Mapping[str, Any]],
    pool: Sequence[Mapping[str, Any]],
    *,
    language: Language,
    shots: int,
    method: str,
    seed: int,
) -> list[list[int]]:
    """For each query, the pool positions of its ``shots`` demonstrations, in prompt order.

    ``method`` is ``random``, ``similar`` or ``cover`` (see the module). Deterministic given
    ``seed``; a query's choice depends only on the seed, the query and the pool. ``random``
    parses nothing (it needs no structures).

    >>> import symcomp
    >>> pool = [{"id": str(i), "input": t} for i, t in enumerate(["walk", "jump twice", "run"])]
    >>> select_demonstrations([{"id": "q", "input": "jump"}], pool,
    ...                       language=symcomp.get_language("scan"), shots=1, method="cover",
    ...                       seed=0)
    [[1]]
    """
    _check(shots, method)
    if method != "random":
        return DemonstrationPool(pool, language=language).select(
            queries, shots=shots, method=method, seed=seed
        )
    if len(pool) == 0:
        raise DataError("the pool is empty; demonstrations need at least one pool record.")
    positions: dict[str, list[int]] = {}
    for position, record in enumerate(pool):
        if "id" in record:
            positions.setdefault(str(record["id"]), []).append(position)
    return [
        _random(positions, len(pool), shots, record, query_seed(seed, record.get("id", number)))
        for number, record in enumerate(queries)
    ]


def coverage(
    queries: Sequence[Mapping[str, Any]],
    pool: Sequence[Mapping[str, Any]],
    selections: Sequence[Sequence[int]],
    *,
    language: Language,
) -> list[float]:
    """Per query, the share of its coverable structures its demonstrations hold (1.0 when
    nothing is coverable); see :meth:`DemonstrationPool.coverage`."""
    return DemonstrationPool(pool, language=language).coverage(queries, selections)


def coverage_summary(shares: Sequence[float]) -> dict[str, float | int]:
    """Mean and minimum of per-query coverages, for a manifest.

    >>> coverage_summary([1.0, 0.5])
    {'queries': 2, 'mean': 0.75, 'min': 0.5}
    """
    if not shares:
        return {"queries": 0, "mean": 1.0, "min": 1.0}
    return {"queries": len(shares), "mean": sum(shares) / len(shares), "min": min(shares)}
