"""Scoring a tree of published runs: every run's files scored into the report card, and the
mean and standard deviation over runs.

A suite made from published data (``symcomp suite import``) records in its manifest where a
published prediction tree keeps each test's files (``prediction_tree``: test name -> ``kind``
and ``files``, paths relative to the tree with ``{run}`` for the run number and ``*`` for any
text). The kinds:

predictions
    prediction files (``source<TAB>target<TAB>prediction``; for substitutivity the original
    and the synonym inputs' files together), matched to the test by source text;
trace
    a localism trace (:mod:`symcomp.metrics.traces`);
epoch_log
    an overgeneralisation log of accuracies per epoch (:mod:`symcomp.metrics.epoch_logs`).

A test with no file in the tree is left out (its cells read ``n/a``); a test with files for
some runs but not for every run of the tree is an error naming the missing file.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from symcomp.errors import DataError
from symcomp.metrics.epoch_logs import read_epoch_log
from symcomp.metrics.predictions import Predictions, read_rows
from symcomp.metrics.report import PredictionSource, card_rows, evaluate_suite
from symcomp.metrics.traces import read_trace
from symcomp.suites.reading import Suite

LAYOUT = "prediction_tree"
KINDS = ("predictions", "trace", "epoch_log")


@dataclass(frozen=True)
class TestFiles:
    """Where the tree keeps one test's files, and what they are."""

    __test__ = False  # not a pytest test class, despite the name

    kind: str
    files: tuple[str, ...]

    def pattern(self, index: int) -> re.Pattern[str]:
        """A regular expression for file ``index`` with the run number as group ``run``."""
        parts = re.split(r"(\{run\}|\*)", self.files[index])
        mapped = {"{run}": r"(?P<run>\d+)", "*": r"[^/]*"}
        return re.compile("".join(mapped.get(part, re.escape(part)) for part in parts))

    def path(self, tree: Path, index: int, run: str) -> Path | None:
        """The file ``index`` of ``run`` in ``tree``, or None when there is none."""
        wanted = self.pattern(index)
        folder = tree / Path(self.files[index]).parent
        if not folder.is_dir():
            return None
        for candidate in sorted(folder.iterdir()):
            found = wanted.fullmatch(candidate.relative_to(tree).as_posix())
            if found and found.group("run") == run:
                return candidate
        return None

    def runs(self, tree: Path) -> set[str]:
        """The run numbers of the files in ``tree`` (of the first file of the test)."""
        wanted = self.pattern(0)
        folder = tree / Path(self.files[0]).parent
        if not folder.is_dir():
            return set()
        return {
            found.group("run")
            for candidate in folder.iterdir()
            if (found := wanted.fullmatch(candidate.relative_to(tree).as_posix()))
        }


def read_layout(suite: Suite) -> dict[str, TestFiles]:
    """The ``prediction_tree`` of a suite's manifest (a DataError when it has none)."""
    data = suite.manifest.get(LAYOUT)
    where = f"{suite.root / 'manifest.json'}"
    if not isinstance(data, Mapping):
        raise DataError(
            f"{where} records no `{LAYOUT}`: only a suite made from published data "
            f"(symcomp suite import) knows where a published tree keeps each test's files."
        )
    layout = {}
    for name, entry in data.items():
        suite.entry(name)
        files = entry.get("files") if isinstance(entry, Mapping) else None
        kind = entry.get("kind") if isinstance(entry, Mapping) else None
        if kind not in KINDS or not isinstance(files, list) or not files:
            raise DataError(f"{where}: `{LAYOUT}` entry {name!r} needs a kind and files.")
        layout[name] = TestFiles(str(kind), tuple(str(f) for f in files))
    return layout


def score_tree(
    suite_path: Path | Suite, tree: Path, tests: Sequence[str] | None = None
) -> dict[str, Any]:
    """Score every run of a published prediction tree; return the run cards and the
    summary cards (mean, std over runs)."""
    suite = suite_path if isinstance(suite_path, Suite) else Suite.read(suite_path)
    if not tree.is_dir():
        raise DataError(f"{tree} is not a folder of published runs.")
    layout = read_layout(suite)
    chosen = {name: layout[name] for name in (tests or layout) if name in layout}
    found = {name: files.runs(tree) for name, files in chosen.items()}
    runs = sorted(set().union(*found.values()), key=int)
    if not runs:
        expected = ", ".join(files.files[0] for files in chosen.values())
        raise DataError(f"{tree} holds no run of any test (expected files like {expected}).")
    scored = [name for name in chosen if found[name]]
    cards = [_run_card(suite, tree, chosen, scored, run) for run in runs]
    return {
        "suite": str(suite.root),
        "tree": str(tree),
        "runs": cards,
        "not_in_tree": [name for name in chosen if not found[name]],
        "summary": summary_cards(cards),
    }


def _run_card(
    suite: Suite, tree: Path, layout: Mapping[str, TestFiles], names: list[str], run: str
) -> dict[str, Any]:
    results = {}
    for name in names:
        files = layout[name]
        paths = [_required(files, tree, index, run, name) for index in range(len(files.files))]
        source = _source(files.kind, paths, f"run={run}")
        results[name] = evaluate_suite(suite, source, [name])["tests"][name]
    return {"suite": str(suite.root), "source": f"run={run}", "tests": results}


def _required(files: TestFiles, tree: Path, index: int, run: str, name: str) -> Path:
    path = files.path(tree, index, run)
    if path is None:
        expected = tree / files.files[index].replace("{run}", run)
        raise DataError(
            f"{expected}: missing; the tree holds other runs of test {name!r}, so every run "
            f"needs this file (or remove the test's other runs)."
        )
    return path


def _source(kind: str, paths: list[Path], name: str) -> PredictionSource:
    if kind == "trace":
        return PredictionSource(name, trace=[t for path in paths for t in read_trace(path)])
    if kind == "epoch_log":
        return PredictionSource(name, epoch_log=read_epoch_log(paths[0]))
    predictions = Predictions(origin=", ".join(str(path) for path in paths))
    for path in paths:
        for row in read_rows(path):
            predictions.add(row)
    return PredictionSource(name, predictions=predictions)


def summary_cards(cards: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Two cards over the run cards: the mean and the (population) standard deviation of
    every row, as the papers report results over runs.

    >>> run = {"tests": {"t": {"kind": "accuracy", "accuracy": 0.5}}}
    >>> other = {"tests": {"t": {"kind": "accuracy", "accuracy": 0.7}}}
    >>> mean, std = summary_cards([run, other])
    >>> round(mean["tests"]["t"]["rows"][0][1], 6), round(std["tests"]["t"]["rows"][0][1], 6)
    (0.6, 0.1)
    """
    values: dict[str, dict[str, list[float]]] = {}
    for card in cards:
        for name, result in card["tests"].items():
            for label, value in card_rows(result):
                bucket = values.setdefault(name, {}).setdefault(label, [])
                if value is not None:
                    bucket.append(value)
    return [
        {
            "source": label,
            "tests": {
                name: {
                    "kind": "summary",
                    "rows": [
                        (row, reduce(found) if found else None) for row, found in rows.items()
                    ],
                }
                for name, rows in values.items()
            },
        }
        for label, reduce in (("mean", statistics.fmean), ("std", statistics.pstdev))
    ]
