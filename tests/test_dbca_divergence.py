"""Divergence laws and the NQG/TMCD reference vectors (mcd_utils_test.py)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from symcomp.dbca.divergence import (
    ATOM_ALPHA,
    COMPOUND_ALPHA,
    atom_divergence,
    chernoff_coefficient,
    compound_divergence,
    divergence,
)
from symcomp.dbca.features import ngram_features
from symcomp.dbca.swap import swap_search
from symcomp.errors import DataError


def nqg_divergence(first: list[str], second: list[str]) -> float:
    """D_C of two example lists with atoms = unigrams and compounds = bigram sets."""
    features = ngram_features(first + second, n=2)
    train = features.compounds.sum_rows(range(len(first)))
    test = features.compounds.sum_rows(range(len(first), len(first) + len(second)))
    return compound_divergence(train, test)


def test_alphas_are_the_papers():
    assert (ATOM_ALPHA, COMPOUND_ALPHA) == (0.5, 0.1)


def test_nqg_vector_identical_lists():
    examples = ["jump twice", "walk thrice", "look and walk"]
    assert nqg_divergence(examples, list(examples)) == pytest.approx(0.0, abs=1e-12)


def test_nqg_vector_disjoint_bigrams():
    assert nqg_divergence(["jump thrice", "walk twice"], ["jump twice", "walk thrice"]) == 1.0


def test_nqg_vector_partial_overlap():
    first = ["jump twice", "walk twice", "jump thrice", "look and walk"]
    second = ["walk thrice", "walk and jump", "jump and walk"]
    assert nqg_divergence(first, second) == pytest.approx(0.8, abs=1e-12)


def test_nqg_swap_search_lifts_divergence_to_one():
    first = ["jump twice", "walk twice", "jump thrice", "look and walk"]
    second = ["walk thrice", "walk and jump", "jump and walk"]
    texts = first + second
    features = ngram_features(texts, n=2)
    result = swap_search(features, range(4), range(4, 7))
    assert result.compound_divergence == pytest.approx(1.0, abs=1e-12)
    # the published (new-version) outcome, in order
    assert [texts[i] for i in result.first] == [
        "jump and walk",
        "walk twice",
        "jump thrice",
        "look and walk",
    ]
    assert [texts[i] for i in result.second] == ["walk thrice", "walk and jump", "jump twice"]
    assert result.swaps == 1
    assert (
        nqg_divergence([texts[i] for i in result.first], [texts[i] for i in result.second]) == 1.0
    )


def test_swap_balances_atoms_first():
    texts = ["a b", "a b", "a c", "a c", "d e", "a b"]
    features = ngram_features(texts, n=2)
    result = swap_search(features, [0, 1, 2, 3], [4, 5], max_iterations=5)
    # "d" and "e" occur only in the second list: the first removable example makes room
    assert result.first[0] == 4
    assert result.balanced_swaps == 1


def test_swap_reports_atoms_it_cannot_balance():
    texts = ["a b", "a c", "d e", "a b c"]
    features = ngram_features(texts, n=2)
    with pytest.raises(DataError, match="could not make every test atom occur"):
        swap_search(features, [0, 1], [2, 3])


counts = st.lists(st.integers(min_value=0, max_value=50), min_size=1, max_size=12)
alphas = st.floats(min_value=0.01, max_value=0.99)


@settings(max_examples=200, deadline=None)
@given(p=counts, alpha=alphas)
def test_divergence_of_a_distribution_with_itself_is_zero(p, alpha):
    if sum(p) == 0:
        assert divergence(p, p, alpha) == 1.0  # empty side
        return
    assert divergence(p, p, alpha) == pytest.approx(0.0, abs=1e-12)
    scaled = [3 * value for value in p]
    assert divergence(p, scaled, alpha) == pytest.approx(0.0, abs=1e-12)


@settings(max_examples=200, deadline=None)
@given(data=st.data(), alpha=alphas)
def test_divergence_lies_in_zero_one(data, alpha):
    size = data.draw(st.integers(min_value=1, max_value=12))
    p = data.draw(st.lists(st.integers(0, 50), min_size=size, max_size=size))
    q = data.draw(st.lists(st.integers(0, 50), min_size=size, max_size=size))
    value = divergence(p, q, alpha)
    assert 0.0 <= value <= 1.0


@settings(max_examples=200, deadline=None)
@given(p=counts, q=counts, alpha=alphas)
def test_disjoint_supports_give_one(p, q, alpha):
    left = np.r_[np.asarray(p, float), np.zeros(len(q))]
    right = np.r_[np.zeros(len(p)), np.asarray(q, float)]
    assert divergence(left, right, alpha) == 1.0


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_symmetric_at_one_half(data):
    size = data.draw(st.integers(min_value=1, max_value=12))
    p = data.draw(st.lists(st.integers(0, 50), min_size=size, max_size=size))
    q = data.draw(st.lists(st.integers(0, 50), min_size=size, max_size=size))
    assert atom_divergence(p, q) == pytest.approx(atom_divergence(q, p), abs=1e-12)


def test_asymmetric_for_compound_alpha():
    p, q = [9, 1], [1, 9]
    assert compound_divergence(p, q) == pytest.approx(compound_divergence(q, p))
    r, s = [1, 0], [1, 1]
    assert compound_divergence(r, s) != pytest.approx(compound_divergence(s, r))


def test_mappings_align_by_key():
    assert chernoff_coefficient({"a": 2, "b": 0}, {"b": 5}, 0.5) == 0.0
    assert divergence({"a": 1, "b": 3}, {"b": 3, "a": 1}, 0.1) == pytest.approx(0.0, abs=1e-12)
    with pytest.raises(TypeError):
        divergence({"a": 1}, [1], 0.1)
    with pytest.raises(ValueError):
        chernoff_coefficient([1], [1], 1.5)


def test_empty_side_is_one():
    assert divergence([0, 0], [1, 2], 0.1) == 1.0
    assert divergence([1, 2], [0, 0], 0.5) == 1.0
