"""`symcomp reproduce` follows the overwrite rule of every command, and its own files, when
damaged, are named with the way to repair them (exit 2, never a traceback or exit 3).

- ``--out`` holding the user's files, a pool, or a reproduction of another paper, scale or seed
  is refused; ``--overwrite`` replaces an earlier reproduction only;
- a truncated or array-valued ``summary.json`` or ``scores/*.json``, a damaged ``config.json``
  or ``resume.pt``, a half-written run without its checkpoint, a suite whose manifest or pool
  was edited: each is named, with the fix;
- every refusal (the table ``REFUSED``) leaves every file under ``--out`` as it found it: not
  a byte, not a time stamp changed (checked before anything is written), and the refusal is
  the only thing printed (no warning of torch's before it);
- a run stopped before its first epoch was saved is trained again, not refused.
"""

from __future__ import annotations

import hashlib
import json
import pickle
import shutil
import subprocess
import sys
from collections.abc import Callable
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


def untouched(folder: Path) -> dict[str, tuple[int, str, int, int]]:
    """Every file under ``folder`` (hidden ones too): size, sha256, modification time and
    inode; a file written again with the same bytes (replaced by a rename) differs too."""
    found = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file() and not path.is_symlink():
            stat = path.stat()
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
            found[path.relative_to(folder).as_posix()] = (
                stat.st_size,
                digest,
                stat.st_mtime_ns,
                stat.st_ino,
            )
    return found


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("reproduce") / "r"
    code, output = invoke("reproduce", *PAPER, "--out", out)
    assert code == 0, output
    return out


@pytest.fixture
def copy(finished: Path, tmp_path: Path) -> Path:
    return Path(shutil.copytree(finished, tmp_path / "r", symlinks=True))


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


# -- every refusal, and what it leaves -----------------------------------------------------------

Damage = Callable[[Path], None]


def written(where: str, text: str) -> Damage:
    def damage(folder: Path) -> None:
        (folder / where).write_text(text)

    return damage


def as_found(folder: Path) -> None:
    """The finished reproduction, undamaged (asked for with another seed or scale)."""


def half_written(folder: Path) -> None:
    """RUN stopped after its last epoch was saved, before its predictions and summary (and so
    before its scores and the results)."""
    run = folder / RUN
    (run / "summary.json").unlink()
    shutil.rmtree(run / "predictions")
    shutil.rmtree(folder / "scores")
    (folder / "results.json").unlink()


def and_then(*damages: Damage) -> Damage:
    def damage(folder: Path) -> None:
        for step in damages:
            step(folder)

    return damage


def without_checkpoints(folder: Path) -> None:
    shutil.rmtree(folder / RUN / "checkpoints")


class _Payload:
    """Unpickling this would create a file: proof that code ran."""

    def __reduce__(self) -> tuple[object, ...]:
        return (Path.write_text, (Path("PWNED"), "code ran"))


def crafted_resume(folder: Path) -> None:
    """A resume file holding a Python object, pickled with the protocol Python prefers (torch
    warns about protocols other than 2 before refusing)."""
    with (folder / RUN / "resume.pt").open("wb") as handle:
        pickle.dump({"module": _Payload()}, handle, protocol=pickle.DEFAULT_PROTOCOL)


def suite_manifest_edited(folder: Path) -> None:
    """The suite's manifest no longer lists its pool."""
    path = folder / "data/suite/manifest.json"
    manifest = json.loads(path.read_text())
    del manifest["files"]["examples.jsonl"]
    path.write_text(json.dumps(manifest, indent=2))


def suite_pool_edited(folder: Path) -> None:
    path = folder / "data/suite/examples.jsonl"
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join([lines[1], lines[0], *lines[2:]]))


def users_files(folder: Path) -> None:
    shutil.rmtree(folder)
    folder.mkdir()
    (folder / "report.md").write_text("my notes\n")
    (folder / "results.json").write_text('{"mine": true}\n')


def a_pool(folder: Path) -> None:
    shutil.rmtree(folder)
    assert invoke("generate", "pcfg-let", "--n", 20, "--out", folder)[0] == 0


def before_manifests(folder: Path) -> None:
    (folder / "manifest.json").unlink()


