"""DBCA weights, feature matrices, and incremental vs from-scratch divergence."""

import numpy as np
import pytest

import symcomp
from symcomp.dbca.compounds import CompoundSpec, Dag
from symcomp.dbca.divergence import atom_divergence, compound_divergence
from symcomp.dbca.engine import UNUSED, DivergenceEngine, ScratchEngine
from symcomp.dbca.features import Features, SparseRows, dag_features, ngram_features
from symcomp.dbca.weights import QUANTUM, dbca_weights, quantise, raw_counts
from symcomp.errors import DataError


@pytest.fixture(scope="module")
def scan_features():
    scan = symcomp.get_language("scan")
    derivations = list(scan.enumerate())[::7]  # 2,987 commands: varied and fast
    return dag_features(Dag.from_tree(d.tree) for d in derivations)


def test_weight_is_one_minus_the_largest_inside_probability():
    # a(0:b) always inside a(0:b(0:c)) in example 0, alone in example 1 => P = 1/2
    dags = [
        Dag.from_edges(["a", "b", "c"], [(0, 1, 0), (1, 2, 0)]),
        Dag.from_edges(["a", "b"], [(0, 1, 0)]),
    ]
    features = dag_features(dags)
    names = features.compound_names
    weights = {
        (row, names[col]): value
        for row in range(2)
        for col, value in zip(*features.compounds.row(row), strict=True)
    }
    assert weights[(0, "a(0:b)")] == 0.5
    # in example 1 nothing contains a(0:b): the inner max is over no super-compound, so w = 1
    assert weights[(1, "a(0:b)")] == 1.0
    # b(0:c) occurs once, inside a(0:b(0:c)): P = 1, weight 0, so it is dropped
    assert (0, "b(0:c)") not in weights
    assert weights[(0, "a(0:b(0:c))")] == 1.0


def test_weight_takes_the_best_occurrence():
    example = np.array([0, 0])
    kind = np.array([0, 0])  # two occurrences of one compound in one example
    _rows, _kinds, values = dbca_weights(example, kind, np.array([0]), np.array([1]), n_kinds=2)
    # occurrence 0 lies inside type 1 (P = 1/2), occurrence 1 does not: w = max(0.5, 1) = 1
    assert values.tolist() == [1.0]


def test_raw_counts_and_quantisation():
    rows, kinds, counts = raw_counts([1, 0, 1, 1], [2, 2, 2, 0], n_kinds=3)
    assert list(zip(rows.tolist(), kinds.tolist(), counts.tolist(), strict=True)) == [
        (0, 2, 1.0),
        (1, 0, 1.0),
        (1, 2, 2.0),
    ]
    values = quantise(np.array([1 / 3, 2 / 7, 1.0]))
    assert np.all(values / QUANTUM == np.round(values / QUANTUM))
    assert np.all(np.abs(values - [1 / 3, 2 / 7, 1.0]) <= QUANTUM / 2)


def test_top_k_keeps_heaviest_compounds(scan_features):
    kept = dag_features(
        [Dag.from_edges(["a", "b", "c"], [(0, 1, 0), (0, 2, 1)])] * 3
        + [Dag.from_edges(["x", "y"], [(0, 1, 0)])],
        weighting="counts",
        top_k=2,
    )
    assert len(kept.compound_names) == 2
    assert "x(0:y)" not in kept.compound_names
    assert scan_features.description["kept_compounds"] == len(scan_features.compound_names)
    with pytest.raises(DataError, match="weighting"):
        dag_features([], weighting="tfidf")


def test_sparse_rows_sums(scan_features):
    matrix = scan_features.compounds
    rows = [0, 5, 17]
    dense = np.zeros(matrix.width)
    for row in rows:
        columns, values = matrix.row(row)
        dense[columns] += values
    assert np.array_equal(matrix.sum_rows(rows), dense)
    many = list(range(0, len(matrix), 2))
    dense_many = sum(
        np.bincount(matrix.row(r)[0], weights=matrix.row(r)[1], minlength=matrix.width)
        for r in many
    )
    assert np.allclose(matrix.sum_rows(many), dense_many)
    triples = SparseRows.from_triples([2, 0], [1, 1], [3.0, 4.0], (3, 2))
    assert triples.lengths().tolist() == [1, 0, 1]


def scratch(features: Features, engine: DivergenceEngine) -> tuple[float, float]:
    train, test = engine.members(0), engine.members(1)
    return (
        atom_divergence(features.atoms.sum_rows(train), features.atoms.sum_rows(test)),
        compound_divergence(features.compounds.sum_rows(train), features.compounds.sum_rows(test)),
    )


