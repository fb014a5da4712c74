"""`symcomp train` and `symcomp evaluate --model RUN_DIR`: the model in the loop."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch
from click.testing import CliRunner

from symcomp.cli import cli


def run(*args: object) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["-q", *(str(a) for a in args)])
    assert "Traceback" not in result.output, result.output
    return result.exit_code, result.output


TINY = ("--preset", "tiny", "--set", "epochs=2", "--set", "dev_limit=5", "--set", "max_output=12")


def test_train_then_evaluate_a_run(tiny_pcfg_suite: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    code, text = run("train", tiny_pcfg_suite / "task", "--model", "lstms2s", *TINY, "--out", out)
    assert code == 0, text
    assert "task: test accuracy" in text
    config = json.loads((out / "config.json").read_text())
    assert config["model"] == "lstms2s" and config["data"]["test"] == "task"
    assert config["train"]["epochs"] == 2 and config["model_config"]["hidden"] == 32
    assert len((out / "metrics.jsonl").read_text().splitlines()) == 2
    code, text = run("evaluate", tiny_pcfg_suite, "--model", out, "--json")
    assert code == 0, text
    card = json.loads(text)["tests"]
    assert card["task"]["accuracy"] is not None
    assert card["localism"]["localism"]["consistency"] is not None  # ran step by step
    assert card["per_function"]["accuracy"] is not None  # test-only: the task run answers
    assert "note" in card["systematicity"]  # trained on another split: not scored
    code, text = run("evaluate", tiny_pcfg_suite, "--model", out, "--test", "localism")
    assert code == 0 and "localism" in text and "systematicity" not in text
    threads = torch.get_num_threads()
    try:
        code, text = run("evaluate", tiny_pcfg_suite, "--model", out, "--threads", "2")
        assert code == 0 and torch.get_num_threads() == 2, text
    finally:
        torch.set_num_threads(threads)
    code, text = run("evaluate", tiny_pcfg_suite, "--model", out, "--threads", "0")
    assert code == 2 and "--threads" in text


@pytest.mark.slow
def test_run_set_gives_the_full_report_card(tiny_pcfg_suite: Path, tmp_path: Path) -> None:
    out = tmp_path / "runs"
    code, text = run("train", tiny_pcfg_suite, "--model", "transformer", *TINY, "--out", out)
    assert code == 0, text
    runs = json.loads((out / "runs.json").read_text())["runs"]
    assert runs["localism"] == "task" and runs["systematicity"] == "systematicity"
    assert not (out / "localism").exists()
    code, text = run("evaluate", tiny_pcfg_suite, "--model", out, "--json")
    assert code == 0, text
    card = json.loads(text)["tests"]
    assert all("note" not in result for result in card.values())
    profile = card["overgeneralisation/ratio=0.02"]
    assert profile["exceptions"] == 8
    assert len(profile["profile"]) == 2  # one point per saved epoch
    assert card["substitutivity/primitive"]["consistency"] is not None


def test_classifier_run_set_on_arithmetic(tmp_path: Path) -> None:
    from symcomp.languages.arithmetic.suite import ArithmeticSuiteSpec, build

    suite = tmp_path / "coba"
    build(suite, ArithmeticSuiteSpec(in_domain=100, generalisation=40, export=False))
    out = tmp_path / "runs"
    code, text = run("train", suite, "--model", "treelstm", *TINY, "--out", out)
    assert code == 0, text
    predictions = (out / "random" / "predictions" / "test.tsv").read_text().splitlines()
    assert len(predictions) == 41 and all(line.split("\t")[2].isdigit() for line in predictions[1:])
    code, text = run("evaluate", suite, "--model", out, "--json")
    assert code == 0, text
    card = json.loads(text)["tests"]
    assert card["random"]["rmse"] is not None
    assert card["localism"]["pairs"]["harmonic"] is not None
    code, text = run("evaluate", suite, "--model", out / "random")  # one run: others n/a
    assert code == 0, text
    assert text.count("n/a") == 10 and "random" in text


def test_usage_errors(tiny_pcfg_suite: Path, tmp_path: Path) -> None:
    task = tiny_pcfg_suite / "task"
    code, text = run(
        "train", task, "--model", "lstms2s", "--set", "hiden=3", "--out", tmp_path / "x"
    )
    assert code == 2 and "did you mean 'hidden'" in text
    code, text = run(
        "train", task, "--model", "lstms2s", "--preset", "huge", "--out", tmp_path / "x"
    )
    assert code == 2 and "no preset 'huge'" in text
    code, text = run(
        "train", task, "--model", "lstms2s", "--set", "beam=wide", "--out", tmp_path / "x"
    )
    assert code == 2 and "not a int" in text
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "notes.txt").write_text("mine")
    code, text = run("train", task, "--model", "lstms2s", "--out", tmp_path / "full", "--overwrite")
    assert code == 2 and "did not write (notes.txt)" in text
    assert (tmp_path / "full" / "notes.txt").read_text() == "mine"
    code, text = run("evaluate", tiny_pcfg_suite, "--model", tmp_path / "full")
    assert code == 2 and "not a symcomp run" in text


def test_the_cli_knows_every_model() -> None:
    from symcomp.cli.train import MODELS as CLI_MODELS
    from symcomp.models.zoo import MODELS as ZOO_MODELS

    assert set(CLI_MODELS) == set(ZOO_MODELS)
