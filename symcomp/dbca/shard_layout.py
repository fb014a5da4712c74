"""What a feature shard folder holds, file by file, and the checks that a folder holds exactly
that before any of its arrays is used.

A shard folder (:mod:`symcomp.dbca.shards`) is read by memory-mapping arrays whose meaning
comes from its ``manifest.json``: the kind of features (``sets`` or ``dag``), the number of
names in each table, the examples of each shard, and every file with its sha256. A manifest
is a file a user may have been sent or may have edited, so nothing it says is taken on trust:

* the shards cover the pool exactly (their sizes add up to the examples of the pool's
  ``examples.jsonl``, and the byte offsets of their lines rise through the pool in order);
* the folder lists exactly the files its kind and number of shards call for, each a path
  confined to the folder (:mod:`symcomp.data.safe_paths`) before it is opened;
* every array has the dtype and shape the manifest and the other arrays call for: row
  pointers start at 0, never fall and end at the entries they index; ids lie within their
  table; counts are positive; names are UTF-8 and start on a character; an order is a
  permutation.

Anything else is a :class:`DataError` naming the file, what is wrong, and how to write the
shards again.

>>> folder_files("sets", 1)[:3]
['names/atoms.bytes.npy', 'names/atoms.offsets.npy', 'names/compounds.bytes.npy']
>>> shard_arrays("dag")[-2:]
('extensions.occurrence', 'extensions.kinds')
"""

from __future__ import annotations

import codecs
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from symcomp.data.artifacts import MANIFEST
from symcomp.data.safe_paths import confined
from symcomp.errors import DataError

FORMAT = "symcomp.features/1"
SHARD_SIZE = 65_536  # examples per shard: a few MB of arrays, extracted as one task
NAMES, ORDER, SHARDS = "names", "order", "shards"
POOL_FEATURES = "features"  # the shards `symcomp import` writes into a pool folder
KINDS = ("sets", "dag")
CSR = ("indptr", "indices", "counts")
INT32, INT64, UINT8 = np.dtype(np.int32), np.dtype(np.int64), np.dtype(np.uint8)
COMPACT = (INT32, INT64)  # 32-bit where every value fits, else 64-bit
SHOWN = 5  # file names listed in a message
UTF8_BLOCK = 1 << 20  # bytes of names decoded at a time when checked


def compact(values: npt.NDArray[np.int64]) -> npt.NDArray[np.integer]:
    """32-bit integers when they hold every value, else 64-bit (:data:`COMPACT`).

    >>> compact(np.array([1, 2])).dtype, compact(np.array([2**40])).dtype
    (dtype('int32'), dtype('int64'))
    """
    if not len(values) or (values.min() >= -(2**31) and values.max() < 2**31):
        return values.astype(np.int32)
    return values


def tables(kind: str) -> tuple[str, ...]:
    """The name tables of a kind of features: ``dag`` counts atoms and parent-child pairs per
    example and names its subgraph compounds; ``sets`` counts atoms and compounds."""
    return ("atoms", "compounds") if kind == "sets" else ("atoms", "pairs", "compounds")


def counted(kind: str) -> tuple[str, ...]:
    """The tables counted per example as CSR arrays in every shard."""
    return ("atoms", "compounds") if kind == "sets" else ("atoms", "pairs")


def shard_folder(number: int) -> str:
    """The folder of shard ``number``, relative to the shard folder.

    >>> shard_folder(3)
    'shards/00003'
    """
    return f"{SHARDS}/{number:05d}"


def shard_arrays(kind: str) -> tuple[str, ...]:
    """The arrays of one shard (each ``NAME.npy`` in its folder)."""
    names = ["lines", *(f"{table}.{part}" for table in counted(kind) for part in CSR)]
    if kind == "dag":
        names += [
            "occurrences.indptr",
            "occurrences.kinds",
            "extensions.occurrence",
            "extensions.kinds",
        ]
    return tuple(names)


