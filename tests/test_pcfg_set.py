import json
import random
from collections import Counter
from pathlib import Path

import pytest

import symcomp
from symcomp.data.generate import PoolSpec, generate
from tests.conftest import REPO, read_tsv

PCFG = symcomp.get_language("pcfg-set")
FUNCTIONS = PCFG.functions or frozenset()
DATA = "pcfgset_am_i_compositional"


@pytest.mark.parametrize(
    "program, output",
    [
        ("copy A1 B2 C3", "A1 B2 C3"),
        ("reverse A1 B2 C3", "C3 B2 A1"),
        ("shift A1 B2 C3", "B2 C3 A1"),
        ("echo A1 B2", "A1 B2 B2"),
        ("swap_first_last A1 B2 C3", "C3 B2 A1"),
        ("swap_first_last A1", "A1 A1"),  # the published definition on a single symbol
        ("repeat A1 B2", "A1 B2 A1 B2"),
        ("append A1 , B2 C3", "A1 B2 C3"),
        ("prepend A1 , B2 C3", "B2 C3 A1"),
        ("remove_first A1 , B2 C3", "B2 C3"),
        ("remove_second A1 , B2 C3", "A1"),
        ("repeat_twin append_twin A1 , B1", "A1 B1 A1 B1"),
        ("reverse echo remove_second A1 B1 , shift C1 D1", "B1 B1 A1"),
    ],
)
def test_function_semantics(program, output):
    assert PCFG.interpret(program) == output


def test_published_test_and_dev_sets_are_reproduced_exactly(peers):
    rows = read_tsv(peers / DATA / "pcfgset_test.tsv") + read_tsv(peers / DATA / "pcfgset_dev.tsv")
    assert len(rows) == 14_581
    wrong = [(source, target) for source, target in rows if PCFG.interpret(source) != target]
    assert wrong == []


@pytest.mark.parametrize(
    "name",
    [
        "per_function_test.tsv",
        "localism_increasing_length.tsv",
        "productivity_test.tsv",
        "systematicity_test.tsv",
    ],
)
def test_other_published_files_are_interpreted_exactly(peers, name):
    rows = read_tsv(peers / DATA / name)
    assert all(PCFG.interpret(row[-2]) == row[-1] for row in rows)


def test_published_twin_inputs_mean_their_originals(peers):
    for original, twin, target in read_tsv(peers / DATA / "substitutivity_primitive_test.tsv"):
        assert PCFG.interpret(original) == PCFG.interpret(twin) == target


def test_published_data_stays_within_the_default_limits(peers):
    limits = PCFG.limits()
    for source, _ in read_tsv(peers / DATA / "pcfgset_test.tsv"):
        example = PCFG.example(source)
        assert example.meta["length"] <= limits["max_length"]
        assert example.meta["depth"] <= limits["max_depth"]


@pytest.fixture(scope="module")
def pool(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, object]]:
    out = tmp_path_factory.mktemp("pcfg") / "pool"
    generate(PCFG, out, PoolSpec(n=20_000, seed=3))
    return [json.loads(line) for line in (out / "examples.jsonl").read_text().splitlines()]


def string_arguments(program: str) -> list[tuple[str, ...]]:
    tree = PCFG.parse(program)
    return [tuple(str(c) for c in node.children) for node in tree.find_data("string")]


def test_pool_has_no_repeated_string_argument_nor_input(pool):
    arguments = [arg for record in pool for arg in string_arguments(record["input"])]
    assert len(arguments) == len(set(arguments)) > len(pool)
    assert len({record["input"] for record in pool}) == len(pool) == 20_000


def test_pool_outputs_equal_interpretation(pool):
    assert all(PCFG.interpret(record["input"]) == record["output"] for record in pool)


def test_pool_follows_the_published_sampling_probabilities(pool):
    functions: Counter[str] = Counter()
    lengths: Counter[int] = Counter()
    for record in pool:
        tree = PCFG.parse(record["input"])
        functions.update(str(node.data) for node in tree.iter_subtrees() if node.data in FUNCTIONS)
        lengths.update(len(node.children) for node in tree.find_data("string"))
    total = sum(functions.values())
    unary = sum(
        functions[name]
        for name in ("copy", "reverse", "shift", "echo", "swap_first_last", "repeat")
    )
    assert abs(unary / total - 0.75) < 0.01
    assert not any(name.endswith("_twin") for name in functions)
    assert set(lengths) == {2, 3, 4, 5}
    assert max(lengths.values()) / min(lengths.values()) < 1.1


def test_root_is_always_a_function():
    rng = random.Random(0)
    for _ in range(200):
        example = PCFG.sample(rng)
        assert example.input.split()[0] in FUNCTIONS


def test_shipped_naturalisation_target_is_the_published_histogram(peers):
    import importlib.util

    script = REPO / "benchmarks" / "pcfgset_target.py"
    spec = importlib.util.spec_from_file_location("pcfgset_target", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    recomputed = module.published_target(peers / DATA / "pcfgset_test.tsv").to_json()
    shipped = json.loads(Path(REPO / "grammars" / "pcfg_set.target.json").read_text())
    assert shipped == recomputed
    assert sum(row["count"] for row in shipped["counts"]) == 9_721
