from pathlib import Path
from typing import Any

import pytest

from symcomp.errors import DataError
from symcomp.metrics.localism import localism_scores
from symcomp.metrics.predictions import (
    BY_ORDER,
    BY_SOURCE,
    PredictionRow,
    Predictions,
    aligned_predictions,
    read_rows,
)
from symcomp.metrics.scores import (
    consistency,
    eos_prefix_share,
    overgeneralisation_profile,
    sequence_accuracy,
)
from symcomp.suites.unroll import UnrolledRecord

PREDICTIONS = "pcfgset_am_i_compositional/model_predictions/transformer"


def test_published_transformer_accuracy(peers: Path):
    rows = read_rows(peers / PREDICTIONS / "pcfgset/run=1.txt")
    assert len(rows) == 9_721
    accuracy = sequence_accuracy([r.prediction for r in rows], [str(r.target) for r in rows])
    assert round(accuracy, 4) == 0.9070


def test_published_primitive_substitutivity_consistency(peers: Path):
    base = peers / PREDICTIONS / "substitutivity/primitive"
    original, synonym = read_rows(base / "run=1.txt"), read_rows(base / "run=1_synonym.txt")
    scores = consistency(
        [r.prediction for r in original],
        [r.prediction for r in synonym],
        [str(r.target) for r in original],
    )
    assert round(scores["consistency"], 4) == 0.8952


def test_consistency_definitions():
    scores = consistency(["A B", "", "X", "A"], ["A  B", "", "X", "B"], ["A B", "", "Y", "A"])
    assert scores["consistency"] == 0.5  # empty predictions are never consistent
    assert scores["consistent_correct"] == 0.25 and scores["consistent_wrong"] == 0.25
    # wrong pairs: the empty one? no (target is empty too) -> pairs 3 and 4 are wrong
    assert scores["consistency_among_wrong"] == 0.5


def test_eos_prefix_share_counts_only_strict_prefixes():
    assert eos_prefix_share(["A", "A B C", "B"], ["A B", "A B", "A B"]) == pytest.approx(1 / 3)
    assert eos_prefix_share(["A"], ["A"]) is None


def test_overgeneralisation_profile_and_peak():
    rule, exception = ["r1", "r2"], ["e1", "e2"]
    profile = overgeneralisation_profile([["e1", "x"], ["r1", "r2"], ["e1", "e2"]], rule, exception)
    assert [p["rule"] for p in profile["profile"]] == [0.0, 1.0, 0.0]
    assert profile["profile"][0]["neither"] == 0.5
    assert profile["peak"] == 1.0 and profile["peak_checkpoint"] == 1
    assert profile["final_exception"] == 1.0


def test_localism_detects_a_model_that_is_not_local():
    record = UnrolledRecord((("copy A B ", "*1"), ("reverse *1", "B A")), "reverse copy A B", "B A")

    def global_model(inputs: list[str]) -> list[str]:
        # right on whole programs, wrong on the substituted step
        return ["B A" if x == "reverse copy A B" else "A B" for x in inputs]

    scores = localism_scores([record], global_model)
    assert scores["consistency"] == 0.0 and scores["whole_accuracy"] == 1.0


def test_prediction_file_errors_name_the_line(tmp_path: Path):
    bad = tmp_path / "p.tsv"
    bad.write_text("source\ttarget\tprediction\na\tb\tc\nonly two\tcolumns\n")
    with pytest.raises(DataError, match=r"p.tsv:3: expected 3 TAB-separated columns"):
        read_rows(bad)
    bad_json = tmp_path / "p.jsonl"
    bad_json.write_text('{"id": "1", "prediction": "x"}\n{"id": 2}\n')
    with pytest.raises(DataError, match=r"p.jsonl:2: a prediction line needs"):
        read_rows(bad_json)
    table = Predictions()
    table.add(PredictionRow("x", id="1", where="f:1"))
    with pytest.raises(DataError, match=r"f:2: a second, different prediction"):
        table.add(PredictionRow("y", id="1", where="f:2"))


def test_aligned_predictions_check_order_and_count(tmp_path: Path):
    records = [{"id": "a", "input": "x y", "output": "1"}, {"id": "b", "input": "z", "output": "2"}]
    path = tmp_path / "p.tsv"
    path.write_text("x y\t1\t1\n")
    with pytest.raises(
        DataError, match="1 prediction rows but test has 2 inputs; the first unmatched is line 2"
    ):
        aligned_predictions(path, records, "test")
    path.write_text("x y\t1\t1\nz\t2\t3\n")
    assert aligned_predictions(path, records, "test") == (["1", "3"], BY_ORDER)
    path.write_text("z\t2\t3\nx y\t1\t1\n")  # another order: matched by source, and said so
    assert aligned_predictions(path, records, "test") == (["1", "3"], BY_SOURCE)
    path.write_text("z\t2\t2\nw\t1\t1\n")
    with pytest.raises(
        DataError, match=r"p.tsv:1: source 'z' is not input 1 .* input 1 \('x y'\) is in no row"
    ):
        aligned_predictions(path, records, "test")


def test_a_value_that_is_not_a_number_is_wrong_and_counted() -> None:
    from symcomp.metrics.values import pair_report, value_report

    records: list[dict[str, Any]] = [
        {"id": str(i), "meta": {"value": v, "operator_kinds": "add", "operators": 1}}
        for i, v in enumerate([3, 4, 5])
    ]
    report = value_report(records, ["3", "The answer is 4", "6"])
    assert report["not_a_number"] == 1
    assert report["accuracy"] == 1 / 3  # the sentence counts as a wrong answer
    assert report["rmse"] == (0.5) ** 0.5  # over the two values: (0 + 1) / 2
    by_id = {str(r["id"]): r for r in records}
    pairs = [
        {"representative": "0", "member": "1", "level": 1},
        {"representative": "0", "member": "2", "level": 1},
    ]
    found = pair_report(pairs, {"0": "3", "1": "four", "2": "5"}, by_id)
    assert found["not_a_number"] == 1 and found["pairs"] == 1
