import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import symcomp
from symcomp.cli import cli
from symcomp.data.export import export
from symcomp.data.generate import PoolSpec, generate, write_pool
from symcomp.errors import DataError


@pytest.fixture(scope="module")
def pool(tmp_path_factory):
    out = tmp_path_factory.mktemp("export") / "pool"
    generate(symcomp.get_language("scan"), out, PoolSpec(n=200, seed=4, with_dag=True))
    return out


def records(pool: Path) -> list[dict[str, str]]:
    return [json.loads(line) for line in (pool / "examples.jsonl").read_text().splitlines()]


def test_tsv_and_srctgt_are_line_aligned_with_the_pool(pool):
    tsv = export(pool, "tsv")
    rows = [line.split("\t") for line in (tsv / "examples.tsv").read_text().splitlines()]
    assert rows == [[r["input"], r["output"]] for r in records(pool)]
    srctgt = export(pool, "srctgt")
    assert (srctgt / "examples.src").read_text().splitlines() == [r["input"] for r in records(pool)]
    assert (srctgt / "examples.tgt").read_text().splitlines() == [
        r["output"] for r in records(pool)
    ]
    manifest = json.loads((srctgt / "manifest.json").read_text())
    assert set(manifest["files"]) == {"examples.src", "examples.tgt"}


def test_hf_folder_loads_with_datasets_without_a_script(pool, tmp_path):
    datasets = pytest.importorskip("datasets")
    other = tmp_path / "other"
    generate(symcomp.get_language("pcfg-set"), other, PoolSpec(n=30, seed=0))
    cache = tmp_path / "hf-cache"
    # two exports in folders of the same name must not share a cache entry
    for source, rows in ((pool, 200), (other, 30)):
        folder = export(source, "hf")
        loaded = datasets.load_dataset(str(folder), cache_dir=str(cache))
        assert loaded["train"].num_rows == rows
        assert loaded["train"][0]["input"] == records(source)[0]["input"]


def test_unknown_format_and_missing_pool(tmp_path, pool):
    with pytest.raises(DataError, match="unknown export format"):
        export(pool, "csv")
    with pytest.raises(DataError, match=r"no examples.jsonl"):
        export(tmp_path, "tsv")


# -- splits, suites, NLI and CFQ through datasets.load_dataset and GenBench ----------------------


def _load(folder: Path, name: str | None, cache: Path):
    datasets = pytest.importorskip("datasets")
    return datasets.load_dataset(str(folder), name, cache_dir=str(cache))


def _split_file(pool: Path, path: Path, *, seed: int = 0, dev: float = 0.2) -> Path:
    from symcomp.data.artifacts import file_record
    from symcomp.data.splits import random_split, write_split

    size = len(records(pool))
    digest = file_record(pool / "examples.jsonl")["sha256"]
    meta = {"method": "random", "pool": {"sha256": digest}, "atom_divergence": 0.01,
            "compound_divergence": 0.25}  # fmt: skip
    write_split(path, random_split(size, fractions=(0.6, dev, 0.4 - dev), seed=seed, meta=meta))
    return path


def test_hf_export_of_splits_is_a_datasetdict_with_one_configuration_per_split(pool, tmp_path):
    first = _split_file(pool, tmp_path / "first.json")
    second = _split_file(pool, tmp_path / "second.json", seed=1, dev=0.0)
    folder = export(pool, "hf", tmp_path / "hf", splits={"first": first, "second": second})
    by_id = {r["id"]: r for r in records(pool)}
    loaded = _load(folder, "first", tmp_path / "cache")
    assert sorted(loaded) == ["test", "train", "validation"]
    assert [loaded[s].num_rows for s in ("train", "validation", "test")] == [120, 40, 40]
    split = json.loads(first.read_text())
    assert [row["id"] for row in loaded["test"]] == [
        records(pool)[i]["id"] for i in split["testIdxs"]
    ]
    row = loaded["train"][0]
    original = by_id[row["id"]]
    assert set(row) == {"id", "input", "output", "meta", "derivation"}
    assert json.loads(row["meta"]) == original["meta"]
    assert json.loads(row["derivation"]) == original["derivation"]
    assert sorted(_load(folder, "second", tmp_path / "cache")) == ["test", "train"]
    assert sorted(_load(folder, None, tmp_path / "cache")) == ["test", "train", "validation"]
    card = (folder / "README.md").read_text()
    header = card.split("---")[1]
    for fragment in ('language: "scan"', "grammar_version:", "seed: 4", "compound_divergence"):
        assert fragment in header, fragment


