"""``symcomp train``: train a baseline model on a test of a suite (or on every test)."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import click

from symcomp.cli.app import cli, config_option, executor_options, jobs_from, quiet
from symcomp.data.artifacts import json_text

# the names of symcomp.models.zoo.MODELS (kept here so --help does not import torch; a test
# checks they are the same)
MODELS = (
    "transformer",
    "universal",
    "lstms2s",
    "convs2s",
    "treelstm",
    "lstm",
    "bow",
    "bert",
    "albert",
)


class _Bar:
    """One click progress bar per epoch, showing the running loss and accuracy."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.bar: Any = None
        self.epoch = 0
        self.text = ""

    def __call__(self, event: Any) -> None:
        if event.epoch != self.epoch:
            self.close()
            self.epoch = event.epoch
            self.bar = click.progressbar(
                length=event.steps,
                label=f"{self.label} epoch {event.epoch}",
                file=sys.stderr,
                item_show_func=lambda _: self.text,
            )
            self.bar.__enter__()
        self.text = f"loss {event.loss:.3f} acc {event.accuracy:.3f}"
        self.bar.update(1)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
            self.bar = None


@cli.command()
@click.argument("target", type=click.Path(path_type=Path, exists=True, file_okay=False))
@click.option("--model", "model", required=True, type=click.Choice(MODELS), help="Architecture.")
@click.option("--preset", default="small", show_default=True, help="small, tiny or hupkes.")
@click.option(
    "--set",
    "sets",
    multiple=True,
    metavar="KEY=VALUE",
    help="Override a setting (model, train, task or head field; e.g. layers=3, train.lr=1e-3, "
    "epochs=10, max_minutes=5, beam=5).",
)
@click.option("--out", required=True, type=click.Path(path_type=Path, file_okay=False))
@click.option(
    "--device",
    default="auto",
    show_default=True,
    type=click.Choice(["auto", "cpu", "cuda"]),
    help="auto: CUDA when present (with mixed precision), else CPU.",
)
@click.option(
    "--resume",
    is_flag=True,
    help="Continue the run in --out from its last epoch; for a run set, keep its finished "
    "runs and continue the rest.",
)
@click.option("--overwrite", is_flag=True, help="Replace an existing run in --out.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.option(
    "--jobs",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="With --executor ray: runs of a run set trained at once (default: one per CPU).",
)
@executor_options
@config_option
@click.pass_context
def train(
    ctx: click.Context,
    target: Path,
    model: str,
    preset: str,
    sets: tuple[str, ...],
    out: Path,
    device: str,
    resume: bool,
    overwrite: bool,
    as_json: bool,
    jobs: int,
    executor: str,
    address: str | None,
) -> None:
    """Train a model on TARGET = SUITE_DIR/TEST (one run), or on every test of SUITE_DIR (a run
    set: one run per distinct split), writing config, metrics, checkpoints and predictions."""
    from symcomp.models.runs import train_run, train_suite
    from symcomp.models.zoo import resolve
    from symcomp.suites.reading import Suite, read_test

    config = resolve(model, preset, sets)
    bars: list[_Bar] = []

    def bar(label: str) -> _Bar | None:
        if quiet(ctx):
            return None
        bars.append(_Bar(f"{model} {label}"))
        return bars[-1]

    try:
        if Suite.is_suite(target):
            summaries = train_suite(
                target,
                config,
                out,
                device=device,
                overwrite=overwrite,
                resume=resume,
                jobs=jobs_from(jobs, executor, address),
                progress=bar,
            )
        else:
            data = read_test(target)
            summaries = {
                data.name: train_run(
                    data,
                    config,
                    out,
                    device=device,
                    resume=resume,
                    overwrite=overwrite,
                    progress=bar(data.name),
                )
            }
    finally:
        for each in bars:
            each.close()
    _print_summaries(summaries, out, as_json)


def _print_summaries(summaries: Mapping[str, Any], out: Path, as_json: bool) -> None:
    if as_json:
        click.echo(json_text(summaries, "the JSON output", indent=2))
        return
    for name, summary in summaries.items():
        accuracy = summary["test_accuracy"]
        shown = "n/a" if accuracy is None else f"{accuracy:.4f}"
        click.echo(
            f"{name}: test accuracy {shown}, best epoch {summary['best_epoch']} of "
            f"{summary['epochs']}, {summary['seconds']:.0f}s, "
            f"{summary['train_examples_per_second']} train examples/s on {summary['device']}"
        )
    click.echo(f"run written to {out}")
