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


@contextlib.contextmanager
def paused(process: subprocess.Popen[str], still_writing: Callable[[], bool]) -> Iterator[None]:
    """Freeze ``process`` (SIGSTOP) while it writes, so that a second command meets it holding
    its output however fast either runs; afterwards it is sent SIGTERM and let go."""
    process.send_signal(signal.SIGSTOP)
    try:
        assert process.poll() is None and still_writing(), "it finished before it was paused"
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
