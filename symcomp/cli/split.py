"""``symcomp split`` (DBCA/MCD and baseline splits) and ``symcomp divergence``.

Every ``split`` subcommand reads a pool folder (or ``examples.jsonl``), writes one split file
in the CFQ layout (``trainIdxs``/``devIdxs``/``testIdxs`` + ``meta``) atomically, and prints
its sizes and divergences. Exit codes: 0 written; 1 ``--strict`` and an MCD target was not met
(the split is still written); 2 bad usage or input.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import click

from symcomp.cli.app import (
    EXIT_DISAGREE,
    FiniteFloat,
    UserError,
    cli,
    config_option,
    executor_options,
    jobs_from,
    jobs_option,
    progress_when_used,
    quiet,
    working,
)
from symcomp.cli.importing import extractor_options, option_pairs
from symcomp.data.artifacts import json_text

F = Callable[..., Any]


def _pool_argument(function: F) -> F:
    return click.argument("pool", type=click.Path(path_type=Path, exists=True))(function)


def _size_options(function: F) -> F:
    options = [
        click.option("--train-frac", type=FiniteFloat(), default=0.4, show_default=True),
        click.option("--test-frac", type=FiniteFloat(), default=0.1, show_default=True),
        click.option(
            "--dev-frac",
            type=FiniteFloat(),
            default=0.0,
            show_default=True,
            help="Dev is drawn at random from the held-out side (like CFQ's dev and test).",
        ),
        click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True),
        click.option(
            "--out",
            type=click.Path(path_type=Path, dir_okay=False),
            required=True,
            help="The split file to write (JSON).",
        ),
        click.option("--overwrite", is_flag=True, help="Replace an existing split file."),
        _ABSTRACTION,
    ]
    for option in reversed(options):
        function = option(function)
    return config_option(function)


_ABSTRACTION = click.option(
    "--pattern-abstraction",
    type=click.Choice(["auto", "language", "fillers"]),
    default=None,
    help="Word classes of input/output patterns: the language's own (e.g. SCAN's, as in the "
    "paper), generic lexical fillers, or auto (the language's when it declares them) [auto].",
)


def _feature_options(function: F) -> F:
    options = [
        click.option(
            "--compounds",
            default=None,
            help="dag (DAG subgraphs, the default of generated pools), pairs (parent-child "
            "pairs), ngrams, or an extractor: tree:funql, tree:sexpr, conllu, "
            "grammar:FILE.lark, python:MODULE:FUNCTION [the pool's own].",
        ),
        click.option(
            "--weighting",
            type=click.Choice(["dbca", "counts"]),
            default=None,
            help="DBCA compound weights (default) or raw counts (NQG/TMCD).",
        ),
        click.option(
            "--max-nodes", type=click.IntRange(min=1), default=None, help="Largest compound [5]."
        ),
        click.option(
            "--max-branching",
            type=click.IntRange(min=1),
            default=None,
            help="Most children of a node inside a compound [2].",
        ),
        click.option(
            "--chains/--no-chains", default=None, help="Also chains of any length [chains]."
        ),
        click.option(
            "--top-k",
            type=click.IntRange(min=1),
            default=None,
            help="Compounds kept, by total weight [100000 with dbca weights, all raw counts].",
        ),
        click.option(
            "--ngram", type=click.IntRange(min=1), default=None, help="n of --compounds ngrams [2]."
        ),
        click.option(
            "--atom-frequency",
            type=click.Choice(["example", "occurrence"]),
            default=None,
            help="Count an atom once per example that holds it (default, as DBCA counts "
            "compounds and NQG/TMCD atom sets) or once per occurrence.",
        ),
    ]
    for option in reversed(options):
        function = option(function)
    return extractor_options(function)


def _shard_options(function: F) -> F:
    options: list[Callable[[F], F]] = [
        click.option(
            "--features",
            type=click.Path(path_type=Path, file_okay=False),
            default=None,
            help="A folder of feature shards of POOL: compounds as integer arrays on disk, read "
            "memory-mapped instead of held per example. Extracted there first when it holds "
            "none; shards of another pool or other feature options are refused (exit 2). "
            "Default: the pool's own (POOL/features, written by `symcomp import`) when made "
            "with these options, else features in memory.",
        ),
        click.option(
            "--shard-size",
            type=click.IntRange(min=1),
            default=65_536,
            show_default=True,
            help="Examples per shard, when --features extracts them.",
        ),
        jobs_option(
            "Worker processes extracting --features, a shard per task (the shards are the "
            "same bytes for any value)."
        ),
    ]
    for option in reversed(options):
        function = option(function)
    return executor_options(function)


def _options(values: dict[str, Any], *, defaults: bool = True) -> Any:
    """FeatureOptions from the feature flags (None when none is given and not ``defaults``)."""
    from symcomp.dbca.compounds import CompoundSpec
    from symcomp.dbca.pool import FeatureOptions

    keys = (
        "compounds",
        "weighting",
        "max_nodes",
        "max_branching",
        "chains",
        "top_k",
        "ngram",
        "atom_frequency",
        "on",
        "extractor_option",
    )
    given = {key: values.pop(key) for key in keys}
    if not defaults and all(value in (None, ()) for value in given.values()):
        return None
    base = FeatureOptions()
    spec = CompoundSpec(
        max_nodes=given["max_nodes"] or base.spec.max_nodes,
        max_branching=given["max_branching"] or base.spec.max_branching,
        chains=base.spec.chains if given["chains"] is None else given["chains"],
    )
    return FeatureOptions(
        compounds=given["compounds"] or base.compounds,
        spec=spec,
        weighting=given["weighting"] or base.weighting,
        top_k=given["top_k"] or base.top_k,
        ngram=given["ngram"] or base.ngram,
        atom_frequency=given["atom_frequency"] or base.atom_frequency,
        on=given["on"],
        extractor_options=tuple(sorted(option_pairs(given["extractor_option"]).items())),
    )


@contextlib.contextmanager
def _writing(values: dict[str, Any]) -> Iterator[None]:
    """Hold ``--out`` from the first check to the written split: a second command writing the
    same file is refused (exit 2) instead of one silently replacing the other's split."""
    from symcomp.data.artifacts import writing_beside
    from symcomp.data.splits import check_replaceable

    out: Path = values["out"]
    check_replaceable(out, overwrite=values["overwrite"])
    if not out.parent.is_dir():
        raise UserError(f"--out {out}: folder {out.parent} does not exist; create it first.")
    with writing_beside(out):
        # again under the lock: a command that held it may have written the file meanwhile
        check_replaceable(out, overwrite=values["overwrite"])
        yield


