"""``symcomp suite``: build compositionality test suites; one subcommand per suite family.

Suite families register subcommands on :func:`suite` from their own modules
(``@suite.command("name")``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from symcomp.cli.app import UserError, cli


@cli.group()
def suite() -> None:
    """Build a test suite (pool, splits and auxiliary test files) into a folder."""


def _pairs(value: str | None) -> tuple[tuple[str, str], ...] | None:
    """Parse ``"a b,c d"`` into (("a", "b"), ("c", "d"))."""
    if value is None:
        return None
    pairs = []
    for item in value.split(","):
        words = item.split()
        if len(words) != 2:
            raise UserError(f"a pair is two function names separated by a space, got {item!r}.")
        pairs.append((words[0], words[1]))
    return tuple(pairs)


@suite.command("pcfg-set")
@click.option("--out", type=click.Path(path_type=Path), required=True, help="Suite folder.")
@click.option(
    "--n", "n", type=click.IntRange(min=100), default=100_000, show_default=True, help="Pool size."
)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option(
    "--naturalize/--no-naturalize",
    default=True,
    show_default=True,
    help="Draw the pool with PCFG SET's published length/depth profile.",
)
@click.option(
    "--pairs",
    help='Held-out adjacent pairs for systematicity, e.g. "append repeat,'
    "echo shift\" (default: the paper's four).",
)
@click.option(
    "--threshold",
    type=click.IntRange(min=1),
    default=8,
    show_default=True,
    help="Productivity: most functions in a training input.",
)
@click.option("--per-function", type=click.IntRange(min=1), default=5000, show_default=True)
@click.option(
    "--export/--no-export",
    default=True,
    show_default=True,
    help="Write .tsv/.src/.tgt files per split.",
)
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True)
@click.option("--overwrite", is_flag=True, help="Replace an existing suite in --out.")
@click.pass_context
def pcfg_set(
    ctx: click.Context,
    out: Path,
    n: int,
    seed: int,
    naturalize: bool,
    pairs: str | None,
    threshold: int,
    per_function: int,
    export: bool,
    jobs: int,
    overwrite: bool,
) -> None:
    """PCFG SET's five tests (Hupkes et al. 2020) over one pool."""
    from symcomp.languages.pcfg_set.suite import HELD_OUT_PAIRS, PcfgSetSuiteSpec, build

    spec = PcfgSetSuiteSpec(
        n=n,
        seed=seed,
        naturalize=naturalize,
        held_out_pairs=_pairs(pairs) or HELD_OUT_PAIRS,
        productivity_threshold=threshold,
        per_function=per_function,
        export=export,
        jobs=jobs,
    )
    manifest = build(out, spec, overwrite=overwrite, progress=_say(ctx))
    _summary(out, manifest)


def _say(ctx: click.Context) -> Callable[[str], None] | None:
    from symcomp.cli.app import quiet

    if quiet(ctx):
        return None
    return lambda message: click.echo(f"  {message}", err=True)


def _summary(out: Path, manifest: dict[str, Any]) -> None:
    click.echo(f"wrote the {manifest['suite']} suite to {out}:")
    width = max(len(name) for name in manifest["tests"])
    for name, entry in manifest["tests"].items():
        sizes = "  ".join(f"{part} {count:>7,}" for part, count in entry["sizes"].items())
        click.echo(f"  {name:<{width}}  {entry['kind']:<18} {sizes}")


@suite.command("pcfg-let")
@click.option("--out", type=click.Path(path_type=Path), required=True, help="Suite folder.")
@click.option(
    "--n",
    "n",
    type=click.IntRange(min=100),
    default=100_000,
    show_default=True,
    help="Pool size (also of the systematicity pool unless --systematicity-n).",
)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option(
    "--vocabulary",
    type=click.IntRange(min=13),
    default=27,
    show_default=True,
    help="Items 1..V in the systematicity pool (the paper: 27).",
)
@click.option("--systematicity-n", type=click.IntRange(min=100), help="Systematicity pool size.")
@click.option("--export/--no-export", default=True, show_default=True)
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True)
@click.option("--overwrite", is_flag=True)
@click.pass_context
def pcfg_let(
    ctx: click.Context,
    out: Path,
    n: int,
    seed: int,
    vocabulary: int,
    systematicity_n: int | None,
    export: bool,
    jobs: int,
    overwrite: bool,
) -> None:
    """PCFG-LET's task, localism and three systematicity splits (Neely & Talha 2020)."""
    from symcomp.languages.pcfg_let.suite import PcfgLetSuiteSpec, build

    spec = PcfgLetSuiteSpec(
        n=n,
        seed=seed,
        vocabulary=vocabulary,
        systematicity_n=systematicity_n,
        export=export,
        jobs=jobs,
    )
    _summary(out, build(out, spec, overwrite=overwrite, progress=_say(ctx)))


@suite.command("scan")
@click.option("--out", type=click.Path(path_type=Path), required=True, help="Suite folder.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the simple split.")
@click.option("--export/--no-export", default=True, show_default=True)
@click.option("--overwrite", is_flag=True)
@click.pass_context
def scan(ctx: click.Context, out: Path, seed: int, export: bool, overwrite: bool) -> None:
    """SCAN's published splits rebuilt from the grammar."""
    from symcomp.languages.scan.suite import ScanSuiteSpec, build

    _summary(
        out,
        build(
            out, ScanSuiteSpec(seed=seed, export=export), overwrite=overwrite, progress=_say(ctx)
        ),
    )


@suite.command("arithmetic")
@click.option("--out", type=click.Path(path_type=Path), required=True, help="Suite folder.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option(
    "--in-domain",
    type=click.IntRange(min=10),
    default=24_000,
    show_default=True,
    help="In-domain expressions per partition (split 90/10 into train and dev).",
)
@click.option(
    "--generalisation",
    type=click.IntRange(min=10),
    default=12_000,
    show_default=True,
    help="Generalisation expressions per partition (the test).",
)
@click.option("--export/--no-export", default=True, show_default=True)
@click.option("--overwrite", is_flag=True)
@click.pass_context
def arithmetic(
    ctx: click.Context,
    out: Path,
    seed: int,
    in_domain: int,
    generalisation: int,
    export: bool,
    overwrite: bool,
) -> None:
    """CobA's five partitions with their Table 1 statistics."""
    from symcomp.languages.arithmetic.suite import ArithmeticSuiteSpec, build

    spec = ArithmeticSuiteSpec(
        seed=seed, in_domain=in_domain, generalisation=generalisation, export=export
    )
    manifest = build(out, spec, overwrite=overwrite, progress=_say(ctx))
    _summary(out, manifest)
    click.echo(_table1(manifest))


def _table1(manifest: dict[str, Any]) -> str:
    """The CobA paper's Table 1, one row per partition and set."""
    header = (
        f"{'partition':<15}{'set':<16}{'mean value':>11}{'ops min/mean/max':>18}"
        f"{'% mixed':>9}{'% swapped in':>14}{'% sub-expr in':>15}"
    )
    lines = ["", "Table 1", header, "-" * len(header)]
    for name, entry in manifest["tests"].items():
        for part, stats in entry["meta"]["statistics"].items():
            ops = stats["operators"]
            lines.append(
                f"{name:<15}{part:<16}{stats['mean_value']:>11.2f}"
                f"{ops['min']:>8}/{ops['mean']:>5.2f}/{ops['max']:<3}"
                f"{stats['mixed_parity_percent']:>9.1f}{stats['swapped_in_domain_percent']:>14.1f}"
                f"{stats['sub_expressions_in_domain_percent']:>15.1f}"
            )
    return "\n".join(lines)
