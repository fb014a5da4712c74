"""``symcomp suite NAME``: build a language's test suite; one subcommand per language that has
one (:meth:`symcomp.core.language.Language.suite_builder`), its options made from the
language's suite spec. Nothing here knows a language."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from symcomp.cli.app import (
    FRESH_WORDS_SEED,
    FiniteFloat,
    SymcompCommand,
    SymcompGroup,
    UserError,
    cli,
    in_flags,
    quiet,
)

if TYPE_CHECKING:
    from symcomp.core.suite_builder import SuiteImporter


class SuiteGroup(SymcompGroup):
    """Subcommands are the registered languages with a suite, built when asked for."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        from symcomp.core.registry import available, get_language

        names = [name for name in available() if get_language(name).suite_builder() is not None]
        return [*names, "from-splits", "import"]

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        from symcomp.core.registry import available, get_language

        if name == "import":
            return _import_command()
        if name == "from-splits":
            return _from_splits_command()
        if name not in available():
            return None
        builder = get_language(name).suite_builder()
        return None if builder is None else _command(name, builder)


@cli.group(cls=SuiteGroup)
def suite() -> None:
    """Build a test suite (pool, splits and auxiliary test files) into a folder."""


def _command(name: str, builder: Any) -> click.Command:
    params: list[click.Parameter] = [
        click.Option(
            ["--out"], type=click.Path(path_type=Path), required=True, help="Suite folder."
        )
    ]
    params += [_option(item) for item in builder.options()]
    params.append(
        click.Option(["--overwrite"], is_flag=True, help="Replace an existing suite in --out.")
    )
    params.append(
        click.Option(
            ["--fresh-words", "fresh_words"],
            type=FRESH_WORDS_SEED,
            default=None,
            metavar="SEED",
            help="Rename the language's open-class words (nouns, names, verbs, primitives: "
            "what it declares) to fresh pronounceable strings drawn with SEED; the mapping "
            "goes in the manifest.",
        )
    )

    def run(out: Path, overwrite: bool, fresh_words: int | None, **values: Any) -> None:
        ctx = click.get_current_context()
        given = {key: value for key, value in values.items() if value not in (None, ())}
        spec = builder.make(given)
        if fresh_words is None:
            manifest = builder.build(out, spec, overwrite=overwrite, progress=_say(ctx))
        else:
            manifest = _fresh_suite(name, builder, out, spec, fresh_words, overwrite, _say(ctx))
        _summary(out, manifest)
        if builder.summary is not None:
            click.echo(builder.summary(manifest))

    command = SymcompCommand(
        name, params=params, callback=run, help=builder.title, short_help=builder.title
    )
    for param in command.params:  # help texts name other options as `name`: show their flags
        if isinstance(param, click.Option) and param.help:
            param.help = in_flags(param.help, command)
    return command


def _fresh_suite(
    name: str,
    builder: Any,
    out: Path,
    spec: Any,
    seed: int,
    overwrite: bool,
    say: Callable[[str], None] | None,
) -> dict[str, Any]:
    """Build the suite beside ``out``, then write it into ``out`` in fresh words (the suite in
    the original words is a temporary: removed however the command ends)."""
    from symcomp.core.fresh_words import renamed_language
    from symcomp.core.registry import get_language
    from symcomp.data.artifacts import leaving_no_folder, temporary_folder
    from symcomp.suites.fresh import rename_suite

    renamed_language(get_language(name), seed)  # a language without renamable words: exit 2
    parent = out.resolve().parent
    with leaving_no_folder(parent):
        parent.mkdir(parents=True, exist_ok=True)
        with temporary_folder(parent, f".{out.resolve().name}.fresh.") as work:
            builder.build(work / "suite", spec, progress=say)
            return rename_suite(work / "suite", out, seed, overwrite=overwrite, progress=say)


def _import_command() -> click.Command:
    params = [
        click.Argument(["language"]),
        click.Argument(["source"], type=click.Path(path_type=Path)),
        click.Option(
            ["--out"], type=click.Path(path_type=Path), required=True, help="Suite folder."
        ),
        click.Option(
            ["--output"],
            help="Output format of the suite, for importers that write several (a wrong one "
            "lists them); default: the importer's.",
        ),
        click.Option(["--overwrite"], is_flag=True, help="Replace an existing suite in --out."),
    ]

    def run(language: str, source: Path, out: Path, output: str | None, overwrite: bool) -> None:
        importer = _importer(language)
        ctx = click.get_current_context()
        options: dict[str, Any] = {"overwrite": overwrite, "progress": _say(ctx)}
        if output is not None:
            if output not in importer.outputs:
                offered = ", ".join(importer.outputs) or "none: it writes the published format"
                raise UserError(f"--output {output}: the {language} importer writes {offered}.")
            options["output"] = output
        manifest = importer.run(source, out, **options)
        _summary(out, manifest)

    return SymcompCommand(
        "import",
        params=params,
        callback=run,
        help="Make a suite from the published data of LANGUAGE in SOURCE (a language without "
        "an importer says which languages have one, and what folder each reads); score "
        "published predictions on it with `symcomp evaluate SUITE --runs TREE`.",
        short_help="Make a suite from published data.",
    )


