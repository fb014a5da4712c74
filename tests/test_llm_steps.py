"""Worked steps through EleutherAI's lm-evaluation-harness, end to end, offline, on CPU (issue 50).

SCAN and PCFG SET suites are exported with ``--steps``: once with two demonstrations the
harness draws (``random``: its few-shot examples must show their steps, through the task's
``fewshot_config``), answered by the harness's ``dummy`` model; once without demonstrations,
answered by a tiny Llama that memorised the worked answers (steps, then the answer line) of
some first items, one of them with a wrong step. ``lm-eval run --limit 5 --log_samples`` runs
each, and ``symcomp evaluate --limit 5`` must give exactly the harness's answer ``exact_match``
of every task, beside its check of the model's written steps.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from symcomp.llm.prompts import PROMPTS, render
from symcomp.models.tiny_lm import OFFLINE
from tests.test_llm_harness import LIMIT, _docs, _harness_score, _symcomp

pytest.importorskip("lm_eval", reason="the llm extra (lm-eval, transformers) is not installed")

TESTS = {"scan": "addprim_turn_left", "pcfg": "systematicity"}


def _harness(exports: Path, tasks: str, model: list[str], output: Path, env: dict[str, str]) -> Any:
    command = [
        sys.executable, "-m", "lm_eval", "run", *model, "--include_path", str(exports),
        "--tasks", tasks, "--limit", str(LIMIT), "--log_samples", "--output_path", str(output),
        "--batch_size", "1",
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(next(output.rglob("results_*.json")).read_text())


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory, pcfg_set_suite: Path) -> dict[str, Any]:
    """Four worked exports (two suites, with and without demonstrations), two harness runs."""
    root = tmp_path_factory.mktemp("steps-harness")
    _symcomp("suite", "scan", "--out", str(root / "scan"), "--no-export")
    suites = {"scan": root / "scan", "pcfg": pcfg_set_suite}
    env = {**os.environ, **OFFLINE, "HF_DATASETS_CACHE": str(root / "hf-cache")}
    found: dict[str, Any] = {"suites": suites}
    for run, shots in (("random", "2"), ("plain", "0")):
        exports = root / run
        for name, suite in suites.items():
            _symcomp(
                "export", str(suite), "--format", "lm-eval", "--steps", "--shots", shots,
                "--test", TESTS[name], "--task-prefix", f"w_{name}", "--out", str(exports / name),
            )  # fmt: skip
        found[run] = {"exports": exports, "output": root / f"out-{run}"}
    dummy = ["--model", "dummy"]
    found["random"]["results"] = _harness(
        found["random"]["exports"], "w_scan,w_pcfg", dummy, found["random"]["output"], env
    )
    exports = found["plain"]["exports"]
    docs = {task: d for name in suites for task, d in _docs(exports / name).items()}
    model = [
        "--model", "hf", "--model_args",
        f"pretrained={_tiny_model(root / 'model', docs)},dtype=float32", "--device", "cpu",
        "--gen_kwargs", "max_gen_toks=200",
    ]  # fmt: skip
    found["plain"]["results"] = _harness(
        exports, "w_scan,w_pcfg", model, found["plain"]["output"], env
    )
    return found


def _tiny_model(folder: Path, docs: dict[str, list[dict[str, Any]]]) -> Path:
    """A tiny model that knows the words of every document and, of the first five items of
    each task, has memorised the worked answers of the two shortest (a blank line after each:
    where generation stops) and the third shortest's with a wrong first step (:func:`_roles`);
    the other two it never saw."""
    from symcomp.models.tiny_lm import TinyLMConfig, save_tiny_lm

    texts, pairs = ["Input: Step: Answer: = WRONG"], []
    for items in docs.values():
        for doc in items:
            texts.extend(str(value) for value in doc.values() if isinstance(value, str))
        right, wrong = _roles(items)
        for number in (*right, wrong):
            doc = items[number]
            worked = doc["worked"]
            if number == wrong:  # a first step with a wrong sub-answer, then the right answer
                step = doc["steps"][0]["input"]
                worked = f"Step: {step} = WRONG\n{worked.splitlines()[-1]}"
            pairs.append((render(PROMPTS["worked"], doc, answered=False), worked + "\n"))
    config = TinyLMConfig(steps=600, learning_rate=1e-3)
    return save_tiny_lm(folder, texts, memorise=pairs, config=config)


def _roles(items: list[dict[str, Any]]) -> tuple[list[int], int]:
    """The items the tiny model answers right (the two shortest worked answers of the first
    five: they fit the generation budget) and the one it answers with a wrong step."""
    order = sorted(range(LIMIT), key=lambda i: len(items[i]["worked"].split()))
    return order[:2], order[2]


def _cards(runs: dict[str, Any], select: str) -> list[tuple[str, dict[str, Any], float]]:
    """(task, symcomp's result, the harness's exact_match) of every task of one run."""
    found = []
    for name, suite in runs["suites"].items():
        done = _symcomp(
            "evaluate", str(suite), "--predictions", str(runs[select]["output"]),
            "--limit", str(LIMIT), "--json",
        )  # fmt: skip
        card = json.loads(done.stdout)
        manifest = json.loads((runs[select]["exports"] / name / "manifest.json").read_text())
        for task, entry in manifest["tasks"].items():
            theirs = _harness_score(runs[select]["results"], task)
            found.append((task, card["tests"][entry["test"]], theirs))
    return found


def test_dummy_model_scores_agree_and_the_harness_drew_worked_demonstrations(
    runs: dict[str, Any],
) -> None:
    cards = _cards(runs, "random")
    assert len(cards) == 2
    for task, ours, theirs in cards:
        assert ours["accuracy"] == theirs == 0.0, task
        steps = ours["steps"]
        assert steps["items"] == LIMIT and steps["no_answer"] == LIMIT  # "lol" has no answer
        assert steps["wrong"]["unreadable"] == steps["steps"] == LIMIT
    samples = next(runs["random"]["output"].rglob("samples_w_scan_*.jsonl"))
    first = json.loads(samples.read_text().splitlines()[0])
    prompt = first["arguments"]["gen_args_0"]["arg_0"]
    assert prompt.count("\nAnswer: ") == 2 and "\nStep: " in prompt  # two worked demonstrations
    assert prompt.endswith(f"Input: {first['doc']['input']}\n")
    assert first["doc"]["steps"][-1]["output"] == first["doc"]["target"]


def test_tiny_model_answers_with_steps_and_symcomp_equals_the_harness(
    runs: dict[str, Any],
) -> None:
    cards = _cards(runs, "plain")
    docs = {
        t: d for name in runs["suites"] for t, d in _docs(runs["plain"]["exports"] / name).items()
    }
    seen = []
    for task, ours, theirs in cards:
        assert ours["accuracy"] == theirs, (task, ours["accuracy"], theirs)
        seen.append(theirs)
        steps = ours["steps"]
        assert steps["right"] > 0 and steps["step_accuracy"] is not None, (task, steps)
        wrong = {item["item"]: item for item in steps["first_wrong"]}
        item = _roles(docs[task])[1]
        assert wrong[item]["step"] == 1 and wrong[item]["kind"] == "wrong_answer", (task, wrong)
        assert steps["accuracy_by_steps"]["all_steps_right"]["n"] >= 2, (task, steps)
    # a check that cannot fail proves nothing: the answers must hold right and wrong ones
    assert any(score > 0 for score in seen) and any(score < 1 for score in seen), seen
