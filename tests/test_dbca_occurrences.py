"""A pool's DAG occurrences collected in chunks: the same features for any chunk size, and a
pool past what one chunk numbers."""

import numpy as np
import pytest

import symcomp
from symcomp.dbca import occurrences, weights
from symcomp.dbca.compounds import CompoundSpec, Dag
from symcomp.dbca.features import Features, dag_features
from symcomp.dbca.occurrences import collect
from symcomp.errors import DataError

CHAIN = Dag.from_edges(["a", "b", "c"], [(0, 1, 0), (1, 2, 0)])  # 3 compound occurrences


@pytest.fixture(scope="module")
def scan_dags() -> list[Dag]:
    scan = symcomp.get_language("scan")
    dags = [Dag.from_tree(d.tree) for d in list(scan.enumerate())[::41]]
    return dags + dags[::3]  # DAGs met again, as a pool's structures are


def assert_same_features(got: Features, want: Features) -> None:
    for name in ("atoms", "compounds", "pairs"):
        for part in ("indptr", "indices", "values"):
            a, b = getattr(getattr(got, name), part), getattr(getattr(want, name), part)
            assert a.dtype == b.dtype
            np.testing.assert_array_equal(a, b)
    assert got.compound_names == want.compound_names
    assert got.atom_names == want.atom_names
    assert got.pair_names == want.pair_names
    assert got.description == want.description


@pytest.mark.parametrize("weighting", ["dbca", "counts"])
@pytest.mark.parametrize(("fold", "remembered"), [(1, 0), (5, 3), (64, 1 << 15)])
def test_features_collected_in_chunks_equal_one_chunk(
    monkeypatch, scan_dags, weighting, fold, remembered
):
    monkeypatch.setattr(occurrences, "REMEMBERED", 0)  # every DAG extracted
    whole = dag_features(scan_dags, weighting=weighting, top_k=400)
    monkeypatch.setattr(occurrences, "REMEMBERED", remembered)
    monkeypatch.setattr(occurrences, "FOLD", fold)
    monkeypatch.setattr(weights, "SLICE", 97)  # top-k re-sorts rows in many slices too
    assert_same_features(dag_features(scan_dags, weighting=weighting, top_k=400), whole)


def test_a_chunk_past_32_bit_occurrence_numbers_is_refused(monkeypatch):
    monkeypatch.setattr(occurrences, "MAX_OCCURRENCES", 5)
    with pytest.raises(DataError, match="example 2 brings its chunk of 2 examples past 5"):
        dag_features([CHAIN] * 3)


def test_a_pool_past_what_one_chunk_numbers_is_weighed_chunk_by_chunk(monkeypatch):
    # the pool's 9 occurrences are more than a chunk numbers (5), each chunk's 3 are not
    dags = [CHAIN, Dag.from_edges(["a", "b"], [(0, 1, 0)]), CHAIN]
    whole = dag_features(dags)
    monkeypatch.setattr(occurrences, "MAX_OCCURRENCES", 5)
    monkeypatch.setattr(occurrences, "FOLD", 1)
    assert_same_features(dag_features(dags), whole)


def test_collected_chunks_number_their_own_examples_and_occurrences():
    collected = collect([CHAIN] * 3, CompoundSpec(), with_extensions=True, fold=2)
    first, second = collected.chunks
    assert first.indptr.tolist() == [0, 3, 6] and second.indptr.tolist() == [0, 3]
    assert second.ext_occurrence.max() < 3  # numbered within the chunk
    assert [len(part[0]) - 1 for part in collected.atoms] == [2, 1]
