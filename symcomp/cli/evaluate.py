"""``symcomp evaluate``: the report card of a model (or prediction files) on a suite."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import click

from symcomp.cli.app import (
    FRESH_WORDS_SEED,
    PathSpec,
    UserError,
    cli,
    config_option,
    executor_options,
    in_flags,
    jobs_from,
    working,
)
from symcomp.data.artifacts import json_text


def _build_model(spec: str, context: Any) -> Any:
    from symcomp.models.loading import load_model

    return load_model(spec, context)


@cli.command()
@click.argument("suite_dir", type=click.Path(path_type=Path, exists=True, file_okay=False))
@click.option(
    "--model",
    "models",
    type=PathSpec(),
    multiple=True,
    metavar="SPEC",
    help="oracle, copy-strings, copy-input, module:attribute or file.py:attribute "
    "(a callable list[str] -> list[str]), or a run directory of symcomp train (its epochs "
    "give the overgeneralisation checkpoints); repeat to compare models.",
)
@click.option(
    "--predictions",
    type=click.Path(path_type=Path, exists=True),
    help="Prediction file or folder: TSV source/target/prediction (published layout), "
    "JSON lines {id, prediction}, or lm-evaluation-harness sample files (samples_*.jsonl of "
    "`lm-eval run --log_samples` on a `symcomp export --format lm-eval` of this suite).",
)
@click.option(
    "--limit",
    type=click.IntRange(min=1),
    help="With harness sample files of a run with `lm-eval run --limit N`: score the first N "
    "items of each test they answer (only those tests).",
)
@click.option(
    "--fresh-words",
    type=FRESH_WORDS_SEED,
    metavar="SEED",
    help="The predictions answer an export made with --fresh-words SEED: score them against "
    "the suite renamed with SEED (harness sample files record it; a plain file cannot).",
)
@click.option(
    "--runs",
    type=click.Path(path_type=Path, exists=True, file_okay=False),
    help="A model's published prediction tree (e.g. model_predictions/transformer of "
    "am-i-compositional) on a suite made by `symcomp suite import`: every run scored, with "
    "the mean and standard deviation over runs.",
)
@click.option(
    "--checkpoints",
    type=click.Path(path_type=Path, exists=True, file_okay=False),
    help="Folder of prediction files, one per training checkpoint (in name order), "
    "for the overgeneralisation profile.",
)
@click.option("--test", "tests", multiple=True, help="Score only this test (repeatable).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable report.")
@click.option(
    "--threads",
    type=click.IntRange(min=1),
    default=None,
    help="CPU threads for trained models run in the loop (torch.set_num_threads; default: "
    "torch's). On a machine other jobs share, 1 is often fastest.",
)
@executor_options
@config_option
def evaluate(
    suite_dir: Path,
    models: tuple[str, ...],
    predictions: Path | None,
    runs: Path | None,
    checkpoints: Path | None,
    tests: tuple[str, ...],
    as_json: bool,
    threads: int | None,
    limit: int | None,
    fresh_words: int | None,
    executor: str,
    address: str | None,
) -> None:
    """Score a model or predictions on every test of SUITE_DIR and print the report card."""
    from symcomp.metrics.predictions import load_predictions, prediction_files
    from symcomp.metrics.report import PredictionSource

    if sum((bool(models), predictions is not None, runs is not None)) != 1:
        raise UserError(
            "give one of --model SPEC (repeatable), --predictions FILE_OR_DIR or --runs TREE."
        )
    from symcomp.suites.reading import Suite

    Suite.read(suite_dir)  # a clear error before any work when this is not a (sound) suite
    if runs is not None:
        _print_runs(suite_dir, runs, tests, as_json)
        return
    if threads is not None:
        _set_threads(threads)
    checkpoint_sets = []
    if checkpoints is not None:
        checkpoint_sets = [load_predictions(path) for path in prediction_files(checkpoints)]
    sources = [
        PredictionSource(
            spec, model=functools.partial(_build_model, spec), checkpoints=checkpoint_sets
        )
        for spec in models
    ]
    if predictions is not None:
        source, tests = _prediction_source(
            suite_dir, predictions, tests, (limit, fresh_words), checkpoint_sets
        )
        sources.append(source)
    elif limit is not None or fresh_words is not None:
        flag = "--limit" if limit is not None else "--fresh-words"
        raise UserError(f"{flag} describes prediction files: give them with --predictions.")
    workers = jobs_from(1, executor, address)
    _print_cards(_cards(suite_dir, sources, tests, checkpoint_sets, workers), as_json)


def _cards(
    suite_dir: Path, sources: list[Any], tests: tuple[str, ...], checkpoints: list[Any], jobs: Any
) -> list[dict[str, Any]]:
    """The report card of each source: a run folder's own, or the suite's scores."""
    from symcomp.metrics.report import evaluate_suite

    cards = []
    with working(click.get_current_context(), "evaluate") as note:
        for source in sources:
            note(source.name)
            if Path(source.name).is_dir() and source.model is not None:
                cards.append(_run_card(suite_dir, Path(source.name), tests, checkpoints, jobs))
            else:
                cards.append(
                    evaluate_suite(
                        suite_dir,
                        source,
                        tests or None,
                        jobs=jobs,
                        progress=_noting(note, source.name),
                    )
                )
    return cards


def _print_cards(cards: list[dict[str, Any]], as_json: bool) -> None:
    from symcomp.metrics.report import format_report_card

    command = click.get_current_context().command
    for card in cards:  # on stderr, so that --json's output stays one document
        for name, result in card["tests"].items():
            if result.get("warning"):
                warning = in_flags(result["warning"], command)
                click.echo(f"warning: {card['source']}, {name}: {warning}", err=True)
    if as_json:
        click.echo(json_text(cards if len(cards) > 1 else cards[0], "the JSON output", indent=2))
        return
    click.echo(format_report_card(cards))
    for card in cards:
        for name, result in card["tests"].items():
            if result.get("matched_by"):
                click.echo(f"{card['source']}, {name}: rows matched by {result['matched_by']}")
            limited = result.get("limited_to")
            if limited:
                click.echo(
                    f"{card['source']}, {name}: the first {limited['items']:,} of "
                    f"{limited['of']:,} items (a run of the harness with --limit)"
                )


def _noting(note: Any, name: str) -> Any:
    return lambda test: note(f"{name}: {test}")


def _print_runs(suite_dir: Path, tree: Path, tests: tuple[str, ...], as_json: bool) -> None:
    from symcomp.metrics.prediction_trees import score_tree
    from symcomp.metrics.report import format_report_card

    scored = score_tree(suite_dir, tree, tests or None)
    if as_json:
        click.echo(json_text(scored, "the JSON output", indent=2))
        return
    click.echo(format_report_card([*scored["runs"], *scored["summary"]]))
    if scored["not_in_tree"]:
        click.echo(f"not in {tree}: {', '.join(scored['not_in_tree'])}")


def _set_threads(threads: int) -> None:
    try:
        from symcomp.models.training.device import set_threads
    except ImportError:
        raise UserError(
            "--threads sets torch's CPU threads, but torch is not installed; install the "
            'models extra: pip install -c constraints.txt -e ".[models]"'
        ) from None
    set_threads(threads)


def _run_card(
    suite_dir: Path, run: Path, tests: tuple[str, ...], checkpoints: list[Any], jobs: Any
) -> dict[str, Any]:
    from symcomp.models.report import run_report_card

    return run_report_card(suite_dir, run, tests, checkpoints, jobs=jobs)


def _prediction_source(
    suite_dir: Path,
    predictions: Path,
    tests: tuple[str, ...],
    asked: tuple[int | None, int | None],
    checkpoints: list[Any],
) -> tuple[Any, tuple[str, ...]]:
    """The source of --predictions and the tests to score (``asked``: --limit and
    --fresh-words): harness sample files answer the tests they name (unless --test narrows
    them); other files every test."""
    from symcomp.llm.harness_samples import harness_source, is_harness_samples
    from symcomp.metrics.report import PredictionSource
    from symcomp.suites.reading import Suite

    limit, fresh_words = asked
    if not is_harness_samples(predictions):
        if limit is not None:
            raise UserError(
                f"--limit scores harness sample files (samples_*.jsonl), and {predictions} "
                f"holds none."
            )
        source = PredictionSource.of_files(predictions, tests, checkpoints, fresh_words=fresh_words)
        return source, tests
    suite = Suite.read(suite_dir)
    source = harness_source(predictions, suite, limit=limit, fresh_words=fresh_words)
    answered = tuple(source.per_test or {})
    missing = [name for name in tests if name not in answered]
    if missing:
        raise UserError(
            f"{predictions} answers no item of {', '.join(missing)}; its tests: "
            f"{', '.join(answered)}."
        )
    return source, tests or answered