def _prepare(
    pool: Path, values: dict[str, Any], note: Callable[[str | None], None]
) -> tuple[Any, Any]:
    from symcomp.dbca.baselines import SplitSizes
    from symcomp.dbca.split import PoolData

    with _feature_step(pool, values, note) as extraction:
        data = PoolData.read(
            pool, _options(values), values["pattern_abstraction"] or "auto", **extraction
        )
    if values["pattern_abstraction"] == "language":
        data.patterns.kind  # noqa: B018 - fail before a long search when there is none
    sizes = SplitSizes.from_fractions(
        len(data), values["train_frac"], values["test_frac"], values["dev_frac"]
    )
    return data, sizes


@contextlib.contextmanager
def _feature_step(
    pool: Path, values: dict[str, Any], note: Callable[[str | None], None]
) -> Iterator[dict[str, Any]]:
    """How PoolData.read finds or extracts the features: for commands with --features, the
    folder, the pool's own shards, the workers, and a progress bar by examples (shown only
    when shards are extracted). The baselines hold their records."""
    if "features" not in values:
        yield {}
        return

    def total() -> int | None:
        from symcomp.data.artifacts import examples_path, file_record, read_manifest

        path = examples_path(pool)
        recorded: Any = {}
        if (path.parent / "manifest.json").is_file():
            recorded = read_manifest(path.parent).get("files", {}).get(path.name) or {}
        lines = recorded.get("lines") if isinstance(recorded, dict) else None
        return lines if isinstance(lines, int) else file_record(path)["lines"]

    ctx = click.get_current_context()
    with progress_when_used(ctx, "features", total, note) as step:
        yield {
            "features": values["features"],
            "shard_size": values["shard_size"],
            "own_features": True,
            "jobs": jobs_from(values["jobs"], values["executor"], values["address"]),
            "progress": step,
        }


def _write(split: Any, out: Path) -> None:
    from symcomp.data.splits import write_split

    write_split(out, split)
    meta = split.meta
    sizes = meta["sizes"]
    click.echo(
        f"wrote {meta['method']} split to {out}: train {sizes['train']:,}, dev {sizes['dev']:,}, "
        f"test {sizes['test']:,}; D_A {meta['atom_divergence']:.4f}, "
        f"D_C {meta['compound_divergence']:.4f}"
    )
    _note_truncation(meta.get("features", {}))


