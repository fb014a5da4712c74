"""Suites through EleutherAI's lm-evaluation-harness, end to end, offline, on CPU.

Three suites (SCAN, PCFG SET, monotonicity NLI) are exported as harness tasks, a tiny Llama is
made from a config (random weights, a word-level tokenizer fitted to the exports, a few
hundred steps memorising the first items so that its answers are neither all right nor all
wrong), the real ``lm-eval run`` answers five items a task, and ``symcomp evaluate`` on its
``--log_samples`` files must give exactly the harness's own exact-match (and accuracy) scores,
task by task. Then the ways a sample file can be the wrong one.
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

pytest.importorskip("lm_eval", reason="the llm extra (lm-eval, transformers) is not installed")

LIMIT = 5
# text the harness would read as Jinja (a document's field, a syntax error, a block, a comment)
INSTRUCTION = (
    "Answer: {{label}} or {{ a JSON list }}, {% if x %}not{% endif %}{# no #} \"q\" 'q' "
    "back\\slash {"
)
SYMCOMP = str(Path(sys.executable).with_name("symcomp"))


def _symcomp(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([SYMCOMP, *args], capture_output=True, text=True, check=False)
    if check:
        assert done.returncode == 0, done.stderr
    return done


def _docs(export: Path) -> dict[str, list[dict[str, Any]]]:
    """Each task's test documents (by task name) of an export."""
    manifest = json.loads((export / "manifest.json").read_text())
    found = {}
    for task, entry in manifest["tasks"].items():
        config = entry["test"].replace("/", "-")
        lines = (export / "data" / config / "test.jsonl").read_text().splitlines()
        found[task] = [json.loads(line) for line in lines]
    return found


@pytest.fixture(scope="module")
def harness_run(tmp_path_factory: pytest.TempPathFactory, pcfg_set_suite: Path) -> dict[str, Any]:
    """Three exports, a tiny model and one harness run over all three groups."""
    root = tmp_path_factory.mktemp("harness")
    _symcomp("suite", "scan", "--out", str(root / "scan"), "--no-export")
    _symcomp("suite", "monotonicity", "--n", "600", "--out", str(root / "mono"))
    exports = root / "exports"
    suites = {
        "scan": (
            root / "scan",
            ["--test", "addprim_turn_left", "--test", "template_jump_around_right"],
            "cover",
        ),
        "pcfg": (pcfg_set_suite, ["--test", "systematicity", "--test", "productivity"], "similar"),
        "mono": (
            root / "mono",
            ["--test", "protocol-II/fold0", "--test", "protocol-III/train-depth-1-2"],
            "similar",
        ),
    }
    for name, (suite, tests, select) in suites.items():
        instruction = ["--instruction", INSTRUCTION] if name == "mono" else []
        _symcomp(
            "export", str(suite), "--format", "lm-eval", "--out", str(exports / name),
            "--shots", "2", "--select", select, "--task-prefix", f"t_{name}", *tests,
            *instruction,
        )  # fmt: skip
    docs = {task: d for name in suites for task, d in _docs(exports / name).items()}
    model = _tiny_model(root / "model", docs)
    output = root / "out"
    command = [
        sys.executable, "-m", "lm_eval", "run", "--model", "hf",
        "--model_args", f"pretrained={model},dtype=float32", "--device", "cpu",
        "--include_path", str(exports), "--tasks", "t_scan,t_pcfg,t_mono",
        "--limit", str(LIMIT), "--log_samples", "--output_path", str(output),
        "--gen_kwargs", "max_gen_toks=96", "--batch_size", "1",
    ]  # fmt: skip
    env = {**os.environ, **OFFLINE, "HF_DATASETS_CACHE": str(root / "hf-cache")}
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    results = json.loads(next(output.rglob("results_*.json")).read_text())
    return {"suites": suites, "results": results, "output": output, "exports": exports}


def _tiny_model(folder: Path, docs: dict[str, list[dict[str, Any]]]) -> Path:
    """A tiny model that knows the words of every document and has memorised the answers of
    the first three items of each generation task (with their demonstrations)."""
    from symcomp.models.tiny_lm import TinyLMConfig, save_tiny_lm

    texts, pairs = ["Input: Output: Premise: Hypothesis: Label:"], []
    for items in docs.values():
        for doc in items:
            texts.extend(str(value) for value in doc.values() if isinstance(value, str))
        for doc in items[:3]:
            if "target" in doc:
                query = render(PROMPTS["sequence"], doc, answered=False)
                pairs.append((doc["demonstrations"] + query, doc["target"]))
    return save_tiny_lm(folder, texts, memorise=pairs, config=TinyLMConfig(steps=400))


