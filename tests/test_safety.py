"""Names and paths read from data never leave their folder; overwrite never destroys a user's
files. Each case crafts the file a malicious or careless sender would, runs the command and
checks: exit 2, a message saying what and where, and nothing written or deleted."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from symcomp.cli import cli


def run(*args: object) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["-q", *(str(a) for a in args)])
    assert "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


@pytest.fixture(scope="module")
def built_suite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from symcomp.languages.pcfg_set.suite import PcfgSetSuiteSpec, build

    out = tmp_path_factory.mktemp("safety") / "suite"
    spec = PcfgSetSuiteSpec(
        n=300, seed=0, exception_ratios=(0.02,), per_function=20, per_length=2, export=False
    )
    build(out, spec)
    return out


@pytest.fixture
def suite(built_suite: Path, tmp_path: Path) -> Path:
    """A fresh copy of the suite, free to be tampered with."""
    return Path(shutil.copytree(built_suite, tmp_path / "suite"))


def edit_manifest(suite: Path, change) -> None:
    path = suite / "manifest.json"
    manifest = json.loads(path.read_text())
    change(manifest)
    path.write_text(json.dumps(manifest))


def rename_test(manifest: dict[str, Any], old: str, new: str) -> None:
    manifest["tests"] = {(new if k == old else k): v for k, v in manifest["tests"].items()}


TRAVERSALS = [
    "../../../../escaped/PWNED_by_name",
    "/tmp/absolute",
    "task/../../..",
    "a\\..\\..\\b",
    "nul\x00byte",
    "..",
    "",
]


@pytest.mark.parametrize("name", TRAVERSALS)
def test_a_traversal_test_name_is_refused_by_evaluate(suite: Path, name: str) -> None:
    edit_manifest(suite, lambda m: rename_test(m, "task", name))
    code, text = run("evaluate", suite, "--model", "oracle")
    assert code == 2
    assert "test name" in text and "manifest.json" in text
    assert "PWNED" not in text.replace(repr(name), "")  # the name appears only quoted


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("pool", "/etc/passwd"),
        ("pool", "../../../../../../etc/passwd"),
        ("split", "../outside/split.json"),
        ("pool", "C:\\Windows\\win.ini"),
    ],
)
def test_manifest_paths_outside_the_suite_are_refused(suite: Path, field: str, value: str) -> None:
    edit_manifest(suite, lambda m: m["tests"]["task"].__setitem__(field, value))
    code, text = run("evaluate", suite, "--model", "oracle", "--test", "task")
    assert code == 2
    assert "is not a path inside" in text and field in text


def test_an_aux_path_outside_the_suite_is_refused(suite: Path) -> None:
    edit_manifest(
        suite,
        lambda m: m["tests"]["substitutivity/primitive"]["aux"].__setitem__("pairs", "/etc/hosts"),
    )
    code, text = run("evaluate", suite, "--model", "oracle")
    assert code == 2 and "pairs file '/etc/hosts' is not a path inside" in text


def test_a_symbolic_link_out_of_the_suite_is_refused(suite: Path, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere.jsonl"
    shutil.copy(suite / "examples.jsonl", outside)
    (suite / "examples.jsonl").unlink()
    os.symlink(outside, suite / "examples.jsonl")
    code, text = run("evaluate", suite, "--model", "oracle", "--test", "task")
    assert code == 2 and "is not a path inside" in text


def test_an_edited_pool_is_refused(suite: Path) -> None:
    pool = suite / "examples.jsonl"
    lines = pool.read_text().splitlines()
    record = json.loads(lines[0])
    record["output"] = "tampered"
    pool.write_text("\n".join([json.dumps(record), *lines[1:]]) + "\n")
    code, text = run("evaluate", suite, "--model", "oracle", "--test", "task")
    assert code == 2 and "has changed since the suite was written" in text


def test_a_file_missing_from_the_manifest_is_refused(suite: Path) -> None:
    edit_manifest(suite, lambda m: m["files"].pop("task/split.json"))
    code, text = run("evaluate", suite, "--model", "oracle", "--test", "task")
    assert code == 2 and "not listed in manifest.json" in text


# -- overwrite only replaces what symcomp wrote -------------------------------------------------


def test_suite_overwrite_keeps_a_users_files(tmp_path: Path) -> None:
    out = tmp_path / "scan"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    code, text = run("suite", "scan", "--out", out, "--overwrite", "--no-export")
    assert code == 2
    assert "notes.txt" in text and "never replaces files it did not write" in text
    assert "--overwrite" not in text.split("never")[1]  # no advice to force it
    assert (out / "notes.txt").read_text() == "mine"
    assert sorted(p.name for p in out.iterdir()) == ["notes.txt"]
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no leftovers


# the smallest suite a built-in language writes (a second): what is checked is the suite writer
TINY_SUITE: tuple[object, ...] = ("suite", "cogs", "--n-train", 20, "--n-dev", 0, "--n-test", 0)
TINY_SUITE += ("--n-gen", 1, "--per-depth", 1, "--exposures-100", 1, "--no-export")


def test_suite_overwrite_replaces_an_earlier_suite_only(tmp_path: Path) -> None:
    out = tmp_path / "suite"
    assert run(*TINY_SUITE, "--out", out)[0] == 0
    code, text = run(*TINY_SUITE, "--out", out)
    assert code == 2 and "already holds a suite; pass --overwrite" in text
    assert run(*TINY_SUITE, "--out", out, "--overwrite")[0] == 0
    (out / "gen" / "mine.txt").write_text("mine")
    code, text = run(*TINY_SUITE, "--out", out, "--overwrite")
    assert code == 2 and "gen/mine.txt" in text
    assert (out / "gen" / "mine.txt").read_text() == "mine"


def test_suite_into_the_current_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    assert run(*TINY_SUITE, "--out", ".")[0] == 0
    assert (here / "manifest.json").is_file() and Path.cwd() == here
    assert run(*TINY_SUITE, "--out", ".", "--overwrite")[0] == 0
    assert (here / "gen" / "split.json").is_file()
    assert [p.name for p in tmp_path.iterdir()] == ["here"]


def test_generate_overwrite_never_replaces_a_users_file(tmp_path: Path) -> None:
    out = tmp_path / "pool"
    out.mkdir()
    (out / "examples.jsonl").write_text("my own data\n")
    code, text = run("generate", "scan", "--n", 10, "--out", out, "--overwrite")
    assert code == 2 and "symcomp did not write" in text
    assert (out / "examples.jsonl").read_text() == "my own data\n"
    (out / "examples.jsonl").unlink()
    assert run("generate", "scan", "--n", 10, "--out", out)[0] == 0
    code, text = run("generate", "scan", "--n", 10, "--out", out)
    assert code == 2 and "pass --overwrite" in text
    (out / "notes.txt").write_text("mine")
    assert run("generate", "scan", "--n", 12, "--out", out, "--overwrite")[0] == 0
    assert (out / "notes.txt").read_text() == "mine"
    assert len((out / "examples.jsonl").read_text().splitlines()) == 12


def test_export_overwrite_never_replaces_a_users_file(tmp_path: Path) -> None:
    pool = tmp_path / "pool"
    assert run("generate", "scan", "--n", 10, "--out", pool)[0] == 0
    target = tmp_path / "export"
    target.mkdir()
    (target / "examples.tsv").write_text("mine\n")
    code, text = run("export", pool, "--format", "tsv", "--out", target, "--overwrite")
    assert code == 2 and "symcomp did not write" in text
    assert (target / "examples.tsv").read_text() == "mine\n"


def test_hf_export_keeps_a_users_file_in_its_data_folder(tmp_path: Path) -> None:
    pool = tmp_path / "pool"
    assert run("generate", "scan", "--n", 10, "--out", pool)[0] == 0
    assert run("export", pool, "--format", "hf")[0] == 0
    data = pool / "export" / "hf" / "data"
    (data / "train-mine.jsonl").write_text("{}\n")
    assert run("generate", "scan", "--n", 11, "--out", pool, "--overwrite")[0] == 0
    assert run("export", pool, "--format", "hf", "--overwrite")[0] == 0
    assert (data / "train-mine.jsonl").read_text() == "{}\n"
    assert len([p for p in data.iterdir() if p.name != "train-mine.jsonl"]) == 1


def test_split_overwrite_never_replaces_a_non_split_file(tmp_path: Path) -> None:
    pool = tmp_path / "pool"
    assert run("generate", "scan", "--n", 40, "--out", pool)[0] == 0
    target = tmp_path / "notes.json"
    target.write_text('{"mine": true}')
    code, text = run("split", "random", pool, "--out", target, "--overwrite")
    assert code == 2 and "is not a split file" in text
    assert target.read_text() == '{"mine": true}'
    split = tmp_path / "split.json"
    assert run("split", "random", pool, "--out", split)[0] == 0
    assert run("split", "random", pool, "--out", split, "--overwrite", "--seed", "3")[0] == 0
