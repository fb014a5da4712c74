"""``export --format lm-eval`` and harness sample files, without running the harness.

The sample files here are written as ``lm-eval run --log_samples`` writes them (doc_id, doc,
target, filtered_resps), with answers chosen by the test: the gold (every item right) or
not; tests/test_llm_harness.py runs the real harness.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

import symcomp
from symcomp.llm.prompts import PROMPTS, render, verbatim
from symcomp.suites.reading import Suite

SYMCOMP = str(Path(sys.executable).with_name("symcomp"))


def _symcomp(*args: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([SYMCOMP, *map(str, args)], capture_output=True, text=True, check=False)


@pytest.fixture(scope="module")
def scan(scan_suite: Path) -> Path:
    return scan_suite


@pytest.fixture(scope="module")
def mono(mono_suite: Path) -> Path:
    return mono_suite


def _export(suite: Path, out: Path, *options: object) -> dict[str, Any]:
    done = _symcomp("export", suite, "--format", "lm-eval", "--out", out, *options)
    assert done.returncode == 0, done.stderr
    return dict(json.loads((out / "manifest.json").read_text()))


def _test_docs(export: Path, test: str) -> list[dict[str, Any]]:
    path = export / "data" / test.replace("/", "-") / "test.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()]


def _samples(folder: Path, task: str, docs: list[dict[str, Any]], answers: list[Any]) -> Path:
    """A harness sample file of ``task`` answering ``docs`` with ``answers``."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"samples_{task}_2026-11-28T12-00-00.jsonl"
    lines = [
        {"doc_id": i, "doc": doc, "target": doc.get("target"), "filtered_resps": answer}
        for i, (doc, answer) in enumerate(zip(docs, answers, strict=True))
    ]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def test_a_task_per_test_with_its_template_group_and_data(scan: Path, tmp_path: Path) -> None:
    out = tmp_path / "tasks"
    manifest = _export(scan, out, "--test", "simple", "--test", "length", "--instruction", "Do.")
    # zero shots: no demonstrations, no coverage to measure
    assert manifest["format"] == "symcomp.export.lm-eval/2"
    assert set(manifest["tasks"]) == {"symcomp_scan_simple", "symcomp_scan_length"}
    group = yaml.safe_load((out / "symcomp_scan.yaml").read_text())
    assert group["task"] == ["symcomp_scan_simple", "symcomp_scan_length"]
    config = yaml.safe_load((out / "tasks" / "symcomp_scan_simple.yaml").read_text())
    assert config["output_type"] == "generate_until"
    assert config["doc_to_text"] == "{{demonstrations}}Input: {{input}}\nOutput:"
    assert config["doc_to_target"] == "target" and config["num_fewshot"] == 0
    assert config["description"] == "Do.\n\n"
    assert config["filter_list"][0]["filter"][0] == {"function": "remove_whitespace"}
    assert (
        config["dataset_kwargs"]["data_files"]["test"] == f"{out.resolve()}/data/simple/test.jsonl"
    )
    docs = _test_docs(out, "simple")
    suite = json.loads((scan / "manifest.json").read_text())
    assert len(docs) == suite["tests"]["simple"]["sizes"]["test"]
    assert all(doc["test"] == "simple" and doc["demonstrations"] == "" for doc in docs)
    entry = {"shots": 0, "select": "random", "seed": 0, "steps": False}
    assert all(doc["export"] == entry for doc in docs)
    assert (
        "{{" not in (out / "tasks" / "symcomp_scan_simple.yaml").read_text().split("doc_to_text")[0]
    )


NASTY = (
    "Answer: {{target}} or {{ a JSON list }}, {% if x %}not{% endif %}{# no #} {%raw%}{{x}}"
    "{%endraw%} \"double\" 'single' back\\slash\\n tab\t cr\r\nsep\u2028\u2029\u0085 {"
)


def test_an_instruction_reaches_the_prompt_as_written(scan: Path, tmp_path: Path) -> None:
    """The harness renders `description` as a Jinja template per document (lm-eval's own
    renderer here; tests/test_llm_harness.py runs the harness on such an instruction)."""
    utils = pytest.importorskip("lm_eval.utils")
    out = tmp_path / "i"
    _export(scan, out, "--test", "template_right", "--instruction", NASTY)
    config = yaml.safe_load((out / "tasks" / "symcomp_scan_template_right.yaml").read_text())
    for doc in _test_docs(out, "template_right")[:3]:
        assert utils.apply_template(config["description"], doc) == NASTY + "\n\n"


