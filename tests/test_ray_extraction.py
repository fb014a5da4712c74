"""Feature extraction on a two-node Ray cluster (one CPU each, on this machine): `import` and the
feature step of `split dbca` give the bytes one process gives, and a Ray worker killed while
it extracts a shard changes nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.test_dbca_extraction import (
    SPLIT,
    broken_pool,
    invoke,
    killed_while_extracting,
    split_of,
    tree,
)
from tests.test_dbca_shards import write_treebank

ray = pytest.importorskip("ray")
pytestmark = pytest.mark.ray


@pytest.fixture(scope="module")
def cluster() -> Any:
    from ray.cluster_utils import Cluster

    nodes = Cluster(
        initialize_head=True,
        head_node_args={"num_cpus": 1, "_system_config": {"worker_niceness": 0}},
    )
    nodes.add_node(num_cpus=1)
    ray.init(address=nodes.address, log_to_driver=False, logging_level="ERROR")
    yield nodes
    ray.shutdown()
    nodes.shutdown()  # type: ignore[no-untyped-call]


def test_ray_gives_the_bytes_of_one_process(
    cluster: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert len(ray.nodes()) == 2
    monkeypatch.chdir(tmp_path)
    write_treebank(tmp_path / "treebank.conllu", 300, seed=3)
    importing = ("import", "treebank.conllu", "--shard-size", 64)
    assert invoke(*importing, "--out", "local")[0] == 0
    code, output = invoke(
        *importing, "--executor", "ray", "--address", cluster.address, "--out", "ray"
    )
    assert code == 0, output
    assert tree(tmp_path / "local") == tree(tmp_path / "ray")
    for name, extra in (
        ("local", ()),
        ("ray", ("--executor", "ray", "--address", cluster.address)),
    ):
        args = ("split", "dbca", "local", *SPLIT, *extra, "--features", f"f-{name}")
        code, output = invoke(*args, "--out", f"{name}.json")
        assert code == 0, output
    assert tree(tmp_path / "f-local") == tree(tmp_path / "f-ray")
    assert split_of(tmp_path / "local.json") == split_of(tmp_path / "ray.json")


@pytest.mark.signals
def test_a_killed_ray_worker_changes_nothing(cluster: Any, tmp_path: Path) -> None:
    code, output = invoke(
        "generate", "scan", "--seed", 1, "--n", 240, "--with-dag", "--out", tmp_path / "scan"
    )
    assert code == 0, output
    remote = ("--executor", "ray", "--address", cluster.address)
    one, two = killed_while_extracting(tmp_path / "scan", 100, tmp_path, *remote)  # shard 1
    assert tree(one) == tree(two)


def test_a_line_a_ray_worker_cannot_read_is_named(cluster: Any, tmp_path: Path) -> None:
    code, output = invoke(
        "generate", "scan", "--seed", 1, "--n", 240, "--with-dag", "--out", tmp_path / "scan"
    )
    assert code == 0, output
    pool = broken_pool(tmp_path / "scan", tmp_path)
    remote = ("--executor", "ray", "--address", cluster.address)
    args = ("split", "dbca", pool, *SPLIT, *remote, "--features", tmp_path / "f")
    code, output = invoke(*args, "--out", tmp_path / "s.json")
    assert code == 2 and "examples.jsonl:150: has no derivation" in output, output
    assert "ray::" not in output and "Traceback" not in output, output
    assert not (tmp_path / "f").exists() and not (tmp_path / "s.json").exists()