def test_hf_export_of_a_suite_has_one_configuration_per_test(tmp_path):
    from symcomp.suites.exporting import export_suite

    suite = tmp_path / "suite"
    result = CliRunner().invoke(cli, ["-q", "suite", "scan", "--out", str(suite), "--no-export"])
    assert result.exit_code == 0, result.output
    manifest = json.loads((suite / "manifest.json").read_text())
    folder = export_suite(suite, "hf", tmp_path / "hf", tests=["simple", "length"])
    for name in ("simple", "length"):
        loaded = _load(folder, name, tmp_path / "cache")
        sizes = manifest["tests"][name]["sizes"]
        assert loaded["train"].num_rows == sizes["train"]
        assert loaded["test"].num_rows == sizes["test"]
        assert {"id", "input", "output"} <= set(loaded["test"].features)
    assert not (suite / "hf").exists()  # the suite's own files stay as its manifest records


def test_nli_pairs_take_the_glue_mnli_layout_with_a_class_label(tmp_path):
    datasets = pytest.importorskip("datasets")
    pairs = tmp_path / "pairs"
    write_pool(symcomp.get_language("monotonicity"), pairs, PoolSpec(n=40, seed=0))
    split = _split_file(pairs, tmp_path / "nli.json")
    loaded = _load(
        export(pairs, "hf", tmp_path / "hf", splits={"nli": split}), None, tmp_path / "c"
    )
    features = loaded["train"].features
    assert list(features)[:4] == ["premise", "hypothesis", "label", "idx"]
    assert isinstance(features["label"], datasets.ClassLabel)
    assert features["label"].names == ["entailment", "non-entailment"]
    by_id = {r["id"]: r for r in records(pairs)}
    for row in loaded["test"]:
        original = by_id[row["id"]]
        assert features["label"].int2str(row["label"]) == original["label"]
        assert (row["premise"], row["hypothesis"]) == (original["premise"], original["hypothesis"])
    assert [row["idx"] for row in loaded["validation"]] == list(
        range(loaded["validation"].num_rows)
    )


@pytest.fixture(scope="module")
def cfq_pool(tmp_path_factory):
    out = tmp_path_factory.mktemp("cfq") / "pool"
    generate(symcomp.get_language("cfq"), out, PoolSpec(n=40, seed=0, with_dag=True))
    return out


def test_cfq_keeps_its_sparql_lines_in_hf_and_joins_them_on_request(cfq_pool, tmp_path):
    split = _split_file(cfq_pool, tmp_path / "cfq.json")
    loaded = _load(
        export(cfq_pool, "hf", tmp_path / "hf", splits={"cfq": split}), "cfq", tmp_path / "c"
    )
    by_id = {r["id"]: r for r in records(cfq_pool)}
    assert any("\n" in row["output"] for row in loaded["train"])
    assert all(row["output"] == by_id[row["id"]]["output"] for row in loaded["test"])
    with pytest.raises(DataError, match="join_lines"):
        export(cfq_pool, "tsv", tmp_path / "tsv", splits={"cfq": split})
    assert not (tmp_path / "tsv").exists()
    folder = export(cfq_pool, "tsv", tmp_path / "tsv", splits={"cfq": split}, join_lines=True)
    rows = [line.split("\t") for line in (folder / "cfq" / "test.tsv").read_text().splitlines()]
    test = [records(cfq_pool)[i] for i in json.loads(split.read_text())["testIdxs"]]
    assert rows == [[" ".join(r["input"].split()), " ".join(r["output"].split())] for r in test]
    joined = _load(
        export(cfq_pool, "hf", tmp_path / "hf2", splits={"cfq": split}, join_lines=True),
        "cfq",
        tmp_path / "c",
    )
    assert not any("\n" in row["output"] for row in joined["train"])


def test_cli_export_of_a_pool_with_splits_and_of_a_suite(pool, tmp_path):
    split = _split_file(pool, tmp_path / "mcd.json")
    result = CliRunner().invoke(
        cli, ["-q", "export", str(pool), "--split", str(split), "--format", "srctgt",
              "--out", str(tmp_path / "st")]
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "st" / "mcd").iterdir()) == [
        "dev.src", "dev.tgt", "test.src", "test.tgt", "train.src", "train.tgt"
    ]  # fmt: skip
    result = CliRunner().invoke(
        cli, ["-q", "export", str(pool), "--split", str(split), "--split", str(split),
              "--format", "tsv", "--out", str(tmp_path / "twice")]
    )  # fmt: skip
    assert result.exit_code == 2
    assert "two splits are named mcd" in result.output


