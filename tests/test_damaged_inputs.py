"""Exit-2 messages that name the real cause: a suite whose manifest is cut short, and a
feature-shard folder that is the pool's own folder (or inside it, or around it)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SYMCOMP = str(Path(sys.executable).with_name("symcomp"))


def _symcomp(*args: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([SYMCOMP, *map(str, args)], capture_output=True, text=True, check=False)


def test_a_suite_whose_manifest_is_cut_short_is_called_damaged(
    scan_suite: Path, tmp_path: Path
) -> None:
    suite = tmp_path / "suite"
    (suite / "simple").mkdir(parents=True)
    text = (scan_suite / "manifest.json").read_text(encoding="utf-8")
    (suite / "manifest.json").write_text(text[: len(text) // 3], encoding="utf-8")
    model = ("--model", "transformer", "--preset", "tiny", "--out", tmp_path / "run")
    for command in (
        ("evaluate", suite, "--model", "oracle"),
        ("export", suite, "--format", "tsv", "--out", tmp_path / "tsv"),
        ("export", suite, "--format", "lm-eval", "--out", tmp_path / "lm"),
        ("train", suite / "simple", *model),
        ("train", suite, *model),
    ):
        done = _symcomp(*command)
        assert done.returncode == 2, (command, done.stderr)
        assert f"{suite.name}/manifest.json:" in done.stderr, done.stderr
        assert "cut short" in done.stderr and "The manifest is damaged" in done.stderr
        assert "not a suite" not in done.stderr and "not one" not in done.stderr
    assert not any(tmp_path.glob("run*")) and not any(tmp_path.glob("tsv*"))


def test_a_features_folder_must_be_apart_from_the_pool(tmp_path: Path) -> None:
    pool = tmp_path / "around" / "pool"
    assert _symcomp("generate", "scan", "--n", 60, "--out", pool).returncode == 0
    before = sorted(p.name for p in tmp_path.rglob("*"))
    for features, where in (
        (pool, "the pool's own folder"),
        (pool / "features", "inside the pool's folder"),
        (pool.parent, "a folder that holds the pool"),
    ):
        done = _symcomp("split", "dbca", pool, "--features", features, "--out", tmp_path / "s.json")
        assert done.returncode == 2, done.stderr
        assert f"--features {features} is {where}" in done.stderr
        assert f"such as {pool}.features" in done.stderr and "remove" not in done.stderr
    assert sorted(p.name for p in tmp_path.rglob("*")) == before  # nothing written, nothing lost
