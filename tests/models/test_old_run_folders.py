"""A run folder written by an earlier symcomp still loads, evaluates and resumes.

``fixtures/run-before-26`` was written by symcomp before the run folder got one owner
(issue 26): a SCAN suite of 40 examples (``symcomp suite from-splits``, test ``random``) and a
one-epoch ``lstms2s`` run on it (``--preset tiny --set epochs=1 --set threads=1 --set
embedding=4 --set hidden=4 --set bidirectional=false --device cpu``). Its files are kept as they
were written; the tests work on a copy."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from symcomp.models.report import run_report_card
from symcomp.models.runs import load_run, runs_for_tests, train_run
from symcomp.models.zoo import resolve
from symcomp.suites.reading import Suite, read_test

FIXTURE = Path(__file__).parent / "fixtures" / "run-before-26"
SETS = ["threads=1", "embedding=4", "hidden=4", "bidirectional=false"]


@pytest.fixture
def old(tmp_path: Path) -> Path:
    shutil.copytree(FIXTURE, tmp_path / "old")
    return tmp_path / "old"


def written_predictions(run: Path) -> tuple[list[str], list[str]]:
    rows = (run / "predictions" / "test.tsv").read_text(encoding="utf-8").splitlines()[1:]
    return [row.split("\t")[0] for row in rows], [row.split("\t")[2] for row in rows]


def test_an_old_run_loads_and_predicts_what_it_wrote(old: Path) -> None:
    model = load_run(old / "run", device="cpu")
    sources, written = written_predictions(old / "run")
    assert model.epoch == 1
    assert model.predict(sources) == written


def test_an_old_run_evaluates_on_its_suite(old: Path) -> None:
    suite = Suite.read(old / "suite")
    assert runs_for_tests(old / "run", suite) == {"random": old / "run"}
    card = run_report_card(old / "suite", old / "run")
    summary = json.loads((old / "run" / "summary.json").read_text(encoding="utf-8"))
    assert card["tests"]["random"]["n"] == 4
    assert card["tests"]["random"]["accuracy"] == summary["test_accuracy"]


def test_an_old_run_resumes(old: Path) -> None:
    config = resolve("lstms2s", "tiny", [*SETS, "epochs=2"])
    summary = train_run(read_test(old / "suite" / "random"), config, old / "run", resume=True)
    assert summary["epochs"] == 2
    assert sorted(p.name for p in (old / "run" / "checkpoints").iterdir()) == [
        "epoch-001.pt",
        "epoch-002.pt",
    ]
    rows = (old / "run" / "metrics.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(row)["epoch"] for row in rows] == [1, 2]
    assert load_run(old / "run", device="cpu").epoch == 2
