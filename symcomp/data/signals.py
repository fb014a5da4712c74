"""Holding the stopping signals (Ctrl-C, SIGTERM, SIGHUP) over a few steps that must not be
parted: creating a temporary file or folder and taking charge of its removal, swapping an old
output for a new one, forking workers.

A signal that arrives meanwhile waits and is delivered when the block ends, so the command
still stops, but never between the steps.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator

STOPPING = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)


@contextlib.contextmanager
def signals_held() -> Iterator[None]:
    """Block the stopping signals in this thread meanwhile (they wait, and arrive after);
    processes forked meanwhile start with them blocked.

    Only the main thread receives Python's signal handlers, so elsewhere (and where the
    platform has no signal masks) this holds nothing.

    >>> with signals_held():
    ...     pass
    """
    if not hasattr(signal, "pthread_sigmask") or (
        threading.current_thread() is not threading.main_thread()
    ):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, STOPPING)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)  # a waiting signal arrives now
