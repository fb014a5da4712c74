"""Which run serves which test: tests that train on the same data share one run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from symcomp.core.registry import get_language
from symcomp.data.generate import PoolSpec, write_pool
from symcomp.data.splits import Split
from symcomp.models.run_dir import FORMAT
from symcomp.models.runs import runs_for_tests, suite_plan
from symcomp.suites.from_splits import suite_from_splits
from symcomp.suites.reading import Suite


@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three tests: two with the same train and dev but other test parts, one of its own."""
    root = tmp_path_factory.mktemp("sharing")
    write_pool(get_language("scan"), root / "pool", PoolSpec(n=40, seed=0))
    train, dev = list(range(20)), [20, 21]
    splits = {
        "near": Split.of(train, dev, list(range(22, 30))),
        "far": Split.of(train, dev, list(range(30, 40))),
        "other": Split.of(list(range(1, 20)), dev, list(range(22, 30))),
    }
    suite_from_splits(root / "pool", splits, root / "suite", export=False)
    return root / "suite"


def test_tests_that_differ_only_in_their_test_part_share_a_run(suite: Path) -> None:
    folder = Suite.read(suite)
    assert folder.digest("near") != folder.digest("far")  # the test as a whole differs
    assert folder.training_digest("near") == folder.training_digest("far")
    assert folder.training_digest("near") != folder.training_digest("other")
    assert suite_plan(folder) == {"near": "near", "far": "near", "other": "other"}


def test_a_run_serves_the_tests_it_was_trained_for(suite: Path, tmp_path: Path) -> None:
    folder = Suite.read(suite)
    test = folder.test("near")
    run = tmp_path / "run"
    run.mkdir()
    data = {"split_sha256": test.digest, "training_sha256": test.training_digest}
    (run / "config.json").write_text(json.dumps({"format": FORMAT, "data": data}))
    served = runs_for_tests(run, folder)
    assert served == {"near": run, "far": run, "other": None}


def test_a_run_written_before_training_digests_serves_its_own_split_only(
    suite: Path, tmp_path: Path
) -> None:
    folder = Suite.read(suite)
    run = tmp_path / "old-run"
    run.mkdir()
    data = {"split_sha256": folder.digest("near")}
    (run / "config.json").write_text(json.dumps({"format": FORMAT, "data": data}))
    assert runs_for_tests(run, folder) == {"near": run, "far": None, "other": None}