# GenBench's task schema (genbench_cbt, src/genbench/task_config.py: TaskConfig and the
# dataclasses it holds), restated: the fields, their types and the checks its __post_init__ runs
GENBENCH_FIELDS = {
    "name": str, "description": str, "keywords": list, "authors": list, "data_source": dict,
    "task_type": str, "preparation_strategies": dict, "field_mapping": dict,
    "evaluation_metrics": list, "split_file": str, "free_form_output_regex": str,
    "has_validation_set": bool, "has_train_set": bool,
}  # fmt: skip
GENBENCH_REQUIRED = {
    "name", "description", "keywords", "authors", "data_source", "task_type",
    "preparation_strategies",
}  # fmt: skip
GENBENCH_TASK_TYPES = {"free_form", "multiple_choice", "sequence_labeling"}
GENBENCH_PROMPT_BUILDER = {
    "instruction_zero_shot", "instruction_few_shot", "input_prefix", "output_prefix",
    "append_choices_to_input", "choices_prefix", "choice_item_postfix", "choice_item_prefix",
    "sequence_labeling_separator", "permute_choices", "few_shot_example_separator",
    "stop_string",
}  # fmt: skip
GENBENCH_TASK_DICT = {"name", "description", "keywords", "authors", "subtasks_order"}


def check_genbench_task(folder: Path) -> None:
    from urllib.parse import urlparse

    config = json.loads((folder / "config.jsonnet").read_text())  # JSON is Jsonnet
    assert GENBENCH_REQUIRED <= set(config) <= set(GENBENCH_FIELDS), set(config)
    for key, kind in GENBENCH_FIELDS.items():
        assert key not in config or isinstance(config[key], kind), key
    assert config["keywords"] and config["authors"]
    assert config["task_type"] in GENBENCH_TASK_TYPES
    if config["task_type"] == "free_form":
        assert config.get("free_form_output_regex") is not None
    source = config["data_source"]
    assert source["type"] == "manual" and source.get("test")
    assert set(source) <= {"type", "hf_id", "git_commit_sha", "test", "train", "validation"}
    for split in ("test", "train", "validation"):
        if split not in source:
            continue
        url = urlparse(source[split])
        assert (url.scheme and url.netloc) or url.scheme == "file"
        rows = [json.loads(line) for line in Path(url.path).read_text().splitlines()]
        assert rows and all({"input", "target"} <= set(row) for row in rows)
        if config["task_type"] == "multiple_choice":
            assert all(row["target_options"][row["target"]] for row in rows)
    assert config["has_train_set"] == ("train" in source)
    assert config["has_validation_set"] == ("validation" in source)
    for metric in config.get("evaluation_metrics", []):
        assert {"hf_id", "git_commit_sha", "best_score"} <= set(metric)
    builder = config["preparation_strategies"]["prompt_based_testing"]["prompt_builder"]
    assert set(builder) <= GENBENCH_PROMPT_BUILDER


def test_genbench_tasks_follow_the_genbench_schema(pool, tmp_path):
    whole = export(pool, "genbench", tmp_path / "whole")
    check_genbench_task(whole)
    first = _split_file(pool, tmp_path / "first.json")
    second = _split_file(pool, tmp_path / "second.json", seed=1)
    one = export(pool, "genbench", tmp_path / "one", splits={"first": first})
    check_genbench_task(one)
    many = export(pool, "genbench", tmp_path / "many", splits={"first": first, "second": second})
    top = json.loads((many / "config.jsonnet").read_text())
    assert set(top) == GENBENCH_TASK_DICT
    assert top["subtasks_order"] == ["first", "second"]
    for name in top["subtasks_order"]:
        check_genbench_task(many / name)
    pairs = tmp_path / "pairs"
    write_pool(symcomp.get_language("monotonicity"), pairs, PoolSpec(n=20, seed=0))
    nli = export(
        pairs, "genbench", tmp_path / "nli", splits={"nli": _split_file(pairs, tmp_path / "n.json")}
    )
    check_genbench_task(nli)
    assert json.loads((nli / "config.jsonnet").read_text())["task_type"] == "multiple_choice"
