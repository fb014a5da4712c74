"""The stopping signals (Ctrl-C, SIGTERM, SIGHUP): holding them over a few steps that must not
be parted, remembering that one arrived, and ignoring them once the command is done.

Holding: creating a temporary file or folder and taking charge of its removal, removing it
again, swapping an old output for a new one, forking workers. A signal that arrives meanwhile
waits and is delivered when the block ends, so the command still stops, but never between the
steps. Two things hold it: the thread's signal mask (the kernel keeps the signal until the
block ends) and the command line's handler, :func:`on_stop`, which only records a stop that
arrives during a hold (another thread may receive it, such as a process pool's manager or a
status line, and Python then runs the handler in the main thread whatever its mask).

Remembering: the command line's handlers raise an exception where the signal lands, and Python
ignores an exception raised in a finaliser (``__del__``, a weakref callback, garbage
collection): a Ctrl-C that lands there would be lost and the command would go on to write its
output. So the handlers also record the stop, and every step that puts an output in place
(:func:`committing`) raises a recorded stop first: a lost stop still ends the command before
its output replaces the previous one.

Ignoring: in the ``symcomp`` process (:func:`end_with_command`), once the command's output is
in place (the step that completes the output the command line declared with
:func:`expect_output`) or the command has returned, the stopping signals are ignored for the
rest of the process: a stop that arrives while symcomp exits changes nothing, and the process
ends with the command's own exit code. Without that, a signal landing while Python finalises
(which puts the default handlers back) would kill the process (exit -15) after its output was
complete.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Iterator
from pathlib import Path

STOPPING = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)

# The stops received since the command began. Module state because a signal handler has no
# other place to leave it; only handlers installed by the command line (and tests) write it,
# so a library user who installs none never sees a stop raised here.
_received: list[int] = []


class _Command:
    """What the command line told this module about the command it runs (module state, as
    the handler's): how deep the main thread holds the signals, the output whose completion
    ends the command, whether the process ends with it, and whether it is done."""

    held = 0
    output: Path | None = None
    ends_process = False
    done = False


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
    _Command.output, _Command.done = None, False


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


def on_stop(signal_number: int, frame: object) -> None:
    """The command line's handler of the stopping signals: record the stop and raise it where
    it lands (:func:`stop_exception`), or, while the signals are held, when the hold ends.

    >>> forget_stops()
    >>> with signals_held():
    ...     on_stop(signal.SIGTERM, None)  # recorded; raised when the hold ends
    Traceback (most recent call last):
    symcomp.data.signals.Terminated: 15
    >>> forget_stops()
    """
    record_stop(signal_number)
    if _Command.held:
        return
    raise stop_exception(signal_number)


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


def _main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


@contextlib.contextmanager
def signals_held() -> Iterator[None]:
    """Hold the stopping signals in this thread meanwhile (they wait, and arrive after);
    processes forked meanwhile start with them blocked.

    Only the main thread receives Python's signal handlers, so elsewhere (and where the
    platform has no signal masks) this holds nothing.

    >>> with signals_held():
    ...     pass
    """
    if not hasattr(signal, "pthread_sigmask") or not _main_thread():
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, STOPPING)
    _Command.held += 1
    before = len(_received)
    try:
        yield
    finally:
        _Command.held -= 1
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)  # a waiting signal arrives now
        if not _Command.held and len(_received) > before and not _Command.done:
            raise stop_exception(_received[before])  # one that another thread received


@contextlib.contextmanager
def committing(completes: Path | None = None) -> Iterator[None]:
    """Hold the stopping signals over the step that puts an output in place (a rename, a
    swap of folders), after raising a stop that was recorded but lost: the previous output
    stays, or none appears. A signal that arrives during the step takes effect after it.

    ``completes``: the output this step completes (a folder whose manifest it puts in place,
    or a single file). When that is the output the command line declared
    (:func:`expect_output`), the command is done: see :func:`command_done`.

    >>> forget_stops()
    >>> with committing():
    ...     pass
    """
    with signals_held():
        raise_if_stopped()
        yield
        if completes is not None and _is_expected(completes):
            command_done()


def expect_output(path: Path) -> None:
    """Declare the output whose completion ends the command (the command line's ``--out``):
    the step that puts it in place makes the command done (:func:`command_done`)."""
    _Command.output = Path(os.path.realpath(path))


def _is_expected(path: Path) -> bool:
    return _Command.output is not None and Path(os.path.realpath(path)) == _Command.output


def end_with_command() -> None:
    """Say that this process ends when its command does (the ``symcomp`` console script), so
    that :func:`command_done` may ignore the stopping signals for the rest of it."""
    _Command.ends_process = True


def command_done() -> None:
    """The command is done (its output in place, or it has returned with its exit code): in a
    process that ends with it (:func:`end_with_command`), ignore the stopping signals from now
    on, and forget those that arrived meanwhile, so that it exits with the command's own code
    and a stop during the exit changes nothing. Elsewhere (a library user, a test running
    commands in its own process) nothing changes.

    The signals are ignored, not handled: an ignored signal stays ignored while Python
    finalises, when it puts the default handlers back (which would kill the process).

    >>> command_done()  # not the symcomp process: nothing changes
    >>> signal.getsignal(signal.SIGTERM) == signal.SIG_IGN
    False
    """
    if not _Command.ends_process or not _main_thread():
        return
    with signals_held():  # a stop now waits in the kernel, and is discarded by SIG_IGN
        for number in STOPPING:
            signal.signal(number, signal.SIG_IGN)
        _Command.done = True
        _received.clear()