def folder_files(kind: str, shards: int) -> list[str]:
    """Every file but the manifest of a folder of ``shards`` shards of ``kind``."""
    files = [
        f"{NAMES}/{table}.{part}.npy" for table in tables(kind) for part in ("bytes", "offsets")
    ]
    if kind == "sets":
        files += [f"{ORDER}/{table}.npy" for table in tables(kind)]
    arrays = shard_arrays(kind)
    return files + [f"{shard_folder(k)}/{name}.npy" for k in range(shards) for name in arrays]


def rewrite_advice(folder: Path) -> str:
    """How to get shards symcomp can read again (the end of every message here)."""
    return (
        f"Write them again: remove {folder} and give it as `features` again (the split extracts "
        f"the features anew), or import the pool again with `overwrite` when it is the pool's "
        f"own folder."
    )


def damaged(where: Path | str, problem: str, folder: Path) -> DataError:
    """The error for a folder that is not as symcomp writes it."""
    return DataError(
        f"{where}: {problem}; the feature shards are damaged or were edited. "
        f"{rewrite_advice(folder)}"
    )


@dataclass(frozen=True)
class Layout:
    """What a checked manifest says: the kind, the names per table, examples per shard."""

    kind: str
    counts: Mapping[str, int]
    sizes: Sequence[int]


def check_layout(folder: Path, manifest: Mapping[str, Any], pool: Mapping[str, Any]) -> Layout:
    """The layout of ``manifest`` when its shards cover the pool whose file record
    (:func:`symcomp.data.artifacts.file_record`) is ``pool`` and it lists exactly the files
    of that layout, each inside ``folder``; else :class:`DataError`. Opens no file."""
    where = folder / MANIFEST
    kind = manifest.get("kind")
    if kind not in KINDS:
        raise damaged(where, f"`kind` is {kind!r}, not one of {', '.join(KINDS)}", folder)
    counts = manifest.get("counts")
    if not isinstance(counts, Mapping) or sorted(counts) != sorted(tables(kind)):
        raise damaged(where, f"`counts` must name the tables {', '.join(tables(kind))}", folder)
    for table, value in counts.items():
        _natural(value, f"`counts` of {table}", where, folder)
    sizes = _shard_sizes(where, manifest, kind, folder)
    _check_coverage(where, manifest, pool, sizes, folder)
    _check_listed(folder, manifest.get("files"), folder_files(kind, len(sizes)))
    return Layout(kind, {table: int(value) for table, value in counts.items()}, sizes)


