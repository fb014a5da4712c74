"""``symcomp suite monotonicity``: the four protocols' splits have the promised properties."""

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from symcomp.cli import cli
from symcomp.data.splits import Split, read_split
from symcomp.errors import GenerationError
from symcomp.languages.monotonicity.lexicon import QUANTIFIERS
from symcomp.languages.monotonicity.suite import MonotonicitySuiteSpec, build, orders

N = 4000


@pytest.fixture(scope="module")
def suite(tmp_path_factory):
    out = tmp_path_factory.mktemp("suite") / "mono"
    manifest = build(out, MonotonicitySuiteSpec(n=N, seed=2, permutations=2))
    records = [json.loads(line) for line in (out / "examples.jsonl").read_text().splitlines()]
    return out, manifest, records


def splits(out: Path, manifest: dict[str, Any], prefix: str) -> dict[str, Split]:
    return {
        name: read_split(out / entry["split"], pool_size=N)
        for name, entry in manifest["tests"].items()
        if name.startswith(prefix)
    }


def test_folder_layout(suite):
    out, manifest, records = suite
    assert len(records) == N and (out / "README.md").is_file()
    assert manifest["suite"] == "monotonicity" and manifest["language"] == "monotonicity"
    assert set(manifest["files"]) >= {"examples.jsonl", "README.md"}
    readme = (out / "README.md").read_text()
    for name in manifest["tests"]:
        assert name in readme
    protocols = {name.split("/")[0] for name in manifest["tests"]}
    assert protocols == {"protocol-I", "protocol-II", "protocol-III", "protocol-IV"}


def test_a_pair_and_its_reverse_share_a_part(suite):
    out, manifest, records = suite
    for split in splits(out, manifest, "protocol").values():
        part_of: dict[int, str] = {}
        for part in ("train", "dev", "test"):
            for index in split.part(part):
                pair = records[index]["meta"]["pair"]
                assert part_of.setdefault(pair, part) == part


def test_protocol_one_tests_only_unseen_combinations(suite):
    out, manifest, records = suite
    found = splits(out, manifest, "protocol-I/")
    assert len(found) == 2 * 4 * 4  # orders x k x variants
    for name, split in found.items():
        meta = split.meta
        seen, anchor = set(meta["seen_quantifiers"]), meta["anchor"]
        combos = defaultdict(set)
        for part in ("train", "dev", "test"):
            for index in split.part(part):
                record_meta = records[index]["meta"]
                assert record_meta["depth"] == 1
                combos[part].add((record_meta["path"][-1], record_meta["phenomenon"]))
                variant = record_meta["variant"]
                assert variant == ("plain" if part != "test" else meta["test_variant"]), name
        assert not combos["test"] & (combos["train"] | combos["dev"])
        assert all(q not in seen and p != anchor for q, p in combos["test"])
        assert all(q in seen or p == anchor for q, p in combos["train"] | combos["dev"])
        assert {q for q, p in combos["train"] if p != anchor} <= seen
        assert split.test, name


def test_protocol_one_orders_are_distinct_permutations():
    import random

    groups = (("a",), ("b", "c"), ("d",))
    every = orders(groups, 10, random.Random(0))
    assert len(every) == 6 and len(set(every)) == 6
    assert len(set(orders(groups, 3, random.Random(0)))) == 3


def test_protocol_two_holds_out_quantifier_combinations(suite):
    out, manifest, records = suite
    found = splits(out, manifest, "protocol-II/")
    assert len(found) == 3
    held_everywhere = set()
    for split in found.values():
        held = {tuple(pair) for pair in split.meta["held_out"]}
        held_everywhere |= held
        for index in split.test:
            meta = records[index]["meta"]
            assert meta["depth"] == 2 and tuple(meta["path"]) in held
        for index in split.train:
            meta = records[index]["meta"]
            assert meta["depth"] == 1 or tuple(meta["path"][:2]) not in held
    assert len(held_everywhere) == len(QUANTIFIERS) ** 2  # the folds cover every combination


def test_protocols_three_and_four_split_by_depth(suite):
    out, manifest, records = suite

    def depths(indices: tuple[int, ...]) -> set[int]:
        return {records[index]["meta"]["depth"] for index in indices}

    for split in splits(out, manifest, "protocol-III/").values():
        top = max(split.meta["train_depths"])
        assert max(depths(split.train)) == top < min(depths(split.test))
    for split in splits(out, manifest, "protocol-IV/").values():
        depth = split.meta["train_depth"]
        assert depths(split.train) == {depth}
        assert depths(split.test) == set(range(1, depth + 1))


def test_bad_specs_and_cli(tmp_path):
    with pytest.raises(GenerationError, match="unknown protocols"):
        MonotonicitySuiteSpec(protocols=("V",)).check()
    with pytest.raises(GenerationError, match="exactly once"):
        MonotonicitySuiteSpec(groups=(("some",),)).check()
    runner = CliRunner()
    result = runner.invoke(
        cli,
        ["suite", "monotonicity", "--out", str(tmp_path / "s"), "--n", "600", "--protocol", "III"],
    )
    assert result.exit_code == 0, result.output
    assert "protocol-III/train-depth-1-1" in result.output
    result = runner.invoke(
        cli, ["suite", "monotonicity", "--out", str(tmp_path / "t"), "--anchor", "r9"]
    )
    assert result.exit_code == 2 and "'--anchor': 'r9' is not one of" in result.output
    pool = tmp_path / "p"
    runner.invoke(cli, ["generate", "monotonicity", "--n", "400", "--out", str(pool)])
    result = runner.invoke(
        cli, ["suite", "monotonicity", "--out", str(tmp_path / "u"), "--pool", str(pool)]
    )
    assert result.exit_code == 0, result.output
    assert (tmp_path / "u/examples.jsonl").read_bytes() == (pool / "examples.jsonl").read_bytes()
