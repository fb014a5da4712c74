"""Executors: where work that is a pure function of its input runs, with the same result
anywhere.

Two kinds of work are parallel. *Chunks* (interpreting and serialising examples, verifying
rows) are mapped with :meth:`Executor.map`: results come back in input order, with a bounded
number of chunks in flight, so the output never depends on the executor or the number of
workers. *Units* (whole training runs) are run with :meth:`Executor.run`, each writing its own
folder. Executors:

:class:`LocalExecutor`
    ``jobs`` worker processes on this machine (``jobs=1``: in this process); units one after
    the other (a run uses the machine's threads itself). A worker that dies (killed, out of
    memory) is replaced and the chunks in flight run again.
:class:`symcomp.data.ray_executor.RayExecutor`
    a Ray cluster (``symcomp ... --executor ray --address ADDR``); chunks go to actors that keep
    their state (a language, a prover context), units to tasks that may ask for GPUs. Workers
    that die are restarted and their work retried.

Functions that accept ``jobs`` take an ``int`` (local processes) or an :class:`Executor`.

>>> list(ordered_map(sum, [[1, 2], [3], [4, 5, 6]], jobs=1))
[3, 3, 15]
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import signal
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Protocol, TypeVar

from symcomp.data.signals import STOPPING, signals_held
from symcomp.errors import SymcompError

LOG = logging.getLogger(__name__)
T = TypeVar("T")
R = TypeVar("R")
WORKER_RESTARTS = 3  # a map starts its workers again at most this often
_worker_state: dict[str, Any] = {}


class Executor(Protocol):
    """Runs chunks and units of work (see the module docstring)."""

    @property
    def in_process(self) -> bool:
        """True when work runs in this process (nothing is pickled)."""
        ...

    def map(
        self, function: Callable[[T], R], chunks: Iterable[T], state: dict[str, Any]
    ) -> Iterator[R]:
        """``function(chunk)`` for every chunk, in order; ``state`` through :func:`worker_state`."""
        ...

    def run(self, function: Callable[[T], R], units: Sequence[T], *, gpus: float = 0) -> list[R]:
        """``function(unit)`` for every unit, in order (each may ask for ``gpus``)."""
        ...


Jobs = int | Executor


def worker_state() -> dict[str, Any]:
    """The state set up for the current worker (or this process when work runs here)."""
    return _worker_state


def set_worker_state(state: dict[str, Any]) -> None:
    """Install ``state`` as this process's :func:`worker_state` (executors call this)."""
    _worker_state.clear()
    _worker_state.update(state)


class LocalExecutor:
    """``jobs`` processes on this machine; ``jobs=1`` runs everything in this process."""

    def __init__(self, jobs: int = 1) -> None:
        self.jobs = max(1, jobs)

    @property
    def in_process(self) -> bool:
        return self.jobs == 1

    def map(
        self, function: Callable[[T], R], chunks: Iterable[T], state: dict[str, Any]
    ) -> Iterator[R]:
        if self.jobs == 1:
            set_worker_state(dict(state))
            try:
                yield from map(function, chunks)
            finally:
                # what the state holds (a prover's z3 context) goes now, not at interpreter
                # exit, when its library may be gone before it (a traceback from __del__)
                set_worker_state({})
            return
        workers = _Workers(self.jobs, state)
        pending: deque[tuple[T, Future[R]]] = deque()
        try:
            for chunk in chunks:
                pending.append((chunk, workers.submit(function, chunk)))
                if len(pending) >= 2 * self.jobs:
                    yield workers.first(function, pending)
            while pending:
                yield workers.first(function, pending)
        except BaseException:
            workers.stop()  # an interrupt or error: no worker may outlive the command
            raise
        workers.pool.shutdown()

    def run(self, function: Callable[[T], R], units: Sequence[T], *, gpus: float = 0) -> list[R]:
        return [function(unit) for unit in units]