def _harness_score(results: dict[str, Any], task: str) -> float:
    scores = results["results"][task]
    key = next(k for k in scores if k.startswith(("exact_match,", "acc,")) and "stderr" not in k)
    return float(scores[key])


def test_evaluate_gives_the_harness_scores_task_by_task(harness_run: dict[str, Any]) -> None:
    compared, seen = 0, []
    for name, (suite, _tests, _select) in harness_run["suites"].items():
        manifest = json.loads((harness_run["exports"] / name / "manifest.json").read_text())
        done = _symcomp(
            "evaluate", str(suite), "--predictions", str(harness_run["output"]),
            "--limit", str(LIMIT), "--json",
        )  # fmt: skip
        card = json.loads(done.stdout)
        for task, entry in manifest["tasks"].items():
            ours = card["tests"][entry["test"]]
            assert ours["limited_to"]["items"] == min(LIMIT, entry["items"])
            theirs = _harness_score(harness_run["results"], task)
            assert ours["accuracy"] == theirs, (task, ours["accuracy"], theirs)
            seen.append(theirs)
            compared += 1
    assert compared == 6
    # a check that cannot fail proves nothing: the answers must hold right and wrong ones
    assert any(score > 0 for score in seen) and any(score < 1 for score in seen), seen


def test_the_harness_saw_symcomps_demonstrations(harness_run: dict[str, Any]) -> None:
    samples = next(harness_run["output"].rglob("samples_t_scan_addprim_turn_left_*.jsonl"))
    first = json.loads(samples.read_text().splitlines()[0])
    prompt = first["arguments"]["gen_args_0"]["arg_0"]
    assert prompt == first["doc"]["demonstrations"] + render(
        PROMPTS["sequence"], first["doc"], answered=False
    )
    assert prompt.count("Output:") == 3  # two demonstrations and the query


def test_the_harness_saw_the_instruction_as_written(harness_run: dict[str, Any]) -> None:
    samples = next(harness_run["output"].rglob("samples_t_mono_protocol_ii_fold0_*.jsonl"))
    first = json.loads(samples.read_text(encoding="utf-8").split("\n")[0])
    prompt = first["arguments"]["gen_args_0"]["arg_0"]
    assert prompt.startswith(INSTRUCTION + "\n\n" + first["doc"]["demonstrations"])
    assert prompt.count(INSTRUCTION) == 1 and str(first["doc"]["label"]) not in INSTRUCTION


def test_samples_without_limit_or_of_another_suite_are_refused(
    harness_run: dict[str, Any], tmp_path: Path
) -> None:
    scan = harness_run["suites"]["scan"][0]
    output = harness_run["output"]
    whole = _symcomp("evaluate", str(scan), "--predictions", str(output), check=False)
    assert whole.returncode == 2
    assert f"answer {LIMIT} of the" in whole.stderr and f"--limit {LIMIT}" in whole.stderr
    other = next(output.rglob("samples_t_mono_*.jsonl"))
    wrong = _symcomp(
        "evaluate", str(scan), "--predictions", str(other), "--limit", "5", check=False
    )
    assert wrong.returncode == 2 and "another suite" in wrong.stderr
    mine = next(output.rglob("samples_t_scan_addprim_turn_left_*.jsonl"))
    lines = [json.loads(line) for line in mine.read_text().splitlines()]
    lines[0]["doc"]["suite"] = "0" * 64  # the same test name, another suite's items
    edited = tmp_path / "samples_edited.jsonl"
    edited.write_text("".join(json.dumps(line) + "\n" for line in lines))
    tampered = _symcomp(
        "evaluate", str(scan), "--predictions", str(edited), "--limit", "5", check=False
    )
    assert tampered.returncode == 2 and "another suite" in tampered.stderr
    other_limit = _symcomp(
        "evaluate", str(scan), "--predictions", str(mine), "--limit", "3", check=False
    )
    assert other_limit.returncode == 2 and "another limit" in other_limit.stderr
