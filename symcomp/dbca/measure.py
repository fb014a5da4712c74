"""What a split's ``meta`` records about it: divergences, sizes, coverage, length ratios.

``D_A`` and ``D_C`` compare train with test (Keysers et al. 2020); with a dev part, dev is also
compared with train. *Atom coverage* is the share of the atom types of test that occur in train;
*compound coverage* the share of test's compound weight on compounds that occur in train.
*Pattern coverage* is the share of test examples whose input (output) pattern
(:mod:`symcomp.dbca.patterns`) occurs in train, and a *length ratio* is the mean input (output)
length in tokens of train divided by that of test — the columns of the paper's Table 3 (a
length split has a ratio below 1).

>>> from symcomp.dbca.features import ngram_features
>>> texts = ["jump twice", "walk twice", "jump thrice", "walk thrice"]
>>> features = ngram_features(texts)
>>> values = divergence_summary(features, [0, 1], [2, 3], [])
>>> values["compound_divergence"], values["atom_coverage"]
(1.0, 0.6667)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from symcomp.dbca.divergence import ATOM_ALPHA, COMPOUND_ALPHA, coefficient_from_sums
from symcomp.dbca.engine import IntArray
from symcomp.dbca.features import Features, SparseRows

DIGITS = 4  # meta values are rounded to this many decimals
# Bumped whenever a measure's default changes the numbers a split records (2: atoms counted
# once per example; 3: the seeding's test candidates are the top shares with ties broken by
# example index, the same on every CPU, where argpartition's SIMD kernels broke them per
# CPU; 4: the MCD search scores again the best unchosen candidates of each step, weighs the
# atom bound more each round that no split meets it, and chooses held-out pairs on a sample of
# pools past 50,000 examples); split meta carries it, and the golden MCD splits record it.
MEASURE_VERSION = 4


def _round(value: float) -> float:
    return round(float(value), DIGITS)


def _pair(features: Features, train: Sequence[int], other: Sequence[int]) -> tuple[float, float]:
    """(D_A, D_C) of ``train`` against ``other``, each example counted once (one in both
    counts as ``other``'s): what :class:`DivergenceEngine` gives after assigning the two sides,
    computed on the summed rows at once. Per-index counts and totals are exact (dyadic
    weights), so the terms and their sum are the engine's to the last bit."""
    other_rows = np.unique(np.asarray(other, dtype=np.int64))
    train_rows = np.setdiff1d(np.asarray(train, dtype=np.int64), other_rows)
    return (
        _divergence(features.atoms, train_rows, other_rows, ATOM_ALPHA),
        _divergence(features.compounds, train_rows, other_rows, COMPOUND_ALPHA),
    )


def _divergence(rows: SparseRows, first: IntArray, second: IntArray, alpha: float) -> float:
    terms = np.power(rows.sum_rows(first), alpha) * np.power(rows.sum_rows(second), 1.0 - alpha)
    row_totals = rows.row_totals()
    total_first, total_second = float(row_totals[first].sum()), float(row_totals[second].sum())
    return 1.0 - coefficient_from_sums(float(np.sum(terms)), total_first, total_second, alpha)


def divergences_of(
    features: Features, train: Sequence[int], other: Sequence[int]
) -> tuple[float, float]:
    """(D_A, D_C) between two sets of examples (exact, unrounded): the values an incremental
    :class:`~symcomp.dbca.engine.DivergenceEngine` holding them gives, to the last bit.

    >>> from symcomp.dbca.features import ngram_features
    >>> features = ngram_features(["jump twice", "walk twice", "jump thrice"])
    >>> da, dc = divergences_of(features, [0], [1])
    >>> round(da, 4), dc
    (0.5, 1.0)
    """
    return _pair(features, train, other)


def compound_divergence_of(features: Features, train: Sequence[int], other: Sequence[int]) -> float:
    """D_C between two sets of examples (exact, unrounded)."""
    return _pair(features, train, other)[1]


def divergence_summary(
    features: Features, train: Sequence[int], test: Sequence[int], dev: Sequence[int]
) -> dict[str, Any]:
    """D_A, D_C (and against dev), atom and compound coverage of a split."""
    da, dc = _pair(features, train, test)
    values: dict[str, Any] = {"atom_divergence": _round(da), "compound_divergence": _round(dc)}
    if dev:
        dev_da, dev_dc = _pair(features, train, dev)
        values["dev_atom_divergence"] = _round(dev_da)
        values["dev_compound_divergence"] = _round(dev_dc)
    train_atoms = features.atoms.sum_rows(train) > 0
    test_atoms = features.atoms.sum_rows(test) > 0
    values["atom_coverage"] = _round(
        (train_atoms & test_atoms).sum() / max(int(test_atoms.sum()), 1)
    )
    train_compounds = features.compounds.sum_rows(train) > 0
    test_weight = features.compounds.sum_rows(test)
    values["compound_coverage"] = _round(
        test_weight[train_compounds].sum() / max(float(test_weight.sum()), 1e-300)
    )
    return values


def unseen_compound_rate(features: Features, train: Sequence[int], test: Sequence[int]) -> float:
    """Share of test's compound weight on compounds absent from train (1 − compound coverage):
    what ad-hoc DBCA tools report instead of the Chernoff D_C.

    >>> from symcomp.dbca.features import ngram_features
    >>> features = ngram_features(["jump twice", "walk twice", "jump thrice"])
    >>> unseen_compound_rate(features, [0, 1], [2])
    1.0
    """
    train_compounds = features.compounds.sum_rows(train) > 0
    test_weight = features.compounds.sum_rows(test)
    total = float(test_weight.sum())
    return _round(test_weight[~train_compounds].sum() / total) if total > 0 else 0.0


def coverage(train_keys: Sequence[str], test_keys: Sequence[str]) -> float:
    """Share of test examples whose key (pattern) occurs among the train examples.

    >>> coverage(["a", "b"], ["a", "c", "a", "d"])
    0.5
    """
    seen = set(train_keys)
    return _round(sum(key in seen for key in test_keys) / max(len(test_keys), 1))


def length_ratio(lengths: Sequence[int], train: Sequence[int], test: Sequence[int]) -> float:
    """Mean length of train over mean length of test (Keysers et al. 2020, Table 3).

    >>> length_ratio([2, 2, 8], [0, 1], [2])
    0.25
    """
    values = np.asarray(lengths, dtype=np.float64)
    train_mean = float(values[list(train)].mean()) if train else 0.0
    test_mean = float(values[list(test)].mean()) if test else 0.0
    return _round(train_mean / test_mean) if test_mean > 0 else 0.0


def split_measures(
    features: Features,
    train: Sequence[int],
    test: Sequence[int],
    dev: Sequence[int],
    *,
    input_lengths: Sequence[int] | None = None,
    output_lengths: Sequence[int] | None = None,
    input_patterns: Sequence[str] | None = None,
    output_patterns: Sequence[str] | None = None,
) -> dict[str, Any]:
    """Everything :mod:`symcomp.dbca.measure` records, for the parts of one split."""
    values = divergence_summary(features, train, test, dev)
    values["sizes"] = {"train": len(train), "dev": len(dev), "test": len(test)}
    for name, patterns in (("input", input_patterns), ("output", output_patterns)):
        if patterns is not None:
            values[f"{name}_pattern_coverage"] = coverage(
                [patterns[i] for i in train], [patterns[i] for i in test]
            )
    for name, lengths in (("input", input_lengths), ("output", output_lengths)):
        if lengths is not None:
            values[f"{name}_length_ratio"] = length_ratio(lengths, train, test)
    return values