def _importer(language: str) -> SuiteImporter:
    from symcomp.core.registry import available, get_language

    importer = get_language(language).suite_importer()
    if importer is None:
        known = [
            f"{name} ({found.source})"
            for name in available()
            if (found := get_language(name).suite_importer())
        ]
        raise UserError(
            f"{language} has no importer of published data; languages with one: "
            f"{', '.join(known) or 'none'}."
        )
    return importer


def _from_splits_command() -> click.Command:
    params = [
        click.Argument(["pool"], type=click.Path(path_type=Path, exists=True)),
        click.Argument(
            ["splits"],
            nargs=-1,
            required=True,
            type=click.Path(path_type=Path, exists=True, dir_okay=False),
        ),
        click.Option(
            ["--out"], type=click.Path(path_type=Path), required=True, help="Suite folder."
        ),
        click.Option(
            ["--kind"],
            type=click.Choice(["accuracy", "value"]),
            default="accuracy",
            show_default=True,
            help="How evaluate scores every test: exact match, or numeric answers (RMSE).",
        ),
        click.Option(
            ["--export/--no-export"],
            default=True,
            show_default=True,
            help="Also write each test's parts as .tsv/.src/.tgt.",
        ),
        click.Option(["--overwrite"], is_flag=True, help="Replace an existing suite in --out."),
    ]

    def run(
        pool: Path, splits: tuple[Path, ...], out: Path, kind: str, export: bool, overwrite: bool
    ) -> None:
        from symcomp.cli.commands import named_splits
        from symcomp.suites.from_splits import suite_from_splits

        ctx = click.get_current_context()
        manifest = suite_from_splits(
            pool,
            named_splits(splits),
            out,
            kind=kind,
            overwrite=overwrite,
            export=export,
            progress=_say(ctx),
        )
        _summary(out, manifest)

    return SymcompCommand(
        "from-splits",
        params=params,
        callback=run,
        help="Make a suite of POOL whose tests are SPLIT files (DBCA/MCD, length, random...; "
        "each test named after its file), for `symcomp train` and `symcomp evaluate`. A split "
        "made for another pool (its meta records the pool's sha256) is refused.",
        short_help="Make a suite from split files of a pool.",
    )


def _option(item: Any) -> click.Option:
    flag = "--" + item.name.replace("_", "-")
    shown = _shown(item.default)
    if item.kind == "bool":
        return click.Option(
            [f"{flag}/--no-{item.name.replace('_', '-')}", item.name],
            default=item.default,
            show_default=True,
            help=item.help,
        )
    kinds: dict[str, Any] = {
        "int": int,
        "float": FiniteFloat(),
        "str": str,
        "text": str,
        "path": click.Path(path_type=Path),
    }
    kind = click.Choice(item.choices) if item.choices is not None else kinds[item.kind]
    return click.Option(
        [flag, item.name],
        type=kind,
        multiple=item.multiple,
        default=None,
        help=f"{item.help} [default: {shown}]" if shown else item.help,
    )


def _shown(value: Any) -> str:
    """A default as a user would type it."""
    if value is None:
        return ""
    if isinstance(value, tuple):
        return ",".join(" ".join(v) if isinstance(v, tuple) else str(v) for v in value)
    return str(value)


def _say(ctx: click.Context) -> Callable[[str], None] | None:
    if quiet(ctx):
        return None
    return lambda message: click.echo(f"  {message}", err=True)


def _summary(out: Path, manifest: Mapping[str, Any]) -> None:
    click.echo(f"wrote the {manifest['suite']} suite to {out}:")
    width = max(len(name) for name in manifest["tests"])
    empty = []
    for name, entry in manifest["tests"].items():
        sizes = "  ".join(f"{part} {count:>7,}" for part, count in entry["sizes"].items())
        click.echo(f"  {name:<{width}}  {entry['kind']:<18} {sizes}")
        if not entry["sizes"].get("test"):
            empty.append(name)
    if empty:
        click.echo(
            f"warning: {len(empty)} test(s) have an empty test part and score nothing "
            f"({', '.join(empty[:5])}{', ...' if len(empty) > 5 else ''}); a larger pool or "
            f"other parameters fill them.",
            err=True,
        )
