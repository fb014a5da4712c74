"""The names of every part of a pool numbered as one process numbers them, without holding them.

Parts of a pool are extracted on their own (:mod:`symcomp.dbca.shard_parts`), each numbering
its atoms, compounds and pairs in the order it meets them. One process reading the whole pool
numbers a name by where it first occurs in the pool; that is: by the first part that holds it,
then by its number in that part. :func:`merge_names` gives every name that id, whichever worker
wrote which part and in whatever order they finished, so the shards are the same bytes for any
number of workers.

A dictionary of every name would hold millions of Python strings (some 70 bytes each, beside
the name). Each part writes its names sorted instead, and the merge reads them a block at a
time, all parts at once, in one k-way merge (:func:`heapq.merge`): equal names meet, the
first part holding a name comes first, and each distinct name gets its rank in sorted order.
What is held per name is two integers (its rank's first part and place, and each part's
ranks); the ids in order of first occurrence are then a sort of those integers, and the names
are copied into the pool's table a part at a time. For counted compounds, the ranks also give
the order of the ids by name (``order/TABLE.npy``) without sorting any string.

>>> import tempfile
>>> from symcomp.dbca.shard_parts import _write_sorted_names
>>> root = Path(tempfile.mkdtemp())
>>> parts = [root / "p0", root / "p1"]
>>> for part, ids in zip(parts, [{"b": 0, "a": 1}, {"c": 0, "a": 1, "b": 2}]):
...     part.mkdir()
...     _write_sorted_names(part, "atoms", ids)
>>> merged = merge_names(parts, "atoms", root, order=True)
>>> merged.count, read_npy(parts[1] / "atoms.global.npy").tolist()
(3, [2, 1, 0])
>>> bytes(read_npy(root / "names" / "atoms.bytes.npy")).decode(), merged.order.tolist()
('bac', [1, 0, 2])
"""

from __future__ import annotations

import array
import contextlib
import heapq
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import numpy as np
import numpy.typing as npt

from symcomp.data.artifacts import file_record
from symcomp.dbca.shard_layout import NAMES, ORDER, compact
from symcomp.dbca.shard_parts import read_npy, save, write_blob_header
from symcomp.errors import DataError

BLOCK = 16_384  # names read from a part at a time
GATHER = 65_536  # names copied into the pool's table at a time
PART_BITS = 32  # a name's first part and its place there, as one integer


@dataclass(frozen=True)
class Merged:
    """A merged table: its names, the ids in name order, and the records of its files."""

    count: int
    order: npt.NDArray[np.integer]
    files: dict[str, Any]


def merge_names(parts: Sequence[Path], table: str, out: Path, *, order: bool) -> Merged:
    """Number the names of ``table`` of the part folders ``parts`` (in pool order) by first
    occurrence; write the names in that order (``NAMES/TABLE.{bytes,offsets}.npy`` in ``out``),
    with ``order`` the ids in name order (``ORDER/TABLE.npy``), and each part's pool ids
    (``TABLE.global.npy`` in the part)."""
    firsts, ranks = _ranked(parts, table)
    count = len(firsts)
    if count >= 2**31:
        raise DataError(f"{count:,} distinct {table}: more than feature shards number (2**31).")
    first_part = firsts >> PART_BITS
    local = np.empty(count, dtype=np.int64)  # each name's number in its first part
    for number, part in enumerate(parts):
        chosen = first_part == number
        local[chosen] = read_npy(part / f"{table}.sorted.npy")[firsts[chosen] & 0xFFFFFFFF]
    by_occurrence = np.argsort((first_part << PART_BITS) | local, kind="stable")
    del local
    ids = np.empty(count, dtype=np.int64)  # the id of each rank (= of each name, sorted)
    ids[by_occurrence] = np.arange(count)
    del by_occurrence
    for number, part in enumerate(parts):
        sorted_ids = read_npy(part / f"{table}.sorted.npy")
        pool_ids = np.empty(len(sorted_ids), dtype=np.int64)
        pool_ids[sorted_ids] = ids[np.frombuffer(ranks[number], dtype=np.int32)]
        save(part / f"{table}.global.npy", compact(pool_ids))
    files = _write_pool_names(parts, table, out, firsts, ranks)
    if order:
        (out / ORDER).mkdir(exist_ok=True)
        files[f"{ORDER}/{table}.npy"] = save(out / ORDER / f"{table}.npy", compact(ids))
    return Merged(count, compact(ids) if order else ids[:0], files)