def _note_truncation(features: Any) -> None:
    """Say when compounds were cut to the heaviest --top-k: D_C then differs from a measure
    over all compounds (such as the NQG code's raw counts)."""
    kept, weighted = features.get("kept_compounds"), features.get("weighted_compounds")
    if isinstance(kept, int) and isinstance(weighted, int) and kept < weighted:
        click.echo(
            f"note: D_C is over the {kept:,} heaviest of {weighted:,} compounds (--top-k "
            f"{features.get('top_k')}, {features.get('weighting')} weighting)."
        )


@cli.group()
def split() -> None:
    """Split a pool into train/dev/test (MCD and baselines); writes split.json."""


@split.command("dbca")
@_pool_argument
@_size_options
@_feature_options
@click.option(
    "--method",
    type=click.Choice(["greedy", "swap"]),
    default="greedy",
    show_default=True,
    help="The paper's greedy construction, or the NQG/TMCD swap search.",
)
@click.option("--target-dc", default="max", show_default=True, help="A number in [0, 1] or max.")
@click.option("--max-da", type=FiniteFloat(0.0, 1.0), default=0.02, show_default=True)
@click.option(
    "--candidates",
    type=click.IntRange(min=1),
    default=128,
    show_default=True,
    help="Unused examples scored per greedy step.",
)
@click.option(
    "--rounds",
    type=click.IntRange(min=0),
    default=10,
    show_default=True,
    help="Remove-and-regrow rounds after the construction.",
)
@click.option(
    "--removal-interval",
    type=click.IntRange(min=0),
    default=100,
    show_default=True,
    help="Additions between removal attempts (0: none).",
)
@click.option(
    "--seeding",
    type=click.Choice(["auto", "on", "off"]),
    default="auto",
    show_default=True,
    help="Start from held-out parent-child pairs (auto: try with and without, keep the better).",
)
@click.option(
    "--time-limit",
    type=FiniteFloat(min=0.0),
    default=None,
    help="Seconds for improvement rounds.",
)
@click.option(
    "--max-iterations",
    type=click.IntRange(min=1),
    default=1000,
    show_default=True,
    help="Iterations of --method swap.",
)
@click.option(
    "--distinct-from",
    type=click.Path(path_type=Path, exists=True, dir_okay=False),
    multiple=True,
    help="An earlier split of POOL whose held-out examples this test avoids (repeatable; "
    "MCD2 --distinct-from mcd1.json); meta.test_overlap records the overlap.",
)
@click.option("--strict", is_flag=True, help="Exit 1 when the targets are not met.")
@_shard_options
def split_dbca(pool: Path, **values: Any) -> None:
    """A maximum-compound-divergence split of POOL (Keysers et al. 2020)."""
    with _writing(values):
        _split_dbca(pool, values)


def _split_dbca(pool: Path, values: dict[str, Any]) -> None:
    ctx = click.get_current_context()
    from symcomp.data.splits import read_split
    from symcomp.dbca.mcd import McdConfig
    from symcomp.dbca.split import mcd, swap

    target = _target(values["target_dc"])
    with working(ctx, "split dbca") as note:
        note("reading the pool and its compounds")
        data, sizes = _prepare(pool, values, note)
        data.features  # noqa: B018 - computed under this status line, before the search's bar
        # checked against POOL (its sha256, then its size) by mcd
        earlier = {str(path): read_split(path) for path in values["distinct_from"]}
        note(f"searching ({len(data):,} examples, {values['method']})")
        if values["method"] == "swap":
            result = swap(
                data,
                sizes,
                values["seed"],
                max_iterations=values["max_iterations"],
                max_divergence=target,
            )
    if values["method"] == "swap":
        _write(result, values["out"])
        return
    config = McdConfig(
        train_size=sizes.train,
        test_size=sizes.held_out,
        target_dc=target,
        max_da=values["max_da"],
        candidates=values["candidates"],
        removal_interval=values["removal_interval"],
        rounds=values["rounds"],
        seeding=values["seeding"],
        time_limit=values["time_limit"],
    )
    with _search_progress(ctx, "split dbca") as report:
        result = mcd(data, sizes, config, values["seed"], distinct_from=earlier, progress=report)
    _write(result, values["out"])
    for name, share in result.meta.get("test_overlap", {}).items():
        click.echo(f"test overlap with {name}: {share:.1%}")
    if not result.meta["target_met"]:
        wanted = "max" if target is None else f"{target:g}"
        click.echo(
            f"warning: targets not met (D_C {wanted} at D_A <= {values['max_da']:g}); the best "
            f"split found has D_A {result.meta['atom_divergence']:.4f}, D_C "
            f"{result.meta['compound_divergence']:.4f}. Relax --max-da, change --target-dc, or "
            f"search longer (--rounds, --candidates).",
            err=True,
        )
        if values["strict"]:
            sys.exit(EXIT_DISAGREE)


