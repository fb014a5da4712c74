"""An interrupted ``symcomp reproduce`` continues when run again; two at once on one ``--out``
never both write it.

Children start with the default signal dispositions (pytest-xdist workers ignore SIGINT).
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests import children
from tests.children import finish, paused, run_here, stop_at, wait_for

pytestmark = [
    pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals"),
    pytest.mark.signals,
]

PAPER = ("neely2020", "--scale", "tiny", "--device", "cpu")
RUNS = 5  # the task and four systematicity splits, one LSTM each


def start(*args: object) -> subprocess.Popen[str]:
    return children.start("-q", *args)


def finished_runs(out: Path) -> int:
    return len(list(out.glob("runs/*/*/summary.json")))


def early(out: Path) -> bool:
    """Begun (the manifest is written first) and no epoch trained yet: building the suite,
    or starting the first run."""
    begun = (out / "manifest.json").exists()
    return begun and not any(out.glob("runs/*/*/metrics.jsonl"))


def late(out: Path) -> bool:
    """Training: a run finished, and another one not yet (so the results are far off)."""
    return 0 < finished_runs(out) < RUNS


@pytest.mark.parametrize(
    ("sig", "when", "code"),
    # a SIGTERM while the first run trains is test_two_reproductions_cannot_write_one_folder's,
    # continued there too
    [(signal.SIGINT, early, 130), (signal.SIGTERM, late, 143)],
    ids=["int-early", "term-late"],
)
def test_an_interrupted_reproduction_continues(
    tmp_path: Path, sig: int, when: Callable[[Path], bool], code: int
) -> None:
    out = tmp_path / "r"
    process = start("reproduce", *PAPER, "--out", out)
    stop_at(process, lambda: when(out), sig, what=when.__name__)
    found, err = finish(process)
    assert found == code, err
    assert "Traceback" not in err
    assert not list(tmp_path.rglob("*.tmp")), "a half-written file was left"
    assert not (out / "results.json").exists()  # no report of a reproduction not done
    again, err = run_here("-q", "reproduce", *PAPER, "--out", out)
    assert again == 0, err
    results = json.loads((out / "results.json").read_text())
    assert results["run_count"] == RUNS and all(run["epochs"] >= 1 for run in results["runs"])


def test_two_reproductions_cannot_write_one_folder(tmp_path: Path) -> None:
    out = tmp_path / "r"
    first = start("reproduce", *PAPER, "--out", out)
    manifest = out / "manifest.json"  # written first, under the lock
    wait_for(lambda: manifest.exists() or first.poll() is not None)
    with paused(first, lambda: finished_runs(out) < RUNS):
        found, err = finish(start("reproduce", *PAPER, "--out", out))
        assert found == 2 and "another symcomp command is writing" in err, err
    assert finish(first)[0] == 143
    again, err = run_here("-q", "reproduce", *PAPER, "--out", out)  # the first one, continued
    assert again == 0, err
    assert json.loads((out / "results.json").read_text())["run_count"] == RUNS
