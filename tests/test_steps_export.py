"""Worked exports (issue 50, part 2): ``symcomp export SUITE --steps`` as harness tasks (the
template, the stop, the answer filter, each document's gold steps and worked text,
demonstrations that show their steps, fresh words) and as hf and genbench records; refusals.
The real harness runs them in tests/test_llm_steps.py."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

import symcomp
from symcomp.core.constituents import Step
from symcomp.core.steps import ANSWER_PATTERN, read_worked, worked_text

SYMCOMP = str(Path(sys.executable).with_name("symcomp"))


def _symcomp(*args: object, code: int = 0) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([SYMCOMP, *map(str, args)], capture_output=True, text=True, check=False)
    assert done.returncode == code, done.stderr
    return done


def _mini_suite(root: Path, language: str, n: int) -> Path:
    """A suite of one random split of a small pool of ``language``."""
    _symcomp("generate", language, "--n", n, "--seed", "0", "--out", root / "pool")
    split = root / "random.json"
    _symcomp("split", "random", root / "pool", "--train-frac", "0.7", "--test-frac", "0.3",
             "--out", split)  # fmt: skip
    _symcomp("suite", "from-splits", root / "pool", split, "--out", root / "suite", "--no-export")
    return root / "suite"


@pytest.fixture(scope="module")
def scan(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _mini_suite(tmp_path_factory.mktemp("scan-mini"), "scan", 300)


def _docs(export: Path, part: str = "test") -> list[dict[str, Any]]:
    path = export / "data" / "random" / f"{part}.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_a_worked_task_shows_steps_and_scores_the_answer_line(scan: Path, tmp_path: Path) -> None:
    out = tmp_path / "worked"
    _symcomp("export", scan, "--format", "lm-eval", "--steps", "--shots", "2", "--select",
             "similar", "--out", out)  # fmt: skip
    config = yaml.safe_load((out / "tasks" / "symcomp_suite_random.yaml").read_text())
    assert config["doc_to_text"] == "{{demonstrations}}Input: {{input}}\n"
    assert config["target_delimiter"] == "" and config["doc_to_target"] == "target"
    assert config["fewshot_config"] == {"doc_to_target": "worked"}
    assert config["generation_kwargs"]["until"] == ["\n\n", "\nInput:"]
    assert config["filter_list"][0]["filter"] == [
        {"function": "regex", "regex_pattern": ANSWER_PATTERN},
        {"function": "take_first"},
    ]
    assert json.loads((out / "manifest.json").read_text())["options"]["steps"] is True
    scan_language = symcomp.get_language("scan")
    for doc in _docs(out):
        steps = [Step.from_json(step, "doc") for step in doc["steps"]]
        assert steps == scan_language.steps(doc["input"])
        assert doc["worked"] == worked_text(steps)
        assert steps[-1].output == doc["target"] == read_worked(doc["worked"]).answer
        shown = doc["demonstrations"].split("\n\n")
        assert len(shown) == 3 and shown[-1] == ""  # two demonstrations, each ending in "\n\n"
        for block in shown[:2]:
            query, worked = block.split("\n", 1)
            assert query.startswith("Input: ")
            assert worked == worked_text(scan_language.steps(query[len("Input: ") :]))


def test_without_steps_the_documents_are_as_before(scan: Path, tmp_path: Path) -> None:
    _symcomp("export", scan, "--format", "lm-eval", "--out", tmp_path / "plain")
    doc = _docs(tmp_path / "plain")[0]
    assert "steps" not in doc and "worked" not in doc


def test_steps_in_fresh_words_are_the_renamed_languages(scan: Path, tmp_path: Path) -> None:
    out = tmp_path / "fresh"
    _symcomp("export", scan, "--format", "lm-eval", "--steps", "--fresh-words", "0", "--out", out)
    renamed = symcomp.get_language("scan").with_fresh_words(0)
    primitives = {"walk", "look", "run", "jump"}
    for doc in _docs(out):
        assert not primitives & set(doc["input"].split())
        for step in doc["steps"]:
            assert renamed.interpret(step["input"]) == step["output"]


def test_hf_and_genbench_records_carry_their_steps(scan: Path, tmp_path: Path) -> None:
    _symcomp("export", scan, "--format", "genbench", "--steps", "--out", tmp_path / "gb")
    row = json.loads((tmp_path / "gb" / "test.jsonl").read_text().splitlines()[0])
    assert row["steps"][-1] == {"input": row["input"], "output": row["target"]}
    _symcomp("export", scan, "--format", "hf", "--steps", "--out", tmp_path / "hf")
    [path] = (tmp_path / "hf" / "data" / "random").glob("test-*.jsonl")
    row = json.loads(path.read_text().splitlines()[0])
    assert json.loads(row["steps"])[-1] == {"input": row["input"], "output": row["output"]}
    _symcomp("export", scan, "--format", "hf", "--out", tmp_path / "hf-plain")
    [path] = (tmp_path / "hf-plain" / "data" / "random").glob("test-*.jsonl")
    assert "steps" not in json.loads(path.read_text().splitlines()[0])


def test_steps_are_refused_where_they_cannot_be_written(scan: Path, tmp_path: Path) -> None:
    done = _symcomp("export", scan, "--format", "tsv", "--steps", "--out", tmp_path / "t", code=2)
    assert "--steps" in done.stderr and "tsv" in done.stderr
    pool = scan.parent / "pool"
    done = _symcomp("export", pool, "--format", "hf", "--steps", "--out", tmp_path / "p", code=2)
    assert "--steps applies to a suite" in done.stderr
    assert not (tmp_path / "t").exists() and not (tmp_path / "p").exists()


def test_a_language_without_steps_is_refused_naming_those_with_them(tmp_path: Path) -> None:
    suite = _mini_suite(tmp_path, "cogs", 60)
    out = tmp_path / "cogs.lm-eval"
    done = _symcomp("export", suite, "--format", "lm-eval", "--steps", "--out", out, code=2)
    assert "cogs has no worked steps" in done.stderr
    for name in ("scan", "pcfg-set", "pcfg-let", "arithmetic"):
        assert name in done.stderr
    assert "Traceback" not in done.stderr and not out.exists()


TEXTS = [
    "Step: a = b\nAnswer: x y",
    "  Answer:  spaced  \r\nAnswer: second",
    "Step: a = b\n\tAnswer:\ttabbed",
    "no answer here\nAnswers: no",
    "Answer:",
    "text Answer: inline\nAnswer: own line",
    "",
]


def test_the_harness_filter_takes_the_answer_symcomp_reads() -> None:
    """symcomp's reading of the answer line is the harness's regex filter, text for text."""
    lm_eval = pytest.importorskip("lm_eval.filters.extraction")
    harness = lm_eval.RegexFilter(regex_pattern=ANSWER_PATTERN)
    [taken] = harness.apply([TEXTS], [{}])
    for text, theirs in zip(TEXTS, taken, strict=True):
        ours = read_worked(text).answer
        assert (theirs if theirs != "[invalid]" else None) == ours, text
        found = re.findall(ANSWER_PATTERN, text)
        assert (found[0].strip() if found else None) == ours


def test_a_record_whose_output_is_an_exception_has_no_steps(
    pcfg_set_suite: Path, tmp_path: Path
) -> None:
    """PCFG SET's overgeneralisation tests train on exceptions (an output that is not the
    rule's): steps would not lead to them, so they have none (null), and only they."""
    test = "overgeneralisation/ratio=0.005"
    out = tmp_path / "hf"
    _symcomp("export", pcfg_set_suite, "--format", "hf", "--steps", "--test", test, "--out", out)
    [path] = (out / "data" / test.replace("/", "-")).glob("train-*.jsonl")
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    pcfg = symcomp.get_language("pcfg-set")
    exceptions = [row for row in rows if pcfg.interpret(row["input"]) != row["output"]]
    assert exceptions and all(row["steps"] is None for row in exceptions)
    assert all(row["steps"] is not None for row in rows if row not in exceptions)
