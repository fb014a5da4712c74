"""Interrupts: Ctrl-C and termination signals during long commands leave the previous complete
output or none (no temporary files, no worker processes), with exit 130 or 128 + the signal;
a killed training run resumes exactly; two commands cannot write into one folder at once."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.children import holds_lock, paused, run_here, start, wait_for

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")


def temporaries(folder: Path) -> list[Path]:
    return [p for p in folder.rglob(".*") if p.name != ".symcomp.lock" or p.exists()]


def survivors(marker: str) -> list[int]:
    """Processes whose command line mentions ``marker`` (a unique output path)."""
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


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_generate_keeps_the_previous_pool(tmp_path: Path, sig: int, code: int) -> None:
    out = tmp_path / f"pool-{sig}"
    assert start("generate", "pcfg-set", "--n", 50, "--out", out).wait(timeout=120) == 0
    before = sha(out / "examples.jsonl")
    process = start(
        "generate", "pcfg-set", "--n", 400_000, "--jobs", 2, "--out", out, "--overwrite"
    )
    wait_for(lambda: any(out.glob(".examples.jsonl.*.tmp")))
    process.send_signal(sig)
    assert process.wait(timeout=60) == code, process.stderr.read() if process.stderr else ""
    assert sha(out / "examples.jsonl") == before
    assert sorted(p.name for p in out.iterdir()) == ["examples.jsonl", "manifest.json"]
    wait_for(lambda: not survivors(str(out)), seconds=10)  # no orphan workers


def test_suite_leaves_nothing_half_built(tmp_path: Path) -> None:
    out = tmp_path / "suite"
    process = start("suite", "pcfg-set", "--n", 60_000, "--out", out)
    wait_for(lambda: any(p.name.startswith(".suite.") for p in tmp_path.iterdir()))
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=60) == 143
    assert list(tmp_path.iterdir()) == []


def test_verify_stops_its_workers(tmp_path: Path) -> None:
    pool = tmp_path / "pairs"
    assert start("generate", "monotonicity", "--n", 4000, "--out", pool).wait(timeout=120) == 0
    process = start("verify", pool, "--jobs", 2)
    # the workers are proving (a fixed sleep was either before symcomp had started on a loaded
    # machine, or after it had finished on a quiet one)
    wait_for(lambda: len(survivors(str(pool))) >= 3 or process.poll() is not None)
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=60) == 143
    wait_for(lambda: not survivors(str(pool)), seconds=10)


def test_two_commands_cannot_write_one_folder(tmp_path: Path) -> None:
    out = tmp_path / "pool"
    first = start("generate", "pcfg-set", "--n", 300_000, "--out", out)
    lock = out / ".symcomp.lock"
    wait_for(lambda: holds_lock(lock))
    with paused(first, lambda: holds_lock(lock)):
        second = start("generate", "scan", "--n", 5, "--out", out, "--overwrite")
        assert second.wait(timeout=120) == 2
        assert second.stderr is not None
        assert "another symcomp command is writing" in second.stderr.read()
    assert first.wait(timeout=60) == 143


def test_a_killed_training_run_resumes_exactly(tmp_path: Path) -> None:
    # a random split of 1,200 SCAN commands: three epochs of a few seconds each leave time to
    # kill the run between two checkpoints, after the first (the whole simple split took
    # minutes per run)
    pool, suite = tmp_path / "pool", tmp_path / "suite"
    assert start("generate", "scan", "--n", "1200", "--seed", "0", "--out", pool).wait(60) == 0
    split = pool / "random.json"
    assert start("split", "random", pool, "--seed", "0", "--out", split).wait(60) == 0
    assert start("suite", "from-splits", pool, split, "--out", suite, "--no-export").wait(60) == 0
    settings = ["--model", "lstms2s", "--preset", "tiny", "--set", "epochs=3"]
    settings += ["--set", "dev_limit=20", "--set", "threads=1", "--device", "cpu"]
    whole = tmp_path / "whole"
    assert run_here("train", suite / "random", *settings, "--out", whole)[0] == 0
    cut = tmp_path / "cut"
    process = start("train", suite / "random", *settings, "--out", cut)
    wait_for(lambda: (cut / "metrics.jsonl").is_file() and (cut / "resume.pt").is_file())
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=120) == 143
    assert not list(cut.rglob("*.partial")) and not list(cut.rglob(".*.tmp"))
    assert run_here("train", suite / "random", *settings, "--out", cut, "--resume")[0] == 0
    timing = {
        "train_seconds",
        "train_cpu_seconds",
        "examples_per_second",
        "examples_per_cpu_second",
        "seconds",
    }

    def rows(run: Path) -> list[dict[str, object]]:
        lines = (run / "metrics.jsonl").read_text().splitlines()
        return [{k: v for k, v in json.loads(line).items() if k not in timing} for line in lines]

    assert rows(cut) == rows(whole)
    assert (cut / "predictions" / "test.tsv").read_text() == (
        whole / "predictions" / "test.tsv"
    ).read_text()


def test_a_background_job_ignores_ctrl_c_and_stops_on_term(tmp_path: Path) -> None:
    """Started with SIGINT ignored (``cmd &`` in a script), symcomp keeps ignoring it (README)."""
    out = tmp_path / "pool"
    command = [sys.executable, "-c", "from symcomp.cli import main; main()"]
    command += ["generate", "pcfg-set", "--n", "400000", "--out", str(out)]

    def ignore_ctrl_c() -> None:
        signal.signal(signal.SIGINT, signal.SIG_IGN)

    process = subprocess.Popen(command, stderr=subprocess.PIPE, text=True, preexec_fn=ignore_ctrl_c)
    wait_for(lambda: any(out.glob(".examples.jsonl.*.tmp")))
    process.send_signal(signal.SIGINT)
    time.sleep(1)
    assert process.poll() is None  # still generating
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=60) == 143
    assert not out.exists() or not any(out.iterdir())
