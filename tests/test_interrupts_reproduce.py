"""An interrupted ``symcomp reproduce`` continues when run again; two at once on one ``--out``
never both write it.

Children start with the default signal dispositions (pytest-xdist workers ignore SIGINT).
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests import children
from tests.children import finish, paused, run_here, wait_for

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")

PAPER = ("neely2020", "--scale", "tiny", "--device", "cpu")
RUNS = 5  # the task and four systematicity splits, one LSTM each


def start(*args: object) -> subprocess.Popen[str]:
    return children.start("-q", *args)


@pytest.mark.parametrize(
    ("sig", "after", "code"),
    # early (the suite is being built) and late (runs are training), counted from the
    # manifest, which is written first; a SIGTERM mid-way is
    # test_two_reproductions_cannot_write_one_folder's, continued there too
    [(signal.SIGINT, 1.5, 130), (signal.SIGTERM, 3.5, 143)],
    ids=["int-1.5s", "term-3.5s"],
)
def test_an_interrupted_reproduction_continues(
    tmp_path: Path, sig: int, after: float, code: int
) -> None:
    out = tmp_path / "r"
    process = start("reproduce", *PAPER, "--out", out)
    # counted from the start of the work, not of the process: on a loaded machine the signal
    # would otherwise arrive before Python has started symcomp and installed its handlers
    wait_for(lambda: (out / "manifest.json").exists() or process.poll() is not None)
    time.sleep(after)
    process.send_signal(sig)
    found, err = finish(process)
    assert found in (code, 0), err  # 0: it had finished (a slow machine is never too fast)
    assert "Traceback" not in err
    assert not list(tmp_path.rglob("*.tmp")), "a half-written file was left"
    if found == code:
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
    with paused(first, lambda: not (out / "results.json").exists()):
        found, err = finish(start("reproduce", *PAPER, "--out", out))
        assert found == 2 and "another symcomp command is writing" in err, err
    assert finish(first)[0] == 143
    again, err = run_here("-q", "reproduce", *PAPER, "--out", out)  # the first one, continued
    assert again == 0, err
    assert json.loads((out / "results.json").read_text())["run_count"] == RUNS
