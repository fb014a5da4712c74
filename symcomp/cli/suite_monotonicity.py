"""``symcomp suite monotonicity``: Yanaka et al. (2020)'s protocols I-IV as splits."""

from __future__ import annotations

from pathlib import Path

import click

from symcomp.cli.app import UserError
from symcomp.cli.suite import _say, _summary, suite


@suite.command("monotonicity")
@click.option("--out", type=click.Path(path_type=Path), required=True, help="Suite folder.")
@click.option(
    "--protocol",
    "protocols",
    multiple=True,
    type=click.Choice(["I", "II", "III", "IV", "all"]),
    default=("all",),
    show_default=True,
    help="Protocols to build (repeatable): I systematicity of predicate replacements, II of "
    "embedding quantifiers, III productivity, IV localism.",
)
@click.option(
    "--pool",
    type=click.Path(path_type=Path, exists=True),
    help="Use this monotonicity pool (folder or examples.jsonl) instead of drawing --n pairs.",
)
@click.option("--n", "n", type=click.IntRange(min=2), default=20_000, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--max-depth", type=click.IntRange(min=2, max=9), default=5, show_default=True)
@click.option(
    "--permutations",
    type=click.IntRange(min=1),
    default=3,
    show_default=True,
    help="Protocol I: seeded orders of the quantifier groups (scores average over them).",
)
@click.option(
    "--anchor",
    "anchors",
    multiple=True,
    default=("r1",),
    show_default=True,
    help="Protocol I: replacement seen with every quantifier (repeatable; r1..r7).",
)
@click.option("--folds", type=click.IntRange(min=2), default=3, show_default=True)
@click.option("--export/--no-export", default=False, show_default=True)
@click.option("--overwrite", is_flag=True, help="Replace an existing suite in --out.")
@click.pass_context
def monotonicity(
    ctx: click.Context,
    out: Path,
    protocols: tuple[str, ...],
    pool: Path | None,
    n: int,
    seed: int,
    max_depth: int,
    permutations: int,
    anchors: tuple[str, ...],
    folds: int,
    export: bool,
    overwrite: bool,
) -> None:
    """Monotonicity inference (Yanaka et al. 2020): protocols I-IV over one pool of pairs."""
    from symcomp.languages.monotonicity.lexicon import PHENOMENA
    from symcomp.languages.monotonicity.suite import PROTOCOLS, MonotonicitySuiteSpec, build

    unknown = [anchor for anchor in anchors if anchor not in PHENOMENA]
    if unknown:
        raise UserError(f"--anchor {unknown[0]!r}: choose from {', '.join(PHENOMENA)}.")
    spec = MonotonicitySuiteSpec(
        n=n,
        seed=seed,
        max_depth=max_depth,
        protocols=PROTOCOLS if "all" in protocols else tuple(protocols),
        pool=pool,
        permutations=permutations,
        anchors=anchors,
        folds=folds,
        export=export,
    )
    manifest = build(out, spec, overwrite=overwrite, progress=_say(ctx))
    _summary(out, manifest)
