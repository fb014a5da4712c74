"""Choosing in-context demonstrations by DBCA's structures (symcomp.dbca.demonstrations)."""

from __future__ import annotations

import copy
import json
from statistics import mean
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import symcomp
from symcomp.data.generate import PoolSpec, generate
from symcomp.dbca.compounds import Dag, compound_counts, parent_child_pairs
from symcomp.dbca.demonstrations import (
    METHODS,
    DemonstrationPool,
    StructureReader,
    coverage,
    coverage_summary,
    select_demonstrations,
    structure_size,
)
from symcomp.errors import DataError

SCAN = symcomp.get_language("scan")
COGS = symcomp.get_language("cogs")
SCAN_TEXTS = [
    "jump",
    "walk",
    "run left",
    "look right twice",
    "jump around left",
    "walk opposite right thrice",
    "jump twice and walk",
    "run after look left",
    "jump around right twice",
    "look left thrice and run twice",
    "walk around left after jump",
    "turn left",
    "turn opposite right twice",
    "run and look",
]


def scan_records(texts: list[str], prefix: str = "p") -> list[dict[str, Any]]:
    return [{"id": f"{prefix}{i}", "input": text} for i, text in enumerate(texts)]


@pytest.fixture(scope="module")
def scan_pool() -> DemonstrationPool:
    return DemonstrationPool(scan_records(SCAN_TEXTS), language=SCAN)


@pytest.fixture(scope="module")
def cogs_records(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    out = tmp_path_factory.mktemp("cogs") / "pool"
    generate(COGS, out, PoolSpec(n=500, seed=0))
    lines = (out / "examples.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


@pytest.fixture(scope="module")
def cogs_pool(cogs_records: list[dict[str, Any]]) -> DemonstrationPool:
    return DemonstrationPool(cogs_records[:400], language=COGS)


@pytest.mark.parametrize("method", METHODS)
def test_the_same_seed_gives_the_same_demonstrations(
    cogs_pool: DemonstrationPool, cogs_records: list[dict[str, Any]], method: str
) -> None:
    queries = cogs_records[400:460]
    first = cogs_pool.select(queries, shots=4, method=method, seed=3)
    assert first == cogs_pool.select(queries, shots=4, method=method, seed=3)
    assert all(len(chosen) == 4 for chosen in first)
    # a query's choice does not depend on the other queries asked with it
    assert cogs_pool.select(queries[7:9], shots=4, method=method, seed=3) == first[7:9]


def test_another_seed_draws_other_random_demonstrations(
    cogs_pool: DemonstrationPool, cogs_records: list[dict[str, Any]]
) -> None:
    queries = cogs_records[400:420]
    seeds = [cogs_pool.select(queries, shots=4, method="random", seed=s) for s in (0, 1)]
    assert seeds[0] != seeds[1]


@pytest.mark.parametrize("method", METHODS)
def test_no_query_among_its_demonstrations_and_no_item_twice(
    cogs_pool: DemonstrationPool, cogs_records: list[dict[str, Any]], method: str
) -> None:
    queries = cogs_records[:50]  # every query is also in the pool, under its own id
    for position, chosen in enumerate(cogs_pool.select(queries, shots=6, method=method, seed=0)):
        assert position not in chosen
        assert len(set(chosen)) == len(chosen) == 6


def test_cover_covers_every_coverable_structure_where_the_pool_allows(
    scan_pool: DemonstrationPool,
) -> None:
    query = [{"id": "q", "input": "jump around left twice and walk"}]
    chosen = scan_pool.select(query, shots=4, method="cover", seed=0)
    assert scan_pool.coverage(query, chosen) == [1.0]
    drawn = [scan_pool.select(query, shots=4, method="random", seed=s)[0] for s in range(20)]
    assert min(scan_pool.coverage(query * 20, drawn)) < 1.0


def test_cover_holds_more_than_random_and_similar_on_cogs(
    cogs_pool: DemonstrationPool, cogs_records: list[dict[str, Any]]
) -> None:
    queries = cogs_records[400:]
    shares = {
        method: mean(
            cogs_pool.coverage(queries, cogs_pool.select(queries, shots=4, method=method, seed=0))
        )
        for method in METHODS
    }
    assert shares["cover"] > shares["similar"] > shares["random"]
    assert shares["cover"] >= 0.95


def test_similar_ranks_by_shared_structures_most_similar_last() -> None:
    texts = ["look", "jump twice", "turn left", "jump thrice", "walk around right"]
    query = [{"id": "q", "input": "jump twice"}]
    (chosen,) = select_demonstrations(
        query, scan_records(texts), language=SCAN, shots=3, method="similar", seed=0
    )
    assert [texts[i] for i in chosen][-2:] == ["jump thrice", "jump twice"]
    assert "turn left" not in [texts[i] for i in chosen]


def test_cover_never_repeats_a_skeleton_while_others_are_left(
    cogs_pool: DemonstrationPool, cogs_records: list[dict[str, Any]]
) -> None:
    reader = StructureReader(COGS)
    pool = cogs_records[:400]
    shapes = [reader.read(record).skeleton for record in pool]
    assert len(set(shapes)) > 20
    for chosen in cogs_pool.select(cogs_records[400:], shots=8, method="cover", seed=1):
        assert len({shapes[i] for i in chosen}) == len(chosen)


def test_skeletons_abstract_lexical_fillers() -> None:
    reader = StructureReader(SCAN)
    shapes = [reader.read({"input": text}).skeleton for text in ("jump left", "walk right")]
    assert shapes[0] == shapes[1]
    assert shapes[0] != reader.read({"input": "jump"}).skeleton


def test_nli_records_have_the_structures_of_both_sentences() -> None:
    from symcomp.languages.monotonicity.pairs import PairSpec, generate_pairs

    language = symcomp.get_language("monotonicity")
    records = [pair.record("monotonicity", "1") for pair in generate_pairs(PairSpec(n=24, seed=2))]
    reader = StructureReader(language)
    first = reader.read(records[0]).counts
    premise = reader.read({"input": records[0]["premise"]}).counts
    assert set(premise) < set(first)
    assert " ||| " in reader.read(records[0]).skeleton
    for method in METHODS:
        chosen = select_demonstrations(
            records[:6], records, language=language, shots=3, method=method, seed=0
        )
        assert all(len(c) == 3 and i not in c for i, c in enumerate(chosen))
    assert min(coverage(records[:6], records, chosen, language=language)) > 0


def test_an_input_that_does_not_parse_is_a_data_error_naming_the_record() -> None:
    pool = [*scan_records(SCAN_TEXTS[:3]), {"id": "broken-7", "input": "jump sideways"}]
    with pytest.raises(DataError, match="broken-7"):
        DemonstrationPool(pool, language=SCAN)
    good = DemonstrationPool(scan_records(SCAN_TEXTS[:3]), language=SCAN)
    with pytest.raises(DataError, match="q-9"):
        good.select([{"id": "q-9", "input": "fly"}], shots=1, method="similar", seed=0)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"shots": 0, "method": "cover"}, "`shots` must be"),
        ({"shots": 2, "method": "cover-ls"}, "did you mean 'cover'"),
    ],
)
def test_bad_arguments_are_data_errors(
    scan_pool: DemonstrationPool, arguments: dict[str, Any], message: str
) -> None:
    with pytest.raises(DataError, match=message):
        scan_pool.select(scan_records(["jump"], "q"), seed=0, **arguments)


