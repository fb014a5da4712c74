"""Training and evaluating on a suite in fresh words: the run's language is the suite's, renamed
as its manifest says (a tree model parses the fresh words), and a run is scored only on a
suite in the words it was trained on."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

import symcomp
from symcomp.cli import cli
from symcomp.core.fresh_words import manifest_entry
from symcomp.data.splits import Split
from symcomp.suites.folder import SuiteWriter, suite_header

ONE_EPOCH = ("--preset", "tiny", "--set", "epochs=1", "--set", "threads=1")
COGS = (
    *("--n-train", "200", "--n-dev", "20", "--n-test", "20", "--n-gen", "4", "--per-depth", "1"),
    *("--exposures-100", "1", "--case", "subj_to_obj_common", "--no-export"),
)


def _run(*args: object) -> dict[str, Any]:
    result = CliRunner().invoke(cli, ["-q", *(str(a) for a in args)])
    assert result.exit_code == 0, result.output
    return json.loads(result.output) if "--json" in args else {}


def _refused(*args: object) -> str:
    result = CliRunner().invoke(cli, ["-q", *(str(a) for a in args)])
    assert result.exit_code == 2, result.output
    return result.output


def test_train_and_evaluate_on_a_fresh_words_suite(tmp_path: Path) -> None:
    suite, plain, runs = tmp_path / "cogs-fresh", tmp_path / "cogs", tmp_path / "runs"
    _run("suite", "cogs", *COGS, "--fresh-words", 3, "--out", suite)
    _run("train", suite, "--model", "transformer", *ONE_EPOCH, "--out", runs)
    card = _run("evaluate", suite, "--model", runs, "--json")
    assert card["tests"] and all(r["accuracy"] is not None for r in card["tests"].values())
    _run("suite", "cogs", *COGS, "--out", plain)  # the same suite in the original words
    said = _refused("evaluate", plain, "--model", runs)
    assert "in fresh words (seed 3)" in said and "in its own words" in said


def _classification_suite(out: Path, seed: int) -> Path:
    """A SCAN suite in fresh words whose outputs are labels (short or long input): a test a
    tree model (treelstm) learns, which reads the parse trees of its inputs."""
    scan = symcomp.get_language("scan")
    fresh = scan.draw_fresh_words(seed)
    tails = ("", " twice", " thrice", " left", " right twice", " and jump", " after walk left")
    inputs = [verb + tail for verb in ("jump", "walk", "run", "look") for tail in tails]
    records = [
        {
            "id": f"r{i}",
            "input": fresh.rename_text(text),
            "output": "short" if len(text.split()) <= 2 else "long",
        }
        for i, text in enumerate(inputs)
    ]
    split = Split.of(range(0, 28, 2), (), range(1, 28, 2))
    with SuiteWriter(out, overwrite=False, export=False) as writer:
        writer.write_records("examples.jsonl", records, "the pool")
        writer.add_test(
            "length",
            kind="accuracy",
            split=split,
            pool="examples.jsonl",
            records=records,
            description="short or long",
        )
        header = suite_header("toy", scan, seed, {}, fresh_words=manifest_entry(fresh, None))
        writer.finish(header, "Toy", "Inputs in fresh words, labelled by length.")
    return out


def test_a_tree_model_parses_the_fresh_words(tmp_path: Path) -> None:
    suite = _classification_suite(tmp_path / "toy", 0)
    run = tmp_path / "run"
    _run("train", suite / "length", "--model", "treelstm", *ONE_EPOCH, "--out", run)
    card = _run("evaluate", suite, "--model", run, "--json")
    assert card["tests"]["length"]["accuracy"] is not None
    other = _classification_suite(tmp_path / "other", 1)
    assert "seed 1" in _refused("evaluate", other, "--model", run)
