"""The report card of a trained run or run set: each test scored with the model trained on its
split, in the loop (localism unrolling, substitutivity pairs), with the run's per-epoch
checkpoints as the overgeneralisation profile."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from symcomp.data.parallel import Jobs, as_executor
from symcomp.errors import DataError
from symcomp.metrics.model_interface import Model, ModelContext
from symcomp.metrics.predictions import Predictions
from symcomp.metrics.report import PredictionSource, score_test
from symcomp.models.loading import load_run_model
from symcomp.models.run_dir import RunDir
from symcomp.models.runs import checkpoint_models, runs_for_tests
from symcomp.models.runsets import is_runset, read_runset
from symcomp.suites.reading import Suite


def _model(path: Path, device: str, context: ModelContext) -> Model:
    return load_run_model(path, device=device)


def run_report_card(
    suite: Path,
    run: Path,
    tests: Sequence[str] = (),
    checkpoints: Sequence[Predictions | Model] = (),
    *,
    jobs: Jobs = 1,
    device: str = "auto",
) -> dict[str, Any]:
    """Score ``run`` (a run directory or a run set) on ``suite`` (or on ``tests`` of it), its
    models loaded on ``device`` (auto: CUDA when present).

    Tests no finished run serves are reported with a note naming the missing run and no
    numbers (n/a on the card): a partial run set is scored as far as it goes. Naming a test
    explicitly scores it with a single run whatever split that run saw. ``jobs`` scores the
    tests on an executor (the same card)."""
    folder = Suite.read(suite)
    _check_language(run, folder)
    # tests named for a single run are scored with it, whatever it was trained on: matching
    # the run to every test of the suite would be work thrown away
    if tests and not is_runset(run):
        plan: dict[str, Path | None] = {test: run for test in tests}
    else:
        plan = runs_for_tests(run, folder)
    chosen = list(tests or plan)
    units = []
    results: dict[str, Any] = {}
    for test in chosen:
        entry = folder.entry(test)
        trained = plan.get(test)
        if trained is None:
            results[test] = {
                "kind": entry.kind,
                "note": _missing(run, test),
                "pairs": {},  # the card's value-pairs rows read result["pairs"]
            }
            continue
        source = PredictionSource(
            str(run),
            model=functools.partial(_model, trained, device),
            checkpoints=list(checkpoints) or checkpoint_models(trained, device),
        )
        units.append((folder.root, test, source))
    executor = as_executor(jobs)
    scored = (
        [score_test(u) for u in units] if executor.in_process else executor.run(score_test, units)
    )
    results.update({unit[1]: result for unit, result in zip(units, scored, strict=True)})
    results = {test: results[test] for test in chosen}
    return {
        "suite": str(folder.root),
        "source": str(run),
        "language": folder.language,
        "tests": results,
    }


def _missing(run: Path, test: str) -> str:
    """Why ``test`` has no run: not part of the run, or the run set's run is not finished."""
    if is_runset(run):
        planned = read_runset(run).get(test)
        if planned is not None:
            return (
                f"the run set's run {run / planned} is not finished; resume the run set to "
                f"score this test"
            )
    return f"no run in {run} was trained on this split"


def _check_language(run: Path, suite: Suite) -> None:
    """A run (or every run of a run set) must be of the suite's language."""
    runs = [run / name for name in set(read_runset(run).values())] if is_runset(run) else [run]
    for each in map(RunDir, runs):
        if not each.is_run():
            continue
        data = each.config().get("data", {})
        language = data.get("language")
        if language != suite.language:
            raise DataError(
                f"{each.path} was trained on {language!r} data, but {suite.root} is a "
                f"{suite.language!r} suite; score it on a suite of its own language."
            )
        # a run written before runs recorded their fresh words records none: not compared
        suite_words = suite.manifest.get("fresh_words")
        if "fresh_words" in data and _words(data["fresh_words"]) != _words(suite_words):
            raise DataError(
                f"{each.path} was trained on {language} {_in_words(data['fresh_words'])}, but "
                f"{suite.root} is {language} {_in_words(suite_words)}; "
                f"score it on a suite in the words it was trained on."
            )


def _words(entry: Any) -> Any:
    """The renaming of a fresh-words entry, None for the original words."""
    return entry.get("mapping") if isinstance(entry, dict) else None


def _in_words(entry: Any) -> str:
    if not isinstance(entry, dict):
        return "in its own words"
    return f"in fresh words (seed {entry.get('seed')})"
