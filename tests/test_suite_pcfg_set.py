"""The PCFG SET suite: invariants on a generated suite, conformance with the published data."""

import hashlib
import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import symcomp
from symcomp.data.splits import read_split
from symcomp.languages.pcfg_set.suite import (
    EXCEPTION_PAIRS,
    HELD_OUT_PAIRS,
    TWINNED,
    exception_output,
    first_pair,
)
from symcomp.suites.common import has_adjacent
from symcomp.suites.unroll import read_records, record_lines, unroll_record
from tests.conftest import read_tsv

PCFG = symcomp.get_language("pcfg-set")
DATA = "pcfgset_am_i_compositional"


def load(suite: Path, test: str) -> tuple[list[dict[str, Any]], dict[str, list[dict[str, Any]]]]:
    manifest = json.loads((suite / "manifest.json").read_text())
    entry = manifest["tests"][test]
    pool = [json.loads(line) for line in (suite / entry["pool"]).read_text().splitlines()]
    split = read_split(suite / entry["split"], len(pool))
    return pool, {
        part: [pool[i] for i in split.expanded(part)] for part in ("train", "dev", "test")
    }


def test_every_file_is_in_the_manifest_with_its_sha256(pcfg_set_suite: Path):
    manifest = json.loads((pcfg_set_suite / "manifest.json").read_text())
    on_disk = {
        p.relative_to(pcfg_set_suite).as_posix()
        for p in pcfg_set_suite.rglob("*")
        if p.is_file() and p.name != "manifest.json"
    }
    assert set(manifest["files"]) == on_disk
    for name, record in manifest["files"].items():
        digest = hashlib.sha256((pcfg_set_suite / name).read_bytes()).hexdigest()
        assert digest == record["sha256"], name
    described = set(re.findall(r"`([^`]+)`", (pcfg_set_suite / "README.md").read_text()))
    folders = tuple(d for d in described if d.endswith("/"))
    for name in manifest["files"]:
        assert name == "README.md" or name in described or name.startswith(folders), name


def test_parts_are_disjoint_in_every_test(pcfg_set_suite: Path):
    manifest = json.loads((pcfg_set_suite / "manifest.json").read_text())
    assert list(manifest["tests"]) == [
        "task",
        "systematicity",
        "productivity",
        "substitutivity/equally_distributed",
        "substitutivity/primitive",
        "localism",
        "overgeneralisation/ratio=0.0001",
        "overgeneralisation/ratio=0.0005",
        "overgeneralisation/ratio=0.001",
        "overgeneralisation/ratio=0.005",
        "per_function",
    ]
    for test in manifest["tests"]:
        _, parts = load(pcfg_set_suite, test)
        ids = {part: {r["id"] for r in rows} for part, rows in parts.items()}
        assert not ids["train"] & ids["test"] and not ids["dev"] & ids["test"], test
        assert not ids["train"] & ids["dev"], test


def test_systematicity_train_never_shows_a_held_out_pair(pcfg_set_suite: Path):
    pairs = set(HELD_OUT_PAIRS)
    pool, parts = load(pcfg_set_suite, "systematicity")
    assert not any(has_adjacent(r["input"].split(), pairs) for r in parts["train"])
    assert parts["test"] and all(has_adjacent(r["input"].split(), pairs) for r in parts["test"])
    assert len(parts["train"]) + len(parts["dev"]) + len(parts["test"]) == len(pool)
    _, task = load(pcfg_set_suite, "task")
    assert parts["dev"] == task["dev"]  # the paper's construction: one shared dev set
    assert len(parts["train"]) + len(parts["test"]) == len(task["train"]) + len(task["test"])


@pytest.fixture(scope="module")
def filtered_dev_suite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from symcomp.languages.pcfg_set.suite import PcfgSetSuiteSpec, build

    out = tmp_path_factory.mktemp("filtered") / "suite"
    spec = PcfgSetSuiteSpec(n=1500, seed=2, construction="filtered-dev", export=False)
    build(out, spec)
    return out


