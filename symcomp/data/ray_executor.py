"""Running symcomp's parallel work on a Ray cluster (``--executor ray [--address ADDR]``).

Chunks go to a pool of actors, each set up once with the work's state (a language, a checker
that keeps its prover context) and each keeping at most two chunks in flight; results come back
in input order, so the output is byte-identical to a local run. Units (training runs) are Ray
tasks that ask for a GPU when the cluster has them. An actor whose process dies is restarted
(its state set up again) and its chunks are retried; a unit is retried, and a training run
then continues from its last checkpoint (run folders must be on a file system every node
sees). Ray is imported only when this executor is made: ``pip install -c constraints.txt -e
".[ray]"``.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, TypeVar

from symcomp.data.parallel import set_worker_state
from symcomp.errors import SymcompError

T = TypeVar("T")
R = TypeVar("R")
IN_FLIGHT = 2  # chunks queued per actor: enough to keep it busy, little memory
UNIT_RETRIES = 3


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise SymcompError(
            "the ray executor needs Ray; install the ray extra: pip install -c constraints.txt "
            '-e ".[ray]"'
        ) from None
    return ray


CONNECT_SECONDS = 5.0  # Ray itself retries an unreachable cluster for ten minutes


def _check_reachable(address: str) -> None:
    """Refuse at once a ``host:port`` (or ``ray://host:port``) nothing answers on.

    >>> _check_reachable("auto")  # Ray's own names are left to Ray
    >>> _check_reachable("127.0.0.1:1")
    Traceback (most recent call last):
    ...
    symcomp.errors.SymcompError: cannot reach a Ray cluster at `address` '127.0.0.1:1' ...
    """
    import socket

    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        return
    try:
        with socket.create_connection((host.strip("[]"), int(port)), CONNECT_SECONDS):
            pass
    except OSError as error:
        raise SymcompError(
            f"cannot reach a Ray cluster at `address` {address!r} ({error.strerror or error}, "
            f"tried for up to {CONNECT_SECONDS:g} s). Start one with `ray start --head` and "
            f"pass the address it prints, or leave `address` out for a cluster on this machine."
        ) from None


class RayExecutor:
    """Work on a Ray cluster: ``address`` of a running one (``ray start --head`` prints it), or
    None for a local one started here with ``workers`` CPUs (default: all)."""

    def __init__(self, address: str | None = None, workers: int | None = None) -> None:
        self.ray = _import_ray()
        if address is not None:
            _check_reachable(address)
        if not self.ray.is_initialized():
            try:
                self.ray.init(
                    address=address,
                    num_cpus=None if address else workers,
                    include_dashboard=False,
                    log_to_driver=False,
                    logging_level="ERROR",
                    # Ray starts workers at niceness 15: on a machine with other work they
                    # starve (10x slower verify measured); a cluster started here runs at 0
                    **({} if address else {"_system_config": {"worker_niceness": 0}}),
                )
            except (ConnectionError, ValueError, RuntimeError) as error:
                raise SymcompError(
                    f"cannot reach a Ray cluster at `address` {address!r}: {error}. Start one "
                    f"with `ray start --head` and pass the address it prints."
                ) from None
        self.actors: list[Any] = []
        cpus = int(self.ray.cluster_resources().get("CPU", 1))
        self.workers = max(1, min(workers or cpus, cpus))
        self.gpus = float(self.ray.cluster_resources().get("GPU", 0))

    @property
    def in_process(self) -> bool:
        return False

    def map(
        self, function: Callable[[T], R], chunks: Iterable[T], state: dict[str, Any]
    ) -> Iterator[R]:
        ray = self.ray
        worker = ray.remote(max_restarts=-1, max_task_retries=-1, num_cpus=1)(_ChunkWorker)
        shared = ray.put(state)
        actors = [worker.remote(shared) for _ in range(self.workers)]
        self.actors = actors  # the current map's actors (their pid() is useful to tests)
        pending: deque[Any] = deque()
        try:
            for number, chunk in enumerate(chunks):
                actor = actors[number % len(actors)]
                pending.append(actor.call.remote(function, chunk))
                if len(pending) >= IN_FLIGHT * len(actors):
                    yield self._result(pending.popleft())
            while pending:
                yield self._result(pending.popleft())
        finally:
            for actor in actors:
                ray.kill(actor, no_restart=True)

    def _result(self, reference: Any) -> Any:
        """The result of a task; symcomp's own error in it raised as itself (a bad input's
        message, not Ray's report of where it was raised)."""
        try:
            return self.ray.get(reference)
        except self.ray.exceptions.RayTaskError as error:
            if isinstance(error.cause, SymcompError):
                raise error.cause from None
            raise

    def run(self, function: Callable[[T], R], units: Sequence[T], *, gpus: float = 0) -> list[R]:
        ray = self.ray
        wanted = gpus if gpus and self.gpus else 0
        # a plain function around the unit's, so that builtins, partials and bound methods run
        task = ray.remote(num_cpus=1, num_gpus=wanted, max_retries=UNIT_RETRIES)(_apply)
        references = [task.remote(function, unit) for unit in units]
        return [self._result(reference) for reference in references]


def _apply(function: Callable[[Any], Any], unit: Any) -> Any:
    return function(unit)


class _ChunkWorker:
    """A Ray actor: the work's state set up once, then chunk after chunk."""

    def __init__(self, state: dict[str, Any]) -> None:
        set_worker_state(state)

    def call(self, function: Callable[[Any], Any], chunk: Any) -> Any:
        return function(chunk)

    def pid(self) -> int:
        return os.getpid()
