import json
from pathlib import Path

import pytest

from symcomp.data.splits import Split, random_split, read_split, write_split
from symcomp.errors import DataError


def test_random_split_sizes_and_determinism():
    a = random_split(1000, seed=3)
    assert a.sizes() == {"train": 850, "dev": 50, "test": 100}
    assert a == random_split(1000, seed=3) and a != random_split(1000, seed=4)
    a.check(1000)
    assert sorted(a.train + a.dev + a.test) == list(range(1000))


@pytest.mark.parametrize(
    "split, message",
    [
        (Split.of([0, 5], [], [1]), r"trainIdxs\[1\] = 5 is outside the pool of 3"),
        (Split.of([0, -1], [], [1]), r"trainIdxs\[1\] = -1"),
        (Split.of([0, 0], [], [1]), "example 0 appears twice in trainIdxs"),
        (Split.of([0, 1], [], [1]), "example 1 appears in trainIdxs and testIdxs"),
    ],
)
def test_check_names_the_first_offender(split, message):
    with pytest.raises(DataError, match=message):
        split.check(3)


def test_round_trip_and_cfq_layout(tmp_path: Path):
    split = Split.of([2, 0], [1], [3], {"method": "test", "nested": {"a": 1}})
    write_split(tmp_path / "split.json", split)
    assert read_split(tmp_path / "split.json", pool_size=4) == split
    (tmp_path / "bad.json").write_text('{"trainIdxs": [0], "testIdxs": "x"}')
    with pytest.raises(DataError, match="testIdxs must be a list of integers"):
        read_split(tmp_path / "bad.json")
    (tmp_path / "missing.json").write_text('{"trainIdxs": [0]}')
    with pytest.raises(DataError, match="missing testIdxs"):
        read_split(tmp_path / "missing.json")


def test_published_cfq_split_file_reads(peers: Path):
    folder = peers / "cfq_example"
    pool = json.loads((folder / "dataset.json").read_text())
    split = read_split(folder / "split.json", pool_size=len(pool))
    assert split.sizes()["train"] > 0 and split.sizes()["test"] > 0