@contextlib.contextmanager
def _search_progress(ctx: click.Context, label: str) -> Iterator[Callable[[Any], None] | None]:
    """A progress bar of an MCD search on a terminal: examples placed in train and test
    (construction and regrowth), the stage (construction, round), the current D_A and D_C, and
    the time left; it opens at the search's first report, which gives the number of
    placements. None (nothing to report to) in pipes and with --quiet."""
    if quiet(ctx):
        yield None
        return
    latest: list[Any] = []
    with progress_when_used(ctx, label, lambda: latest[-1].planned, describe=_described) as step:

        def report(update: Any) -> None:
            shown = latest[-1].placed if latest else 0
            latest[:] = [update]
            step(update.placed - shown, update)

        yield report


def _described(update: Any) -> str | None:
    """What the search's bar shows beside the count: stage, D_A, D_C."""
    if update is None:
        return None
    return f"{update.stage}  D_A {update.atom_divergence:.4f}  D_C {update.compound_divergence:.4f}"


def _target(text: str) -> float | None:
    if text.strip().lower() == "max":
        return None
    try:
        value = float(text)
    except ValueError:
        raise UserError(f"--target-dc must be a number in [0, 1] or 'max', got {text!r}.") from None
    if not 0.0 <= value <= 1.0:
        raise UserError(f"--target-dc must lie in [0, 1], got {value:g}.")
    return value


def _baseline(pool: Path, method: str, values: dict[str, Any]) -> None:
    from symcomp.dbca.split import baseline

    with _writing(values):
        with working(click.get_current_context(), f"split {method}") as note:
            note("reading the pool")
            data, sizes = _prepare(pool, values, note)
            note("splitting and measuring")
            threshold = values.get("max_train_length")
            split_value = baseline(data, method, sizes, values["seed"], max_train_length=threshold)
        _write(split_value, values["out"])


_BY = click.option(
    "--by", type=click.Choice(["input", "output"]), default="output", show_default=True
)


@split.command("random")
@_pool_argument
@_size_options
@_feature_options
def split_random(pool: Path, **values: Any) -> None:
    """A random split of POOL."""
    _baseline(pool, "random", values)


@split.command("length")
@_pool_argument
@_BY
@click.option(
    "--max-train-length",
    type=click.IntRange(min=0),
    default=None,
    help="Threshold N: train drawn from lengths <= N, test from longer (the paper's length "
    "splits); without it train is the shortest, test the longest.",
)
@_size_options
@_feature_options
def split_length(pool: Path, by: str, **values: Any) -> None:
    """A length split of POOL (by input tokens or output tokens)."""
    _baseline(pool, f"{by}_length", values)


@split.command("pattern")
@_pool_argument
@_BY
@_size_options
@_feature_options
def split_pattern(pool: Path, by: str, **values: Any) -> None:
    """A pattern split of POOL: no test input (output) pattern occurs in train."""
    _baseline(pool, f"{by}_pattern", values)


@cli.command()
@_pool_argument
@click.argument("split_file", metavar="SPLIT", type=click.Path(path_type=Path, exists=True))
@_feature_options
@_ABSTRACTION
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@_shard_options
def divergence(pool: Path, split_file: Path, as_json: bool, **values: Any) -> None:
    """Measure D_A, D_C, coverage and length ratios of SPLIT over POOL."""
    with working(click.get_current_context(), "divergence") as note:
        data, values_measured = _divergence(pool, split_file, values, note)
    if as_json:
        click.echo(json_text(values_measured, "the JSON output", indent=2, sort_keys=True))
        return
    sizes = values_measured.pop("sizes")
    click.echo(f"{split_file} over {data.path}")
    click.echo(f"  sizes: train {sizes['train']:,}, dev {sizes['dev']:,}, test {sizes['test']:,}")
    for key, value in values_measured.items():
        if key != "features":
            click.echo(f"  {key.replace('_', ' ')}: {value}")
    _note_truncation(values_measured["features"])


