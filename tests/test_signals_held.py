"""Held signals wait, whichever thread the kernel gives them to.

While the main thread holds the stopping signals (its signal mask blocks them), the kernel
gives a signal sent to the process to another thread, if there is one (a process pool's
manager, a status line), and Python then runs the handler in the main thread whatever its
mask: the stop used to be raised in the middle of the held steps (a swap of folders, the
removal of a temporary). The command line's handler only records a stop that arrives while
the signals are held; it is raised when the hold ends.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.children import default_signals

pytestmark = [
    pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals"),
    pytest.mark.signals,
]

SCRIPT = """
import os, signal, threading, time
from symcomp.cli.app import catch_signals
from symcomp.data.signals import Terminated, first_stop, signals_held

def ticking():  # a second thread at work, as a status line or a process pool's manager
    while True:
        time.sleep(0.01)


catch_signals()
threading.Thread(target=ticking, daemon=True).start()
reached = "not the end of the held steps"
try:
    with signals_held():
        os.kill(os.getpid(), signal.SIGTERM)  # held here: the other thread receives it
        deadline = time.monotonic() + 60  # a bound, not a wait: the handler runs at once
        while first_stop() is None and time.monotonic() < deadline:
            sum(range(100))
        reached = "the end of the held steps"
except Terminated:
    print(f"stopped after {reached}")
"""


def test_a_signal_another_thread_receives_waits_until_the_hold_ends() -> None:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=default_signals,
        check=False,
    )
    assert done.stdout.strip() == "stopped after the end of the held steps", done
