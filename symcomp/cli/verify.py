"""``symcomp verify``: check a dataset's labels (or outputs) against the language's meaning."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from symcomp.cli.app import (
    UserError,
    cli,
    executor_options,
    in_flags,
    jobs_from,
    jobs_option,
    language_argument,
    progress,
)
from symcomp.data.artifacts import json_text
from symcomp.logic.prover import DEFAULT_RLIMIT

if TYPE_CHECKING:
    from symcomp.verify import VerifyOptions
    from symcomp.verify.report import Report


@cli.command()
@click.argument("data", type=click.Path(path_type=Path))
@click.option(
    "--language",
    "language_name",
    help="Language of the data (default: the one named by manifest.json beside DATA).",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["jsonl", "tsv", "mnli"]),
    help="Row format (default: from the file name and header).",
)
@click.option(
    "--labels",
    default="auto",
    show_default=True,
    help="Label vocabulary: auto, two-way (neutral/contradiction = non-entailment), and/or "
    "WORD=CLASS,... added to it (CLASS entailment|non-entailment|neutral|contradiction), "
    "e.g. two-way,maybe=neutral.",
)
@click.option(
    "--prover",
    type=click.Choice(["portfolio", "z3", "eprover"]),
    default="portfolio",
    show_default=True,
    help="Prover deciding NLI labels: portfolio (one-step monotonicity derivations and "
    "worlds built from the formulas first, then z3, finite countermodels and E; every "
    "verdict with its proof or countermodel), or one prover alone for comparisons.",
)
@click.option(
    "--solvers-only",
    is_flag=True,
    help="Portfolio without derivations and built worlds: the solvers decide every pair "
    "(for baselines and comparisons; much slower).",
)
@click.option(
    "--explain",
    metavar="ID",
    default=None,
    help="Print one row's verdict and certificate (its id, or its line number): the unsat "
    "core of a proof, or the finite world that shows a non-entailment.",
)
@click.option(
    "--cross-check",
    type=click.Choice(["eprover", "z3", "portfolio"]),
    help="A second prover that re-decides --sample rows; any difference is reported.",
)
@click.option(
    "--sample",
    type=click.IntRange(min=1),
    default=500,
    show_default=True,
    help="Rows to cross-check (chosen with --seed).",
)
@click.option(
    "--seed", type=click.IntRange(min=0), default=0, show_default=True, help="Seed of the sample."
)
@click.option(
    "--rlimit",
    type=click.IntRange(min=1),
    default=DEFAULT_RLIMIT,
    show_default=True,
    help="Prover work per pair in z3 resource units (E: rlimit/2000 processed clauses); a "
    "pair that runs out is UNKNOWN. Deterministic: the same verdicts on any machine.",
)
@click.option(
    "--timeout-ms",
    type=click.IntRange(min=1),
    default=None,
    help="Optional wall-clock safety net per pair (off by default: with it, verdicts can "
    "depend on the machine's speed).",
)
@jobs_option("Worker processes (the report is identical for any value).")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--strict", is_flag=True, help="Unknown verdicts count as disagreements.")
@click.option(
    "--allow-unparsable",
    is_flag=True,
    help="Rows outside the language are reported but do not make the exit code 2.",
)
@click.option(
    "--open-vocabulary/--closed-vocabulary",
    default=False,
    show_default=True,
    help="Read pairs the grammar does not read with open vocabulary (monotonicity: unknown "
    "words become fresh predicates; see docs/monotonicity.md).",
)
@click.option(
    "--max-listed",
    type=click.IntRange(min=0),
    default=100,
    show_default=True,
    help="Rows listed per section of the text report (0: all).",
)
@executor_options
@click.pass_context
def verify(
    ctx: click.Context,
    data: Path,
    language_name: str | None,
    fmt: str | None,
    labels: str,
    prover: str,
    solvers_only: bool,
    explain: str | None,
    cross_check: str | None,
    sample: int,
    seed: int,
    rlimit: int,
    timeout_ms: int | None,
    jobs: int,
    as_json: bool,
    strict: bool,
    allow_unparsable: bool,
    open_vocabulary: bool,
    max_listed: int,
    executor: str,
    address: str | None,
) -> None:
    """Check the labels (or outputs) of DATA: a JSONL/TSV/MultiNLI file or a pool folder.

    \b
    NLI languages (monotonicity): each premise and hypothesis is parsed, given its
    first-order meaning and the pair is proved; the verdict is compared with the label.
    Other languages: their own checker (arithmetic: sympy values), else
    output == interpret(input).
    Exit status: 0 all agree, 1 disagreements (unknown only with --strict),
    2 bad usage or input (unreadable rows; unparsable ones unless --allow-unparsable).
    """
    from symcomp.verify.report import verify_file
    from symcomp.verify.rows import data_file

    path = data_file(data)
    language = language_argument(language_name or _manifest_language(path))
    options = _options(
        prover, solvers_only, rlimit, labels, cross_check, timeout_ms, open_vocabulary
    )
    with progress(ctx, _lines(path), "verify") as step:
        report = verify_file(
            data,
            language,
            options,
            fmt=fmt,
            jobs=jobs_from(jobs, executor, address),
            sample=sample,
            seed=seed,
            progress=step,
            explain=explain,
        )
    _show(ctx, report, explain, as_json, max_listed)
    ctx.exit(report.exit_code(strict=strict, allow_unparsable=allow_unparsable))


def _options(
    prover: str,
    solvers_only: bool,
    rlimit: int,
    labels: str,
    cross_check: str | None,
    timeout_ms: int | None,
    open_vocabulary: bool,
) -> VerifyOptions:
    """The library's options for this command's flags (``--solvers-only``: no construction)."""
    from symcomp.verify import VerifyOptions

    return VerifyOptions(
        prover=prover,
        rlimit=rlimit,
        labels=labels,
        cross_check=cross_check,
        timeout_ms=timeout_ms,
        open_vocabulary=open_vocabulary,
        construct=not solvers_only,
    )


def _show(
    ctx: click.Context, report: Report, explain: str | None, as_json: bool, max_listed: int
) -> None:
    """The report as asked: one row explained, JSON, or text in this command's flags."""
    if explain is not None:
        _explain(report, explain, as_json)
    elif as_json:
        click.echo(json_text(report.to_json(), "the JSON output", indent=2, ensure_ascii=False))
    else:
        click.echo(in_flags(report.format(max_listed=max_listed), ctx.command))


def _explain(report: object, wanted: str, as_json: bool) -> None:
    from symcomp.verify.report import Report, check_json, explain

    assert isinstance(report, Report)
    if report.explained is None:
        raise UserError(
            f"--explain {wanted}: no row of {report.source} has that id or line number."
        )
    if as_json:
        click.echo(json_text(check_json(report.explained), "the JSON output", indent=2))
    else:
        click.echo(explain(report.explained))


def _manifest_language(path: Path) -> str:
    """The language named by ``manifest.json`` next to the data file."""
    from symcomp.data.artifacts import read_manifest
    from symcomp.errors import DataError

    try:
        name = read_manifest(path.parent).get("language")
    except DataError:
        name = None
    if not isinstance(name, str):
        raise UserError(
            f"{path}: which language is it? No manifest.json beside it names one; pass "
            f"--language (see `symcomp languages`)."
        )
    return name


def _lines(path: Path) -> int:
    """Non-blank lines (for the progress bar), read as bytes: any encoding is fine here."""
    with path.open("rb") as handle:
        return sum(1 for line in handle if line.strip())
