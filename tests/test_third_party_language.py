"""A new language is a grammar, its sidecar and a package, and nothing else: the toy robot in
tests/plugins is installed the third-party way (a distribution with a ``symcomp.languages``
entry point on the path) and every generic command works on it, with no change to symcomp."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

PLUGINS = Path(__file__).parent / "plugins"


def symcomp(*args: object, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(PLUGINS)}
    env.pop("SYMCOMP_PLUGINS", None)
    command = [sys.executable, "-c", "from symcomp.cli import main; main()", *map(str, args)]
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def pool(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("robot")
    done = symcomp(
        "generate", "robot", "--n", 60, "--seed", 1, "--with-dag", "--out", "pool", cwd=folder
    )
    assert done.returncode == 0, done.stderr
    return folder / "pool"


def test_the_entry_point_registers_the_language(tmp_path: Path) -> None:
    done = symcomp("languages", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    rows = {row["name"]: row for row in json.loads(done.stdout)}
    assert rows["robot"]["version"] == "1.0"
    assert {"scan", "pcfg-set"} <= set(rows)  # found the same way as the built-ins


def test_generate_writes_interpreted_examples_with_dags(pool: Path) -> None:
    records = [json.loads(line) for line in (pool / "examples.jsonl").read_text().splitlines()]
    assert len(records) == 60
    assert all(r["output"].startswith("STEP_") and r["derivation"]["nodes"] for r in records)


def test_a_dbca_split_without_a_suite(pool: Path) -> None:
    done = symcomp("split", "dbca", pool, "--seed", 0, "--rounds", 1, "--out", "mcd.json", cwd=pool)
    assert done.returncode == 0, done.stderr
    split = json.loads((pool / "mcd.json").read_text())
    assert split["trainIdxs"] and split["testIdxs"]
    assert split["meta"]["compound_divergence"] > 0
    done = symcomp("divergence", pool, "mcd.json", "--json", cwd=pool)
    assert done.returncode == 0, done.stderr


def test_verify_recomputes_outputs_and_finds_an_edit(pool: Path, tmp_path: Path) -> None:
    done = symcomp("verify", pool, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = (pool / "examples.jsonl").read_text().splitlines()
    record = json.loads(lines[0])
    record["output"] = "STEP_NOWHERE"
    edited = tmp_path / "edited.jsonl"
    edited.write_text("\n".join([json.dumps(record), *lines[1:]]) + "\n")
    done = symcomp("verify", edited, "--language", "robot", cwd=tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "STEP_NOWHERE" in done.stdout
