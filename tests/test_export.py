import json
from pathlib import Path

import pytest

import symcomp
from symcomp.data.export import export
from symcomp.data.generate import PoolSpec, generate
from symcomp.errors import DataError


@pytest.fixture(scope="module")
def pool(tmp_path_factory):
    out = tmp_path_factory.mktemp("export") / "pool"
    generate(symcomp.get_language("scan"), out, PoolSpec(n=200, seed=4))
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
