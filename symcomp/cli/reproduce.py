"""``symcomp reproduce PAPER``: a paper's data, models, scores, report and figures."""

from __future__ import annotations

from pathlib import Path

import click

from symcomp.cli.app import cli, quiet
from symcomp.data.signals import expect_output
from symcomp.papers import PAPERS
from symcomp.papers.plan import SCALES


@cli.command()
@click.argument("paper", type=click.Choice(list(PAPERS)))
@click.option(
    "--scale",
    type=click.Choice(list(SCALES)),
    default="small",
    show_default=True,
    help="tiny: a minute (tests); small: a CPU, within the times in docs/reproductions.md; "
    "paper: the paper's sizes and presets (a GPU).",
)
@click.option(
    "--out", type=click.Path(path_type=Path, file_okay=False), help="Default: runs/PAPER-SCALE."
)
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True)
@click.option(
    "--device",
    type=click.Choice(["auto", "cpu", "cuda"]),
    default="auto",
    show_default=True,
    help="auto: CUDA when present (mixed precision), else CPU.",
)
@click.option(
    "--overwrite",
    is_flag=True,
    help="Delete the reproduction already in --out (its data, runs and scores) and start anew.",
)
@click.pass_context
def reproduce(
    ctx: click.Context,
    paper: str,
    scale: str,
    out: Path | None,
    seed: int,
    device: str,
    overwrite: bool,
) -> None:
    """Reproduce PAPER's model findings: build its data, train every model it compares
    (finished runs are kept, an interrupted one continues), score them, and write
    results.json, report.md (the paper's numbers beside symcomp's) and figures/*.png.

    A rerun into the same --out continues the reproduction there; --out holding anything
    else (your files, another paper, scale or seed) is refused unless --overwrite is given
    for an earlier reproduction. Files symcomp did not write are never replaced."""
    from symcomp.papers import get_paper
    from symcomp.papers.runner import reproduce as run_reproduction
    from symcomp.papers.runner import verdict

    target = out or Path("runs") / f"{paper}-{scale}"
    expect_output(target)  # the default --out too: the command is done once it is complete
    say = None if quiet(ctx) else (lambda message: click.echo(f"  {message}", err=True))
    command = f"symcomp reproduce {paper} --scale {scale} --seed {seed} --out {target}"
    results = run_reproduction(
        get_paper(paper),
        target,
        scale=scale,
        seed=seed,
        device=device,
        progress=say,
        command=command,
        overwrite=overwrite,
    )
    following = SCALES.index(scale) + 1
    larger = SCALES[following] if following < len(SCALES) else None
    for finding in results["findings"]:
        line = f"{verdict(finding)}: {finding['finding']} ({finding['symcomp']})"
        if finding["reproduced"] is None:  # what was measured says why
            line = f"{verdict(finding)} ({finding['symcomp']}): {finding['finding']}"
            line += f"; --scale {larger} measures it" if larger else ""
        click.echo(line)
    click.echo(f"report: {target / 'report.md'}")
    for figure in results["figures"]:
        click.echo(f"figure: {target / 'figures' / figure}")
