"""Small statistics the reports use (no scipy needed).

>>> spearman([0.1, 0.2, 0.3, 0.4], [0.9, 0.5, 0.6, 0.1])
-0.8
>>> trend([(1, 0.9), (2, 0.7), (3, 0.2)]), trend([(1, 0.9), (2, 0.7)])
(-1.0, 0.0)
>>> ranks([3.0, 1.0, 3.0])
[2.5, 1.0, 2.5]
>>> falls([(0.1, 0.9), (0.4, 0.6), (0.8, 0.1)], below=-0.8)
(True, 'Spearman rho = -1.000 over 3 levels')
>>> falls([(0.1, 0.9), (0.8, 0.1)], below=-0.8)
(None, '2 levels, too few for a trend')
"""

from __future__ import annotations

import math
from collections.abc import Sequence


def ranks(values: Sequence[float]) -> list[float]:
    """1-based ranks, ties sharing their mean rank."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    result = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for position in range(start, end + 1):
            result[order[position]] = (start + end) / 2 + 1
        start = end + 1
    return result


def pearson(x: Sequence[float], y: Sequence[float]) -> float:
    mean_x, mean_y = sum(x) / len(x), sum(y) / len(y)
    cov = sum((a - mean_x) * (b - mean_y) for a, b in zip(x, y, strict=True))
    spread = math.sqrt(sum((a - mean_x) ** 2 for a in x) * sum((b - mean_y) ** 2 for b in y))
    return cov / spread if spread else 0.0


def spearman(x: Sequence[float], y: Sequence[float]) -> float:
    """Spearman's rank correlation (Pearson's of the ranks; ties get mean ranks)."""
    return round(pearson(ranks(x), ranks(y)), 6)


def trend(points: Sequence[tuple[float, float]]) -> float:
    """Spearman's rho of y over x for (x, y) points; 0.0 with fewer than three points (two
    points are always perfectly ordered, which says nothing)."""
    if len(points) < 3:
        return 0.0
    return spearman([x for x, _y in points], [y for _x, y in points])


def falls(points: Sequence[tuple[float, float]], below: float) -> tuple[bool | None, str]:
    """Whether y falls as x rises (Spearman's rho under ``below``) and what was measured.

    None instead of a verdict when the points cannot show a trend: fewer than three levels,
    or the same y at every level (no model output differs, e.g. accuracy 0 everywhere)."""
    levels = len(points)
    if levels < 3:
        return None, f"{levels} levels, too few for a trend"
    values = {y for _x, y in points}
    if len(values) == 1:
        return None, f"accuracy {values.pop():.3f} at all {levels} levels"
    rho = trend(points)
    return rho < below, f"Spearman rho = {rho:.3f} over {levels} levels"
