"""A model's written steps checked against the grammar (issue 50, part 3): written answers of
every kind docs/llm.md defines (all steps right, a wrong sub-answer, a sub-input that is no
sentence, one that is no part of the input, steps right and the answer wrong, no answer line,
a line out of the layout) get the counts and first wrong steps it defines, from Python and
through ``symcomp evaluate`` on sample files of a worked export."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import symcomp
from symcomp.core.steps import ANSWER_PATTERN
from symcomp.metrics.steps import steps_report

SYMCOMP = str(Path(sys.executable).with_name("symcomp"))

# SCAN: input, written answer; the kinds of its written steps; whether the answer is right
CASES = [
    (
        "jump twice and walk",
        "Step: jump = I_JUMP\nStep: jump twice = I_JUMP I_JUMP\nStep: walk = I_WALK\n"
        "Answer: I_JUMP I_JUMP I_WALK",
    ),
    ("jump twice", "Step: jump = I_JUMP\nStep: jump twice = I_JUMP\nAnswer: I_JUMP I_JUMP"),
    ("walk left twice", "Step: left twice = I_TURN_LEFT\nAnswer: I_TURN_LEFT I_WALK"),
    ("walk left", "Step: run = I_RUN\nStep: walk left = I_TURN_LEFT I_WALK\nAnswer: I_RUN"),
    ("look thrice", "Step: look = I_LOOK\nAnswer: I_LOOK I_LOOK"),
    ("run and jump", "Step: run = I_RUN\nStep: jump = I_JUMP\n"),
    ("turn right", "I think it turns.\nAnswer: I_TURN_RIGHT"),
]


def _records() -> list[dict[str, Any]]:
    scan = symcomp.get_language("scan")
    return [{**scan.record(scan.example(text)), "id": str(i)} for i, (text, _) in enumerate(CASES)]


def _filtered(text: str) -> str:
    """The answer as the harness's regex filter takes it (first match, stripped)."""
    found = re.findall(ANSWER_PATTERN, text)
    return found[0].strip() if found else "[invalid]"


def test_each_kind_of_written_step_is_counted_and_named() -> None:
    records = _records()
    written = {str(i): answer for i, (_, answer) in enumerate(CASES)}
    answers = [_filtered(answer) for _, answer in CASES]
    report = steps_report(symcomp.get_language("scan"), records, answers, written)
    assert report["items"] == 7
    assert report["steps"] == 12 and report["right"] == 8
    assert report["step_accuracy"] == 8 / 12
    assert report["wrong"] == {
        "unreadable": 1,
        "not_a_part": 1,
        "not_a_sentence": 1,
        "wrong_answer": 1,
    }
    assert report["no_answer"] == 1
    assert report["parsed"] == 6 / 7  # the last answer has a line out of the layout
    first = {entry["item"]: (entry["step"], entry["kind"]) for entry in report["first_wrong"]}
    # `look = I_LOOK` (item 4) is right: its wrong answer is no wrong step
    assert first == {
        1: (2, "wrong_answer"),
        2: (1, "not_a_sentence"),
        3: (1, "not_a_part"),
        6: (1, "unreadable"),
    }
    assert report["first_wrong"][0] == {
        "id": "1",
        "item": 1,
        "step": 2,
        "line": "Step: jump twice = I_JUMP",
        "kind": "wrong_answer",
        "expected": "I_JUMP I_JUMP",
    }
    groups = report["accuracy_by_steps"]
    # all steps right: items 0 (answer right), 4 (answer wrong: `look thrice`), 5 (no answer)
    assert groups["all_steps_right"] == {"n": 3, "accuracy": 1 / 3}
    # a step wrong: items 1 (answer right), 2 (answer wrong), 3 (wrong), 6 (right)
    assert groups["a_step_wrong"] == {"n": 4, "accuracy": 2 / 4}
    assert groups["no_steps"] == {"n": 0, "accuracy": None}


def _symcomp(*args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([SYMCOMP, *args], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return done


def _answers(docs: list[dict[str, Any]]) -> list[str]:
    """Six written answers to PCFG SET items, one of each kind (the module's)."""
    gold = [doc["worked"].split("\n") for doc in docs]
    steps, answer = [lines[:-1] for lines in gold], [lines[-1] for lines in gold]
    wrong = steps[1][0].split(" = ")[0] + " = Z99"
    symbol = docs[2]["input"].split()[-1]  # a string argument alone is no program
    return [
        "\n".join(gold[0]),
        "\n".join([wrong, *steps[1][1:], answer[1]]),
        "\n".join([f"Step: {symbol} = {symbol}", *gold[2]]),
        "\n".join(["Step: copy Z99 = Z99", *gold[3]]),
        "\n".join([*steps[4], "Answer: Z99"]),
        "\n".join(steps[5]),
    ]


def test_evaluate_reads_the_steps_of_harness_samples(pcfg_set_suite: Path, tmp_path: Path) -> None:
    export = tmp_path / "worked"
    _symcomp(
        "export", str(pcfg_set_suite), "--format", "lm-eval", "--steps", "--test",
        "systematicity", "--out", str(export),
    )  # fmt: skip
    lines = (export / "data" / "systematicity" / "test.jsonl").read_text().splitlines()
    docs = [json.loads(line) for line in lines[:6]]
    assert all(len(doc["steps"]) > 1 for doc in docs)  # each has a step before its answer
    samples = tmp_path / "run" / "samples_symcomp_x_systematicity_2026.jsonl"
    samples.parent.mkdir()
    with samples.open("w") as handle:
        for number, (doc, text) in enumerate(zip(docs, _answers(docs), strict=True)):
            sample = {"doc_id": number, "doc": doc, "resps": [[text]]}
            handle.write(json.dumps({**sample, "filtered_resps": [_filtered(text)]}) + "\n")
    done = _symcomp(
        "evaluate", str(pcfg_set_suite), "--predictions", str(samples.parent), "--limit", "6",
        "--json",
    )  # fmt: skip
    result = json.loads(done.stdout)["tests"]["systematicity"]
    assert result["accuracy"] == 4 / 6  # items 0, 1 (a wrong step, the answer right), 2, 3
    report = result["steps"]
    sub = [len(doc["steps"]) - 1 for doc in docs]
    assert report["steps"] == sum(sub) + 2 and report["right"] == sum(sub) - 1
    assert report["wrong"] == {
        "unreadable": 0,
        "not_a_part": 1,
        "not_a_sentence": 1,
        "wrong_answer": 1,
    }
    assert report["no_answer"] == 1 and report["parsed"] == 1.0
    first = {entry["item"]: (entry["step"], entry["kind"]) for entry in report["first_wrong"]}
    assert first == {1: (1, "wrong_answer"), 2: (1, "not_a_sentence"), 3: (1, "not_a_part")}
    groups = report["accuracy_by_steps"]
    assert groups["all_steps_right"] == {"n": 3, "accuracy": 1 / 3}  # items 0, 4, 5
    assert groups["a_step_wrong"]["accuracy"] == 3 / 3
    card = _symcomp(
        "evaluate", str(pcfg_set_suite), "--predictions", str(samples.parent), "--limit", "6"
    ).stdout
    assert "steps: step accuracy (right / written)" in card