def test_filtered_dev_sets_follow_each_training_condition(filtered_dev_suite: Path):
    _, task = load(filtered_dev_suite, "task")
    _, systematicity = load(filtered_dev_suite, "systematicity")
    assert not any(
        has_adjacent(r["input"].split(), set(HELD_OUT_PAIRS)) for r in systematicity["dev"]
    )
    assert len(systematicity["dev"]) < len(task["dev"])
    _, productivity = load(filtered_dev_suite, "productivity")
    assert max(r["meta"]["functions"] for r in productivity["dev"]) <= 8
    _, exceptions = load(filtered_dev_suite, "overgeneralisation/ratio=0.005")
    assert not any(
        has_adjacent(r["input"].split(), set(EXCEPTION_PAIRS)) for r in exceptions["dev"]
    )


def test_productivity_thresholds_and_statistics(pcfg_set_suite: Path):
    _, parts = load(pcfg_set_suite, "productivity")
    assert max(r["meta"]["functions"] for r in parts["train"]) <= 8
    assert min(r["meta"]["functions"] for r in parts["test"]) >= 9
    statistics = json.loads((pcfg_set_suite / "productivity/statistics.json").read_text())
    assert statistics["test"]["functions"]["min"] >= 9
    assert statistics["train"]["examples"] == len(parts["train"])
    assert set(statistics["train"]) == {"examples", "length", "depth", "functions"}


def twins_in(text: str) -> list[str]:
    return [token for token in text.split() if token.endswith("_twin")]


def test_primitive_twins_only_in_single_function_training_inputs(pcfg_set_suite: Path):
    _, parts = load(pcfg_set_suite, "substitutivity/primitive")
    with_twins = [r for r in parts["train"] if twins_in(r["input"])]
    assert with_twins and all(r["meta"]["functions"] == 1 for r in with_twins)
    per_synonym = max(1, round(0.001 * (len(parts["train"]) - len(with_twins))))
    assert len(with_twins) == len(TWINNED) * per_synonym  # 0.1 % of train per synonym
    assert {twins_in(r["input"])[0] for r in with_twins} <= {f"{f}_twin" for f in TWINNED}
    assert all(PCFG.interpret(r["input"]) == r["output"] for r in with_twins)
    assert not any(twins_in(r["input"]) for r in parts["dev"])


def test_equally_distributed_twins_replace_about_half_of_the_occurrences(pcfg_set_suite: Path):
    _, parts = load(pcfg_set_suite, "substitutivity/equally_distributed")
    counts: Counter[bool] = Counter()
    for record in parts["train"]:
        for token in record["input"].split():
            base = token.removesuffix("_twin")
            if base in TWINNED:
                counts[token.endswith("_twin")] += 1
    share = counts[True] / (counts[True] + counts[False])
    assert 0.45 < share < 0.55
    sample = parts["train"][:300]
    assert all(PCFG.interpret(r["input"]) == r["output"] for r in sample)


@pytest.mark.parametrize("condition", ["equally_distributed", "primitive"])
def test_twin_pairs_replace_one_function_type_everywhere(pcfg_set_suite: Path, condition: str):
    name = f"substitutivity/{condition}"
    _, parts = load(pcfg_set_suite, name)
    by_id = {r["id"]: r for r in parts["test"]}
    pairs = [
        json.loads(line)
        for line in (pcfg_set_suite / name / "pairs.jsonl").read_text().splitlines()
    ]
    originals = {pair["original"] for pair in pairs}
    assert len(parts["test"]) == len(originals) + len(pairs)
    _, task = load(pcfg_set_suite, "task")
    for function, count in Counter(pair["function"] for pair in pairs).items():
        candidates = sum(function in r["input"].split() for r in task["test"])
        assert count == min(2500, candidates)  # the paper: 2,500 per synonym
        assert len({p["original"] for p in pairs if p["function"] == function}) == count
    for pair in pairs:
        original, twin = by_id[pair["original"]], by_id[pair["synonym"]]
        function = pair["function"]
        assert twin["input"] == " ".join(
            f"{t}_twin" if t == function else t for t in original["input"].split()
        )
        assert original["output"] == twin["output"] == PCFG.interpret(twin["input"])
        assert not twins_in(original["input"])