SUMMARY, SCORES = f"{RUN}/summary.json", "scores/task/LSTM-seed0.json"
REDO = f"Delete {{out}}/{RUN} to train the run again, or pass --overwrite to start anew"
# case, damage, further arguments, fragments of the message ({out}: the reproduction)
REFUSED: list[tuple[str, Damage, tuple[object, ...], tuple[str, ...]]] = [
    (
        "users-files",
        users_files,
        (),
        ("did not write (report.md, results.json)",),
    ),
    (
        "users-files-overwrite",
        users_files,
        ("--overwrite",),
        ("did not write (report.md, results.json)",),
    ),
    ("a-pool-overwrite", a_pool, ("--overwrite",), ("is a pool folder",)),
    (
        "another-seed",
        as_found,
        ("--seed", 3),
        ("with seed 0, not of neely2020 at scale tiny with seed 3", "--overwrite"),
    ),
    (
        "another-scale",
        as_found,
        ("--scale", "small"),
        ("at scale tiny with seed 0, not of neely2020 at scale small", "--overwrite"),
    ),
    ("before-manifests-another-seed", before_manifests, ("--seed", 3), ("with seed 0",)),
    (
        "manifest-truncated",
        written("manifest.json", '{"format": "symcomp.reprod'),
        (),
        ("manifest.json", "not valid JSON"),
    ),
    (
        "summary-truncated",
        written(SUMMARY, '{"epochs": 2, "test_acc'),
        (),
        ("summary.json", "not valid JSON", REDO),
    ),
    (
        "summary-array",
        written(SUMMARY, "[1, 2]"),
        (),
        ("summary.json", "must be a JSON object, not an array"),
    ),
    ("summary-nan", written(SUMMARY, '{"epochs": NaN}'), (), ("summary.json", "NaN")),
    (
        "scores-truncated",
        written(SCORES, '{"task": {"accur'),
        (),
        ("LSTM-seed0.json", "not valid JSON"),
    ),
    (
        "scores-string",
        written(SCORES, '"task"'),
        (),
        ("LSTM-seed0.json", "must be a JSON object, not a string"),
    ),
    (
        "config-truncated",
        written(f"{RUN}/config.json", '{"format": "symcomp-run", "mod'),
        (),
        ("config.json", "not valid JSON", REDO),
    ),
    (
        "config-truncated-half-written",
        and_then(half_written, written(f"{RUN}/config.json", '{"format": "symcomp-run", "mo')),
        (),
        ("config.json", "not valid JSON", REDO),
    ),
    (
        "half-written-without-checkpoint",
        and_then(half_written, without_checkpoints),
        (),
        ("checkpoints/epoch-002.pt", "is missing", REDO),
    ),
    (
        "resume-damaged",
        and_then(half_written, written(f"{RUN}/resume.pt", "garbage")),
        (),
        ("resume.pt: refused to load",),
    ),
    (
        "resume-crafted",
        and_then(half_written, crafted_resume),
        (),
        ("resume.pt: refused to load",),
    ),
    (
        "suite-manifest-edited",
        suite_manifest_edited,
        (),
        ("examples.jsonl is not listed in manifest.json; the manifest was edited",),
    ),
    (
        "suite-pool-edited",
        suite_pool_edited,
        (),
        ("data/suite/examples.jsonl has changed since the suite was written",),
    ),
]


def test_the_refusals_are_distinct() -> None:
    assert len({case[0] for case in REFUSED}) == len(REFUSED) >= 19


@pytest.mark.parametrize(
    ("case", "damage", "extra", "said"), REFUSED, ids=[case[0] for case in REFUSED]
)
def test_a_refused_reproduction_leaves_every_file_as_it_found_it(
    copy: Path,
    monkeypatch: pytest.MonkeyPatch,
    case: str,
    damage: Damage,
    extra: tuple[object, ...],
    said: tuple[str, ...],
) -> None:
    monkeypatch.chdir(copy.parent)  # where a crafted file's code would write, were it run
    damage(copy)
    before = untouched(copy)
    code, output = invoke("reproduce", *PAPER, "--out", copy, *extra)
    assert code == 2, f"{case}: exit {code}: {output}"
    for fragment in said:
        assert fragment.replace("{out}", str(copy)) in output, f"{case}: {fragment!r}: {output}"
    assert untouched(copy) == before, case
    assert not (copy.parent / "PWNED").exists()


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
