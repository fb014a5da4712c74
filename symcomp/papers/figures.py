"""The reproductions' figures: matplotlib with the Agg backend (no screen needed), PNG files."""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def line_plot(
    path: Path,
    lines: Mapping[str, Sequence[tuple[float, float]]],
    *,
    title: str,
    xlabel: str,
    ylabel: str,
    ylim: tuple[float, float] | None = (0.0, 1.0),
) -> Path:
    """One line (with markers) per label through its (x, y) points, sorted by x."""
    plt = _pyplot()
    figure, axes = plt.subplots(figsize=(6, 4), dpi=120)
    for label, points in sorted(lines.items()):
        ordered = sorted(points)
        axes.plot([p[0] for p in ordered], [p[1] for p in ordered], marker="o", label=label)
    axes.set_title(textwrap.fill(title, 70), fontsize=10)
    axes.set_xlabel(xlabel)
    axes.set_ylabel(ylabel)
    if ylim is not None:
        axes.set_ylim(*ylim)
    axes.grid(alpha=0.3)
    axes.legend()
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)
    return path


def grouped_bars(
    path: Path,
    groups: Sequence[str],
    series: Mapping[str, Sequence[float | None]],
    *,
    title: str,
    ylabel: str,
) -> Path:
    """Bars per group (x) and series (colour); missing values are left out."""
    plt = _pyplot()
    figure, axes = plt.subplots(figsize=(max(6, 1.2 * len(groups)), 4), dpi=120)
    width = 0.8 / max(len(series), 1)
    for number, (label, values) in enumerate(sorted(series.items())):
        xs = [i + number * width for i, v in enumerate(values) if v is not None]
        ys = [v for v in values if v is not None]
        axes.bar(xs, ys, width, label=label)
    axes.set_xticks(
        [i + 0.4 - width / 2 for i in range(len(groups))],
        [textwrap.fill(group, 18) for group in groups],
        rotation=30,
        ha="right",
    )
    axes.set_title(textwrap.fill(title, 70), fontsize=10)
    axes.set_ylabel(ylabel)
    axes.grid(alpha=0.3, axis="y")
    axes.legend()
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)
    return path
