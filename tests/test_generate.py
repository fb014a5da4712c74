import hashlib
import json
from pathlib import Path

import pytest

import symcomp
from symcomp.data.generate import PoolSpec, generate
from symcomp.errors import GenerationError, OutputError

PCFG = symcomp.get_language("pcfg-set")


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_same_seed_same_bytes_for_any_jobs_different_seed_differs(tmp_path):
    files = {}
    for name, seed, jobs, dag in [("a", 11, 1, True), ("b", 11, 2, True), ("c", 12, 2, True)]:
        generate(PCFG, tmp_path / name, PoolSpec(n=2500, seed=seed, with_dag=dag), jobs=jobs)
        files[name] = sha(tmp_path / name / "examples.jsonl")
    assert files["a"] == files["b"] != files["c"]
    assert sha(tmp_path / "a/manifest.json") == sha(tmp_path / "b/manifest.json")


def test_manifest_records_parameters_filters_and_checksums(tmp_path):
    manifest = generate(PCFG, tmp_path / "p", PoolSpec(n=300, seed=0, max_length=12))
    on_disk = json.loads((tmp_path / "p/manifest.json").read_text())
    assert on_disk == manifest
    assert manifest["language"] == "pcfg-set"
    assert manifest["grammar_version"] == PCFG.version
    assert manifest["grammar_sha256"] == PCFG.grammar.sha256
    assert manifest["seed"] == 0
    assert manifest["limits"]["max_length"] == 12
    record = manifest["files"]["examples.jsonl"]
    assert record["sha256"] == sha(tmp_path / "p/examples.jsonl")
    assert record["lines"] == 300
    filters = manifest["filters"]
    assert filters["accepted"] == 300
    assert filters["draws"] == 300 + sum(filters["rejected"].values())
    assert filters["rejected"]["length"] > 0
    lines = (tmp_path / "p/examples.jsonl").read_text().splitlines()
    assert all(json.loads(line)["meta"]["length"] <= 12 for line in lines)


def test_example_records_have_the_documented_fields(tmp_path):
    generate(PCFG, tmp_path / "p", PoolSpec(n=50, seed=0, with_dag=True))
    record = json.loads((tmp_path / "p/examples.jsonl").read_text().splitlines()[0])
    assert set(record) == {"id", "input", "output", "meta", "derivation"}
    assert set(record["meta"]) == {"length", "depth", "functions", "output_length"}
    assert record["id"] == symcomp.content_id("pcfg-set", PCFG.version, record["input"])
    dag = PCFG.derivation_dag(record["input"])
    assert [node["rule"] for node in record["derivation"]["nodes"]] == [
        dag.nodes[i]["rule"] for i in range(len(dag))
    ]


def test_impossible_pool_fails_and_writes_nothing(tmp_path):
    scan = symcomp.get_language("scan")
    with pytest.raises(GenerationError, match="only 20,910 sentences"):
        generate(scan, tmp_path / "too-many", PoolSpec(n=30_000, seed=0))
    with pytest.raises(GenerationError, match="could draw only") as info:
        generate(scan, tmp_path / "too-short", PoolSpec(n=200, seed=0, max_length=2))
    assert "Nothing was written" in str(info.value)
    assert not (tmp_path / "too-many").exists() and not (tmp_path / "too-short").exists()


def test_existing_pool_is_not_overwritten_by_accident(tmp_path):
    generate(PCFG, tmp_path / "p", PoolSpec(n=10, seed=0))
    before = sha(tmp_path / "p/examples.jsonl")
    with pytest.raises(OutputError, match="`overwrite`"):
        generate(PCFG, tmp_path / "p", PoolSpec(n=10, seed=1))
    assert sha(tmp_path / "p/examples.jsonl") == before
    generate(PCFG, tmp_path / "p", PoolSpec(n=10, seed=1), overwrite=True)
    assert sha(tmp_path / "p/examples.jsonl") != before


def test_failed_overwrite_keeps_the_old_pool(tmp_path):
    generate(PCFG, tmp_path / "p", PoolSpec(n=10, seed=0))
    before = sha(tmp_path / "p/examples.jsonl")
    with pytest.raises(GenerationError):
        generate(PCFG, tmp_path / "p", PoolSpec(n=500, seed=0, max_length=2), overwrite=True)
    assert sha(tmp_path / "p/examples.jsonl") == before
    assert sorted(p.name for p in (tmp_path / "p").iterdir()) == ["examples.jsonl", "manifest.json"]


def test_enumerate_requires_a_finite_language(tmp_path):
    with pytest.raises(symcomp.GrammarError, match="infinite"):
        generate(PCFG, tmp_path / "p", PoolSpec(enumerate_all=True))


def test_exactly_one_of_n_and_all(tmp_path):
    with pytest.raises(GenerationError, match="either `n`"):
        generate(PCFG, tmp_path / "p", PoolSpec())