@given(st.text())
@settings(max_examples=300, deadline=None)
def test_verbatim_templates_render_as_their_text(text: str) -> None:
    utils = pytest.importorskip("lm_eval.utils")
    assert utils.apply_template(verbatim(text), {"target": "gold", "input": "x"}) == text


def test_random_shots_are_the_harnesss_own_draw(scan: Path, tmp_path: Path) -> None:
    test = "template_jump_around_right"
    manifest = _export(scan, tmp_path / "r", "--test", test, "--shots", "3", "--seed", "1")
    config = yaml.safe_load((tmp_path / "r" / "tasks" / f"symcomp_scan_{test}.yaml").read_text())
    assert config["num_fewshot"] == 3 and config["fewshot_split"] == "train"
    assert all(doc["demonstrations"] == "" for doc in _test_docs(tmp_path / "r", test))
    coverage = manifest["tasks"][f"symcomp_scan_{test}"]["coverage"]
    assert set(coverage) == {"random", "similar", "cover"}


@pytest.mark.parametrize("select", ["random", "similar", "cover"])
def test_more_shots_than_training_items_are_refused_before_writing(
    mono: Path, tmp_path: Path, select: str
) -> None:
    suite = Suite.read(mono)
    sizes = {
        name: len({record["id"] for record in test.train})
        for name in suite.tests
        if (test := suite.test(name)).test
    }
    small = min((name for name in sizes if sizes[name]), key=sizes.__getitem__)
    large = max(sizes, key=sizes.__getitem__)
    out = tmp_path / select
    shots = sizes[small] + 1
    args = ("--test", small, "--test", large, "--shots", shots, "--select", select)
    done = _symcomp("export", mono, "--format", "lm-eval", "--out", out, *args)
    assert done.returncode == 2 and not out.exists()
    task = "symcomp_mono_" + re.sub(r"[^a-z0-9]+", "_", small.lower()).strip("_")
    assert f"test {small!r} (task {task}): {sizes[small]:,}" in done.stderr
    assert f"Pass --shots {sizes[small]} or fewer" in done.stderr and large not in done.stderr


def test_covering_demonstrations_are_written_into_each_item(scan: Path, tmp_path: Path) -> None:
    out = tmp_path / "c"
    manifest = _export(
        scan, out, "--test", "addprim_turn_left", "--shots", "4", "--select", "cover"
    )
    coverage = manifest["tasks"]["symcomp_scan_addprim_turn_left"]["coverage"]
    assert coverage["cover"]["mean"] > coverage["random"]["mean"]
    assert coverage["cover"]["mean"] >= 0.98
    train = {
        render(PROMPTS["sequence"], doc, answered=True)
        for doc in map(
            json.loads, (out / "data/addprim_turn_left/train.jsonl").read_text().splitlines()
        )
    }
    config = yaml.safe_load((out / "tasks" / "symcomp_scan_addprim_turn_left.yaml").read_text())
    assert config["num_fewshot"] == 0  # symcomp chose them
    for doc in _test_docs(out, "addprim_turn_left")[:50]:
        shown = doc["demonstrations"].split("\n\n")
        assert shown[-1] == "" and 1 <= len(shown[:-1]) <= 4
        assert all(block in train for block in shown[:-1])
        assert render(PROMPTS["sequence"], doc, answered=True) not in shown


