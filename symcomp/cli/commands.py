"""The pool commands: ``languages``, ``generate``, ``interpret``, ``stats``, ``export``."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

import click

from symcomp.cli.app import (
    FRESH_WORDS_SEED,
    UserError,
    cli,
    config_option,
    executor_options,
    jobs_from,
    jobs_option,
    language_argument,
    progress,
    working,
)
from symcomp.data.artifacts import json_text
from symcomp.data.signals import expect_output

if TYPE_CHECKING:
    from symcomp.core.language import Language
    from symcomp.data.naturalize import LengthDepthTarget


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def languages(as_json: bool) -> None:
    """List the registered languages with version and description."""
    from symcomp.core.registry import available, get_language

    rows = []
    for name in available():
        language = get_language(name)
        rows.append(
            {"name": name, "version": language.version, "description": language.description}
        )
    if as_json:
        click.echo(json_text(rows, "the JSON output", indent=2))
        return
    width = max(len(row["name"]) for row in rows)
    for row in rows:
        click.echo(f"{row['name']:<{width}}  {row['version']:<8}  {row['description']}")


@cli.command()
@click.argument("language")
@click.option("--n", "n", type=int, help="Number of distinct examples to draw.")
@click.option("--all", "enumerate_all", is_flag=True, help="Enumerate a finite language.")
@click.option(
    "--seed", type=click.IntRange(min=0), default=0, show_default=True, help="Seed of the draw."
)
@click.option("--out", type=click.Path(path_type=Path), required=True, help="Output folder.")
@click.option("--with-dag", is_flag=True, help="Store each derivation DAG (node-link JSON).")
@click.option(
    "--naturalize",
    is_flag=True,
    help="Random per-example probabilities, resampled to a (length, depth) target.",
)
@click.option(
    "--target",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Target histogram for --naturalize (default: the language's).",
)
@click.option("--max-depth", type=click.IntRange(min=1), help="Override the depth limit.")
@click.option("--max-length", type=click.IntRange(min=1), help="Override the input-length limit.")
@jobs_option("Worker processes (output is identical for any value).")
@click.option(
    "--profile",
    help="A language's named way of drawing (monotonicity: symcomp, the default, or paper, "
    "as the published scripts of Yanaka et al. 2020).",
)
@click.option(
    "--output-format",
    help="A language's named output format (cogs: cogs, the default, "
    "recogs_positional_index, varfree).",
)
@click.option("--overwrite", is_flag=True, help="Replace an existing pool in --out.")
@executor_options
@config_option
@click.pass_context
def generate(
    ctx: click.Context,
    language: str,
    n: int | None,
    enumerate_all: bool,
    seed: int,
    out: Path,
    with_dag: bool,
    naturalize: bool,
    target: Path | None,
    max_depth: int | None,
    max_length: int | None,
    jobs: int,
    profile: str | None,
    output_format: str | None,
    overwrite: bool,
    executor: str,
    address: str | None,
) -> None:
    """Write a pool of LANGUAGE examples to OUT/examples.jsonl with a manifest."""
    from symcomp.data.generate import PoolSpec, write_pool

    lang = language_argument(language)
    if output_format is not None:
        lang = lang.with_output(output_format)
    histogram = _naturalize_target(lang, naturalize, target)
    spec = PoolSpec(
        n=n,
        seed=seed,
        enumerate_all=enumerate_all,
        with_dag=with_dag,
        max_depth=max_depth,
        max_length=max_length,
        naturalize=histogram,
        profile=profile,
    )
    total = (
        n
        if n is not None
        else (lang.sampler.count() if enumerate_all and lang.is_finite() else None)
    )
    with progress(ctx, total, f"{language}") as step:
        workers = jobs_from(jobs, executor, address)
        manifest = write_pool(lang, out, spec, jobs=workers, overwrite=overwrite, progress=step)
    record = manifest["files"]["examples.jsonl"]
    filters = manifest["filters"]
    rejected = ", ".join(f"{k} {v:,}" for k, v in filters["rejected"].items()) or "none"
    click.echo(
        f"wrote {record['lines']:,} {language} examples to {out / 'examples.jsonl'} "
        f"(sha256 {record['sha256'][:16]}…); draws {filters['draws']:,}, rejected: {rejected}"
    )


def _naturalize_target(
    lang: Language, naturalize: bool, target: Path | None
) -> LengthDepthTarget | None:
    """The histogram `generate --naturalize` fills: --target's, else the language's own."""
    from symcomp.data.naturalize import LengthDepthTarget

    if target is not None and not naturalize:
        raise UserError("--target only applies with --naturalize.")
    if not naturalize:
        return None
    if target is not None:
        return LengthDepthTarget.load(target)
    default = LengthDepthTarget.default_for(lang)
    if default is None:
        raise UserError(f"{lang.name} has no default naturalisation target; pass --target.")
    return default


@cli.command()
@click.argument("language")
@click.argument("text", required=False)
@click.option(
    "--file",
    "file",
    type=click.File("rb"),
    help="Interpret every line (first TAB-separated column); '-' reads stdin. Lines that are "
    "not in the language are reported on stderr (FILE:LINE) and skipped; the exit code is "
    "then 2.",
)
@click.option("--output-format", help="A language's named output format (see generate).")
def interpret(
    language: str, text: str | None, file: BinaryIO | None, output_format: str | None
) -> None:
    """Print the meaning of TEXT, or of every line of --file, one per line."""
    if (text is None) == (file is None):
        raise UserError("give either TEXT or --file F.")
    lang = language_argument(language)
    if output_format is not None:
        lang = lang.with_output(output_format)
    if text is not None:
        click.echo(lang.interpret(text))
        return
    assert file is not None
    bad = 0
    for number, raw in enumerate(file, start=1):
        answer, problem = _interpret_line(lang, raw)
        if problem is None:
            click.echo(answer)
        else:
            bad += 1
            click.echo(f"{file.name}:{number}: {problem}", err=True)
    if bad:
        raise UserError(f"{bad} line(s) of {file.name} could not be interpreted (listed above).")


def _interpret_line(language: Any, raw: bytes) -> tuple[str, str | None]:
    """(meaning, None) for a line in the language, else ("", why not)."""
    from symcomp.errors import SymcompError

    try:
        line = raw.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as error:
        return "", f"not UTF-8 text (byte {raw[error.start]:#04x} at column {error.start + 1})"
    source = line.rstrip("\r\n").split("\t", 1)[0]
    if len(source) > 100_000:
        return "", f"a line of {len(source):,} characters is too long to interpret"
    try:
        return language.interpret(source), None
    except SymcompError as error:
        return "", str(error)
    except RecursionError:
        return "", "nested too deeply to interpret"


@cli.command()
@click.argument("pool", type=click.Path(path_type=Path, exists=True))
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def stats(pool: Path, as_json: bool) -> None:
    """Counts and histograms of length, depth and number of functions of POOL."""
    from symcomp.data.artifacts import read_examples
    from symcomp.data.stats import format_summary, summarize

    with working(click.get_current_context(), "stats"):
        summary = summarize(read_examples(pool))
    if as_json:
        click.echo(json_text(summary, "the JSON output", indent=2))
    else:
        click.echo(format_summary(summary, title=str(pool)))


@cli.command()
@click.argument("source", type=click.Path(path_type=Path, exists=True, file_okay=False))
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["tsv", "srctgt", "hf", "genbench", "lm-eval"]),
    required=True,
    help="tsv (input<TAB>output), srctgt (.src/.tgt for OpenNMT/fairseq), hf (a Hugging Face "
    "DatasetDict folder with a dataset card), genbench (a GenBench task) or lm-eval (a suite "
    "as lm-evaluation-harness tasks: run them with `lm-eval run --include_path OUT`).",
)
@click.option(
    "--split",
    "splits",
    multiple=True,
    type=click.Path(path_type=Path, exists=True, dir_okay=False),
    help="A split file of the pool (repeatable): one configuration per split, named after "
    "its file, with its train/dev/test parts.",
)
@click.option(
    "--test",
    "tests",
    multiple=True,
    help="With a suite as SOURCE: export only this test (repeatable; default: every test).",
)
@click.option(
    "--join-lines",
    is_flag=True,
    help="Join the lines of every input and output with spaces (as CFQ's preprocessing "
    "does), so that multi-line outputs such as SPARQL fit tsv and srctgt.",
)
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    help="Default: POOL/export/FORMAT, or SUITE.FORMAT beside a suite.",
)
@click.option("--overwrite", is_flag=True, help="Replace an earlier export.")
@click.option(
    "--shots",
    type=click.IntRange(min=0),
    default=0,
    show_default=True,
    help="lm-eval: demonstrations per item, from the test's training part.",
)
@click.option(
    "--select",
    type=click.Choice(["random", "similar", "cover"]),
    default="random",
    show_default=True,
    help="lm-eval: how demonstrations are chosen: random (the harness's own seeded draw), "
    "similar (training items sharing the most structures of the item's input) or cover "
    "(covering the input's compounds, largest first; Levy et al. 2023's Cover-LS).",
)
@click.option(
    "--seed",
    type=click.IntRange(min=0),
    default=0,
    show_default=True,
    help="lm-eval: seed of the selection.",
)
@click.option("--instruction", help="lm-eval: text put before every prompt.")
@click.option(
    "--fresh-words",
    type=FRESH_WORDS_SEED,
    metavar="SEED",
    help="Rename a suite's open-class words to fresh strings drawn with SEED (the same mapping "
    "for every item and, with lm-eval, its demonstrations; outputs re-interpreted; the "
    "mapping in the manifest).",
)
@click.option(
    "--data-root",
    help="lm-eval: where the harness will find the export's data folder (default: --out as "
    "an absolute path); give it when the harness runs on another machine.",
)
@click.option(
    "--task-prefix", help="lm-eval: start of every task name (default: symcomp_SUITENAME)."
)
@click.option(
    "--steps",
    is_flag=True,
    help="Worked steps of every item of a suite (its constituents that are inputs too, each "
    "with its meaning; docs/llm.md): lm-eval demonstrations show them before their answer "
    "and the model writes its own, which `symcomp evaluate` checks; hf and genbench records "
    "get a steps field.",
)
@click.pass_context
def export(
    ctx: click.Context,
    source: Path,
    fmt: str,
    splits: tuple[Path, ...],
    tests: tuple[str, ...],
    join_lines: bool,
    out: Path | None,
    overwrite: bool,
    shots: int,
    select: str,
    seed: int,
    instruction: str | None,
    fresh_words: int | None,
    data_root: str | None,
    task_prefix: str | None,
    steps: bool,
) -> None:
    """Export SOURCE (a pool, a pool with --split files, or a suite: one configuration per
    test) as TSV, .src/.tgt, a Hugging Face datasets folder, a GenBench task or
    lm-evaluation-harness tasks (a suite only)."""
    from symcomp.data.export import write_export
    from symcomp.llm.harness_tasks import HarnessOptions

    options = HarnessOptions(
        shots, select, seed, instruction, fresh_words, data_root, task_prefix, steps=steps
    )
    if fmt == "lm-eval":
        _export_lm_eval(ctx, source, out, tests, overwrite, options)
        return
    _refuse_harness_flags(options, fmt)
    data, target = _file_source(source, fmt, splits, tests, out, options)
    expect_output(target)  # the default --out too: the command is done once it is in place
    total = sum(len(rows) for config in data.configs for rows in config.parts.values())
    with progress(ctx, total, f"export {fmt}") as step:
        written = write_export(
            data, fmt, target, join_lines=join_lines, overwrite=overwrite, progress=step
        )
    shown = ", ".join(config.name for config in data.configs)
    click.echo(f"exported {source} ({shown}) as {fmt} to {written}")


def _file_source(
    source: Path,
    fmt: str,
    splits: tuple[Path, ...],
    tests: tuple[str, ...],
    out: Path | None,
    options: Any,
) -> tuple[Any, Path]:
    """What a file format exports (a suite's tests, or a pool and its splits) and where."""
    from symcomp.data.export import pool_source
    from symcomp.suites.exporting import suite_source
    from symcomp.suites.reading import Suite

    if options.steps and fmt not in ("hf", "genbench"):
        raise UserError(
            f"--steps adds a field to JSON records (hf, genbench) or makes lm-eval tasks "
            f"worked; {fmt} writes an input and an output per line: drop --steps."
        )
    if Suite.is_suite(source):
        if splits:
            raise UserError(
                f"{source} is a suite: its tests are the splits; drop --split (or give the "
                f"pool the splits were made from)."
            )
        data = suite_source(
            Suite.read(source), tests or None, fresh_words=options.fresh_words, steps=options.steps
        )
        return data, out or source.resolve().with_name(f"{source.resolve().name}.{fmt}")
    if tests or options.fresh_words is not None or options.steps:
        flag = "--test" if tests else "--steps" if options.steps else "--fresh-words"
        raise UserError(
            f"{flag} applies to a suite, and {source} is not a suite (make one with "
            f"`symcomp suite from-splits`, or a renamed suite with `symcomp suite NAME "
            f"--fresh-words SEED`)."
        )
    return pool_source(source, named_splits(splits)), out or source / "export" / fmt


# the options of --format lm-eval alone (fresh words serve every format): field -> flag
_HARNESS_FLAGS = {
    "shots": "--shots",
    "select": "--select",
    "seed": "--seed",
    "instruction": "--instruction",
    "data_root": "--data-root",
    "prefix": "--task-prefix",
}


def _refuse_harness_flags(options: Any, fmt: str) -> None:
    """Refuse lm-eval's flags, given away from their defaults, for another format."""
    default = type(options)()
    named = [
        flag
        for field, flag in _HARNESS_FLAGS.items()
        if getattr(options, field) != getattr(default, field)
    ]
    if named:
        raise UserError(f"{', '.join(named)} belong to --format lm-eval; drop them for {fmt}.")


def _export_lm_eval(
    ctx: click.Context,
    source: Path,
    out: Path | None,
    tests: tuple[str, ...],
    overwrite: bool,
    options: Any,
) -> None:
    from symcomp.llm.harness_tasks import export_lm_eval
    from symcomp.suites.reading import Suite

    if not Suite.is_suite(source):
        raise UserError(
            f"--format lm-eval exports a suite (a task per test), and {source} is not one; "
            f"make one with `symcomp suite` or `symcomp suite from-splits`."
        )
    target = out or source.resolve().with_name(f"{source.resolve().name}.lm-eval")
    expect_output(target)  # the default --out too: the command is done once it is in place
    with working(ctx, "export lm-eval") as note:
        written = export_lm_eval(
            source,
            target,
            options,
            tests=tests or None,
            overwrite=overwrite,
            progress=lambda count: note(f"{count:,} items"),
        )
    click.echo(f"exported {source} as lm-evaluation-harness tasks to {written}")


def named_splits(paths: tuple[Path, ...]) -> dict[str, Path]:
    """Split files by name (the file name without .json); two of one name are an error."""
    named: dict[str, Path] = {}
    for path in paths:
        name = path.stem
        if name in named:
            raise UserError(
                f"two splits are named {name} ({named[name]} and {path}); a split's name is its "
                f"file name: rename one."
            )
        named[name] = path
    return named
