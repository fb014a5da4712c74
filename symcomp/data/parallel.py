"""An order-preserving parallel map over chunks, on a local process pool.

Work that is a pure function of its input (interpreting, serialising, verifying, scoring) is cut
into chunks and mapped on ``jobs`` worker processes; results come back in input order, with at
most ``2 * jobs`` chunks in flight so memory stays bounded. ``jobs=1`` runs in-process, so the
output never depends on the number of workers.

>>> list(ordered_map(sum, [[1, 2], [3], [4, 5, 6]], jobs=1))
[3, 3, 15]
"""

from __future__ import annotations

import multiprocessing
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")
_worker_state: dict[str, Any] = {}


def worker_state() -> dict[str, Any]:
    """The state set up by ``initializer`` in the current worker (or the parent for jobs=1)."""
    return _worker_state


def _set_state(state: dict[str, Any]) -> None:
    _worker_state.clear()
    _worker_state.update(state)


def ordered_map(
    function: Callable[[T], R],
    chunks: Iterable[T],
    *,
    jobs: int = 1,
    state: dict[str, Any] | None = None,
) -> Iterator[R]:
    """Yield ``function(chunk)`` for each chunk, in order, using ``jobs`` processes.

    ``state`` (e.g. the language) is made available to ``function`` through
    :func:`worker_state`. Workers are forked where the platform allows, so ``state`` is not
    pickled; ``function`` and the chunks are.
    """
    if jobs <= 1:
        _set_state(dict(state or {}))
        yield from map(function, chunks)
        return
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    with ProcessPoolExecutor(
        max_workers=jobs, mp_context=context, initializer=_set_state, initargs=(state or {},)
    ) as executor:
        pending: deque[Future[R]] = deque()
        for chunk in chunks:
            pending.append(executor.submit(function, chunk))
            if len(pending) >= 2 * jobs:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()


def chunked(items: Iterable[T], size: int) -> Iterator[list[T]]:
    """Consecutive lists of ``size`` items (the last may be shorter).

    >>> list(chunked(range(5), 2))
    [[0, 1], [2, 3], [4]]
    """
    chunk: list[T] = []
    for item in items:
        chunk.append(item)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk
