"""Counts and histograms of a pool: input length, depth, functions, output length.

>>> summary = summarize([{"input": "a b", "output": "x", "meta": {"length": 2, "depth": 1}},
...                      {"input": "a", "output": "x y", "meta": {"length": 1, "depth": 1}}])
>>> summary["examples"], summary["fields"]["length"]["mean"], summary["fields"]["depth"]["max"]
(2, 1.5, 1)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

FIELDS = ("length", "depth", "functions", "output_length")
BAR_WIDTH = 40
MAX_ROWS = 12
HISTOGRAMS = ("length", "depth", "functions")  # output_length only in the table


def _values(record: Mapping[str, Any]) -> dict[str, int]:
    meta = record.get("meta") or {}
    values = {name: meta[name] for name in FIELDS if isinstance(meta.get(name), int)}
    # pools written by other tools may lack meta: lengths can still be read off the text
    values.setdefault("length", len(str(record.get("input", "")).split()))
    values.setdefault("output_length", len(str(record.get("output", "")).split()))
    return values


def summarize(records: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """Per field: min, mean, max and the histogram (value -> count)."""
    histograms: dict[str, Counter[int]] = {name: Counter() for name in FIELDS}
    examples = 0
    for record in records:
        examples += 1
        for name, value in _values(record).items():
            histograms[name][value] += 1
    fields = {}
    for name, histogram in histograms.items():
        if not histogram:
            continue
        total = sum(histogram.values())
        fields[name] = {
            "min": min(histogram),
            "mean": round(sum(value * count for value, count in histogram.items()) / total, 3),
            "max": max(histogram),
            "histogram": {str(value): histogram[value] for value in sorted(histogram)},
        }
    return {"examples": examples, "fields": fields}


def _binned(histogram: Mapping[str, int]) -> list[tuple[str, int]]:
    """Rows of a histogram; wide ranges are grouped into at most MAX_ROWS equal bins."""
    values = {int(value): count for value, count in histogram.items()}
    low, high = min(values), max(values)
    width = max(1, -(-(high - low + 1) // MAX_ROWS))
    rows = []
    for start in range(low, high + 1, width):
        count = sum(values.get(value, 0) for value in range(start, start + width))
        label = str(start) if width == 1 else f"{start}-{start + width - 1}"
        rows.append((label, count))
    return rows


def format_summary(summary: Mapping[str, Any], title: str = "") -> str:
    """A plain-text report: a table of min/mean/max, then one bar chart per field."""
    lines = [
        f"{title}: {summary['examples']:,} examples"
        if title
        else f"{summary['examples']:,} examples"
    ]
    fields = summary["fields"]
    lines.append(f"  {'field':<14}{'min':>8}{'mean':>10}{'max':>8}")
    for name, field in fields.items():
        lines.append(f"  {name:<14}{field['min']:>8}{field['mean']:>10.2f}{field['max']:>8}")
    for name in HISTOGRAMS:
        if name not in fields:
            continue
        rows = _binned(fields[name]["histogram"])
        peak = max(count for _, count in rows) or 1
        lines.append(f"  {name}:")
        for label, count in rows:
            bar = "#" * max(1 if count else 0, round(BAR_WIDTH * count / peak))
            lines.append(f"    {label:>9} {count:>8,} {bar}")
    return "\n".join(lines)
