"""CobA's scores: errors of predicted values, and the agreement of tuple members.

random, systematicity, productivity
    RMSE between predicted and true values (and exact-value accuracy), by operator kinds
    (add only, mul only, both), number of operators.
substitutivity, localism
    *agreement*: RMSE between the predicted values of the two members of a pair (an in-domain
    expression and a generalisation expression of the same tuple); *evaluation*: RMSE of the
    generalisation expressions to their true values; reported with their harmonic mean, and by
    level (swaps, or operators evaluated). Lower is better; an oracle scores 0 everywhere.

Predictions are values written as text (``"34"``, ``"33.7"``). A prediction that is not a
number (a language model's ``"The answer is 34"``) is wrong: it counts against the accuracy
and is left out of the RMSEs (which need a value), and the report says how many there were
(``not_a_number``); a pair agrees only when both its members are numbers.

>>> round(rmse([1.0, 5.0], [1, 2]), 4)
2.1213
>>> harmonic_mean(0.0, 3.0), harmonic_mean(2.0, 2.0)
(0.0, 2.0)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from symcomp.errors import DataError


def value_or_none(prediction: str) -> float | None:
    """A predicted value, or None when the prediction is not a finite number.

    >>> value_or_none(" 34 "), value_or_none("34 apples"), value_or_none("inf")
    (34.0, None, None)
    """
    try:
        number = float(prediction.strip())
    except ValueError:
        return None
    return number if math.isfinite(number) else None


def rmse(predicted: Sequence[float], true: Sequence[float]) -> float:
    if not true:
        raise ValueError("no values to score")
    return math.sqrt(sum((p - t) ** 2 for p, t in zip(predicted, true, strict=True)) / len(true))


def harmonic_mean(a: float, b: float) -> float:
    """Harmonic mean of two errors; 0 when either is 0 (a perfect score dominates)."""
    return 0.0 if a == 0 or b == 0 else 2 * a * b / (a + b)


def _groups(
    keys: Iterable[Any], predicted: Sequence[float], true: Sequence[float]
) -> dict[str, dict[str, float | int]]:
    groups: dict[Any, list[tuple[float, float]]] = {}
    for key, p, t in zip(keys, predicted, true, strict=True):
        groups.setdefault(key, []).append((p, t))
    return {
        str(key): {
            "n": len(rows),
            "rmse": rmse([p for p, _ in rows], [t for _, t in rows]),
            "accuracy": sum(p == t for p, t in rows) / len(rows),
        }
        for key, rows in sorted(groups.items(), key=lambda item: str(item[0]).zfill(4))
    }


def value_report(
    records: Sequence[Mapping[str, Any]], predictions: Sequence[str]
) -> dict[str, Any]:
    """RMSE and accuracy of value predictions, by operator kinds and number of operators."""
    values = [value_or_none(p) for p in predictions]
    numeric = [(r, v) for r, v in zip(records, values, strict=True) if v is not None]
    true = [float(record["meta"]["value"]) for record, _ in numeric]
    predicted = [value for _, value in numeric]
    correct = sum(p == t for p, t in zip(predicted, true, strict=True))
    kept = [record for record, _ in numeric]
    return {
        "n": len(records),
        "not_a_number": len(records) - len(numeric),
        "rmse": rmse(predicted, true) if numeric else None,
        "accuracy": correct / len(records),
        "by_operator_kinds": _groups((r["meta"]["operator_kinds"] for r in kept), predicted, true),
        "by_operators": _groups((r["meta"]["operators"] for r in kept), predicted, true),
    }


def pair_report(
    pairs: Sequence[Mapping[str, Any]],
    predictions: Mapping[str, str],
    records: Mapping[str, Mapping[str, Any]],
) -> dict[str, Any]:
    """Agreement and evaluation RMSE over tuple pairs, overall and by level."""
    if not pairs:
        raise DataError("no evaluation pairs to score")
    rows = []
    for pair in pairs:
        first = value_or_none(predictions[pair["representative"]])
        second = value_or_none(predictions[pair["member"]])
        if first is None or second is None:
            continue  # no agreement without two values (counted as not_a_number)
        truth = float(records[pair["member"]]["meta"]["value"])
        rows.append((int(pair["level"]), first, second, truth))
    if not rows:
        return {"pairs": 0, "not_a_number": len(pairs), "note": "no pair has two numbers"}

    def scores(selected: list[tuple[int, float, float, float]]) -> dict[str, Any]:
        agreement = rmse([r[1] for r in selected], [r[2] for r in selected])
        evaluation = rmse([r[2] for r in selected], [r[3] for r in selected])
        return {
            "pairs": len(selected),
            "agreement": agreement,
            "evaluation": evaluation,
            "harmonic": harmonic_mean(agreement, evaluation),
            "accuracy": sum(r[2] == r[3] for r in selected) / len(selected),
        }

    levels = sorted({row[0] for row in rows})
    return {
        **scores(rows),
        "not_a_number": len(pairs) - len(rows),
        "by_level": {str(level): scores([r for r in rows if r[0] == level]) for level in levels},
    }