def _ranked(
    parts: Sequence[Path], table: str
) -> tuple[npt.NDArray[np.int64], list[array.array[int]]]:
    """The k-way merge: per distinct name (in sorted order) its first part and place there;
    per part, the rank of each of its sorted names."""
    firsts: array.array[int] = array.array("q")
    ranks: list[array.array[int]] = [array.array("i") for _ in parts]
    with contextlib.ExitStack() as stack:
        streams = [_sorted_names(stack, part, table, number) for number, part in enumerate(parts)]
        previous: bytes | None = None
        rank = -1
        for name, number, place in heapq.merge(*streams):
            if name != previous:
                rank += 1
                previous = name
                firsts.append((number << PART_BITS) | place)
            ranks[number].append(rank)
    found = np.frombuffer(firsts, dtype=np.int64) if firsts else np.zeros(0, np.int64)
    return found, ranks


def _sorted_names(
    stack: contextlib.ExitStack, part: Path, table: str, number: int
) -> Iterator[tuple[bytes, int, int]]:
    """(name, ``number``, place) of a part's sorted names, read a block at a time."""
    offsets, count = _opened(stack, part / f"{table}.offsets.npy")
    blob, _size = _opened(stack, part / f"{table}.bytes.npy")
    start = int(np.frombuffer(offsets.read(8), dtype=np.int64)[0])
    place = 0
    while place < count - 1:
        ends = np.frombuffer(offsets.read(8 * BLOCK), dtype=np.int64).tolist()
        data = blob.read(ends[-1] - start)
        base = start
        for end in ends:
            yield data[start - base : end - base], number, place
            start, place = end, place + 1


def _opened(stack: contextlib.ExitStack, path: Path) -> tuple[IO[bytes], int]:
    """A ``.npy`` file of a 1-D array symcomp wrote, positioned at its data; its length."""
    handle = stack.enter_context(path.open("rb"))
    version = np.lib.format.read_magic(handle)
    read = (
        np.lib.format.read_array_header_1_0
        if version == (1, 0)
        else np.lib.format.read_array_header_2_0
    )
    shape, _fortran, _dtype = read(handle)
    return handle, int(shape[0])


def _write_pool_names(
    parts: Sequence[Path],
    table: str,
    out: Path,
    firsts: npt.NDArray[np.int64],
    ranks: Sequence[array.array[int]],
) -> dict[str, Any]:
    """The names in id order: per part, the names it holds first, in its own order."""
    chosen = []  # per part: the sorted places of the names it holds first, in id order
    for number, part in enumerate(parts):
        rank = np.frombuffer(ranks[number], dtype=np.int32)
        places = np.arange(len(rank), dtype=np.int64)
        first = firsts[rank] == (number << PART_BITS) | places
        local = read_npy(part / f"{table}.sorted.npy")[first]
        chosen.append(places[first][np.argsort(local, kind="stable")])
    lengths = [
        np.diff(read_npy(part / f"{table}.offsets.npy"))[places]
        for part, places in zip(parts, chosen, strict=True)
    ]
    offsets = np.zeros(len(firsts) + 1, dtype=np.int64)
    if len(firsts):
        np.cumsum(np.concatenate(lengths), out=offsets[1:])
    folder = out / NAMES
    folder.mkdir(parents=True, exist_ok=True)
    blob = folder / f"{table}.bytes.npy"
    with blob.open("wb") as handle:
        write_blob_header(handle, int(offsets[-1]))
        for part, places in zip(parts, chosen, strict=True):
            _copy_names(handle, part, table, places)
    return {
        f"{NAMES}/{table}.bytes.npy": file_record(blob),
        f"{NAMES}/{table}.offsets.npy": save(folder / f"{table}.offsets.npy", offsets),
    }


def _copy_names(handle: IO[bytes], part: Path, table: str, places: npt.NDArray[np.int64]) -> None:
    """Append the names of a part at sorted ``places``, in that order, to ``handle``."""
    data = read_npy(part / f"{table}.bytes.npy")
    offsets = read_npy(part / f"{table}.offsets.npy")
    for begin in range(0, len(places), GATHER):
        block = places[begin : begin + GATHER]
        starts, lengths = offsets[block], offsets[block + 1] - offsets[block]
        within = np.arange(int(lengths.sum()), dtype=np.int64) - np.repeat(
            np.cumsum(lengths) - lengths, lengths
        )
        handle.write(data[np.repeat(starts, lengths) + within].tobytes())
