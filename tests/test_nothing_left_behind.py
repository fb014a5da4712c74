"""A command refused, or one that fails, leaves nothing it made: no output folder (nor the
folders above it that it made), and no reproduction still claimed complete.

Issue 48's item 11 (a task-name prefix too long for a file name) and the same kind elsewhere.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from symcomp.data.artifacts import EXAMPLES, MANIFEST, writing_into
from tests.children import run_here


@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("left")
    pool, split = root / "pool", root / "random.json"
    assert run_here("generate", "pcfg-set", "--n", 200, "--seed", 0, "--out", pool)[0] == 0
    assert run_here("split", "random", pool, "--seed", 0, "--out", split)[0] == 0
    out = root / "suite"
    assert run_here("suite", "from-splits", pool, split, "--out", out, "--no-export")[0] == 0
    return out


def test_a_task_prefix_too_long_for_a_file_name_is_refused_and_leaves_nothing(
    suite: Path, tmp_path: Path
) -> None:
    """Item 11: the message says the prefix is too long and how long it may be; the output
    folder (and the folders made for it) do not appear."""
    out = tmp_path / "made" / "for" / "it"
    code, output = run_here(
        "export", suite, "--format", "lm-eval", "--task-prefix", "p" * 260, "--out", out
    )
    assert code == 2, output
    assert "the task-name prefix is too long (260 characters)" in output
    assert "give a prefix of at most" in output and "File name too long" not in output
    assert list(tmp_path.iterdir()) == []
    longest = int(output.split("at most ")[1].split(" ")[0])
    code, output = run_here(
        "export", suite, "--format", "lm-eval", "--task-prefix", "p" * longest, "--out", out
    )
    assert code == 0, output  # the limit it gives is the limit


def test_an_output_folder_is_removed_when_preparing_it_fails(tmp_path: Path) -> None:
    """The folder (and those made above it) go again when a check after making it fails,
    here a name too long to look for in it."""
    out = tmp_path / "made" / "for" / "it"
    with pytest.raises(OSError), writing_into(out, overwrite=False, names=("n" * 300,)):
        pass
    assert list(tmp_path.iterdir()) == []


def test_a_suite_refused_leaves_no_folder_made_for_it(suite: Path, tmp_path: Path) -> None:
    """A suite is assembled beside --out, in the folder that holds it (made when missing):
    refused bad input (a split past the pool), that folder goes again."""
    split = tmp_path / "past.json"
    split.write_text('{"trainIdxs": [0, 99999], "devIdxs": [], "testIdxs": [1]}\n')
    pool = suite.parent / "pool"
    code, output = run_here(
        "suite", "from-splits", pool, split, "--out", tmp_path / "a" / "b" / "s"
    )
    assert code == 2 and "outside the pool" in output, output
    assert sorted(path.name for path in tmp_path.iterdir()) == ["past.json"]


def test_an_earlier_reproduction_stopped_while_deleted_is_no_longer_complete(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``reproduce --overwrite`` deletes the earlier reproduction first: stopped midway, what
    said it was complete (results.json, report.md) is gone already, so a rerun does not take
    the half-deleted one for a finished reproduction."""
    from symcomp.papers import runner

    out = tmp_path / "r"
    asked: dict[str, Any] = {"paper": "neely2020", "scale": "tiny", "seed": 0}
    manifest = {"format": runner.FORMAT, **asked, "files": {name: {} for name in runner.OWN}}
    out.mkdir()
    (out / MANIFEST).write_text(json.dumps(manifest))
    for name in runner.OWN:
        if "." in name:
            (out / name).write_text("{}")
        else:
            (out / name).mkdir()
            (out / name / EXAMPLES).write_text("")
    delete = runner._delete

    def stopped_at_the_runs(path: Path) -> None:
        if path.name == "runs":
            raise KeyboardInterrupt
        delete(path)

    monkeypatch.setattr(runner, "_delete", stopped_at_the_runs)
    with pytest.raises(KeyboardInterrupt):
        runner._claim(out, asked, overwrite=True)
    assert not (out / "results.json").exists() and not (out / "report.md").exists()