def test_an_empty_pool_and_a_foreign_selection_are_data_errors(
    scan_pool: DemonstrationPool,
) -> None:
    with pytest.raises(DataError, match="pool is empty"):
        select_demonstrations(
            scan_records(["jump"]), [], language=SCAN, shots=1, method="random", seed=0
        )
    with pytest.raises(DataError, match="outside the pool"):
        scan_pool.coverage(scan_records(["jump"], "q"), [[99]])


def test_inputs_are_not_modified(cogs_records: list[dict[str, Any]]) -> None:
    pool, queries = cogs_records[:100], cogs_records[100:120]
    before = copy.deepcopy((pool, queries))
    for method in METHODS:
        select_demonstrations(queries, pool, language=COGS, shots=3, method=method, seed=0)
    assert (pool, queries) == before


def test_structures_never_read_the_output_or_a_stored_derivation(
    cogs_records: list[dict[str, Any]],
) -> None:
    plain = [{"id": r["id"], "input": r["input"]} for r in cogs_records[:120]]
    noisy = [{**r, "output": "x", "derivation": {"nodes": []}} for r in plain]
    choose: dict[str, Any] = {"shots": 4, "method": "cover", "seed": 0, "language": COGS}
    assert select_demonstrations(plain[100:], plain[:100], **choose) == select_demonstrations(
        noisy[100:], noisy[:100], **choose
    )


def test_structure_sizes_are_compound_node_counts() -> None:
    dag = Dag.from_node_link(SCAN.node_link(SCAN.parse("jump around left twice")))
    assert {structure_size("c:" + key) for key in parent_child_pairs(dag)} == {2}
    assert {structure_size("c:" + key) for key in compound_counts(dag)} == {2, 3, 4, 5}
    chain = Dag.from_edges(list("abcdefg"), [(i, i + 1, 0) for i in range(6)])
    assert {structure_size("c:" + key) for key in compound_counts(chain)} == set(range(2, 8))


def test_coverage_summary_of_nothing_is_full() -> None:
    assert coverage_summary([]) == {"queries": 0, "mean": 1.0, "min": 1.0}


@settings(max_examples=25, deadline=None)
@given(
    picks=st.lists(st.integers(0, len(SCAN_TEXTS) - 1), min_size=1, max_size=5, unique=True),
    shots=st.integers(1, 16),
    method=st.sampled_from(METHODS),
    seed=st.integers(0, 2**32),
)
def test_every_selection_is_distinct_in_range_and_never_the_query(
    picks: list[int], shots: int, method: str, seed: int
) -> None:
    pool = DemonstrationPool(scan_records(SCAN_TEXTS), language=SCAN)
    queries = [{"id": f"p{i}", "input": SCAN_TEXTS[i]} for i in picks]
    for pick, chosen in zip(
        picks, pool.select(queries, shots=shots, method=method, seed=seed), strict=True
    ):
        assert len(chosen) == min(shots, len(SCAN_TEXTS) - 1)
        assert len(set(chosen)) == len(chosen)
        assert pick not in chosen
        assert all(0 <= i < len(SCAN_TEXTS) for i in chosen)


def test_random_parses_nothing_and_draws_as_the_pool_object_does(
    scan_pool: DemonstrationPool,
) -> None:
    queries = [{"id": "q1", "input": "jump"}, {"id": "p3", "input": SCAN_TEXTS[3]}]
    pool = scan_records(SCAN_TEXTS)
    drawn = select_demonstrations(queries, pool, language=SCAN, shots=5, method="random", seed=4)
    assert drawn == scan_pool.select(queries, shots=5, method="random", seed=4)
    unparsed = [*pool, {"id": "x", "input": "not scan at all"}]
    assert select_demonstrations(queries, unparsed, language=SCAN, shots=2, method="random", seed=0)
