"""From a split to a trained, scored model on the command line: ``generate → split dbca →
suite from-splits → train → evaluate``, the TOML experiment file, and bad input on the way."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from symcomp.cli import cli


def invoke(*args: object) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["-q", *(str(a) for a in args)])
    assert "Traceback" not in result.output, result.output
    return result.exit_code, result.output


@pytest.mark.slow
def test_generate_split_dbca_train_evaluate_on_an_mcd_split(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    import torch

    torch.set_num_threads(1)
    pool, split, suite, run = (tmp_path / name for name in ("scan", "mcd.json", "suite", "run"))
    code, output = invoke("generate", "scan", "--n", "5000", "--seed", "0", "--out", pool)
    assert code == 0, output
    assert "5,000 scan examples" in output
    code, output = invoke(
        "split", "dbca", pool, "--train-frac", "0.2", "--test-frac", "0.08", "--rounds", "0",
        "--candidates", "16", "--seeding", "off", "--out", split,
    )  # fmt: skip
    assert code == 0, output
    meta = json.loads(split.read_text())["meta"]
    assert meta["method"] == "mcd"
    assert meta["compound_divergence"] > 0.5
    code, output = invoke("suite", "from-splits", pool, split, "--out", suite, "--no-export")
    assert code == 0, output
    assert "mcd" in output
    code, output = invoke(
        "train", suite / "mcd", "--model", "lstms2s", "--preset", "tiny", "--set", "epochs=1",
        "--set", "threads=1", "--device", "cpu", "--out", run,
    )  # fmt: skip
    assert code == 0, output
    assert "mcd: test accuracy" in output
    code, output = invoke("evaluate", suite, "--model", run, "--threads", "1", "--json")
    assert code == 0, output
    card = json.loads(output)
    score = card["tests"]["mcd"]["accuracy"]
    assert 0.0 <= score <= 1.0
    code, output = invoke("evaluate", suite, "--model", "oracle", "--json")
    assert json.loads(output)["tests"]["mcd"]["accuracy"] == 1.0


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("small")
    assert invoke("generate", "scan", "--n", "120", "--seed", "2", "--out", root / "pool")[0] == 0
    assert invoke("generate", "scan", "--n", "90", "--seed", "3", "--out", root / "other")[0] == 0
    code, output = invoke("split", "random", root / "pool", "--out", root / "random.json")
    assert code == 0, output
    code, output = invoke("split", "random", root / "other", "--out", root / "foreign.json")
    assert code == 0, output
    return root


def test_suite_from_splits_scores_every_split(small: Path) -> None:
    code, output = invoke(
        "suite", "from-splits", small / "pool", small / "random.json", "--out", small / "suite"
    )
    assert code == 0, output
    code, output = invoke("evaluate", small / "suite", "--model", "oracle", "--json")
    assert code == 0, output
    assert json.loads(output)["tests"]["random"]["accuracy"] == 1.0


def test_a_split_of_another_pool_is_refused_by_its_sha256(small: Path, tmp_path: Path) -> None:
    for args in (
        ("suite", "from-splits", small / "pool", small / "foreign.json", "--out", tmp_path / "s"),
        ("export", small / "pool", "--split", small / "foreign.json", "--format", "hf",
         "--out", tmp_path / "e"),
    ):  # fmt: skip
        code, output = invoke(*args)
        assert code == 2, output
        assert "made for another pool" in output
        assert "foreign.json" in output
    assert not (tmp_path / "s").exists()
    assert not (tmp_path / "e").exists()


def test_a_split_with_a_missing_part_is_refused(small: Path, tmp_path: Path) -> None:
    empty = tmp_path / "empty.json"
    empty.write_text(json.dumps({"trainIdxs": [0, 1], "testIdxs": []}))
    missing = tmp_path / "missing.json"
    missing.write_text(json.dumps({"trainIdxs": [0, 1]}))
    for split, reason in ((empty, "empty test part"), (missing, "missing testIdxs")):
        for args in (
            ("suite", "from-splits", small / "pool", split, "--out", tmp_path / "s"),
            (
                "export",
                small / "pool",
                "--split",
                split,
                "--format",
                "tsv",
                "--out",
                tmp_path / "e",
            ),
        ):
            code, output = invoke(*args)
            assert code == 2, output
            assert reason in output, output
    assert not (tmp_path / "s").exists()
    assert not (tmp_path / "e").exists()


def test_config_file_is_read_and_the_command_line_wins(small: Path, tmp_path: Path) -> None:
    config = tmp_path / "run.toml"
    config.write_text(
        f"""
