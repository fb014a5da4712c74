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

The manifest may have been edited, so no pattern leads out of the tree: each is a relative path
without ``..`` whose file name holds ``{run}`` once, and a file found through a symbolic link
out of the tree is refused, as are two files for one run.
"""

from __future__ import annotations

import os
import re
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from symcomp.data.safe_paths import check_relative, resolves_inside
from symcomp.errors import DataError
from symcomp.metrics.epoch_logs import read_epoch_log
from symcomp.metrics.predictions import Predictions, read_rows
from symcomp.metrics.report import PredictionSource, card_rows, evaluate_suite
from symcomp.metrics.traces import read_trace
from symcomp.suites.reading import Suite

LAYOUT = "prediction_tree"
RUN = "{run}"  # the run number in a file pattern
KINDS = ("predictions", "trace", "epoch_log")


@dataclass(frozen=True)
class TestFiles:
    """Where the tree keeps one test's files, and what they are.

    Each file is a relative path whose folder part is literal and whose name holds ``{run}``
    once (and ``*`` for any text): :func:`read_layout` checks that, and every file found is
    checked to lie inside the tree (symbolic links resolved) before it is read.
    """

    __test__ = False  # not a pytest test class, despite the name

    kind: str
    files: tuple[str, ...]

    def pattern(self, index: int) -> re.Pattern[str]:
        """A regular expression for file ``index`` with the run number as group ``run``."""
        parts = re.split(r"(\{run\}|\*)", self.files[index])
        mapped = {"{run}": r"(?P<run>\d+)", "*": r"[^/]*"}
        return re.compile("".join(mapped.get(part, re.escape(part)) for part in parts))

    def path(self, tree: Path, index: int, run: str) -> Path | None:
        """The file ``index`` of ``run`` in ``tree``, or None when there is none (a DataError
        when two files match it, or when it leads out of the tree)."""
        found = [path for number, path in self._matches(tree, index) if number == run]
        if len(found) > 1:
            raise DataError(
                f"{found[0]} and {found[1]} both match {self.files[index]!r} for run {run}; "
                f"which one holds the run is not clear. Remove or rename all but one."
            )
        return found[0] if found else None

    def runs(self, tree: Path) -> set[str]:
        """The run numbers of the files in ``tree`` (of the first file of the test)."""
        return {number for number, _ in self._matches(tree, 0)}

    def _matches(self, tree: Path, index: int) -> list[tuple[str, Path]]:
        """(run number, path) of every file of the tree that matches file ``index``."""
        wanted = self.pattern(index)
        folder = tree / PurePosixPath(self.files[index]).parent
        if not folder.is_dir():
            return []
        found = []
        for candidate in sorted(folder.iterdir()):
            match = wanted.fullmatch(candidate.relative_to(tree).as_posix())
            if match is None:
                continue
            if not resolves_inside(tree, candidate):
                raise DataError(
                    f"{candidate} leads out of {tree} (symbolic links resolve it to "
                    f"{os.path.realpath(candidate)}); symcomp reads only files inside the tree. "
                    f"Copy the file into the tree instead of linking it."
                )
            found.append((match.group("run"), candidate))
        return found


def read_layout(suite: Suite) -> dict[str, TestFiles]:
    """The ``prediction_tree`` of a suite's manifest (a DataError when it has none, or when
    an entry names no test of the suite, no known kind or a file pattern that is not a plain
    relative path with ``{run}`` once in its file name)."""
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
            raise DataError(
                f"{where}: `{LAYOUT}.{name}` needs a kind ({', '.join(KINDS)}) and a "
                f"non-empty list of files, got kind {_shown(kind)} and files {_shown(files)}."
            )
        checked = tuple(
            _pattern(value, f"{LAYOUT}.{name}.files[{index}]", where)
            for index, value in enumerate(files)
        )
        layout[name] = TestFiles(str(kind), checked)
    return layout


def _pattern(value: object, key: str, where: str) -> str:
    """A file pattern of ``prediction_tree``, checked (see :func:`read_layout`)."""
    pattern = check_relative(value, what=f"`{key}`", source=where)
    folder, _, name = pattern.rpartition("/")
    if name.count(RUN) != 1 or RUN in folder or "*" in folder:
        raise DataError(
            f"{where}: `{key}` {pattern!r} is not a file pattern: its file name must hold "
            f"{RUN} once (the run number; `*` stands for any text) and its folder part must be "
            f"literal, as in 'pcfgset/run={RUN}.txt'. Fix it in {where} or import the suite again."
        )
    return pattern


def _shown(value: object) -> str:
    """A value from the manifest as a message shows it, shortened when long."""
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def score_tree(
    suite_path: Path | Suite, tree: Path, tests: Sequence[str] | None = None
) -> dict[str, Any]:
    """Score every run of a published prediction tree; return the run cards and the
    summary cards (mean, std over runs)."""
    suite = suite_path if isinstance(suite_path, Suite) else Suite.read(suite_path)
    if not tree.is_dir():
        raise DataError(f"{tree} is not a folder of published runs.")
    layout = read_layout(suite)
    for name in tests or ():
        suite.entry(name)  # an unknown test is an error naming the suite's tests
        if name not in layout:
            raise DataError(
                f"test {name!r} of {suite.root} has no files in a published tree (its "
                f"`{LAYOUT}` lists {', '.join(layout) or 'no test'}); score it with "
                f"`predictions` or `models`, or choose one of those."
            )
    chosen = {name: layout[name] for name in (tests or layout)}
    found = {name: files.runs(tree) for name, files in chosen.items()}
    runs = sorted(set().union(*found.values()), key=int)
    if not runs:
        expected = ", ".join(f"{files.files[0]} ({name})" for name, files in chosen.items())
        raise DataError(
            f"{tree} holds no run of {'any test' if len(chosen) > 1 else 'the test'} "
            f"(expected files like {expected or 'none: the suite lists no published files'})."
        )
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
