"""`symcomp reproduce` follows the overwrite rule of every command, and its own files, when
damaged, are named with the way to repair them (exit 2, never a traceback or exit 3).

- ``--out`` holding the user's files, a pool, or a reproduction of another paper, scale or seed
  is refused and left as it was; ``--overwrite`` replaces an earlier reproduction only;
- a run stopped before its first epoch was saved is trained again, not refused;
- a truncated or array-valued ``summary.json`` or ``scores/*.json`` is named, with the fix;
- a crafted ``resume.pt`` is refused, and the refusal is the only thing printed (no warning of
  torch's before it).
"""

from __future__ import annotations

import hashlib
import json
import pickle
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from symcomp.cli import cli

PAPER = ("neely2020", "--scale", "tiny", "--device", "cpu")
RUN = "runs/task/LSTM-seed0"  # a run of the reproduction (two epochs at this scale)


def invoke(*args: object) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["-q", *(str(a) for a in args)])
    assert "Traceback" not in result.output, result.output
    return result.exit_code, result.output


def digests(folder: Path) -> dict[str, str]:
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("reproduce") / "r"
    code, output = invoke("reproduce", *PAPER, "--out", out)
    assert code == 0, output
    return out


@pytest.fixture
def copy(finished: Path, tmp_path: Path) -> Path:
    return Path(shutil.copytree(finished, tmp_path / "r", symlinks=True))


def test_the_users_own_report_and_results_are_never_replaced(tmp_path: Path) -> None:
    out = tmp_path / "r"
    out.mkdir()
    (out / "report.md").write_text("my notes\n")
    (out / "results.json").write_text('{"mine": true}\n')
    for extra in ((), ("--overwrite",)):
        code, output = invoke("reproduce", *PAPER, "--out", out, *extra)
        assert code == 2 and "did not write (report.md, results.json)" in output, output
        assert sorted(p.name for p in out.iterdir()) == ["report.md", "results.json"]
        assert (out / "report.md").read_text() == "my notes\n"


def test_a_pool_folder_is_not_a_reproduction(tmp_path: Path) -> None:
    pool = tmp_path / "pool"
    assert invoke("generate", "pcfg-let", "--n", 20, "--out", pool)[0] == 0
    before = digests(pool)
    code, output = invoke("reproduce", *PAPER, "--out", pool, "--overwrite")
    assert code == 2 and "is a pool folder" in output, output
    assert digests(pool) == before


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (("--seed", 3), "with seed 0, not of neely2020 at scale tiny with seed 3"),
        (("--scale", "small"), "at scale tiny with seed 0, not of neely2020 at scale small"),
    ],
    ids=["seed", "scale"],
)
def test_another_reproduction_is_refused_without_overwrite(
    copy: Path, change: tuple[object, ...], said: str
) -> None:
    before = digests(copy)
    code, output = invoke("reproduce", *PAPER, "--out", copy, *change)
    assert code == 2 and said in output and "--overwrite" in output, output
    assert digests(copy) == before


def test_overwrite_rebuilds_the_data_with_the_new_seed(copy: Path) -> None:
    (copy / "notes.txt").write_text("kept\n")  # not the reproduction's: never deleted
    code, output = invoke("reproduce", *PAPER, "--out", copy, "--seed", 3, "--overwrite")
    assert code == 0, output
    assert json.loads((copy / "results.json").read_text())["seed"] == 3
    assert json.loads((copy / "data" / "suite" / "manifest.json").read_text())["seed"] == 3
    assert json.loads((copy / "manifest.json").read_text())["seed"] == 3
    assert (copy / "notes.txt").read_text() == "kept\n"
    assert sorted(p.name for p in (copy / "runs" / "task").iterdir()) == ["LSTM-seed3"]


