"""The report card of a trained run or run set: each test scored with the model trained on its
split, in the loop (localism unrolling, substitutivity pairs), with the run's per-epoch
checkpoints as the overgeneralisation profile."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from symcomp.metrics.models import Model, ModelContext
from symcomp.metrics.predictions import Predictions
from symcomp.metrics.report import PredictionSource, evaluate_suite
from symcomp.models.loading import load_run_model
from symcomp.models.runs import checkpoint_models, is_runset, runs_for_tests
from symcomp.suites.reading import Suite


def _model(path: Path, context: ModelContext) -> Model:
    return load_run_model(path)


def run_report_card(
    suite: Path,
    run: Path,
    tests: Sequence[str] = (),
    checkpoints: Sequence[Predictions | Model] = (),
) -> dict[str, Any]:
    """Score ``run`` (a run directory or a run set) on ``suite`` (or on ``tests`` of it).

    Tests no run was trained for are reported with a note and no numbers (n/a on the card);
    naming a test explicitly scores it with a single run whatever split that run saw.
    """
    folder = Suite.read(suite)
    plan = runs_for_tests(run, folder)
    if tests and not is_runset(run):
        plan = {test: run for test in tests}
    results: dict[str, Any] = {}
    for test in tests or tuple(plan):
        entry = folder.entry(test)
        trained = plan.get(test)
        if trained is None:
            results[test] = {
                "kind": entry.kind,
                "note": f"no run in {run} was trained on this split",
                "pairs": {},  # the card's value-pairs rows read result["pairs"]
            }
            continue
        source = PredictionSource(
            str(run),
            model=functools.partial(_model, trained),
            checkpoints=list(checkpoints) or checkpoint_models(trained),
        )
        results[test] = evaluate_suite(folder, source, [test])["tests"][test]
    return {
        "suite": str(folder.root),
        "source": str(run),
        "language": folder.language,
        "tests": results,
    }
