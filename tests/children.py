"""symcomp commands run as child processes, as a shell runs them, for the interrupt tests.

Children start with the default signal dispositions: pytest-xdist workers ignore SIGINT, and an
ignored signal stays ignored across exec (as for a background job), so a child would never be
interrupted by Ctrl-C.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

MAIN = [sys.executable, "-c", "from symcomp.cli import main; main()"]


def default_signals() -> None:
    """In the child before exec: Ctrl-C, SIGTERM and SIGHUP act as in a terminal."""
    for name in ("SIGINT", "SIGTERM", "SIGHUP"):
        signal.signal(getattr(signal, name), signal.SIG_DFL)


def _own_group() -> None:
    default_signals()
    os.setpgrp()  # a process group of its own, to be sent Ctrl-C as a terminal sends it


def start(*args: object, own_group: bool = False) -> subprocess.Popen[str]:
    """``symcomp ARGS`` started with default signal dispositions (see the module)."""
    return subprocess.Popen(
        [*MAIN, *map(str, args)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_own_group if own_group else default_signals,
    )


def finish(process: subprocess.Popen[str], seconds: float = 300) -> tuple[int, str]:
    """Its exit code and standard error, once it has ended."""
    _, err = process.communicate(timeout=seconds)
    return process.returncode, err


def run_here(*args: object) -> tuple[int, str]:
    """``symcomp ARGS`` run to its end in this process (no signal is sent to it): its exit
    code and output. For the runs a test compares with or continues after an interrupted
    child; a child would first spend seconds importing torch and its compiler, which this
    process has done already."""
    from click.testing import CliRunner

    from symcomp.cli import cli

    result = CliRunner().invoke(cli, [str(a) for a in args])
    return result.exit_code, result.output


def wait_for(condition: Callable[[], bool], seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the command never got there"
        time.sleep(0.02)


def holds_lock(lock: Path) -> bool:
    """Whether a process holds ``lock`` (an flock in /proc/locks on the file's inode); the
    file alone is no proof: it exists a moment before it is locked.

    Asking /proc, not trying the lock, so that the test never takes it from the command.
    """
    try:
        status = os.stat(lock)
    except FileNotFoundError:
        return False
    device = f"{os.major(status.st_dev):02x}:{os.minor(status.st_dev):02x}:{status.st_ino}"
    held = Path("/proc/locks").read_text(encoding="ascii").split()
    return device in held


def state(pid: int) -> str:
    """The state letter of process ``pid`` (R running, S sleeping, T stopped, Z ended but not
    yet waited for, ...; "" when it is gone), from /proc/PID/stat."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="ascii", errors="replace")
    except OSError:
        return ""
    return stat.rpartition(")")[2].split()[0]  # after the command name, which may hold spaces


def freeze(process: subprocess.Popen[str], group: bool = False) -> None:
    """Stop ``process`` (SIGSTOP; with ``group``, its whole process group) and wait until it
    is stopped: SIGSTOP is delivered when the process next runs, so what a test sees before
    that is not yet the state the process is frozen in."""
    if group:
        os.killpg(process.pid, signal.SIGSTOP)
    else:
        process.send_signal(signal.SIGSTOP)
    wait_for(lambda: state(process.pid) in ("T", "t", "Z", ""), seconds=60)


def _send(process: subprocess.Popen[str], number: int, group: bool) -> None:
    if group:
        os.killpg(process.pid, number)
    else:
        process.send_signal(number)


def stop_at(
    process: subprocess.Popen[str],
    holds: Callable[[], bool],
    number: int,
    *,
    group: bool = False,
    what: str = "the state to stop it in",
) -> None:
    """Send signal ``number`` to ``process`` in a state where ``holds()`` is true, however fast
    or slow the machine: once ``holds()`` is seen, the process is frozen (SIGSTOP), the state
    checked again (it may have moved on meanwhile: then the test fails, saying so), the signal
    sent (it waits while the process is stopped) and the process let go (SIGCONT), so the
    signal arrives exactly there. ``group``: to its whole process group, as a terminal does."""
    wait_for(lambda: holds() or process.poll() is not None)
    freeze(process, group)
    try:
        assert state(process.pid) not in ("Z", ""), f"it finished before {what}"
        assert holds(), f"it moved past {what} before it was frozen"
        _send(process, number, group)
    finally:
        _send(process, signal.SIGCONT, group)


@contextlib.contextmanager
def paused(process: subprocess.Popen[str], still_writing: Callable[[], bool]) -> Iterator[None]:
    """Freeze ``process`` (SIGSTOP) while it writes, so that a second command meets it holding
    its output however fast either runs; afterwards it is sent SIGTERM and let go."""
    freeze(process)
    try:
        assert state(process.pid) not in ("Z", ""), "it finished before it was paused"
        assert still_writing(), "it finished writing before it was paused"
        yield
    finally:
        process.send_signal(signal.SIGTERM)  # pending until it runs again
        process.send_signal(signal.SIGCONT)


def digests(folder: Path) -> dict[str, str]:
    """The sha256 of every file under ``folder``, by relative path."""
    return {
        path.relative_to(folder).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


PLUGIN = '''\
"""A test's plugin: at chosen points of the command, a signal to the command itself (SIGSTOP
freezes it there, for the test to signal it in that state)."""
import builtins
import functools
import importlib
import re
import signal
import sys

TRIGGERS = {triggers!r}
FINALISING = {finalising!r}


def inside(frame, name):
    while frame is not None:
        if frame.f_code.co_name == name:
            return True
        frame = frame.f_back
    return False


def wrapped(original, when, around, name, count, matching):
    seen = [0]

    def signal_if_due(frame, args):
        if around and not inside(frame, around):
            return
        if matching and not (args and re.search(matching, str(args[0]))):
            return
        seen[0] += 1
        if seen[0] == count:
            signal.raise_signal(getattr(signal, name))

    @functools.wraps(original)
    def wrapper(*args, **kwargs):
        if when == "call":
            signal_if_due(sys._getframe(1), args)
        result = original(*args, **kwargs)
        if when == "return":
            signal_if_due(sys._getframe(1), args)
        return result

    return wrapper


for when, target, around, name, count, *matching in TRIGGERS:
    module_name, _, function = target.partition(":")
    module = importlib.import_module(module_name)
    original = getattr(module, function)
    setattr(module, function, wrapped(original, when, around, name, count, "".join(matching)))


class AtTheEnd:
    """Deleted as Python finalises its modules, after it has put the default handlers back."""

    def __del__(self):
        signal.raise_signal(getattr(signal, FINALISING))


if FINALISING:
    builtins.symcomp_test_at_the_end = AtTheEnd()
'''


def signalling_plugin(
    path: Path,
    *triggers: tuple[str, str, str, str, int] | tuple[str, str, str, str, int, str],
    finalising: str = "",
) -> Path:
    """Write a plugin (for ``symcomp --plugin PATH``) that makes the command signal itself at
    given points, deterministically: each trigger ``(when, "module:function", inside, signal,
    count[, matching])`` raises ``signal`` (a name: "SIGSTOP" freezes the command there,
    "SIGTERM" stops it) at the ``count``-th ``when`` ("call": as it is called; "return": as
    it returns) of that function when called (directly or not) from a function named
    ``inside`` (or from anywhere when it is "") with a first argument whose text the regular
    expression ``matching`` finds; the function is wrapped in its module, so a caller that
    looks it up there (a module's own global, an import after the plugin's) meets it.
    ``finalising``: a signal raised while Python finalises, after it has put the default
    signal handlers back."""
    path.write_text(
        PLUGIN.format(triggers=[list(trigger) for trigger in triggers], finalising=finalising),
        encoding="utf-8",
    )
    return path


def frozen(process: subprocess.Popen[str]) -> bool:
    """Whether ``process`` is stopped (SIGSTOP) and not ended."""
    return state(process.pid) in ("T", "t")


def signal_frozen(process: subprocess.Popen[str], number: int) -> None:
    """Once ``process`` has frozen itself (a :func:`signalling_plugin`'s SIGSTOP), send it
    signal ``number`` (it waits while the process is stopped) and let it go on."""
    wait_for(lambda: frozen(process) or process.poll() is not None)
    assert frozen(process), "it ended without reaching the point where it freezes"
    process.send_signal(number)
    process.send_signal(signal.SIGCONT)


def complete(folder: Path) -> bool:
    """Whether ``folder`` holds exactly its manifest and the files the manifest lists, each
    with the sha256 recorded there (no temporary beside them)."""
    import json

    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    listed = {name: record["sha256"] for name, record in manifest["files"].items()}
    found = digests(folder)
    return found.pop("manifest.json", None) is not None and found == listed