def test_a_run_stopped_before_its_first_epoch_is_trained_again(copy: Path) -> None:
    run = copy / "runs" / "task" / "LSTM-seed0"
    for name in ("summary.json", "resume.pt", "metrics.jsonl"):
        (run / name).unlink()
    shutil.rmtree(run / "checkpoints")
    shutil.rmtree(copy / "scores")
    code, output = invoke("reproduce", *PAPER, "--out", copy)
    assert code == 0, output
    assert json.loads((run / "summary.json").read_text())["epochs"] >= 1


@pytest.mark.parametrize(
    ("where", "text", "said"),
    [
        ("runs/task/LSTM-seed0/summary.json", '{"epochs": 2, "test_acc', "not valid JSON"),
        ("runs/task/LSTM-seed0/summary.json", "[1, 2]", "must be a JSON object, not an array"),
        ("runs/task/LSTM-seed0/summary.json", '{"epochs": NaN}', "NaN"),
        ("scores/task/LSTM-seed0.json", '{"task": {"accur', "not valid JSON"),
        ("scores/task/LSTM-seed0.json", '"task"', "must be a JSON object, not a string"),
        ("manifest.json", '{"format": "symcomp.reprod', "not valid JSON"),
    ],
    ids=[
        "summary-truncated",
        "summary-array",
        "summary-nan",
        "scores-truncated",
        "scores-string",
        "manifest-truncated",
    ],
)
def test_a_damaged_file_of_the_reproduction_is_named(
    copy: Path, where: str, text: str, said: str
) -> None:
    (copy / where).write_text(text)
    code, output = invoke("reproduce", *PAPER, "--out", copy)
    assert code == 2 and where.split("/")[-1] in output and said in output, output
    assert (copy / where).read_text() == text


def test_a_reproduction_written_before_manifests_is_continued(copy: Path) -> None:
    """Written by a symcomp that wrote no manifest.json: recognised by its results.json."""
    (copy / "manifest.json").unlink()
    checkpoints = sorted(copy.glob("runs/*/*/checkpoints/*.pt"))
    stamps = [p.stat().st_mtime_ns for p in checkpoints]
    code, output = invoke("reproduce", *PAPER, "--out", copy, "--seed", 3)
    assert code == 2 and "with seed 0" in output, output
    assert invoke("reproduce", *PAPER, "--out", copy)[0] == 0
    assert [p.stat().st_mtime_ns for p in checkpoints] == stamps  # nothing trained again
    assert json.loads((copy / "manifest.json").read_text())["seed"] == 0


def half_written(folder: Path) -> None:
    """RUN stopped after its last epoch was saved, before its predictions and summary (and so
    before its scores and the results)."""
    run = folder / RUN
    (run / "summary.json").unlink()
    shutil.rmtree(run / "predictions")
    shutil.rmtree(folder / "scores")
    (folder / "results.json").unlink()


class _Payload:
    """Unpickling this would create a file: proof that code ran."""

    def __reduce__(self) -> tuple[object, ...]:
        return (Path.write_text, (Path("PWNED"), "code ran"))


def crafted_resume(folder: Path) -> None:
    """A resume file holding a Python object, pickled with the protocol Python prefers (torch
    warns about protocols other than 2 before refusing)."""
    with (folder / RUN / "resume.pt").open("wb") as handle:
        pickle.dump({"module": _Payload()}, handle, protocol=pickle.DEFAULT_PROTOCOL)


def test_a_crafted_resume_file_is_refused_with_nothing_else_printed(copy: Path) -> None:
    """What a user reads is symcomp's refusal, not a warning of torch's about the pickle."""
    half_written(copy)
    crafted_resume(copy)
    command = [sys.executable, "-c", "from symcomp.cli import main; main()", "-q", "reproduce"]
    done = subprocess.run(
        [*command, *PAPER, "--out", str(copy)],
        cwd=copy.parent,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    assert done.stderr.startswith(f"Error: {copy / RUN / 'resume.pt'}: refused to load")
    assert done.stderr.count("\n") == 1 and "Warning" not in done.stderr, done.stderr
    assert not (copy.parent / "PWNED").exists()
