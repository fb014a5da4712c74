"""A JSON-lines file cut into chunks of consecutive lines that workers read on their own.

Work that reads every line of a pool (extracting its features, checking an import's rows)
is spread over processes or a Ray cluster as chunks: a :class:`LineChunk` names a range of
bytes of the file and the lines in it, so a worker reads its lines from the file itself (on a
folder every node can read) instead of being sent them, and a stopped or restarted worker
reads the same lines again. The cut depends only on the file and the chunk size, never on the
number of workers.

>>> import tempfile
>>> path = Path(tempfile.mkdtemp()) / "examples.jsonl"
>>> _ = path.write_text('{"id": "a", "input": "x", "output": "y"}\\n' * 5)
>>> chunks = list(line_chunks(path, 2))
>>> [(chunk.first, chunk.count) for chunk in chunks]
[(0, 2), (2, 2), (4, 1)]
>>> [record["id"] for record, _where in chunk_records(path, chunks[1])]
['a', 'a']
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from symcomp.data.artifacts import parse_examples

SCAN_BLOCK = 1 << 24  # bytes read at a time when finding where lines start


@dataclass(frozen=True)
class LineChunk:
    """Lines ``first`` to ``first + count - 1`` (from 0) of a file, which start at byte
    ``start``; ``wheres`` names each line in messages (the corpus row an imported line came
    from; None: ``FILE:LINE``)."""

    number: int
    start: int
    first: int
    count: int
    wheres: Sequence[str] | None = None


def line_offsets(path: Path) -> npt.NDArray[np.int64]:
    """The byte offset where each line of ``path`` starts (a last line without a newline
    included), found a block at a time.

    >>> import tempfile
    >>> path = Path(tempfile.mkdtemp()) / "x.jsonl"
    >>> _ = path.write_bytes(b"ab\\nc\\nde")
    >>> line_offsets(path).tolist()
    [0, 3, 5]
    """
    found = [np.zeros(1, dtype=np.int64)]
    position, last = 0, b"\n"
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(SCAN_BLOCK), b""):
            newlines = np.flatnonzero(np.frombuffer(block, dtype=np.uint8) == ord("\n"))
            found.append(newlines.astype(np.int64) + position + 1)
            position += len(block)
            last = block[-1:]
    offsets = np.concatenate(found)
    return offsets[:-1] if last == b"\n" else offsets


def line_chunks(path: Path, size: int) -> Iterator[LineChunk]:
    """The lines of ``path`` in chunks of ``size`` (the last may be shorter)."""
    offsets = line_offsets(path)
    for number, first in enumerate(range(0, len(offsets), size)):
        count = min(size, len(offsets) - first)
        yield LineChunk(number, int(offsets[first]), first, count)


def chunk_lines(path: Path, chunk: LineChunk) -> Iterator[bytes]:
    """The lines of ``chunk``, read from ``path``."""
    with path.open("rb") as handle:
        handle.seek(chunk.start)
        for _ in range(chunk.count):
            yield handle.readline()


def chunk_records(
    path: Path, chunk: LineChunk, source: str | None = None
) -> Iterator[tuple[dict[str, Any], str]]:
    """The example records of ``chunk`` and where each is (for messages), read from
    ``path`` (named ``source`` in messages)."""
    name = source or str(path)
    texts = (line.decode("utf-8") for line in chunk_lines(path, chunk))
    records = parse_examples(texts, name, start=chunk.first + 1)
    for number, record in enumerate(records):
        where = (
            chunk.wheres[number]
            if chunk.wheres is not None
            else f"{name}:{chunk.first + number + 1}"
        )
        yield record, where