@pytest.mark.parametrize("weighting", ["dbca", "counts"])
def test_incremental_matches_from_scratch_on_random_moves(weighting):
    scan = symcomp.get_language("scan")
    derivations = list(scan.enumerate())[::23]
    features = dag_features((Dag.from_tree(d.tree) for d in derivations), weighting=weighting)
    engine = DivergenceEngine(features)
    rng = np.random.default_rng(11)
    for step in range(3000):
        example = int(rng.integers(len(features)))
        target = int(rng.choice([UNUSED, 0, 0, 1]))
        if step % 97 == 0:  # what evaluate() predicts must be what move() then reports
            batch = rng.choice(len(features), 16, replace=False)
            predicted = engine.evaluate(batch, target)
            pick = int(rng.integers(16))
            engine.move(int(batch[pick]), target)
            actual = engine.divergences()
            assert predicted[0][pick] == pytest.approx(actual[0], abs=1e-12)
            assert predicted[1][pick] == pytest.approx(actual[1], abs=1e-12)
            continue
        engine.move(example, target)
        if step % 10 == 0:
            expected = scratch(features, engine)
            assert engine.divergences() == pytest.approx(expected, abs=1e-12)


def test_scratch_engine_scores_like_the_incremental_one(scan_features):
    rng = np.random.default_rng(5)
    fast, slow = DivergenceEngine(scan_features), ScratchEngine(scan_features)
    for engine in (fast, slow):
        engine.assign([range(0, 600), range(600, 800)])
    batch = rng.choice(len(scan_features), 40, replace=False)
    for side in (UNUSED, 0, 1):
        for got, want in zip(fast.evaluate(batch, side), slow.evaluate(batch, side), strict=True):
            assert np.allclose(got, want, atol=1e-12)


def test_empty_side_divergence_is_one():
    engine = DivergenceEngine(ngram_features(["a b", "b c"]))
    assert engine.divergences() == (1.0, 1.0)
    engine.move(0, 0)
    assert engine.divergences() == (1.0, 1.0)
    atoms, compounds = engine.evaluate([1], to_side=1)
    assert compounds[0] == 1.0 and atoms[0] < 1.0
    engine.move(0, UNUSED)
    assert engine.sizes == [0, 0]


def test_pairs_are_recorded_for_seeding(scan_features):
    assert scan_features.pairs is not None
    assert "twice(0:around)" in scan_features.pair_names
    assert scan_features.pairs.width == len(scan_features.pair_names)
    spec = CompoundSpec(max_nodes=2, chains=False)
    pairs_only = dag_features([Dag.from_edges(["a", "b"], [(0, 1, 0)])], spec, weighting="counts")
    assert pairs_only.compound_names == pairs_only.pair_names == ("a(0:b)",)


def _weights_in_one_piece(
    example: np.ndarray,
    kind: np.ndarray,
    ext_occurrence: np.ndarray,
    ext_kind: np.ndarray,
    n_kinds: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The weights as first written: every array at once (the oracle of the sliced version)."""
    inside = np.zeros(len(kind))
    occurrences_of = np.bincount(kind, minlength=n_kinds).astype(np.float64)
    once = np.unique(ext_occurrence * n_kinds + ext_kind)
    occurrence, super_kind = once // n_kinds, once % n_kinds
    _, inverse, counts = np.unique(
        kind[occurrence] * n_kinds + super_kind, return_inverse=True, return_counts=True
    )
    np.maximum.at(inside, occurrence, counts[inverse] / occurrences_of[kind[occurrence]])
    keys = example * n_kinds + kind
    unique, inverse = np.unique(keys, return_inverse=True)
    weights = np.full(len(unique), -np.inf)
    np.maximum.at(weights, inverse, 1.0 - inside)
    weights = quantise(weights)
    keep = weights > 0
    return unique[keep] // n_kinds, unique[keep] % n_kinds, weights[keep]


@pytest.mark.parametrize("slice_entries", [1, 7, 1 << 22])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_sliced_weights_equal_the_weights_in_one_piece(monkeypatch, slice_entries, seed):
    from symcomp.dbca import weights

    rng = np.random.default_rng(seed)
    n_kinds = 12
    example = np.sort(rng.integers(0, 30, 400))
    kind = rng.integers(0, n_kinds, len(example))
    # super-compound pairs of each example's own occurrences, listed example by example, with
    # repeats; shuffled once to exercise pairs that are not
    ext_occurrence = np.sort(rng.integers(0, len(example), 900))
    ext_kind = rng.integers(0, n_kinds, len(ext_occurrence))
    expected = _weights_in_one_piece(example, kind, ext_occurrence, ext_kind, n_kinds)
    monkeypatch.setattr(weights, "SLICE", slice_entries)
    shuffled = rng.permutation(len(ext_occurrence))
    for pairs in (slice(None), shuffled):
        found = dbca_weights(example, kind, ext_occurrence[pairs], ext_kind[pairs], n_kinds)
        for got, want in zip(found, expected, strict=True):
            np.testing.assert_array_equal(got, want)
    order = rng.permutation(len(example))  # occurrences not listed example by example
    position = np.empty(len(order), dtype=np.int64)
    position[order] = np.arange(len(order))
    found = dbca_weights(example[order], kind[order], position[ext_occurrence], ext_kind, n_kinds)
    for got, want in zip(found, expected, strict=True):
        np.testing.assert_array_equal(got, want)
