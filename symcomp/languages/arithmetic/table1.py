"""The CobA paper's Table 1 beside the statistics of symcomp's partitions.

Only the paper's abstract is public; the cells known here are those quoted in symcomp's issue
13 from the paper: the mean value (about 66 in every set), the operator bounds and means
(random 0 / 2.8 / 3; systematicity, substitutivity and localism 2 to 3; productivity at most 3
in-domain, 4 to 9 to generalise to), the random partition's generalisation set (1.3 % with a
swapped expression in-domain, 2.2 % with a sub-expression in-domain), and the zeros the design
fixes (no generalisation expression of substitutivity with a swapped expression in-domain, none
of localism with a sub-expression in-domain; systematicity 0 % / 100 % mixed parity). Every
other cell is printed without a paper value.

>>> rows = compare({"random": {"generalisation": {"mean_value": 63.0}}})
>>> [(r.statistic, r.ours, r.paper, round(r.relative, 3)) for r in rows]
[('mean value', 63.0, 66.0, -0.045)]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

STATISTICS: dict[str, Callable[[Mapping[str, Any]], Any]] = {
    "mean value": lambda s: s.get("mean_value"),
    "operators min": lambda s: s.get("operators", {}).get("min"),
    "operators mean": lambda s: s.get("operators", {}).get("mean"),
    "operators max": lambda s: s.get("operators", {}).get("max"),
    "% mixed parity": lambda s: s.get("mixed_parity_percent"),
    "% swapped in-domain": lambda s: s.get("swapped_in_domain_percent"),
    "% sub-expression in-domain": lambda s: s.get("sub_expressions_in_domain_percent"),
}
SETS = ("in_domain", "generalisation")
MEAN_VALUE = 66.0  # "about 66" in every set


def _bounds(low: float, high: float, mean: float | None = None) -> dict[str, float]:
    cells = {"operators min": low, "operators max": high}
    return cells if mean is None else {**cells, "operators mean": mean}


PAPER: dict[str, dict[str, dict[str, float]]] = {
    "random": {
        "in_domain": _bounds(0, 3, 2.8),
        "generalisation": {
            **_bounds(0, 3, 2.8),
            "% swapped in-domain": 1.3,
            "% sub-expression in-domain": 2.2,
        },
    },
    "systematicity": {
        "in_domain": {**_bounds(2, 3), "% mixed parity": 0.0},
        "generalisation": {**_bounds(2, 3), "% mixed parity": 100.0},
    },
    "productivity": {
        "in_domain": {"operators max": 3},
        "generalisation": {"operators min": 4, "operators max": 9},
    },
    "substitutivity": {
        "in_domain": _bounds(2, 3),
        "generalisation": {**_bounds(2, 3), "% swapped in-domain": 0.0},
    },
    "localism": {
        "in_domain": _bounds(2, 3),
        "generalisation": {**_bounds(2, 3), "% sub-expression in-domain": 0.0},
    },
}


@dataclass(frozen=True)
class Cell:
    """One statistic of one set of one partition, with the paper's value when known."""

    partition: str
    part: str
    statistic: str
    ours: float | None
    paper: float | None

    @property
    def relative(self) -> float | None:
        """(ours - paper) / paper; None without a paper value or for a paper value of 0."""
        if self.paper is None or self.ours is None or self.paper == 0:
            return None
        return (self.ours - self.paper) / self.paper

    @property
    def within(self) -> bool | None:
        """Within 10 % of the paper (exactly equal to a paper value of 0); None: no value."""
        if self.paper is None or self.ours is None:
            return None
        if self.paper == 0:
            return self.ours == 0
        return abs(self.ours - self.paper) <= 0.10 * abs(self.paper)


def compare(statistics: Mapping[str, Mapping[str, Mapping[str, Any]]]) -> list[Cell]:
    """Every known cell: ``statistics`` maps partition -> set -> the statistics of
    :func:`symcomp.languages.arithmetic.suite.table1`."""
    cells = []
    for partition, parts in statistics.items():
        for part in SETS:
            found = parts.get(part)
            if found is None:
                continue
            paper = {"mean value": MEAN_VALUE, **PAPER.get(partition, {}).get(part, {})}
            for statistic, read in STATISTICS.items():
                value = read(found)
                if value is None:
                    continue
                cells.append(Cell(partition, part, statistic, float(value), paper.get(statistic)))
    return cells


def format_comparison(statistics: Mapping[str, Mapping[str, Mapping[str, Any]]]) -> str:
    """Table 1, one row per partition and set: each statistic as ``ours (paper, difference)``."""
    cells = compare(statistics)
    rows: dict[tuple[str, str], list[Cell]] = {}
    for cell in cells:
        rows.setdefault((cell.partition, cell.part), []).append(cell)
    header = f"{'partition':<15}{'set':<15}" + "".join(f"{name:>28}" for name in STATISTICS)
    lines = ["", "Table 1: symcomp (paper, relative difference)", header, "-" * len(header)]
    for (partition, part), found in rows.items():
        by_name = {cell.statistic: cell for cell in found}
        text = "".join(f"{_cell(by_name.get(name)):>28}" for name in STATISTICS)
        lines.append(f"{partition:<15}{part:<15}{text}")
    known = [cell for cell in cells if cell.within is not None]
    within = sum(bool(cell.within) for cell in known)
    lines.append(
        f"{within} of the {len(known)} cells with a paper value are within 10 % of it "
        f"(zeros exactly); cells without a value in parentheses are not given by the paper."
    )
    return "\n".join(lines)


def _cell(cell: Cell | None) -> str:
    if cell is None or cell.ours is None:
        return "n/a"
    ours = f"{cell.ours:.2f}" if cell.statistic != "operators min" else f"{cell.ours:g}"
    if cell.paper is None:
        return ours
    relative = (
        "exact"
        if cell.relative is None and cell.within
        else ("differs" if cell.relative is None else f"{100 * cell.relative:+.1f}%")
    )
    return f"{ours} ({cell.paper:g}, {relative})"
