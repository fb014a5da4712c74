"""Feature shards (`symcomp.dbca.shards`, `--features DIR`): the features read back equal the
features computed in memory, splits from shards are the same splits, shards of another pool or
other options are refused, and a full disk or a stop while shards are written leaves the
previous folder or none."""

from __future__ import annotations

import errno
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner

from symcomp.cli import cli
from symcomp.data.artifacts import examples_path, read_manifest
from symcomp.dbca import shard_parts
from symcomp.dbca.compounds import CompoundSpec
from symcomp.dbca.features import Features, SparseRows
from symcomp.dbca.pool import FeatureOptions, feature_plan, features_of_records, read_pool
from symcomp.dbca.shards import open_shards, write_shards
from symcomp.dbca.split import PoolData
from symcomp.errors import DataError
from tests.golden_outputs import GOLDEN, _parts_sha

RELATIONS = ["nsubj", "obj", "amod", "det", "case", "obl", "advmod", "conj"]


def invoke(*args: object) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["-q", *(str(a) for a in args)])
    return result.exit_code, result.output


def write_treebank(path: Path, rows: int, seed: int) -> Path:
    """Random dependency trees over a Zipf vocabulary (as benchmarks/perf_import.py's)."""
    rng = np.random.default_rng(seed)
    weights = 1.0 / np.arange(1, 201) ** 1.1
    lines = []
    for number in range(rows):
        size = int(rng.integers(3, 9))
        words = rng.choice(200, size=size, p=weights / weights.sum())
        lines += [f"# sent_id = s{number}", f"# text = {' '.join(f'w{w}' for w in words)}"]
        for index, word in enumerate(words):
            head = 0 if index == 0 else int(rng.integers(1, index + 1))
            relation = "root" if index == 0 else RELATIONS[int(rng.integers(len(RELATIONS)))]
            lines.append(f"{index + 1}\tw{word}\tw{word}\tX\t_\t_\t{head}\t{relation}\t_\t_")
        lines.append("")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def pools(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The golden scan pool (stored DAGs), the same without DAGs, and an imported treebank."""
    root = tmp_path_factory.mktemp("shards")
    for name, extra in (("scan", ["--with-dag"]), ("plain", [])):
        code, output = invoke(
            "generate", "scan", "--seed", 0, "--n", 300, *extra, "--out", root / name
        )
        assert code == 0, output
    treebank = write_treebank(root / "treebank.conllu", 400, seed=0)
    code, output = invoke("import", treebank, "--out", root / "treebank")
    assert code == 0, output
    return root


def same_rows(first: SparseRows | None, second: SparseRows | None) -> None:
    assert first is not None and second is not None
    assert first.width == second.width
    for name in ("indptr", "indices", "values"):
        assert np.array_equal(getattr(first, name), getattr(second, name)), name
        assert getattr(first, name).dtype == getattr(second, name).dtype, name


def same_features(first: Features, second: Features) -> None:
    same_rows(first.atoms, second.atoms)
    same_rows(first.compounds, second.compounds)
    same_rows(first.pairs, second.pairs)
    for name in ("atom_names", "compound_names", "pair_names"):
        assert list(getattr(first, name)) == list(getattr(second, name)), name
    assert first.description == second.description


CASES = [
    ("scan", FeatureOptions()),
    ("plain", FeatureOptions()),  # DAGs rebuilt by parsing
    ("scan", FeatureOptions(weighting="counts", atom_frequency="occurrence")),
    ("scan", FeatureOptions(compounds="pairs")),
    ("scan", FeatureOptions(spec=CompoundSpec(max_nodes=3), top_k=50)),
    ("scan", FeatureOptions(compounds="ngrams", ngram=3)),
    ("treebank", FeatureOptions()),  # the pool's conllu extractor
    ("treebank", FeatureOptions(atom_frequency="occurrence")),
]


@pytest.mark.parametrize(("pool", "options"), CASES)
def test_features_read_from_shards_equal_the_features_in_memory(
    pools: Path, tmp_path: Path, pool: str, options: FeatureOptions
) -> None:
    records, manifest = read_pool(pools / pool)
    path = examples_path(pools / pool)
    in_memory = features_of_records(records, manifest, options, str(path))
    data = PoolData.read(pools / pool, options, features=tmp_path / "f", shard_size=37)
    assert len(read_manifest(tmp_path / "f")["shards"]) == -(-len(records) // 37)
    same_features(data.features, in_memory)
    assert data.input_lengths == PoolData.read(pools / pool).input_lengths
    assert data.records[5] == records[5]  # a whole line, read when asked for


def split_file(out: Path) -> dict[str, Any]:
    split: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    split["meta"]["search"].pop("seconds")
    split["meta"]["search"].pop("cpu_seconds")
    return split


def test_a_split_from_shards_is_the_golden_split_and_the_same_file(
    pools: Path, tmp_path: Path
) -> None:
    args = ("split", "dbca", pools / "scan", "--seed", 0, "--rounds", 1)
    assert invoke(*args, "--out", tmp_path / "memory.json")[0] == 0
    code, output = invoke(
        *args, "--out", tmp_path / "shards.json", "--features", tmp_path / "f", "--shard-size", 50
    )
    assert code == 0, output
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))["scan"]["mcd_split"]
    assert _parts_sha(split_file(tmp_path / "shards.json")) == golden
    assert split_file(tmp_path / "shards.json") == split_file(tmp_path / "memory.json")
    # read again from the shards written by the first command
    assert invoke(*args, "--out", tmp_path / "again.json", "--features", tmp_path / "f")[0] == 0
    assert split_file(tmp_path / "again.json") == split_file(tmp_path / "memory.json")


def test_divergence_and_sweep_from_shards(pools: Path, tmp_path: Path) -> None:
    pool = pools / "treebank"
    assert invoke("split", "random", pool, "--out", tmp_path / "random.json")[0] == 0
    measured = [
        json.loads(invoke("divergence", pool, tmp_path / "random.json", "--json", *extra)[1])
        for extra in ((), ("--features", tmp_path / "f"))
    ]
    assert measured[0] == measured[1]
    swept = []
    for name, extra in (("memory", ()), ("shards", ("--features", tmp_path / "f"))):
        sweep = ("split", "sweep", pool, "--levels", "0,1", "--rounds", 0)
        code, output = invoke(*sweep, "--out", tmp_path / name, *extra)
        assert code == 0, output
        swept.append(output.replace(str(tmp_path / name), "OUT"))
    assert swept[0] == swept[1]


def test_shards_of_another_pool_or_other_options_are_refused(pools: Path, tmp_path: Path) -> None:
    shards = tmp_path / "f"
    args = ("--seed", 0, "--rounds", 0, "--features", shards)
    assert invoke("split", "dbca", pools / "scan", *args, "--out", tmp_path / "a.json")[0] == 0
    before = {p: p.read_bytes() for p in shards.rglob("*") if p.is_file()}
    code, output = invoke("split", "dbca", pools / "plain", *args, "--out", tmp_path / "b.json")
    assert code == 2 and "feature shards of another pool" in output, output
    assert "--features" in output  # the CLI names its flag
    code, output = invoke(
        "split", "dbca", pools / "scan", *args, "--weighting", "counts", "--out", tmp_path / "c"
    )
    assert code == 2 and "other feature options (differing: top_k, weighting)" in output, output
    assert {p: p.read_bytes() for p in shards.rglob("*") if p.is_file()} == before
    assert not (tmp_path / "b.json").exists() and not (tmp_path / "c").exists()
    victim = shards / "shards" / "00000" / "atoms.counts.npy"
    victim.write_bytes(victim.read_bytes()[:-4] + b"\x07\x00\x00\x00")
    code, output = invoke("split", "dbca", pools / "scan", *args, "--out", tmp_path / "d.json")
    assert code == 2 and "changed since the shards were written" in output, output


def failing_after(calls: int, error: BaseException) -> Callable[..., None]:
    """A stand-in for the array writer that writes ``calls`` arrays, then raises ``error``."""
    real = shard_parts.write_array
    count = {"n": 0}

    def write(handle: Any, values: Any) -> None:
        count["n"] += 1
        if count["n"] > calls:
            raise error
        real(handle, values)

    return write


@pytest.mark.parametrize(
    ("error", "code"),
    [(OSError(errno.ENOSPC, "No space left on device"), 2), (KeyboardInterrupt(), 130)],
)
def test_a_full_disk_or_a_stop_while_writing_shards_leaves_no_shards(
    pools: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, error: BaseException, code: int
) -> None:
    monkeypatch.setattr(shard_parts, "write_array", failing_after(12, error))
    args = ("split", "dbca", pools / "scan", "--rounds", 0, "--shard-size", 50)
    result, output = invoke(*args, "--features", tmp_path / "f", "--out", tmp_path / "a.json")
    assert result == code, output
    assert "Traceback" not in output
    assert not (tmp_path / "f").exists() and not (tmp_path / "a.json").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_a_full_disk_while_rewriting_shards_leaves_the_previous_ones(
    pools: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = examples_path(pools / "scan")
    plan = feature_plan(read_manifest(pools / "scan"), FeatureOptions(), str(path))
    write_shards(path, tmp_path / "f", plan, shard_size=100)
    before = {p: p.read_bytes() for p in (tmp_path / "f").rglob("*") if p.is_file()}
    disk_full = OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(shard_parts, "write_array", failing_after(5, disk_full))
    counted = feature_plan(None, FeatureOptions(weighting="counts"), str(path))
    with pytest.raises(OSError, match="No space"):
        write_shards(path, tmp_path / "f", counted, shard_size=50)
    after = {p: p.read_bytes() for p in (tmp_path / "f").rglob("*") if p.is_file()}
    assert after == before  # the previous shards, whole; no staging folder left
    open_shards(tmp_path / "f", path, plan)
    with pytest.raises(DataError, match="other feature options"):
        open_shards(tmp_path / "f", path, counted)


def test_a_stop_while_importing_leaves_no_pool_and_the_shards_refuse_a_changed_pool(
    pools: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from symcomp.data.corpus import importer

    treebank = pools / "treebank.conllu"
    assert invoke("import", treebank, "--out", tmp_path / "pool")[0] == 0
    common = ("--rounds", 0, "--features", tmp_path / "f")
    code, _ = invoke("split", "dbca", tmp_path / "pool", *common, "--out", tmp_path / "a.json")
    assert code == 0
    pool_before = {p: p.read_bytes() for p in (tmp_path / "pool").iterdir() if p.is_file()}

    def stop(*args: Any, **kwargs: Any) -> None:
        raise KeyboardInterrupt

    with monkeypatch.context() as patch:
        patch.setattr(importer, "_check_tally", stop)
        code, output = invoke("import", treebank, "--out", tmp_path / "pool", "--overwrite")
        assert code == 130, output
    assert {p: p.read_bytes() for p in (tmp_path / "pool").iterdir() if p.is_file()} == (
        pool_before
    )
    # a pool imported again from other rows: its shards are those of another pool
    other = write_treebank(tmp_path / "other.conllu", 300, seed=1)
    assert invoke("import", other, "--out", tmp_path / "pool", "--overwrite")[0] == 0
    code, output = invoke("split", "dbca", tmp_path / "pool", *common, "--out", tmp_path / "b.json")
    assert code == 2 and "feature shards of another pool" in output, output


def test_an_empty_pool_has_no_shards(tmp_path: Path) -> None:
    path = tmp_path / "examples.jsonl"
    path.write_text("", encoding="utf-8")
    plan = feature_plan(None, FeatureOptions(compounds="ngrams"), str(path))
    with pytest.raises(DataError, match="holds no examples"):
        write_shards(path, tmp_path / "f", plan)
    assert not (tmp_path / "f").exists()
