"""The Ray executor on a real local cluster: the same bytes, reports and runs as local, even
when a worker process is killed mid-way."""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from symcomp.cli import cli

ray = pytest.importorskip("ray")
pytestmark = pytest.mark.ray


@pytest.fixture(scope="module")
def cluster() -> Any:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    yield ray
    ray.shutdown()


def test_any_picklable_callable_is_a_unit(cluster: Any) -> None:
    from symcomp.data.ray_executor import RayExecutor

    executor = RayExecutor(workers=2)
    assert executor.run(len, [[], [1], [1, 2]]) == [0, 1, 2]  # a builtin
    assert list(executor.map(len, [[1], [1, 2, 3]], {})) == [1, 3]


def run(*args: object) -> str:
    result = CliRunner().invoke(cli, ["-q", *(str(a) for a in args)])
    assert result.exit_code in (0, 1), result.output
    assert "Traceback" not in result.output, result.output
    return result.output


def test_generate_writes_the_same_bytes(cluster: Any, tmp_path: Path) -> None:
    args = ("generate", "pcfg-set", "--n", 2000, "--seed", 3, "--with-dag", "--jobs", 2)
    run(*args, "--out", tmp_path / "local")
    run(*args, "--executor", "ray", "--out", tmp_path / "ray")
    for name in ("examples.jsonl", "manifest.json"):
        assert (tmp_path / "local" / name).read_bytes() == (tmp_path / "ray" / name).read_bytes()


@pytest.fixture(scope="module")
def pairs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pool = tmp_path_factory.mktemp("nli") / "pool"
    run("generate", "monotonicity", "--n", 600, "--seed", 2, "--out", pool)
    return pool


def test_verify_gives_the_same_report(cluster: Any, pairs: Path) -> None:
    local = run("verify", pairs, "--json", "--jobs", 2)
    remote = run("verify", pairs, "--json", "--executor", "ray")
    assert json.loads(local) == json.loads(remote)


@pytest.mark.signals
def test_a_killed_worker_is_replaced_and_the_report_is_complete(cluster: Any, pairs: Path) -> None:
    from symcomp.core.registry import get_language
    from symcomp.data.ray_executor import RayExecutor
    from symcomp.verify import VerifyOptions
    from symcomp.verify.report import verify_file

    language = get_language("monotonicity")
    expected = verify_file(pairs, language, VerifyOptions()).to_json()
    executor = RayExecutor()
    found: dict[str, Any] = {}
    worker = threading.Thread(
        target=lambda: found.update(
            report=verify_file(pairs, language, VerifyOptions(), jobs=executor).to_json()
        )
    )
    worker.start()
    deadline = time.monotonic() + 60
    while not executor.actors and time.monotonic() < deadline:
        time.sleep(0.05)
    victim = ray.get(executor.actors[0].pid.remote())  # busy with the first chunks
    os.kill(victim, signal.SIGSTOP)  # frozen, it finishes none of them: killed at work
    assert worker.is_alive() and "report" not in found, "verified before a worker was killed"
    os.kill(victim, signal.SIGKILL)
    worker.join(timeout=300)
    assert not worker.is_alive()
    assert found["report"] == expected


def test_a_run_set_trained_through_ray_equals_local(cluster: Any, tmp_path: Path) -> None:
    from symcomp.data.splits import random_split
    from symcomp.suites.from_splits import suite_from_splits

    run("generate", "scan", "--n", 400, "--seed", 1, "--out", tmp_path / "pool")
    splits = {
        name: random_split(400, fractions=(0.7, 0.1, 0.2), seed=seed)
        for seed, name in enumerate(("first", "second"))
    }
    suite = tmp_path / "suite"
    suite_from_splits(tmp_path / "pool", splits, suite, export=False)
    # one thread on both sides: a ray worker and this process would otherwise pick different
    # thread counts, and torch's parallel sums then differ in the last digits of a loss
    settings: tuple[str, ...] = ("--preset", "tiny", "--set", "epochs=2", "--set", "dev_limit=5")
    settings += ("--set", "threads=1", "--device", "cpu")
    run("train", suite, "--model", "lstms2s", *settings, "--out", tmp_path / "local")
    run(
        "train",
        suite,
        "--model",
        "lstms2s",
        *settings,
        "--executor",
        "ray",
        "--out",
        tmp_path / "ray",
    )
    timing = {
        "train_seconds",
        "train_cpu_seconds",
        "examples_per_second",
        "examples_per_cpu_second",
        "seconds",
    }
    runs = json.loads((tmp_path / "local" / "runs.json").read_text())["runs"]
    for name in sorted(set(runs.values())):
        for side in ("local", "ray"):
            assert (tmp_path / side / name / "summary.json").is_file()
        metrics = [
            [
                {k: v for k, v in json.loads(line).items() if k not in timing}
                for line in (tmp_path / side / name / "metrics.jsonl").read_text().splitlines()
            ]
            for side in ("local", "ray")
        ]
        assert metrics[0] == metrics[1]
        predictions = [
            (tmp_path / side / name / "predictions" / "test.tsv").read_text()
            for side in ("local", "ray")
        ]
        assert predictions[0] == predictions[1]
