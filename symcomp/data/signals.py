"""The stopping signals (Ctrl-C, SIGTERM, SIGHUP): holding them over a few steps that must not
be parted, and remembering that one arrived.

Holding: creating a temporary file or folder and taking charge of its removal, swapping an old
output for a new one, forking workers. A signal that arrives meanwhile waits and is delivered
when the block ends, so the command still stops, but never between the steps.

Remembering: the command line's handlers raise an exception where the signal lands, and Python
ignores an exception raised in a finaliser (``__del__``, a weakref callback, garbage
collection): a Ctrl-C that lands there would be lost and the command would go on to write its
output. So the handlers also record the stop, and every step that puts an output in place
(:func:`committing`) raises a recorded stop first: a lost stop still ends the command before
its output replaces the previous one.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator

STOPPING = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)

# The stops received since the command began. Module state because a signal handler has no
# other place to leave it; only handlers installed by the command line (and tests) write it,
# so a library user who installs none never sees a stop raised here.
_received: list[int] = []


class Terminated(BaseException):
    """Raised in the main thread by SIGTERM or SIGHUP, so cleanup code runs as for Ctrl-C
    (a BaseException, like KeyboardInterrupt: ``except Exception`` does not swallow it)."""

    def __init__(self, signal_number: int) -> None:
        super().__init__(signal_number)
        self.signal_number = signal_number


def record_stop(signal_number: int) -> None:
    """Remember that ``signal_number`` asked this process to stop (called by a handler)."""
    _received.append(signal_number)


def forget_stops() -> None:
    """Start afresh: a new command (tests run many in one process)."""
    _received.clear()


def first_stop() -> int | None:
    """The first stopping signal recorded since :func:`forget_stops`, or None.

    >>> forget_stops(); first_stop() is None
    True
    """
    return _received[0] if _received else None


def stop_exception(signal_number: int) -> BaseException:
    """What a stop by ``signal_number`` raises: KeyboardInterrupt for Ctrl-C (as Python's own
    handler), :class:`Terminated` for the others.

    >>> type(stop_exception(signal.SIGINT)).__name__, type(stop_exception(signal.SIGTERM)).__name__
    ('KeyboardInterrupt', 'Terminated')
    """
    if signal_number == signal.SIGINT:
        return KeyboardInterrupt()
    return Terminated(signal_number)


def raise_if_stopped() -> None:
    """Raise the stop that was recorded, if any: its exception may have been swallowed where
    the signal landed (a finaliser), and the command must not go on as if nothing happened.

    >>> forget_stops(); raise_if_stopped()
    >>> record_stop(signal.SIGTERM)
    >>> raise_if_stopped()
    Traceback (most recent call last):
    symcomp.data.signals.Terminated: 15
    >>> forget_stops()
    """
    number = first_stop()
    if number is not None:
        raise stop_exception(number)


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


@contextlib.contextmanager
def committing() -> Iterator[None]:
    """Hold the stopping signals over the step that puts an output in place (a rename, a
    swap of folders), after raising a stop that was recorded but lost: the previous output
    stays, or none appears. A signal that arrives during the step takes effect after it.

    >>> forget_stops()
    >>> with committing():
    ...     pass
    """
    with signals_held():
        raise_if_stopped()
        yield
