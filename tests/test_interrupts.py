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
from pathlib import Path

import pytest

from tests.children import freeze, holds_lock, paused, run_here, start, stop_at, wait_for

pytestmark = [
    pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals"),
    pytest.mark.signals,
]


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
    stop_at(process, lambda: drawing(out), sig, what="drawing the pool")
    assert process.wait(timeout=60) == code, process.stderr.read() if process.stderr else ""
    assert sha(out / "examples.jsonl") == before
    assert sorted(p.name for p in out.iterdir()) == ["examples.jsonl", "manifest.json"]
    wait_for(lambda: not survivors(str(out)), seconds=10)  # no orphan workers


def drawing(out: Path) -> bool:
    """The pool in ``out`` is being drawn: its examples file is being written aside (and
    the manifest, written once they are complete, is not)."""
    return any(out.glob(".staging-*.tmp/.examples.jsonl.*.tmp")) and not any(
        out.glob(".staging-*.tmp/*manifest.json*")
    )


def test_suite_leaves_nothing_half_built(tmp_path: Path) -> None:
    out = tmp_path / "suite"
    process = start("suite", "pcfg-set", "--n", 60_000, "--out", out)

    def building() -> bool:  # its folder, assembled beside --out, has no manifest yet
        work = [p for p in tmp_path.glob(".suite.*") if p.is_dir()]
        return bool(work) and not any((p / "manifest.json").exists() for p in work)

    stop_at(process, building, signal.SIGTERM, what="building the suite")
    assert process.wait(timeout=60) == 143
    assert list(tmp_path.iterdir()) == []


def test_verify_stops_its_workers(tmp_path: Path) -> None:
    pool = tmp_path / "pairs"
    assert start("generate", "monotonicity", "--n", 4000, "--out", pool).wait(timeout=120) == 0
    process = start("verify", pool, "--jobs", 2)
    # the workers are proving: stopped there (a fixed sleep was either before symcomp had
    # started on a loaded machine, or after it had finished on a quiet one)
    stop_at(process, lambda: len(survivors(str(pool))) >= 3, signal.SIGTERM, what="proving")
    assert process.wait(timeout=60) == 143
    wait_for(lambda: not survivors(str(pool)), seconds=10)


def test_two_commands_cannot_write_one_folder(tmp_path: Path) -> None:
    out = tmp_path / "pool"
    first = start("generate", "pcfg-set", "--n", 300_000, "--out", out)
    lock = out / ".symcomp.lock"
    wait_for(lambda: holds_lock(lock) and drawing(out))
    with paused(first, lambda: holds_lock(lock) and drawing(out)):
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

    def between_checkpoints() -> bool:  # after the first epoch's, before the run is finished
        saved = (cut / "metrics.jsonl").is_file() and (cut / "resume.pt").is_file()
        return saved and not (cut / "summary.json").exists()

    stop_at(process, between_checkpoints, signal.SIGTERM, what="training")
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


def dispositions(pid: int) -> tuple[set[int], set[int]]:
    """The signals process ``pid`` ignores and those it catches (its handlers), from the
    kernel's masks in /proc/PID/status."""
    fields = dict(
        line.split(":\t", 1)
        for line in Path(f"/proc/{pid}/status").read_text().splitlines()
        if ":\t" in line
    )

    def numbers(mask: str) -> set[int]:
        bits = int(mask.strip(), 16)
        return {number for number in range(1, 65) if bits >> (number - 1) & 1}

    return numbers(fields["SigIgn"]), numbers(fields["SigCgt"])


def test_a_background_job_ignores_ctrl_c_and_stops_on_term(tmp_path: Path) -> None:
    """Started with SIGINT ignored (``cmd &`` in a script), symcomp keeps ignoring it (README)."""
    out = tmp_path / "pool"
    command = [sys.executable, "-c", "from symcomp.cli import main; main()"]
    command += ["generate", "pcfg-set", "--n", "400000", "--out", str(out)]

    def ignore_ctrl_c() -> None:
        signal.signal(signal.SIGINT, signal.SIG_IGN)

    process = subprocess.Popen(command, stderr=subprocess.PIPE, text=True, preexec_fn=ignore_ctrl_c)
    wait_for(lambda: drawing(out) or process.poll() is not None)
    freeze(process)  # drawing, with its handlers in place: Ctrl-C is still ignored
    ignored, caught = dispositions(process.pid)
    assert signal.SIGINT in ignored and signal.SIGTERM in caught
    process.send_signal(signal.SIGINT)  # discarded by the kernel: an ignored signal
    process.send_signal(signal.SIGTERM)  # waits until it runs again, and stops it
    process.send_signal(signal.SIGCONT)
    assert process.wait(timeout=60) == 143
    assert not out.exists() or not any(out.iterdir())
