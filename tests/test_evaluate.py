"""`symcomp evaluate` on a generated PCFG SET suite."""

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from symcomp.cli import cli
from symcomp.data.splits import read_split
from symcomp.metrics.report import PredictionSource, evaluate_suite


def run(*args: object) -> tuple[int, str]:
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert "Traceback" not in result.output
    return result.exit_code, result.output


def suite_parts(suite: Path) -> dict[str, list[dict[str, Any]]]:
    manifest = json.loads((suite / "manifest.json").read_text())
    out = {}
    for name, entry in manifest["tests"].items():
        pool = [json.loads(line) for line in (suite / entry["pool"]).read_text().splitlines()]
        split = read_split(suite / entry["split"], len(pool))
        out[name] = [pool[i] for i in split.test]
    return out


def corrupted(record_id: str) -> bool:
    return int(hashlib.sha256(record_id.encode()).hexdigest(), 16) % 7 == 0


def test_oracle_scores_one_everywhere(pcfg_set_suite: Path):
    card = evaluate_suite(pcfg_set_suite, PredictionSource.oracle())
    for name, result in card["tests"].items():
        if result["kind"] == "accuracy":
            assert result["accuracy"] == 1.0, name
            assert all(v["accuracy"] == 1.0 for v in result["by_length"].values())
        elif result["kind"] == "substitutivity":
            assert result["consistency"] == result["consistent_correct"] == 1.0
        elif result["kind"] == "localism":
            assert result["accuracy"] == 1.0
            assert result["localism"]["consistency"] == result["localism"]["unrolled_accuracy"] == 1
            assert all(
                cell["accuracy"] == 1.0
                for table in result["increasing_length"].values()
                for cell in table.values()
            )
        elif result["exceptions"]:
            assert result["final_exception"] == 1.0 and result["peak"] == 0.0, name


def test_corrupted_predictions_score_exactly_the_corruption_rate(
    pcfg_set_suite: Path, tmp_path: Path
):
    parts = suite_parts(pcfg_set_suite)
    rows = {}
    for records in parts.values():
        for record in records:
            wrong = corrupted(record["id"])
            rows[record["id"]] = record["output"] + " Z99" if wrong else record["output"]
    path = tmp_path / "predictions.jsonl"
    path.write_text("".join(json.dumps({"id": i, "prediction": p}) + "\n" for i, p in rows.items()))
    code, output = run("evaluate", pcfg_set_suite, "--predictions", path, "--json")
    assert code == 0, output
    card = json.loads(output)
    for name in ("task", "systematicity", "productivity", "per_function"):
        records = parts[name]
        expected = 1 - sum(corrupted(r["id"]) for r in records) / len(records)
        assert card["tests"][name]["accuracy"] == pytest.approx(expected, abs=1e-12)
        assert 0 < card["tests"][name]["accuracy"] < 1
    assert card["tests"]["localism"]["localism"]["consistency"] is None  # needs a model


def test_report_card_table_with_two_models(pcfg_set_suite: Path):
    code, output = run("evaluate", pcfg_set_suite, "--model", "oracle", "--model", "copy-strings")
    assert code == 0
    header, _, *lines = output.splitlines()
    assert "oracle" in header and "copy-strings" in header
    rows = [line for line in lines if not line.startswith(" ")]
    follow_ups = [line.split()[:2] for line in lines if line.startswith(" ")]
    assert ["consistent", "&"] in follow_ups and ["unrolled", "accuracy"] in follow_ups
    task = next(row for row in rows if row.startswith("task "))
    assert task.split()[-2] == "1.0000" and float(task.split()[-1]) < 0.1
    assert {row.split()[0].split("/")[0] for row in rows} == {
        "task",
        "systematicity",
        "productivity",
        "substitutivity",
        "localism",
        "overgeneralisation",
        "per_function",
    }


