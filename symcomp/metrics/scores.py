"""The scores of Hupkes et al. (2020), as small pure functions over predictions and targets.

Sequences are compared after whitespace normalisation (the published scripts ``strip()``).

>>> sequence_accuracy(["A B", " C "], ["A B", "C D"])
0.5
>>> eos_prefix_share(["A B", "C"], ["A B", "C D"])
1.0
>>> eos_contained_share(["B C", "C"], ["A B C", "A B"])
0.5
>>> scores = consistency(["A", "B", ""], ["A", "C", ""], ["A", "B", "X"])
>>> scores["consistency"], scores["consistent_correct"], scores["consistency_among_wrong"]
(0.3333333333333333, 0.3333333333333333, 0.0)
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import Any


def normalise(text: str) -> str:
    """Tokens separated by single spaces."""
    return " ".join(text.split())


def matches(prediction: str, target: str) -> bool:
    return normalise(prediction) == normalise(target)


def sequence_accuracy(predictions: Sequence[str], targets: Sequence[str]) -> float:
    """Share of exact matches (1.0 for no examples is avoided: raises on empty input)."""
    if not targets:
        raise ValueError("no examples to score")
    return sum(map(matches, predictions, targets)) / len(targets)


def eos_prefix_share(predictions: Sequence[str], targets: Sequence[str]) -> float | None:
    """Among wrong predictions, the share that are a strict prefix of the target (the model
    stopped too early: the ``<eos>`` problem); None when nothing is wrong."""
    wrong = [
        (p.split(), t.split())
        for p, t in zip(predictions, targets, strict=True)
        if not matches(p, t)
    ]
    if not wrong:
        return None
    return sum(len(p) < len(t) and t[: len(p)] == p for p, t in wrong) / len(wrong)


def eos_contained_share(predictions: Sequence[str], targets: Sequence[str]) -> float | None:
    """Among wrong predictions, the share that are a contiguous sub-sequence of the target: the
    ``<eos>`` statistic Hupkes et al. (2020, note 16) report ("how many of the wrongly emitted
    answers were contained in the right answer"); None when nothing is wrong."""
    wrong = [
        (p.split(), t.split())
        for p, t in zip(predictions, targets, strict=True)
        if not matches(p, t)
    ]
    if not wrong:
        return None
    return sum(_contained(p, t) for p, t in wrong) / len(wrong)


def _contained(part: list[str], whole: list[str]) -> bool:
    size = len(part)
    return any(whole[start : start + size] == part for start in range(len(whole) - size + 1))


def adjacent_pair_breakdown(
    inputs: Sequence[str], correct: Sequence[bool], pairs: Iterable[tuple[str, str]]
) -> dict[str, dict[str, float | int]]:
    """Accuracy on the inputs that contain each adjacent pair of tokens (an input with two
    pairs counts for both), as Table 2 of Hupkes et al. (2020) reports systematicity.

    >>> pairs = [("a", "b"), ("b", "c")]
    >>> adjacent_pair_breakdown(["a b c", "b c", "c a"], [True, False, True], pairs)
    {'a b': {'n': 1, 'accuracy': 1.0}, 'b c': {'n': 2, 'accuracy': 0.5}}
    """
    sequences = [text.split() for text in inputs]
    table: dict[str, dict[str, float | int]] = {}
    for pair in pairs:
        flags = [
            ok
            for words, ok in zip(sequences, correct, strict=True)
            if any(step == pair for step in itertools.pairwise(words))
        ]
        if flags:
            table[" ".join(pair)] = {"n": len(flags), "accuracy": sum(flags) / len(flags)}
    return table


def breakdown(
    keys: Iterable[Hashable], correct: Iterable[bool]
) -> dict[str, dict[str, float | int]]:
    """Accuracy per key value (e.g. per input length), keys sorted.

    >>> breakdown([2, 3, 2], [True, False, False])
    {'2': {'n': 2, 'accuracy': 0.5}, '3': {'n': 1, 'accuracy': 0.0}}
    """
    groups: dict[Hashable, list[bool]] = {}
    for key, ok in zip(keys, correct, strict=True):
        groups.setdefault(key, []).append(ok)
    return {
        str(key): {"n": len(values), "accuracy": sum(values) / len(values)}
        for key, values in sorted(groups.items(), key=lambda item: _sort_key(item[0]))
    }


def _sort_key(value: Hashable) -> tuple[int, Any]:
    return (0, value) if isinstance(value, int | float) else (1, str(value))


def consistency(
    predictions: Sequence[str], twin_predictions: Sequence[str], targets: Sequence[str]
) -> dict[str, float | int]:
    """Substitutivity consistency over pairs (an input and its synonym-substituted twin).

    A pair is consistent when both predictions are equal and non-empty (as in the published
    ``consistency.py``); it is wrong when either prediction misses the target.
    ``consistency_among_wrong`` = consistent-but-wrong pairs / wrong pairs (the paper's Table 5).
    """
    pairs = len(targets)
    if not pairs:
        raise ValueError("no pairs to score")
    consistent = correct = wrong_consistent = wrong = 0
    for first, second, target in zip(predictions, twin_predictions, targets, strict=True):
        a, b = normalise(first), normalise(second)
        agree = a == b and bool(a)
        is_wrong = a != normalise(target) or b != normalise(target)
        consistent += agree
        correct += agree and not is_wrong
        wrong_consistent += agree and is_wrong
        wrong += is_wrong
    return {
        "pairs": pairs,
        "consistency": consistent / pairs,
        "consistent_correct": correct / pairs,
        "consistent_wrong": wrong_consistent / pairs,
        "consistency_among_wrong": wrong_consistent / wrong if wrong else 0.0,
    }


def overgeneralisation_profile(
    checkpoints: Sequence[Sequence[str]],
    rule_targets: Sequence[str],
    exception_targets: Sequence[str],
) -> dict[str, Any]:
    """Per checkpoint, the share of exceptions predicted by the rule, as the exception, or
    neither; and the peak of overgeneralisation (largest rule share) with its checkpoint.

    >>> profile = overgeneralisation_profile([["r"], ["e"]], ["r"], ["e"])
    >>> profile["peak"], profile["peak_checkpoint"], profile["final_exception"]
    (1.0, 0, 1.0)
    """
    if not rule_targets:
        return {
            "exceptions": 0,
            "profile": [],
            "peak": None,
            "peak_checkpoint": None,
            "final_exception": None,
        }
    profile = []
    for predictions in checkpoints:
        rule = sum(map(matches, predictions, rule_targets)) / len(rule_targets)
        exception = sum(map(matches, predictions, exception_targets)) / len(rule_targets)
        profile.append({"rule": rule, "exception": exception, "neither": 1.0 - rule - exception})
    peak_checkpoint = max(range(len(profile)), key=lambda i: (profile[i]["rule"], -i))
    return {
        "exceptions": len(rule_targets),
        "profile": profile,
        "peak": profile[peak_checkpoint]["rule"],
        "peak_checkpoint": peak_checkpoint,
        "final_exception": profile[-1]["exception"],
    }


def accuracy_report(
    records: Sequence[Mapping[str, Any]],
    predictions: Sequence[str],
    *,
    functions: Callable[[Mapping[str, Any]], Iterable[str]] | None = None,
) -> dict[str, Any]:
    """Accuracy of a test set with breakdowns by length, depth, #functions and function."""
    targets = [str(record["output"]) for record in records]
    correct = list(map(matches, predictions, targets))
    metas = [record.get("meta", {}) for record in records]
    report: dict[str, Any] = {
        "n": len(records),
        "accuracy": sum(correct) / len(records),
        "eos_contained_share": eos_contained_share(predictions, targets),
        "eos_prefix_share": eos_prefix_share(predictions, targets),
    }
    for measure in ("length", "depth", "functions"):
        if all(measure in meta for meta in metas):
            report[f"by_{measure}"] = breakdown((meta[measure] for meta in metas), correct)
    if functions is not None:
        keys, flags = [], []
        for record, ok in zip(records, correct, strict=True):
            for function in sorted(set(functions(record))):
                keys.append(function)
                flags.append(ok)
        report["by_function"] = breakdown(keys, flags)
    return report