[generate]
language = "scan"
n = 25
seed = 5
out = "{tmp_path / "pool"}"

[split]
seed = 1
test-frac = 0.2

[split.random]
pool = "{tmp_path / "pool"}"
out = "{tmp_path / "split.json"}"

[evaluate]
model = ["oracle"]
json = true
"""
    )
    assert invoke("generate", "--config", config)[0] == 0
    assert sum(1 for _ in (tmp_path / "pool" / "examples.jsonl").open()) == 25
    code, output = invoke("generate", "--config", config, "--n", "30", "--overwrite")
    assert code == 0, output
    manifest = json.loads((tmp_path / "pool" / "manifest.json").read_text())
    assert (manifest["parameters"]["n"], manifest["seed"]) == (30, 5)
    assert invoke("split", "random", "--config", config)[0] == 0
    split = json.loads((tmp_path / "split.json").read_text())
    assert len(split["testIdxs"]) == 6  # 0.2 of 30
    assert (
        invoke("split", "random", "--config", config, "--test-frac", "0.1", "--overwrite")[0] == 0
    )
    assert len(json.loads((tmp_path / "split.json").read_text())["testIdxs"]) == 3
    code, output = invoke(
        "suite", "from-splits", tmp_path / "pool", tmp_path / "split.json", "--out", tmp_path / "s"
    )
    assert code == 0, output
    code, output = invoke("evaluate", tmp_path / "s", "--config", config)
    assert code == 0, output
    assert json.loads(output)["tests"]["split"]["accuracy"] == 1.0


def test_unknown_config_keys_name_the_key_and_the_file(tmp_path: Path) -> None:
    cases = {
        "[generate]\nlanguage = 'scan'\nsede = 3\n": "unknown key 'sede' in [generate]",
        "[genrate]\nn = 3\n": "unknown table 'genrate'",
        "seed = 3\n": "unknown key 'seed' at the top level",
        "[generate\n": "not valid TOML",
        "[split.random]\nmax-da = 0.1\n": "unknown key 'max-da' in [split.random]",
    }
    for number, (text, fragment) in enumerate(cases.items()):
        config = tmp_path / f"bad{number}.toml"
        config.write_text(text)
        command = ("split", "random", "x") if "split" in text else ("generate", "scan")
        code, output = invoke(*command, "--config", config, "--out", tmp_path / "o")
        assert code == 2, output
        assert fragment in output, output
        assert config.name in output


def test_checkpoints_are_read_in_natural_order(tmp_path: Path) -> None:
    from symcomp.metrics.predictions import prediction_files

    for epoch in (10, 2, 1, 21):
        (tmp_path / f"epoch{epoch}.tsv").write_text("")
    assert [p.name for p in prediction_files(tmp_path)] == [
        "epoch1.tsv",
        "epoch2.tsv",
        "epoch10.tsv",
        "epoch21.tsv",
    ]


def test_interpret_file_reports_bad_lines_and_prints_the_rest(tmp_path: Path) -> None:
    lines = tmp_path / "lines.txt"
    lines.write_text("walk twice\njump sideways\nrun left\n")
    result = CliRunner().invoke(cli, ["interpret", "scan", "--file", str(lines)])
    assert result.exit_code == 2
    assert result.stdout.splitlines() == ["I_WALK I_WALK", "I_TURN_LEFT I_RUN"]
    assert f"{lines}:2:" in result.stderr


def test_progress_stays_silent_in_pipes(small: Path) -> None:
    result = CliRunner().invoke(
        cli, ["divergence", str(small / "pool"), str(small / "random.json")]
    )
    assert result.exit_code == 0, result.output
    assert "\r" not in result.output