def _divergence(
    pool: Path, split_file: Path, values: dict[str, Any], note: Callable[[str | None], None]
) -> tuple[Any, Any]:
    from symcomp.data.artifacts import file_record
    from symcomp.data.splits import read_split
    from symcomp.dbca.measure import unseen_compound_rate
    from symcomp.dbca.split import PoolData, abstraction_of, measure, options_of

    override = _options(values, defaults=False)
    split_value = read_split(split_file)
    with _feature_step(pool, values, note) as extraction:
        data = PoolData.read(
            pool,
            options_of(split_value, override),
            abstraction_of(split_value, values["pattern_abstraction"]),
            **extraction,
        )
    if data.shards is None:  # records held: the split is checked against them
        split_value = read_split(split_file, pool_size=len(data))
    split_value.check(len(data), str(split_file))
    digest = file_record(data.path)["sha256"]
    split_value.check_pool(digest, str(split_file), str(data.path), base=split_file.parent)
    values_measured = measure(data, split_value)
    values_measured["unseen_compound_rate"] = unseen_compound_rate(
        data.features, split_value.train, split_value.test
    )
    values_measured["features"] = data.features.description
    return data, values_measured


@split.command("sweep")
@_pool_argument
@click.option("--train-frac", type=FiniteFloat(), default=0.4, show_default=True)
@click.option("--test-frac", type=FiniteFloat(), default=0.1, show_default=True)
@click.option(
    "--dev-frac",
    type=FiniteFloat(),
    default=0.0,
    show_default=True,
    help="An out-of-distribution dev part from the held-out side, disjoint from test.",
)
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True)
@click.option(
    "--levels",
    default="0,0.25,0.5,0.75,1",
    show_default=True,
    help="D_C levels, as fractions of the reachable maximum (the MCD split's D_C).",
)
@click.option("--max-da", type=FiniteFloat(0.0, 1.0), default=0.02, show_default=True)
@click.option("--candidates", type=click.IntRange(min=1), default=128, show_default=True)
@click.option("--rounds", type=click.IntRange(min=0), default=10, show_default=True)
@click.option(
    "--out",
    type=click.Path(path_type=Path, file_okay=False),
    required=True,
    help="A folder: one split file per level and manifest.json (levels, seed, D_A, D_C).",
)
@click.option("--overwrite", is_flag=True, help="Replace a sweep symcomp wrote in --out.")
@_feature_options
@_shard_options
def split_sweep(pool: Path, **values: Any) -> None:
    """A fixed test with training sets at several compound divergences (one per level)."""
    from symcomp.dbca.baselines import SplitSizes
    from symcomp.dbca.mcd import McdConfig
    from symcomp.dbca.split import PoolData, sweep
    from symcomp.dbca.sweeping import write_sweep

    levels = _levels(values["levels"])
    with working(click.get_current_context(), "split sweep") as note:
        note("reading the pool and its compounds")
        with _feature_step(pool, values, note) as extraction:
            data = PoolData.read(pool, _options(values), **extraction)
        sizes = SplitSizes.from_fractions(
            len(data), values["train_frac"], values["test_frac"], values["dev_frac"]
        )
        config = McdConfig(
            train_size=sizes.train,
            test_size=sizes.held_out,
            max_da=values["max_da"],
            candidates=values["candidates"],
            rounds=values["rounds"],
        )
        data.features  # noqa: B018 - computed under this status line, before the search's bar
    with _search_progress(click.get_current_context(), "split sweep") as report:
        splits = sweep(data, sizes, config, values["seed"], levels, progress=report)
    with working(click.get_current_context(), "split sweep") as note:
        note("writing the splits")
        write_sweep(values["out"], splits, values["seed"], overwrite=values["overwrite"])
    for level, split_value in splits.items():
        meta = split_value.meta
        dev = (
            f", dev D_A {meta['dev_atom_divergence']:.4f} D_C {meta['dev_compound_divergence']:.4f}"
            if "dev_atom_divergence" in meta
            else ""
        )
        click.echo(
            f"level {level:g}: train {meta['sizes']['train']:,}, test {meta['sizes']['test']:,}; "
            f"D_A {meta['atom_divergence']:.4f}, D_C {meta['compound_divergence']:.4f}{dev}"
        )
    click.echo(f"wrote {len(splits)} splits with one test to {values['out']}")


def _levels(text: str) -> list[float]:
    try:
        levels = [float(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise UserError(f"--levels must be numbers separated by commas, got {text!r}.") from None
    if not levels or any(not 0.0 <= level <= 1.0 for level in levels):
        raise UserError(f"--levels must lie in [0, 1] (fractions of the maximum), got {text!r}.")
    return levels
