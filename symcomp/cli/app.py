"""The ``symcomp`` command group, its error handling and output helpers.

Exit codes (DESIGN.md): 0 success; 1 the check ran and found disagreements; 2 bad usage or
bad input. Errors a user can cause are :class:`symcomp.SymcompError` and print one paragraph
on stderr, never a traceback. Command modules import the library lazily so ``--help`` is fast.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Iterator
from typing import Any

import click

EXIT_OK, EXIT_DISAGREE, EXIT_USAGE = 0, 1, 2


class UserError(click.ClickException):
    """Bad input or usage: message on stderr, exit code 2."""

    exit_code = EXIT_USAGE


class SymcompGroup(click.Group):
    """A click group that turns symcomp's errors into :class:`UserError`."""

    def invoke(self, ctx: click.Context) -> Any:
        from symcomp.errors import SymcompError

        try:
            return super().invoke(ctx)
        except SymcompError as error:
            raise UserError(str(error)) from None


@click.group(cls=SymcompGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="symcomp", prog_name="symcomp")
@click.option(
    "--plugin",
    "plugins",
    multiple=True,
    metavar="MODULE|FILE.py",
    help="Import a module or .py file that registers languages (repeatable; "
    "also $SYMCOMP_PLUGINS).",
)
@click.option("-q", "--quiet", is_flag=True, help="No progress bars.")
@click.pass_context
def cli(ctx: click.Context, plugins: tuple[str, ...], quiet: bool) -> None:
    """symcomp: compositional-generalisation benchmarks from grammars.

    \b
    Try:
      symcomp languages
      symcomp generate pcfg-set --n 1000 --seed 0 --out runs/pcfg-set
      symcomp interpret scan "jump around left twice"
    """
    from symcomp.core.registry import load_plugins, load_plugins_from_environment

    load_plugins_from_environment()
    load_plugins(plugins)
    ctx.obj = {"quiet": quiet}


def quiet(ctx: click.Context) -> bool:
    """True when progress output should be suppressed (``--quiet`` or not a terminal)."""
    obj = ctx.find_root().obj or {}
    return bool(obj.get("quiet")) or not sys.stderr.isatty()


@contextlib.contextmanager
def progress(ctx: click.Context, total: int | None, label: str) -> Iterator[Callable[[int], None]]:
    """A progress bar on stderr when it is a terminal; a no-op in pipes and with --quiet."""
    if quiet(ctx) or total is None:
        yield lambda steps: None
        return
    color = False if os.environ.get("NO_COLOR") else None
    with click.progressbar(length=total, label=label, file=sys.stderr, color=color) as bar:
        yield bar.update


def language_argument(name: str) -> Any:
    """Resolve a language name given on the command line (exit 2 with suggestions)."""
    from symcomp.core.registry import get_language

    return get_language(name)
