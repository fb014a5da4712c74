"""Interrupted and concurrent writers of exports, splits and suites.

An export is assembled in a staging folder inside ``--out`` and moved into place whole: a
Ctrl-C, SIGTERM or SIGHUP while it is written leaves the previous complete export (every file
as it was) or no folder at all, and no temporary file, with exit 130, 143 or 129. Two commands
writing one ``--out`` at once (export, split, suite) never both succeed: the second is refused
with exit 2 while the first holds it.

Children start with the default signal dispositions: pytest-xdist workers ignore SIGINT, and a
child would inherit that and never be interrupted.
"""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests import children
from tests.children import digests, finish, holds_lock, paused, stop_at, wait_for

pytestmark = [
    pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals"),
    pytest.mark.signals,
]

CONFIGS = 40  # configurations of the interrupted export: long enough to catch it writing


def start(*args: object) -> subprocess.Popen[str]:
    return children.start("-q", *args)


def leftovers(root: Path) -> list[Path]:
    return [p for p in root.rglob(".*") if p.name.endswith((".tmp", ".lock"))]


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("interrupted-outputs")
    pool = root / "pool"
    assert finish(start("generate", "pcfg-set", "--n", 8_000, "--out", pool))[0] == 0
    splits = root / "splits"
    splits.mkdir()
    first = splits / "r1.json"
    args = ("--train-frac", 0.8, "--test-frac", 0.2, "--out", first)
    assert finish(start("split", "random", pool, *args))[0] == 0
    for number in range(2, CONFIGS + 1):
        shutil.copy(first, splits / f"r{number}.json")
    return {"pool": pool, "splits": splits}


def export_args(made: dict[str, Path], fmt: str, out: Path) -> list[object]:
    args: list[object] = ["export", made["pool"], "--format", fmt, "--out", out]
    for number in range(1, CONFIGS + 1):
        args += ["--split", made["splits"] / f"r{number}.json"]
    return args


def writing(out: Path) -> bool:
    """The export is being written: its staging folder holds a second configuration, and not
    yet the manifest (written once every file is, before the export is put in place)."""
    return any(
        ((stage / "r2").exists() or (stage / "data" / "r2").exists())
        and not any(stage.glob("*manifest.json*"))
        for stage in out.glob(".staging-*.tmp")
    )


@pytest.mark.parametrize(
    ("fmt", "sig", "code", "again"),
    [
        ("tsv", signal.SIGINT, 130, False),
        ("hf", signal.SIGTERM, 143, False),
        ("genbench", signal.SIGHUP, 129, False),
        ("tsv", signal.SIGTERM, 143, True),
        ("hf", signal.SIGINT, 130, True),
        ("genbench", signal.SIGTERM, 143, True),
    ],
    ids=lambda value: str(value),
)
def test_an_interrupted_export_leaves_the_previous_one_or_none(
    made: dict[str, Path], tmp_path: Path, fmt: str, sig: int, code: int, again: bool
) -> None:
    out = tmp_path / "e"
    args = export_args(made, fmt, out)
    before: dict[str, str] | None = None
    if again:  # a complete earlier export of the same, to be replaced
        assert finish(start(*args))[0] == 0
        before = digests(out)
        args.append("--overwrite")
    process = start(*args)
    stop_at(process, lambda: writing(out), sig, what="writing the export")
    found, err = finish(process)
    assert found == code, err
    assert "Traceback" not in err
    if before is None:
        assert not out.exists()
    else:
        assert digests(out) == before
    assert leftovers(tmp_path) == []


def test_two_exports_cannot_write_one_folder(made: dict[str, Path], tmp_path: Path) -> None:
    out = tmp_path / "e"
    first = start(*export_args(made, "tsv", out))
    wait_for(lambda: writing(out) or first.poll() is not None)
    with paused(first, lambda: writing(out)):
        second = start("export", made["pool"], "--format", "hf", "--out", out, "--overwrite")
        found, err = finish(second)
        assert found == 2 and "another symcomp command is writing" in err, err
    assert finish(first)[0] == 143
    assert not out.exists() and leftovers(tmp_path) == []


def test_two_splits_cannot_write_one_file(made: dict[str, Path], tmp_path: Path) -> None:
    out = tmp_path / "mcd.json"
    first = start("split", "dbca", made["pool"], "--out", out)
    lock = tmp_path / ".mcd.json.symcomp.lock"

    def searching() -> bool:  # holding --out, the split not yet being written
        return holds_lock(lock) and not any(tmp_path.glob(".mcd.json.*.tmp"))

    wait_for(lambda: searching() or first.poll() is not None)
    with paused(first, searching):
        for second in (
            start("split", "random", made["pool"], "--out", out),
            start("split", "dbca", made["pool"], "--rounds", 0, "--out", out, "--overwrite"),
        ):
            found, err = finish(second)
            assert found == 2 and "another symcomp command is writing" in err, err
    assert finish(first)[0] == 143
    assert not out.exists() and leftovers(tmp_path) == []


def test_two_suites_cannot_write_one_folder(made: dict[str, Path], tmp_path: Path) -> None:
    out = tmp_path / "suite"
    first = start("suite", "pcfg-set", "--n", 60_000, "--out", out)
    lock = tmp_path / ".suite.symcomp.lock"

    def building() -> bool:  # holding --out, the suite beside it without its manifest yet
        work = [p for p in tmp_path.glob(".suite.*") if p.is_dir()]
        done = any((p / "manifest.json").exists() for p in work)
        return holds_lock(lock) and bool(work) and not done

    wait_for(lambda: building() or first.poll() is not None)
    split = made["splits"] / "r1.json"
    with paused(first, building):
        for second in (
            start("suite", "scan", "--out", out),
            start("suite", "from-splits", made["pool"], split, "--out", out, "--overwrite"),
        ):
            found, err = finish(second)
            assert found == 2 and "another symcomp command is writing" in err, err
    assert finish(first)[0] == 143
    assert list(tmp_path.iterdir()) == []


def test_two_monotonicity_pools_cannot_write_one_folder(tmp_path: Path) -> None:
    out = tmp_path / "mono"
    first = start("generate", "monotonicity", "--n", 200_000, "--out", out)
    lock = out / ".symcomp.lock"

    def drawing() -> bool:  # holding --out, its manifest not yet written
        return holds_lock(lock) and not any(out.glob(".staging-*.tmp/*manifest.json*"))

    wait_for(lambda: drawing() or first.poll() is not None)
    with paused(first, drawing):
        found, err = finish(
            start("generate", "monotonicity", "--n", 10, "--out", out, "--overwrite")
        )
        assert found == 2 and "another symcomp command is writing" in err, err
    assert finish(first)[0] == 143
    assert not out.exists() and leftovers(tmp_path) == []
