"""A line of a JSON-lines or TSV file ends at ``\\n`` only.

``str.splitlines`` also splits at U+2028, U+2029, U+0085 (and other separators), which JSON
strings may hold raw: the harness writes its samples with ``ensure_ascii=False``, and so do
symcomp's own pools and suites. Every reader must keep such a line whole.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

SYMCOMP = str(Path(sys.executable).with_name("symcomp"))
SEPARATORS = ("\u2028", "\u2029", "\u0085")
TEST = "template_right"


def _symcomp(*args: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([SYMCOMP, *map(str, args)], capture_output=True, text=True, check=False)


def _card(*args: object) -> dict[str, Any]:
    done = _symcomp("evaluate", *args, "--json")
    assert done.returncode == 0, done.stderr
    return dict(json.loads(done.stdout))


@pytest.fixture(scope="module")
def exported(scan_suite: Path, tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    """The test documents of one SCAN test exported as a harness task."""
    out = tmp_path_factory.mktemp("export") / "lm-eval"
    done = _symcomp("export", scan_suite, "--format", "lm-eval", "--test", TEST, "--out", out)
    assert done.returncode == 0, done.stderr
    text = (out / "data" / TEST / "test.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.split("\n") if line]


def _answer(doc: dict[str, Any], index: int) -> str:
    """Every other answer right; the wrong ones hold a separator inside."""
    if index % 2 == 0:
        return str(doc["target"])
    return f"{doc['target']}{SEPARATORS[index % 3]}I_WALK"


def test_harness_samples_written_by_the_harness_itself_are_scored(
    scan_suite: Path, exported: list[dict[str, Any]], tmp_path: Path
) -> None:
    tracker_module = pytest.importorskip("lm_eval.loggers.evaluation_tracker")
    tracker = tracker_module.EvaluationTracker(output_path=str(tmp_path / "results.json"))
    tracker.date_id = "2026-11-28T12-00-00.000000"  # set by save_results_aggregated in a run
    samples = [
        {
            "doc_id": index,
            "doc": doc,
            "target": doc["target"],
            "arguments": [(f"Input: {doc['input']}\nOutput:", {"until": ["\n"]})],
            "resps": [[f" {_answer(doc, index)}{SEPARATORS[index % 3]}"]],
            "filtered_resps": [_answer(doc, index)],
            "filter": "remove_whitespace",
            "metrics": ["exact_match"],
        }
        for index, doc in enumerate(exported)
    ]
    tracker.save_results_samples(f"symcomp_scan_{TEST}", samples)
    [written] = tmp_path.glob("samples_*.jsonl")
    text = written.read_text(encoding="utf-8")
    assert all(separator in text for separator in SEPARATORS)  # written raw, not escaped
    card = _card(scan_suite, "--predictions", written)
    right = (len(exported) + 1) // 2
    assert card["tests"][TEST]["accuracy"] == right / len(exported)


def test_plain_prediction_files_keep_their_lines_whole(
    scan_suite: Path, exported: list[dict[str, Any]], tmp_path: Path
) -> None:
    jsonl = tmp_path / "predictions.jsonl"
    rows = [{"id": doc["id"], "prediction": _answer(doc, i)} for i, doc in enumerate(exported)]
    jsonl.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    right = (len(exported) + 1) // 2 / len(exported)
    assert (
        _card(scan_suite, "--predictions", jsonl, "--test", TEST)["tests"][TEST]["accuracy"]
        == right
    )
    tsv = tmp_path / "predictions.tsv"
    lines = [f"{d['input']}\t{d['target']}\t{_answer(d, i)}\n" for i, d in enumerate(exported)]
    tsv.write_text("".join(lines), encoding="utf-8")
    card = _card(scan_suite, "--predictions", tsv, "--test", TEST)
    assert card["tests"][TEST]["accuracy"] == right


def test_a_suite_over_a_pool_with_separators_in_its_inputs_is_read(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus.jsonl"
    rows = [{"input": f"a{i}\u2028b{i % 3}\u0085c", "output": f"x{i}\u2029y"} for i in range(40)]
    corpus.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    pool, suite = tmp_path / "pool", tmp_path / "suite"
    for command in (
        ("import", corpus, "--out", pool),
        ("split", "random", pool, "--out", tmp_path / "r.json"),
        ("suite", "from-splits", pool, tmp_path / "r.json", "--out", suite, "--no-export"),
    ):
        done = _symcomp(*command)
        assert done.returncode == 0, done.stderr
    assert "\u2028" in (suite / "examples.jsonl").read_text(encoding="utf-8")
    assert _card(suite, "--model", "oracle")["tests"]["r"]["accuracy"] == 1.0
