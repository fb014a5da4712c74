"""Reproductions whose data is a language's test suite: one run per distinct split and
architecture, every test scored with its run in the loop, the paper's table beside symcomp's.

A paper module subclasses :class:`SuitePaper` with its language, scales, the card rows it
reports (test and the path of the score in the test's result) and the paper's values; it may
add figures and findings.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any

from symcomp.papers.plan import Outcome, RunSpec, suite_folder
from symcomp.papers.runner import findings_table, table

Scores = dict[str, dict[str, list[dict[str, Any]]]]  # architecture -> test -> results per seed
KEEP = (
    "kind",
    "accuracy",
    "consistency",
    "localism",
    "peak",
    "profile",
    "by_functions",
    "by_depth",
    "by_length",
    "by_held_out_pair",
    "pair_only",
)


@dataclass(frozen=True)
class SuiteScale:
    """A scale: suite options, seeds, the preset and settings of every run, architectures."""

    options: Mapping[str, Any]  # the suite builder's options (symcomp suite NAME --help)
    seeds: tuple[int, ...]
    preset: str
    sets: tuple[str, ...]
    architectures: tuple[tuple[str, str], ...]
    spec_changes: Mapping[str, Any] = field(default_factory=dict)  # spec fields not options
    # the tests trained and scored (shell patterns): a CPU scale may keep the ones it can
    # measure in its budget; the others show n/a
    tests: tuple[str, ...] = ("*",)

    def measures(self, test: str) -> bool:
        """Whether this scale trains and scores ``test``.

        >>> SuiteScale({}, (0,), "small", (), (), tests=("task", "sys*")).measures("localism")
        False
        """
        return named(test, self.tests)


@dataclass(frozen=True)
class SuitePaper:
    """The machinery; a paper module makes one (subclassing to add figures and findings)."""

    name: str
    title: str
    language: str
    scales: Mapping[str, SuiteScale]
    card: Mapping[str, tuple[str, tuple[str, ...]]]  # row -> (test, path in its result)
    paper_values: Mapping[str, Mapping[str, float]]  # row -> architecture -> published value
    paper_note: str = ""

    def build_data(self, out: Path, scale: str, seed: int) -> Path:
        from symcomp.core.registry import get_language
        from symcomp.suites.reading import Suite

        suite = suite_folder(out)
        if Suite.is_suite(suite):
            return suite
        config = self.scales[scale]
        builder = get_language(self.language).suite_builder()
        assert builder is not None, f"{self.language} has no suite"
        spec = builder.make({**config.options, "seed": seed})
        if config.spec_changes:
            spec = dataclasses.replace(spec, **config.spec_changes)
        builder.build(suite, spec, overwrite=True)
        return suite

    def runs(self, suite: Path, scale: str, seed: int) -> Sequence[RunSpec]:
        from symcomp.models.runs import suite_plan
        from symcomp.suites.reading import Suite

        config = self.scales[scale]
        plan = suite_plan(Suite.read(suite))
        trained = [t for t, source in plan.items() if source == t and config.measures(t)]
        return [
            RunSpec(test, model, config.preset, config.sets, seed + s, label, config.tests)
            for test in trained
            for model, label in config.architectures
            for s in config.seeds
        ]

    def score(self, suite: Path, run: Path, spec: RunSpec, device: str) -> dict[str, Any]:
        from symcomp.models.report import run_report_card
        from symcomp.models.runs import runs_for_tests
        from symcomp.suites.reading import Suite

        served = [
            t
            for t, r in runs_for_tests(run, Suite.read(suite)).items()
            if r is not None and named(t, spec.scored)
        ]
        card = run_report_card(suite, run, served, device=device)["tests"]
        return {
            test: {k: v for k, v in result.items() if k in KEEP} for test, result in card.items()
        }

    def report(self, outcomes: Sequence[Outcome], out: Path, scale: str) -> dict[str, Any]:
        names = [label for _, label in self.scales[scale].architectures]
        scores: Scores = {}
        for outcome in outcomes:
            for test, result in outcome.scores.items():
                scores.setdefault(outcome.spec.name, {}).setdefault(test, []).append(result)
        rows = []
        for row, (test, path) in self.card.items():
            cells: list[Any] = [row]
            for name in names:
                published = self.paper_values.get(row, {}).get(name)
                cells += [published, mean_at(scores.get(name, {}), test, path)]
            rows.append(cells)
        header = ["score"] + [f"{n} {who}" for n in names for who in ("paper", "symcomp")]
        pictures = self.figures(scores, names, out)
        findings = self.findings(scores, names)
        markdown = "\n\n".join(
            [
                f"# {self.title}: reproduction at scale `{scale}`",
                "The paper's numbers beside symcomp's runs (mean over seeds; n/a: not "
                "published, or not scored at this scale). " + self.paper_note,
                table(header, rows),
                "## Findings",
                findings_table(findings),
                *[f"![{p.stem.replace('_', ' ')}](figures/{p.name})" for p in pictures],
            ]
        )
        return {
            "markdown": markdown,
            "findings": findings,
            "tables": {"card": {"header": header, "rows": rows}},
        }

    def figures(self, scores: Scores, names: Sequence[str], out: Path) -> list[Path]:
        """The card as bars, symcomp's and the paper's side by side (extend to add more)."""
        from symcomp.papers import figures

        measured = {
            row: [mean_at(scores.get(name, {}), *self.card[row]) for name in names]
            for row in self.card
        }
        # rows this scale does not score stay in the report's table (n/a), not in the figure
        rows = [row for row in self.card if any(v is not None for v in measured[row])]
        rows = rows or list(self.card)
        series: dict[str, list[float | None]] = {}
        for number, name in enumerate(names):
            series[f"{name} (symcomp)"] = [measured[row][number] for row in rows]
            published = [self.paper_values.get(row, {}).get(name) for row in rows]
            if any(v is not None for v in published):
                series[f"{name} (paper)"] = published
        return [
            figures.grouped_bars(
                out / "figures" / "card.png",
                [row.replace(" accuracy", "").replace(" consistency", "") for row in rows],
                series,
                title=f"{self.title}: symcomp beside the paper",
                ylabel="accuracy / consistency",
            )
        ]

    def findings(self, scores: Scores, names: Sequence[str]) -> list[dict[str, Any]]:
        """The paper's findings checked on the scores (override)."""
        return []


