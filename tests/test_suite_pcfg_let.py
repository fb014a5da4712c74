import json
from pathlib import Path
from typing import Any

import pytest

import symcomp
from symcomp.data.splits import read_split
from symcomp.languages.pcfg_let.suite import PARTNERS, PcfgLetSuiteSpec, build
from symcomp.suites.unroll import read_records

LET = symcomp.get_language("pcfg-let")


@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("let") / "suite"
    build(out, PcfgLetSuiteSpec(n=3000, seed=2, export=False))
    return out


def parts(suite: Path, test: str) -> dict[str, list[dict[str, Any]]]:
    manifest = json.loads((suite / "manifest.json").read_text())
    entry = manifest["tests"][test]
    pool = [json.loads(line) for line in (suite / entry["pool"]).read_text().splitlines()]
    split = read_split(suite / entry["split"], len(pool))
    return {part: [pool[i] for i in split.part(part)] for part in ("train", "dev", "test")}


@pytest.mark.parametrize("name", list(PARTNERS))
def test_mirror_never_meets_its_partner_in_train(suite, name):
    split = parts(suite, f"systematicity/{name}")
    partners = set(PARTNERS[name])

    def meets(record: dict[str, Any]) -> bool:
        words = set(record["input"].split())
        return "mirror" in words and bool(words & partners)

    assert not any(meets(r) for r in split["train"] + split["dev"])
    assert split["test"] and all(meets(r) for r in split["test"])
    assert all(LET.interpret(r["input"]) == r["output"] for r in split["test"][:100])


def test_systematicity_pool_uses_the_reduced_vocabulary(suite):
    split = parts(suite, "systematicity/mirror_7_13")
    words = {w for part in split.values() for r in part for w in r["input"].split()}
    numbers = {int(w) for w in words if w.isdigit()}
    assert max(numbers) == 26 and "E" in words  # the paper's vocabulary of 27: E and 1..26


def test_systematicity_baseline_is_a_random_split_of_the_same_pool(suite):
    manifest = json.loads((suite / "manifest.json").read_text())
    entry = manifest["tests"]["systematicity/baseline"]
    assert entry["pool"] == manifest["tests"]["systematicity/mirror_E"]["pool"]
    split = parts(suite, "systematicity/baseline")
    total = sum(len(rows) for rows in split.values())
    assert abs(len(split["test"]) / total - 0.10) < 0.01
    mixed = [r for r in split["test"] if {"mirror", "E"} <= set(r["input"].split())]
    assert mixed and len(mixed) < len(split["test"])  # no held-out co-occurrence


def test_localism_records_unroll_the_test_programs(suite):
    split = parts(suite, "task")
    records = read_records((suite / "localism/unrolled_test.tsv").read_text().splitlines())
    several = [r["input"] for r in split["test"] if r["meta"]["functions"] > 1]
    assert [r.source for r in records] == several
    assert all(r.target == LET.interpret(r.source) for r in records)


def test_notebook_definitions_make_their_own_suite(tmp_path: Path):
    out = tmp_path / "suite"
    manifest = build(out, PcfgLetSuiteSpec(n=300, seed=3, definitions="notebook", export=False))
    assert manifest["language"] == "pcfg-let-notebook"
    notebook = symcomp.get_language("pcfg-let-notebook")
    records = [json.loads(line) for line in (out / "examples.jsonl").read_text().splitlines()]
    assert all(notebook.interpret(r["input"]) == r["output"] for r in records)
    assert any(LET.interpret(r["input"]) != r["output"] for r in records)


def test_localism_by_depth_and_per_function_local_accuracy(suite):
    from symcomp.metrics.report import PredictionSource, evaluate_suite

    card = evaluate_suite(suite, PredictionSource.oracle(), ["localism"])
    scores = card["tests"]["localism"]["localism"]
    assert scores["consistency_deeper_than_1"] == 1.0 and scores["local_accuracy"] == 1.0
    assert set(scores["consistency_by_depth"]) >= {"2", "3"}
    assert set(scores["local_accuracy_by_function"]) == set(LET.functions or ())