def test_overgeneralisation_exceptions(pcfg_set_suite: Path):
    ratios = [0.0001, 0.0005, 0.001, 0.005]
    for ratio in ratios:
        name = f"overgeneralisation/ratio={ratio:g}"
        _, parts = load(pcfg_set_suite, name)
        manifest = json.loads((pcfg_set_suite / "manifest.json").read_text())
        meta = manifest["tests"][name]["meta"]
        counts = meta["function_counts"]
        expected = sum(round(ratio * min(counts[a], counts[b])) for a, b in EXCEPTION_PAIRS)
        exceptions = [
            json.loads(line)
            for line in (pcfg_set_suite / name / "exceptions.jsonl").read_text().splitlines()
        ]
        assert len(exceptions) == meta["exceptions"] == expected
        exception_ids = {e["id"] for e in exceptions}
        for record in parts["train"]:
            if record["id"] in exception_ids:
                continue
            assert not has_adjacent(record["input"].split(), set(EXCEPTION_PAIRS))
        train_by_id = {r["id"]: r for r in parts["train"]}
        for e in exceptions:
            assert train_by_id[e["id"]]["output"] == e["exception_output"] != e["rule_output"]
            assert e["rule_output"] == PCFG.interpret(e["input"])
            assert e["exception_output"] == exception_output(PCFG, e["input"], tuple(e["pair"]))
        _, task = load(pcfg_set_suite, "task")
        source = task["train"] + task["test"]
        for pair in EXCEPTION_PAIRS:
            # half of a pair's exceptions have two functions, as published, unless the pool has
            # fewer usable two-function inputs with the pair (then all of them are taken)
            wanted = round(ratio * min(counts[pair[0]], counts[pair[1]]))
            mine = [e for e in exceptions if tuple(e["pair"]) == pair]
            short = sum(train_by_id[e["id"]]["meta"]["functions"] == 2 for e in mine)
            usable = sum(
                r["meta"]["functions"] == 2
                and first_pair(r, EXCEPTION_PAIRS) == pair
                and exception_output(PCFG, r["input"], pair) != r["output"]
                for r in source
            )
            assert short == min((wanted + 1) // 2, usable), (pair, short, wanted, usable)
    assert expected > 0  # the largest ratio inserts exceptions even in this small suite


def test_localism_records_and_increasing_length_corpus(pcfg_set_suite: Path):
    _, parts = load(pcfg_set_suite, "localism")
    lines = (pcfg_set_suite / "localism/unrolled_test.tsv").read_text().splitlines()
    records = read_records(lines)
    several = [r["input"] for r in parts["test"] if r["meta"]["functions"] > 1]
    assert [r.source for r in records] == several and len(several) < len(parts["test"])
    assert all(r.target == r.steps[-1][1] == PCFG.interpret(r.source) for r in records)
    corpus = [
        json.loads(line)
        for line in (pcfg_set_suite / "localism/increasing_length.jsonl").read_text().splitlines()
    ]
    cells = Counter((r["meta"]["function"], r["meta"]["string_length"]) for r in corpus)
    assert set(cells.values()) == {53} and len(cells) == 10 * 19
    for record in corpus[::97]:
        assert PCFG.interpret(record["input"]) == record["output"]
        arguments = record["input"].split(" ", 1)[1].split(" , ")
        lengths = sorted(len(argument.split()) for argument in arguments)
        assert lengths[-1] == record["meta"]["string_length"] or (
            len(arguments) == 2 and lengths[0] == record["meta"]["string_length"]
        )
        if len(arguments) == 2:
            other = [n for n in lengths if n != record["meta"]["string_length"]] or lengths[:1]
            assert 2 <= other[0] <= 5


def test_per_function_corpus(pcfg_set_suite: Path):
    _, parts = load(pcfg_set_suite, "per_function")
    by_function = Counter(r["meta"]["function"] for r in parts["test"])
    assert len(by_function) == 10
    assert len({by_function[f] for f in ("copy", "reverse", "shift", "echo")}) == 1
    assert len({by_function[f] for f in ("append", "prepend", "remove_first")}) == 1
    assert max(r["meta"]["functions"] for r in parts["test"]) <= 8
    assert all(PCFG.interpret(r["input"]) == r["output"] for r in parts["test"][::7])
    unary_inputs = {
        f: [r["input"].split(" ", 1)[1] for r in parts["test"] if r["meta"]["function"] == f]
        for f in ("copy", "echo")
    }
    assert unary_inputs["copy"] == unary_inputs["echo"]  # the same composed inputs


def test_unroller_reproduces_every_published_record(peers: Path):
    lines = (peers / DATA / "localism_unrolled_test.tsv").read_text().splitlines()
    published = read_records(lines)
    assert len(published) == 2000
    ours = [unroll_record(PCFG, record.source) for record in published]
    assert ours == published
    assert [line for record in ours for line in record_lines(record)] == lines


def test_exception_targets_reproduce_the_published_files(peers: Path):
    rows = []
    for path in sorted((peers / DATA).glob("overgeneralisation_ratio=*_test.tsv")):
        rows += read_tsv(path)
    assert len(rows) == 9 + 59 + 125 + 554
    for source, original, exception in rows:
        tokens = source.split()
        pair = next(p for p in EXCEPTION_PAIRS if has_adjacent(tokens, {p}))
        assert PCFG.interpret(source) == original
        assert exception_output(PCFG, source, pair) == exception


def test_per_function_unary_lines_follow_the_published_construction(peers: Path):
    # each unary function on the test inputs of at most 7 functions, in test-set order
    eligible = [
        row[0]
        for row in read_tsv(peers / DATA / "pcfgset_test.tsv")
        if PCFG.example(row[0]).meta["functions"] <= 7
    ]
    rows = read_tsv(peers / DATA / "per_function_test.tsv")
    for function in ("copy", "reverse", "shift", "echo", "swap_first_last", "repeat"):
        lines = [row for row in rows if row[0] == function]
        assert [row[1] for row in lines] == [f"{function} {x}" for x in eligible[:300]]
        assert all(PCFG.interpret(row[1]) == row[2] for row in lines)


def test_argument_pairs_give_up_with_a_clear_error_when_none_fit() -> None:
    import random

    from symcomp.errors import GenerationError
    from symcomp.languages.pcfg_set.suite.per_function import argument_pairs

    six = [{"id": str(i), "meta": {"functions": 6}} for i in range(10)]  # 1 + 6 + 6 > 8
    with pytest.raises(GenerationError, match="compose to at most 8 functions"):
        argument_pairs(six, 8, 3, random.Random(0))


def test_new_strings_give_up_with_a_clear_error_when_all_are_used() -> None:
    import random

    import symcomp
    from symcomp.errors import GenerationError
    from symcomp.languages.pcfg_set.suite.substitutivity import StringSource

    one = symcomp.get_language("pcfg-set").variant("pcfg-set-1", lexicon={"SYMBOL": ("A1",)})
    source = StringSource(one, [], random.Random(0))
    drawn = {tuple(source.draw_new()) for _ in range(4)}  # lengths 2..5 of one symbol
    assert len(drawn) == 4
    with pytest.raises(GenerationError, match="already an argument"):
        source.draw_new()