class _Workers:
    """The worker processes of one :meth:`LocalExecutor.map`, started again (and the chunks
    in flight submitted again) when one dies: a chunk is a pure function of its input, so
    running it twice gives the same result."""

    def __init__(self, jobs: int, state: dict[str, Any]) -> None:
        self.jobs, self.state = jobs, state
        self.restarts = 0
        self.started = False  # whether the first submit has forked the workers
        self.pool = self._start()

    def _start(self) -> ProcessPoolExecutor:
        # forked where the platform allows, so ``state`` is not pickled (function and chunks are)
        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        self.started = False
        return ProcessPoolExecutor(
            max_workers=self.jobs,
            mp_context=context,
            initializer=_start_worker,
            initargs=(self.state,),
        )

    def submit(self, function: Callable[[T], R], chunk: T) -> Future[R]:
        if self.started:
            return self.pool.submit(function, chunk)
        with signals_held():  # the first submit forks the workers: no signal may reach them
            future = self.pool.submit(function, chunk)  # before their set-up (they would run
        self.started = True  # the parent's handlers)
        return future

    def first(self, function: Callable[[T], R], pending: deque[tuple[T, Future[R]]]) -> R:
        """The result of the first chunk in flight (the workers started again as often as one
        dies, up to :data:`WORKER_RESTARTS` times)."""
        while True:
            try:
                result = pending[0][1].result()
            except BrokenProcessPool:
                self._restart(function, pending)
                continue
            pending.popleft()
            return result

    def _restart(self, function: Callable[[T], R], pending: deque[tuple[T, Future[R]]]) -> None:
        self.restarts += 1
        if self.restarts > WORKER_RESTARTS:
            raise SymcompError(
                f"a worker process died {self.restarts} times (killed, or out of memory); "
                f"run with fewer `jobs`, or on a machine with more memory."
            )
        LOG.warning("a worker process died; starting the workers again and retrying its work")
        self.stop()
        self.pool = self._start()
        for index, (chunk, _future) in enumerate(pending):
            pending[index] = (chunk, self.submit(function, chunk))

    def stop(self) -> None:
        _stop(self.pool)


def _start_worker(state: dict[str, Any]) -> None:
    """A worker's set-up: its state; Ctrl-C left to the parent (which stops the pool), and
    SIGTERM/SIGHUP ending the worker at once, without a word. A forked worker inherits the
    parent's handlers, which raise an exception: a worker would print its traceback when the
    parent stops it, or when a terminal's Ctrl-C or a ``kill`` reaches the whole group."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for number in STOPPING:
        if number != signal.SIGINT:
            signal.signal(number, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):  # held while the parent forked this worker
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOPPING)
    set_worker_state(state)


def _stop(pool: ProcessPoolExecutor) -> None:
    """Cancel what is queued and end the workers now (not after their current chunk)."""
    processes = list(getattr(pool, "_processes", {}).values())  # no public way to reach them
    results = getattr(pool, "_result_queue", None)
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    for process in processes:
        process.join(timeout=5)
    # A worker ended while sending a result leaves half a message in the result pipe; the
    # pool's manager thread then waits for the rest forever, and the interpreter, which
    # joins that thread at exit, never ends. This process holds the pipe's last open write
    # end (the workers' ended with them): closing it gives the thread end-of-file instead.
    writer = getattr(results, "_writer", None)
    if writer is not None and not any(process.is_alive() for process in processes):
        with contextlib.suppress(OSError):
            writer.close()


def as_executor(jobs: Jobs) -> Executor:
    """An executor from ``jobs``: a number of local processes, or an executor as given."""
    return LocalExecutor(jobs) if isinstance(jobs, int) else jobs


def ordered_map(
    function: Callable[[T], R],
    chunks: Iterable[T],
    *,
    jobs: Jobs = 1,
    state: dict[str, Any] | None = None,
) -> Iterator[R]:
    """Yield ``function(chunk)`` for each chunk, in order, on ``jobs`` (processes or an
    executor). ``state`` (e.g. the language) reaches ``function`` through :func:`worker_state`."""
    yield from as_executor(jobs).map(function, chunks, dict(state or {}))


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