def named(test: str, patterns: Sequence[str]) -> bool:
    """Whether a shell pattern names ``test`` (``*`` reaches across ``/``).

    >>> named("protocol-I/no/r1/S4/plain", ["protocol-I/*/S4/*"])
    True
    """
    return any(fnmatchcase(test, pattern) for pattern in patterns)


def matching(tests: Mapping[str, list[dict[str, Any]]], test: str) -> list[dict[str, Any]]:
    """The results of ``test``, or of every test its shell pattern matches (``protocol-I/*``).

    >>> len(matching({"a/x": [{}], "a/y": [{}, {}], "b": [{}]}, "a/*"))
    3
    """
    return [r for name in sorted(tests) if fnmatchcase(name, test) for r in tests[name]]


def mean_at(tests: Mapping[str, list[dict[str, Any]]], test: str, path: Sequence[str]) -> Any:
    """The mean over seeds (and over the tests a pattern matches) of the number at ``path``
    in a test's results (None when absent)."""
    values = []
    for result in matching(tests, test):
        value: Any = result
        for key in path:
            value = value.get(key) if isinstance(value, dict) else None
        if isinstance(value, int | float) and not isinstance(value, bool):
            values.append(float(value))
    return sum(values) / len(values) if values else None


def breakdown(
    tests: Mapping[str, list[dict[str, Any]]], test: str, key: str
) -> list[tuple[float, float]]:
    """(bucket, mean accuracy) of a test's ``by_...`` breakdown, over seeds (and over the tests
    a pattern matches)."""
    sums: dict[float, list[float]] = {}
    for result in matching(tests, test):
        for bucket, cell in result.get(key, {}).items():
            sums.setdefault(float(bucket), []).append(float(cell["accuracy"]))
    return [(bucket, sum(v) / len(v)) for bucket, v in sorted(sums.items())]