def test_gold_samples_score_one_and_wrong_ones_zero(scan: Path, tmp_path: Path) -> None:
    out = tmp_path / "g"
    _export(scan, out, "--test", "template_right")
    docs = _test_docs(out, "template_right")
    gold = _samples(
        tmp_path / "gold", "symcomp_scan_template_right", docs, [[d["target"] + " "] for d in docs]
    )
    done = _symcomp("evaluate", scan, "--predictions", gold, "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["tests"]["template_right"]["accuracy"] == 1.0
    wrong = _samples(tmp_path / "wrong", "t", docs, [["I_JUMP"] for _ in docs])
    card = json.loads(_symcomp("evaluate", scan, "--predictions", wrong, "--json").stdout)
    assert card["tests"]["template_right"]["accuracy"] == 0.0


def test_fresh_words_rename_items_and_evaluate_scores_in_them(scan: Path, tmp_path: Path) -> None:
    out = tmp_path / "f"
    options = ("--test", "addprim_turn_left", "--fresh-words", "7", "--shots", "2")
    manifest = _export(scan, out, *options, "--select", "cover")
    mapping = manifest["fresh_words"]["mapping"]
    assert (
        set(mapping) == {"jump", "walk", "run", "look"} and manifest["options"]["fresh_words"] == 7
    )
    docs = _test_docs(out, "addprim_turn_left")
    words = {w for d in docs for w in (d["input"] + " " + d["demonstrations"]).split()}
    assert not words & set(mapping) and set(mapping.values()) <= words
    assert f"I_{mapping['jump'].upper()}" in " ".join(d["target"] for d in docs)
    gold = _samples(tmp_path / "s", "t", docs, [[d["target"]] for d in docs])
    done = _symcomp("evaluate", scan, "--predictions", gold, "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["tests"]["addprim_turn_left"]["accuracy"] == 1.0
    again = _export(scan, tmp_path / "f2", *options, "--select", "cover")
    data = {k: v for k, v in manifest["files"].items() if k.startswith("data/")}
    assert data and {k: again["files"][k] for k in data} == data  # the same seed, the same bytes


def test_nli_suites_are_multiple_choice(mono: Path, tmp_path: Path) -> None:
    out = tmp_path / "n"
    test = "protocol-III/train-depth-1-2"
    manifest = _export(mono, out, "--test", test, "--shots", "2", "--select", "similar")
    task = "symcomp_mono_protocol_iii_train_depth_1_2"
    assert manifest["tasks"][task]["output_type"] == "multiple_choice"
    config = yaml.safe_load((out / "tasks" / f"{task}.yaml").read_text())
    assert config["doc_to_text"].endswith(
        "Premise: {{premise}}\nHypothesis: {{hypothesis}}\nLabel:"
    )
    assert config["doc_to_target"] == "label_index"
    docs = _test_docs(out, test)
    choices = config["doc_to_choice"]
    assert all(
        doc["choices"] == choices and choices[doc["label_index"]] == doc["label"] for doc in docs
    )
    likelihoods = [[[0.0 if c == d["label"] else -5.0, False] for c in choices] for d in docs]
    right = _samples(tmp_path / "s", task, docs, likelihoods)
    done = _symcomp("evaluate", mono, "--predictions", right, "--json", "--test", test)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["tests"][test]["accuracy"] == 1.0


def test_bad_uses_are_exit_2_and_write_nothing(scan: Path, tmp_path: Path) -> None:
    pool = tmp_path / "pool"
    assert _symcomp("generate", "scan", "--n", "20", "--out", pool).returncode == 0
    refused = _symcomp("export", pool, "--format", "lm-eval", "--out", tmp_path / "x")
    assert refused.returncode == 2 and "not one" in refused.stderr
    assert not (tmp_path / "x").exists()
    flags = _symcomp("export", scan, "--format", "tsv", "--shots", "2", "--out", tmp_path / "y")
    assert flags.returncode == 2 and "--shots" in flags.stderr and not (tmp_path / "y").exists()
    bogus = tmp_path / "samples_bogus.jsonl"
    bogus.write_text('{"id": "1", "prediction": "I_JUMP"}\n')
    done = _symcomp("evaluate", scan, "--predictions", bogus)
    assert done.returncode == 2 and "not a harness sample" in done.stderr
    limited = _symcomp("evaluate", scan, "--model", "oracle", "--limit", "3")
    assert limited.returncode == 2 and "--limit" in limited.stderr


def test_a_test_given_twice_is_named_as_such(scan: Path, tmp_path: Path) -> None:
    twice = ("--test", "template_right", "--test", "template_right")
    for fmt in ("lm-eval", "tsv"):
        done = _symcomp("export", scan, "--format", fmt, *twice, "--out", tmp_path / fmt)
        assert done.returncode == 2 and not (tmp_path / fmt).exists()
        assert "test 'template_right' is given twice in --test" in done.stderr, done.stderr
    done = _symcomp("evaluate", scan, "--model", "oracle", *twice)
    assert done.returncode == 2 and "given twice" in done.stderr


def test_fresh_words_in_any_export_format(scan: Path, tmp_path: Path) -> None:
    out = tmp_path / "tsv"
    done = _symcomp(
        "export", scan, "--format", "tsv", "--test", "template_right", "--fresh-words", "4",
        "--out", out,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    mapping = json.loads((out / "manifest.json").read_text())["fresh_words"]["mapping"]
    rows = [line.split("\t") for line in (out / "template_right/test.tsv").read_text().splitlines()]
    words = {word for source, _ in rows for word in source.split()}
    assert not words & set(mapping) and words & set(mapping.values())
    renamed = symcomp.get_language("scan").with_fresh_words(4)
    assert all(renamed.interpret(source) == target for source, target in rows[:200])
