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
    """Bars per group and series (colour); missing values are left out. See :func:`bar_figure`."""
    plt = _pyplot()
    figure = bar_figure(groups, series, title=title, ylabel=ylabel)
    figure.savefig(path, bbox_inches="tight")
    plt.close(figure)
    return path


def bar_figure(
    groups: Sequence[str],
    series: Mapping[str, Sequence[float | None]],
    *,
    title: str,
    ylabel: str,
) -> Any:
    """The figure of :func:`grouped_bars`: horizontal bars, so that long group names read in
    full (wrapped, one per row, never overlapping), and the legend below the axes, never over
    a bar. Series named ``X (…)`` share X's colour, the paper's paler.  The caller saves and
    closes it.

    >>> figure = bar_figure(["task accuracy", "productivity"], {"A": [0.5, None]},
    ...                     title="t", ylabel="accuracy")
    >>> len(figure.axes[0].patches)
    1
    """
    plt = _pyplot()
    names = sorted(series)
    rows = max(len(groups), 1)
    height = 1.0 + rows * (0.22 * max(len(names), 1) + 0.25)
    figure, axes = plt.subplots(figsize=(7, height), dpi=120)
    bar = 0.8 / max(len(names), 1)
    hues = list(dict.fromkeys(label.split(" (")[0] for label in names))
    palette = plt.get_cmap("tab10")
    for number, label in enumerate(names):
        values = series[label]
        ys = [i + number * bar for i, v in enumerate(values) if v is not None]
        colour = palette(hues.index(label.split(" (")[0]) % 10)
        paler = 0.45 if label.endswith("(paper)") else 1.0
        axes.barh(
            ys, [v for v in values if v is not None], bar, label=label, color=colour, alpha=paler
        )
    axes.set_yticks(
        [i + 0.4 - bar / 2 for i in range(len(groups))],
        [textwrap.fill(group, 38) for group in groups],
        fontsize=8,
    )
    axes.invert_yaxis()  # the first group on top, as in the report's table
    axes.set_title(textwrap.fill(title, 70), fontsize=10)
    axes.set_xlabel(ylabel)
    shown = [v for values in series.values() for v in values if v is not None]
    if shown and min(shown) >= 0.0 and max(shown) <= 1.0:  # shares: the whole scale
        axes.set_xlim(0.0, 1.0)
    axes.grid(alpha=0.3, axis="x")
    axes.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)
    figure.tight_layout()
    return figure