def test_user_model_from_a_file(pcfg_set_suite: Path, tmp_path: Path):
    model = tmp_path / "mymodel.py"
    model.write_text("def predict(inputs):\n    return ['' for _ in inputs]\n")
    code, output = run(
        "evaluate", pcfg_set_suite, "--model", f"{model}:predict", "--test", "task", "--json"
    )
    assert code == 0, output
    assert json.loads(output)["tests"]["task"]["accuracy"] == 0.0


def test_checkpoints_give_the_overgeneralisation_profile(pcfg_set_suite: Path, tmp_path: Path):
    name = "overgeneralisation/ratio=0.005"
    exceptions = [
        json.loads(line)
        for line in (pcfg_set_suite / name / "exceptions.jsonl").read_text().splitlines()
    ]
    folder = tmp_path / "checkpoints"
    folder.mkdir()
    for epoch, key in ((1, "rule_output"), (2, "exception_output")):
        (folder / f"epoch={epoch}.jsonl").write_text(
            "".join(json.dumps({"id": e["id"], "prediction": e[key]}) + "\n" for e in exceptions)
        )
    code, output = run(
        "evaluate",
        pcfg_set_suite,
        "--model",
        "oracle",
        "--checkpoints",
        folder,
        "--test",
        name,
        "--json",
    )
    assert code == 0, output
    result = json.loads(output)["tests"][name]
    assert [p["rule"] for p in result["profile"]] == [1.0, 0.0]
    assert result["peak"] == 1.0 and result["peak_checkpoint"] == 0
    assert result["final_exception"] == 1.0


def test_missing_predictions_name_the_first_missing_input(pcfg_set_suite: Path, tmp_path: Path):
    task = suite_parts(pcfg_set_suite)["task"]
    path = tmp_path / "partial.jsonl"
    path.write_text(
        "".join(json.dumps({"id": r["id"], "prediction": r["output"]}) + "\n" for r in task[1:])
    )
    code, output = run("evaluate", pcfg_set_suite, "--predictions", path, "--test", "task")
    assert code == 2
    assert f"no prediction for 1 of the {len(task):,} inputs of test 'task'" in output
    assert f"the first is input 1 (id {task[0]['id']})" in output


def test_aligned_tsv_with_wrong_length_or_columns(pcfg_set_suite: Path, tmp_path: Path):
    task = suite_parts(pcfg_set_suite)["task"]
    short = tmp_path / "short.tsv"
    short.write_text(
        "source\ttarget\tprediction\n"
        + "".join(f"{r['input']}\t{r['output']}\t{r['output']}\n" for r in task[:-1])
    )
    code, output = run("evaluate", pcfg_set_suite, "--predictions", short, "--test", "task")
    assert code == 2 and f"the first unmatched is line {len(task)}" in output
    broken = tmp_path / "broken.tsv"
    broken.write_text(f"{task[0]['input']}\t{task[0]['output']}\n")
    code, output = run("evaluate", pcfg_set_suite, "--predictions", broken, "--test", "task")
    assert code == 2 and "broken.tsv:1: expected 3 TAB-separated columns" in output
    full = tmp_path / "full.tsv"
    full.write_text("".join(f"{r['input']}\t{r['output']}\t{r['output']}\n" for r in task))
    code, output = run(
        "evaluate", pcfg_set_suite, "--predictions", full, "--test", "task", "--json"
    )
    assert code == 0 and json.loads(output)["tests"]["task"]["accuracy"] == 1.0


@pytest.mark.parametrize(
    "args, message",
    [
        (("--test", "nope", "--model", "oracle"), "no test named 'nope'"),
        ((), "give one of --model SPEC"),
        (("--model", "no-such-model"), "unknown model 'no-such-model'"),
        (("--model", "missing_module_xyz:predict"), "cannot load model"),
    ],
)
def test_bad_usage_exits_2(pcfg_set_suite: Path, args: tuple[str, ...], message: str):
    code, output = run("evaluate", pcfg_set_suite, *args)
    assert code == 2 and message in output


def test_not_a_suite_exits_2(tmp_path: Path):
    code, output = run("evaluate", tmp_path, "--model", "oracle")
    assert code == 2 and "has no manifest.json" in output