def _natural(value: Any, what: str, where: Path, folder: Path, least: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise damaged(where, f"{what} is {value!r}, not a whole number of at least {least}", folder)
    return value


def _shard_sizes(where: Path, manifest: Mapping[str, Any], kind: str, folder: Path) -> list[int]:
    shards = manifest.get("shards")
    if not isinstance(shards, list) or not shards:
        raise damaged(where, "`shards` must be a non-empty list", folder)
    arrays = sorted(f"{name}.npy" for name in shard_arrays(kind))
    sizes = []
    for number, shard in enumerate(shards):
        what = f"shard {number}"
        if not isinstance(shard, Mapping):
            raise damaged(where, f"{what} is not an object", folder)
        sizes.append(_natural(shard.get("examples"), f"the examples of {what}", where, folder, 1))
        files = shard.get("files")
        if not isinstance(files, Mapping) or sorted(files) != arrays:
            raise damaged(where, f"{what} must list the files {', '.join(arrays)}", folder)
    return sizes


def _check_coverage(
    where: Path,
    manifest: Mapping[str, Any],
    pool: Mapping[str, Any],
    sizes: Sequence[int],
    folder: Path,
) -> None:
    """The shards hold every example of the pool once: their sizes add up to the examples
    recorded, which are the lines of the pool file (the last may lack its newline)."""
    recorded = (manifest.get("pool") or {}).get("examples")
    lines = int(pool["lines"])
    if sum(sizes) != recorded or not lines <= sum(sizes) <= lines + 1:
        raise damaged(
            where,
            f"its {len(sizes)} shards hold {sum(sizes):,} examples, but it records "
            f"{recorded!r} and the pool holds {lines:,} lines: the shards must cover the pool, "
            f"every example once",
            folder,
        )


def _check_listed(folder: Path, files: Any, expected: Sequence[str]) -> None:
    """The manifest's ``files`` are exactly ``expected``, each confined to ``folder``."""
    where = folder / MANIFEST
    if not isinstance(files, Mapping) or not files:
        raise damaged(where, "lists no files", folder)
    for name in files:
        try:
            confined(folder, name, what="file", source=str(where))
        except DataError as error:
            raise DataError(f"{error} {rewrite_advice(folder)}") from None
    extra = sorted(set(files) - set(expected))
    missing = [name for name in expected if name not in files]
    for names, what in ((extra, "files a shard folder does not hold"), (missing, "no entry for")):
        if names:
            shown = ", ".join(names[:SHOWN]) + (
                f" and {len(names) - SHOWN} more" if len(names) > SHOWN else ""
            )
            raise damaged(where, f"lists {what} {shown}", folder)
    for name in expected:
        if not isinstance(files[name], Mapping):
            raise damaged(where, f"the entry of {name} is not an object", folder)


def load_array(path: Path, folder: Path) -> npt.NDArray[Any]:
    """The ``.npy`` array at ``path``, memory-mapped (never unpickled); a file that is not
    one (truncated, another format, objects) is a :class:`DataError`."""
    try:
        loaded: npt.NDArray[Any] = np.load(path, mmap_mode="r", allow_pickle=False)
    except (ValueError, OSError, EOFError) as error:
        raise damaged(path, f"not a .npy array symcomp can read ({error})", folder) from None
    return loaded


def check_arrays(folder: Path, layout: Layout, pool_bytes: int) -> None:
    """Every array of the folder has the dtype, shape and values ``layout`` and the other
    arrays call for (see the module). One shard is mapped at a time."""
    for table in tables(layout.kind):
        _check_names(folder, table, layout.counts[table])
        if layout.kind == "sets":
            _check_order(folder, table, layout.counts[table])
    previous = -1  # the byte offset of the line before the shard's first
    for number, size in enumerate(layout.sizes):
        previous = _check_shard(folder, number, size, layout, previous, pool_bytes)


class _Arrays:
    """The arrays of one place in a folder, loaded when first asked for and checked."""

    def __init__(self, folder: Path, prefix: str) -> None:
        self.folder, self.prefix = folder, prefix
        self.loaded: dict[str, npt.NDArray[Any]] = {}

    def path(self, name: str) -> Path:
        return self.folder / f"{self.prefix}{name}.npy"

    def get(
        self, name: str, dtypes: Sequence[np.dtype[Any]], shape: tuple[int | None, ...]
    ) -> npt.NDArray[Any]:
        if name not in self.loaded:
            array = load_array(self.path(name), self.folder)
            fits = len(array.shape) == len(shape) and all(
                want is None or got == want for got, want in zip(array.shape, shape, strict=True)
            )
            if array.dtype not in dtypes or not fits or not array.flags.c_contiguous:
                wanted = " or ".join(str(dtype) for dtype in dtypes)
                raise self.error(
                    name,
                    f"holds {array.dtype} of shape {array.shape}, expected {wanted} of shape "
                    f"{tuple('any' if n is None else n for n in shape)} (C order)",
                )
            self.loaded[name] = array
        return self.loaded[name]

    def error(self, name: str, problem: str) -> DataError:
        return damaged(self.path(name), problem, self.folder)


def _check_names(folder: Path, table: str, count: int) -> None:
    arrays = _Arrays(folder, f"{NAMES}/{table}.")
    blob = arrays.get("bytes", (UINT8,), (None,))
    offsets = arrays.get("offsets", (INT64,), (count + 1,))
    _check_pointers(arrays, "offsets", offsets, len(blob))
    starts = np.asarray(offsets[:-1])
    starts = starts[starts < len(blob)]
    if np.any((np.asarray(blob[starts]) & 0xC0) == 0x80):
        raise arrays.error("offsets", "a name starts inside a UTF-8 character")
    decoder = codecs.getincrementaldecoder("utf-8")()
    try:
        for start in range(0, len(blob), UTF8_BLOCK):
            decoder.decode(bytes(blob[start : start + UTF8_BLOCK]))
        decoder.decode(b"", final=True)
    except UnicodeDecodeError as error:
        raise arrays.error("bytes", f"the names are not UTF-8 ({error.reason})") from None


def _check_order(folder: Path, table: str, count: int) -> None:
    arrays = _Arrays(folder, f"{ORDER}/")
    order = np.asarray(arrays.get(table, COMPACT, (count,)))
    if len(order) and (order.min() < 0 or order.max() >= count):
        raise arrays.error(table, f"an id outside 0..{count - 1}")
    if not np.all(np.bincount(order, minlength=count) == 1):
        raise arrays.error(table, "not every id once: the order must be a permutation")


def _check_pointers(arrays: _Arrays, name: str, pointers: npt.NDArray[Any], end: int) -> None:
    """Row pointers (CSR ``indptr``, name offsets): from 0, never falling, to ``end``."""
    values = np.asarray(pointers)
    if values[0] != 0 or values[-1] != end or np.any(values[1:] < values[:-1]):
        raise arrays.error(
            name, f"pointers must rise from 0 to {end:,} (the entries they index) without falling"
        )


def _check_ids(arrays: _Arrays, name: str, ids: npt.NDArray[Any], count: int) -> None:
    values = np.asarray(ids)
    if len(values) and (values.min() < 0 or values.max() >= count):
        raise arrays.error(name, f"an id outside 0..{count - 1} (the table's names)")


def _check_shard(
    folder: Path, number: int, size: int, layout: Layout, previous: int, pool_bytes: int
) -> int:
    """Check shard ``number``; return the byte offset of its last line."""
    arrays = _Arrays(folder, f"{shard_folder(number)}/")
    lines = np.asarray(arrays.get("lines", (INT64,), (size, 3)))
    offsets = lines[:, 0]
    if (number == 0 and offsets[0] != 0) or offsets[0] <= previous:
        raise arrays.error("lines", "its first line does not follow the previous shard's last")
    if np.any(offsets[1:] <= offsets[:-1]) or offsets[-1] >= pool_bytes:
        raise arrays.error(
            "lines", f"line offsets must rise within the pool's {pool_bytes:,} bytes"
        )
    if np.any(lines[:, 1:] < 0):
        raise arrays.error("lines", "a negative length")
    for table in counted(layout.kind):
        _check_csr(arrays, table, size, layout.counts[table])
    if layout.kind == "dag":
        _check_occurrences(arrays, size, layout.counts["compounds"])
    return int(offsets[-1])


def _check_csr(arrays: _Arrays, table: str, size: int, width: int) -> None:
    indptr = arrays.get(f"{table}.indptr", COMPACT, (size + 1,))
    indices = arrays.get(f"{table}.indices", (INT32,), (None,))
    counts = np.asarray(arrays.get(f"{table}.counts", COMPACT, (len(indices),)))
    _check_pointers(arrays, f"{table}.indptr", indptr, len(indices))
    _check_ids(arrays, f"{table}.indices", indices, width)
    rising = np.diff(np.asarray(indices, dtype=np.int64)) > 0
    boundaries = np.asarray(indptr[1:-1], dtype=np.int64) - 1  # a row's last entry
    boundaries = boundaries[(boundaries >= 0) & (boundaries < len(rising))]
    rising[boundaries] = True
    if not np.all(rising):
        raise arrays.error(f"{table}.indices", "ids within an example must rise (each once)")
    if len(counts) and counts.min() < 1:
        raise arrays.error(f"{table}.counts", "a count below 1")


def _check_occurrences(arrays: _Arrays, size: int, compounds: int) -> None:
    kinds = arrays.get("occurrences.kinds", (INT32,), (None,))
    indptr = arrays.get("occurrences.indptr", COMPACT, (size + 1,))
    _check_pointers(arrays, "occurrences.indptr", indptr, len(kinds))
    _check_ids(arrays, "occurrences.kinds", kinds, compounds)
    extending = arrays.get("extensions.kinds", (INT32,), (None,))
    extended = arrays.get("extensions.occurrence", (INT32,), (len(extending),))
    _check_ids(arrays, "extensions.kinds", extending, compounds)
    _check_ids(arrays, "extensions.occurrence", extended, len(kinds))
