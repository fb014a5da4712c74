"""Interrupting a command with worker processes prints one line, never a traceback: Ctrl-C or
a termination signal to the main process, or to the whole process group (a terminal's Ctrl-C,
``kill -- -PGID``), ends with exit 130 or 128 + the signal and the one-line message only (no
``ForkProcess … Terminated`` from the workers, no z3 ``__del__`` traceback at exit).

Every child starts with default signal dispositions in a process group of its own: pytest-xdist
workers ignore SIGINT, and a child would inherit that (and a group signal would reach pytest).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests import children
from tests.children import stop_at, wait_for

pytestmark = [
    pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals"),
    pytest.mark.signals,
]


def processes(marker: str) -> list[int]:
    """Processes whose command line mentions ``marker``: the command and its forked workers."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if marker in (entry / "cmdline").read_bytes().decode(errors="replace"):
                found.append(int(entry.name))
        except OSError:
            continue
    return found


def interrupt(
    process: subprocess.Popen[str], marker: str, sig: int, group: bool
) -> tuple[int, str]:
    """Send ``sig`` (to the command, or to its whole group) while its workers are running
    (the command and at least two of them: the workers are working); its exit and stderr."""
    stop_at(process, lambda: len(processes(marker)) >= 3, sig, group=group, what="its workers")
    _out, err = process.communicate(timeout=120)
    return process.returncode, err


def assert_quiet(code: int, expected: int, stderr: str) -> None:
    assert code == expected, stderr
    assert "Traceback" not in stderr, stderr
    assert "Terminated" not in stderr, stderr
    assert "Exception ignored" not in stderr, stderr
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert "no half-written file was left" in lines[0], stderr


CASES = [
    (signal.SIGINT, False, 130),
    (signal.SIGTERM, False, 143),
    (signal.SIGINT, True, 130),
    (signal.SIGTERM, True, 143),
]


@pytest.mark.parametrize(
    ("sig", "group", "code"), CASES, ids=["int", "term", "group-int", "group-term"]
)
def test_generate_with_workers_is_quiet(tmp_path: Path, sig: int, group: bool, code: int) -> None:
    out = tmp_path / f"pool-{sig}-{group}"
    process = children.start(
        "generate",
        "pcfg-set",
        "--n",
        2000,
        "--naturalize",
        "--jobs",
        2,
        "--out",
        out,
        own_group=True,
    )
    found, stderr = interrupt(process, str(out), sig, group)
    assert_quiet(found, code, stderr)
    wait_for(lambda: not processes(str(out)), seconds=10)  # no orphan workers


@pytest.fixture(scope="module")
def pairs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pool = tmp_path_factory.mktemp("quiet") / "pairs"
    command = ("generate", "monotonicity", "--n", 4000, "--out", pool)
    assert children.start(*command, own_group=True).wait(timeout=120) == 0
    return pool


@pytest.mark.parametrize(("sig", "group", "code"), [CASES[0], CASES[2]], ids=["int", "group-int"])
def test_verify_with_workers_is_quiet(pairs: Path, sig: int, group: bool, code: int) -> None:
    process = children.start("verify", pairs, "--jobs", 2, own_group=True)
    found, stderr = interrupt(process, str(pairs), sig, group)
    assert_quiet(found, code, stderr)
    wait_for(lambda: not processes(str(pairs)), seconds=10)


@pytest.mark.parametrize(("number", "code"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_failure_after_a_stop_signal_is_the_stop(
    monkeypatch: pytest.MonkeyPatch, number: int, code: int
) -> None:
    """A signal raised in the middle of an import leaves the module half-imported, and the
    command then fails with an ImportError: it was stopped, not broken (exit 128 + n, not 3)."""
    import click

    from symcomp.cli import app
    from symcomp.data import signals

    def broken_by_the_signal() -> None:
        raise ImportError("cannot load module more than once per process")

    monkeypatch.setattr(signals, "_received", [number])
    context = click.Context(click.Command("reproduce"))
    with pytest.raises(click.ClickException) as caught:
        app._guarded(context, context.command, broken_by_the_signal)
    assert caught.value.exit_code == code
    assert "no half-written file was left" in caught.value.message
