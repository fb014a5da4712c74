"""``symcomp import``: a pool from corpus files (TSV, JSONL, CoNLL-U, a Hugging Face folder).

Exit codes: 0 written; 2 bad usage or input (a malformed file names its line; nothing is
written).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from symcomp.cli.app import (
    UserError,
    cli,
    executor_options,
    jobs_from,
    jobs_option,
    progress,
)

EXTRACTOR_HELP = (
    "Atoms and compounds of the pool: ngrams (default; conllu for CoNLL-U), tree:funql, "
    "tree:sexpr (TMCD), conllu (lemma/relation triples), grammar:FILE.lark (parse trees as "
    "DBCA DAGs), python:MODULE:FUNCTION, dag (stored derivations)."
)


F = Callable[..., Any]


def extractor_options(function: F) -> F:
    """``--on`` and ``--extractor-option``, shared by import and the DBCA commands."""
    function = click.option(
        "--extractor-option",
        "extractor_option",
        multiple=True,
        metavar="KEY=VALUE",
        help="An option of the extractor (repeatable): n=3 (ngrams), relation_subtypes=false, "
        "morphology=true (conllu), start=RULE, tokens=true (grammar).",
    )(function)
    return click.option(
        "--on",
        type=click.Choice(["input", "output"]),
        default=None,
        help="The field n-grams and extractors read [input; tree: output].",
    )(function)


def option_pairs(values: tuple[str, ...]) -> dict[str, str]:
    """``KEY=VALUE`` texts as a mapping (a text without '=' is refused)."""
    found: dict[str, str] = {}
    for value in values:
        key, equals, text = value.partition("=")
        if not equals or not key.strip():
            raise UserError(f"--extractor-option {value!r}: write KEY=VALUE (e.g. n=3).")
        found[key.strip()] = text.strip()
    return found


@cli.command("import")
@click.argument("files", nargs=-1, type=click.Path(path_type=Path))
@click.option(
    "--part",
    "parts",
    multiple=True,
    metavar="NAME=FILE",
    help="A part of the dataset's own split (repeatable: train=…, dev=…, test=…, any other "
    "name such as gen=… is a second test); written as POOL/splits/published.json.",
)
@click.option("--out", type=click.Path(path_type=Path), required=True, help="The pool folder.")
@click.option(
    "--format",
    "format",
    type=click.Choice(["tsv", "jsonl", "conllu", "hf"]),
    default=None,
    help="Default: from the suffix (.tsv .jsonl .conllu; a folder is a Hugging Face dataset).",
)
@click.option(
    "--input",
    "input",
    default=None,
    help="TSV column (1-based position or header name) or JSONL/HF field of the input [1 / input].",
)
@click.option(
    "--output",
    default=None,
    help="TSV column or JSONL/HF field of the output [2 / output]; "
    "CoNLL-U: the sentence comment holding it (none by default).",
)
@click.option("--id", "id", default=None, help="Column or field of the example ids [none / id].")
@click.option("--header", is_flag=True, help="TSV: the first line names the columns.")
@click.option("--config", default=None, help="Hugging Face folder: the configuration to read.")
@click.option(
    "--duplicates",
    type=click.Choice(["keep", "drop"]),
    default="keep",
    show_default=True,
    help="Rows with the input and output of an earlier row: reported and kept, or dropped.",
)
@click.option(
    "--unreadable",
    type=click.Choice(["refuse", "drop"]),
    default="refuse",
    show_default=True,
    help="Rows the extractor cannot read (e.g. that the grammar does not parse): listed, "
    "then the import is refused, or they are left out.",
)
@click.option("--compounds", default=None, help=EXTRACTOR_HELP)
@extractor_options
@click.option(
    "--features/--no-features",
    default=True,
    show_default=True,
    help="Keep what the extractor finds as the pool's feature shards (OUT/features), which "
    "`split dbca OUT` then reads instead of extracting again.",
)
@click.option(
    "--shard-size",
    type=click.IntRange(min=1),
    default=65_536,
    show_default=True,
    help="Rows per shard (and per task of the extractor).",
)
@jobs_option(
    "Worker processes reading the rows with the extractor, a shard per task (the output is "
    "the same bytes for any value)."
)
@executor_options
@click.option("--overwrite", is_flag=True, help="Replace a pool symcomp wrote in --out.")
@click.pass_context
def import_command(ctx: click.Context, /, files: tuple[Path, ...], **values: Any) -> None:
    """Import corpus FILES (or --part NAME=FILE ...) as a pool that every command reads."""
    from symcomp.data.corpus.importer import ImportOptions, Source
    from symcomp.dbca.imported import import_pool

    if files and values["parts"]:
        raise UserError("give FILES or --part NAME=FILE, not both.")
    sources = [Source(path) for path in files] + [Source.parse(p) for p in values["parts"]]
    if not sources:
        raise UserError("nothing to import: give a file, or --part NAME=FILE for each part.")
    options = ImportOptions(
        values["format"],
        values["input"],
        values["output"],
        values["id"],
        values["header"],
        values["config"],
        values["duplicates"],
        values["unreadable"],
    )
    with progress(ctx, None, "import") as step:
        manifest = import_pool(
            sources,
            values["out"],
            options,
            compounds=values["compounds"],
            on=values["on"],
            extractor_options=option_pairs(values["extractor_option"]),
            overwrite=values["overwrite"],
            progress=step,
            jobs=jobs_from(values["jobs"], values["executor"], values["address"]),
            features=values["features"],
            shard_size=values["shard_size"],
        )
    _report(manifest, values["out"])


def _report(manifest: dict[str, Any], out: Path) -> None:
    imported = manifest["imported"]
    parts = ", ".join(f"{name} {count:,}" for name, count in imported["parts"].items())
    extractor = manifest.get("extractor") or {"name": "dag (stored derivations)"}
    click.echo(
        f"imported {imported['rows']:,} examples into {out}"
        + (f" ({parts})" if parts else "")
        + f"; compounds: {extractor['name']}"
    )
    duplicates = imported["duplicates"]
    if duplicates["rows"]:
        what = "dropped" if duplicates["dropped"] else "kept (--duplicates drop leaves them out)"
        click.echo(
            f"duplicates: {duplicates['rows']:,} rows repeat an earlier input and output; {what}"
        )
    unreadable = imported["unreadable"]
    if unreadable["rows"]:
        click.echo(f"left out {unreadable['rows']:,} rows the extractor cannot read:")
        for line in unreadable["shown"]:
            click.echo(f"  {line}")
    for name in sorted(manifest["files"]):
        if name.startswith("splits/"):
            click.echo(f"the dataset's own split: {out / name}")
