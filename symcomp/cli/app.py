"""The ``symcomp`` command group, its error handling and output helpers.

Exit codes: 0 success; 1 the check ran and found disagreements; 2 bad usage or bad input
(including files that cannot be read or written); 3 an internal error (a bug in symcomp: one
paragraph inviting a report, the traceback only with ``--debug``); 130 interrupted (Ctrl-C), and
128 + N for signal N (SIGTERM: 143, SIGHUP: 129). Errors a user can cause are
:class:`symcomp.SymcompError` and print one paragraph on stderr, never a traceback. An
interrupted command leaves no half-written file: signals become an exception, so every
temporary file and folder is removed on the way out. Command modules import the library lazily
so ``--help`` is fast.
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import click

EXIT_OK, EXIT_DISAGREE, EXIT_USAGE, EXIT_INTERNAL, EXIT_INTERRUPTED = 0, 1, 2, 3, 130
ISSUES = "https://github.com/symcomp/symcomp/issues"


class UserError(click.ClickException):
    """Bad input or usage: message on stderr, exit code 2."""

    exit_code = EXIT_USAGE


class InternalError(click.ClickException):
    """An unexpected exception: a bug in symcomp (exit code 3)."""

    exit_code = EXIT_INTERNAL

    def format_message(self) -> str:
        return self.message


class Interrupted(click.ClickException):
    """Ctrl-C or a termination signal (exit code 130, or 128 + the signal's number)."""

    exit_code = EXIT_INTERRUPTED


def _interrupted(message: str, exit_code: int) -> Interrupted:
    kind: type[Interrupted] = type("Interrupted", (Interrupted,), {"exit_code": exit_code})
    return kind(message)


class Terminated(BaseException):
    """Raised in the main thread by SIGTERM/SIGHUP, so cleanup code runs as for Ctrl-C."""

    def __init__(self, signal_number: int) -> None:
        super().__init__(signal_number)
        self.signal_number = signal_number


def _raise_terminated(signal_number: int, frame: Any) -> None:
    raise Terminated(signal_number)


def catch_signals() -> None:
    """SIGTERM and SIGHUP raise :class:`Terminated` (in the main thread only)."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        return
    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), _raise_terminated)


def _guarded(ctx: click.Context, command: click.Command, call: Callable[[], Any]) -> Any:
    """Run a command, turning every exception into its exit code and one paragraph."""
    from symcomp.errors import SymcompError

    try:
        return call()
    except SymcompError as error:
        raise UserError(in_flags(str(error), command, ctx.find_root().command)) from None
    except (click.ClickException, click.exceptions.Exit, click.Abort):
        raise
    except KeyboardInterrupt:
        raise _interrupted(
            "interrupted; no half-written file was left.", EXIT_INTERRUPTED
        ) from None
    except Terminated as signal:
        raise _interrupted(
            f"stopped by signal {signal.signal_number}; no half-written file was left.",
            128 + signal.signal_number,
        ) from None
    except OSError as error:  # the machine's refusal (disk full, permissions), not a bug
        where = f" ({error.filename})" if error.filename else ""
        raise UserError(
            f"{error.strerror or error}{where}; free space or choose a place you can write, "
            f"then run again."
        ) from None
    except UnicodeDecodeError as error:
        raise UserError(
            f"a file is not UTF-8 text (byte {error.object[error.start]:#04x} at offset "
            f"{error.start}); symcomp reads UTF-8: convert it (e.g. iconv -f latin1 -t utf-8)."
        ) from None
    except RecursionError:
        raise UserError(
            "the input is nested too deeply to process (Python's recursion limit); split it "
            "into smaller inputs."
        ) from None
    except Exception as error:
        if (ctx.find_root().obj or {}).get("debug"):
            raise
        name = ctx.command_path
        raise InternalError(
            f"internal error in `{name}`: {type(error).__name__}: {error}. This is a bug in "
            f"symcomp, not in your input as far as symcomp can tell; please report it at "
            f"{ISSUES} with the command you ran (add --debug to see the traceback)."
        ) from None


_PARAMETER = re.compile(r"`([a-z][a-z0-9_]*)`")


def in_flags(message: str, command: click.Command, root: click.Command | None = None) -> str:
    """A library message with its parameter names (written `name`) as flags: this command's
    first, else those of another command under ``root`` (e.g. `with_dag` of generate, named
    in an error of split).

    The library speaks in its own parameter names; only the command line knows the flags.

    >>> every = click.Option(["--all", "enumerate_all"], is_flag=True)
    >>> command = click.Command("x", params=[every])
    >>> in_flags("give `n` or `enumerate_all`", command)
    'give n or --all'
    """
    flags = {**(_all_flags(root) if root is not None else {}), **_flags(command)}
    return _PARAMETER.sub(lambda match: flags.get(match.group(1), match.group(1)), message)


def _flags(command: click.Command) -> dict[str, str]:
    return {
        param.name: max(param.opts, key=len)
        for param in command.params
        if isinstance(param, click.Option) and param.name
    }


def _all_flags(command: click.Command) -> dict[str, str]:
    """Flags of every command registered under ``command`` (commands built on demand, such
    as ``suite NAME``, are not visited)."""
    flags = _flags(command)
    for sub in getattr(command, "commands", {}).values():
        flags = {**_all_flags(sub), **flags}
    return flags


class SymcompCommand(click.Command):
    """A command whose errors become exit codes and one paragraph (see the module)."""

    def invoke(self, ctx: click.Context) -> Any:
        return _guarded(ctx, self, lambda: super(SymcompCommand, self).invoke(ctx))


class SymcompGroup(click.Group):
    """A click group whose commands (and subgroups) are symcomp commands."""

    command_class = SymcompCommand
    group_class = type  # subgroups are SymcompGroups too

    def invoke(self, ctx: click.Context) -> Any:
        return _guarded(ctx, self, lambda: super(SymcompGroup, self).invoke(ctx))


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
@click.option("--debug", is_flag=True, help="Show the traceback of an internal error.")
@click.pass_context
def cli(ctx: click.Context, plugins: tuple[str, ...], quiet: bool, debug: bool) -> None:
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
    ctx.obj = {"quiet": quiet, "debug": debug}
    catch_signals()


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


@contextlib.contextmanager
def working(ctx: click.Context, label: str) -> Iterator[Callable[[str], None]]:
    """A status line on stderr for work without a known length: after 2 s on a terminal it
    shows the label, the seconds so far and the latest note (what the work is doing), and
    is cleared when the work ends; nothing in pipes and with --quiet. Yields ``note(text)``."""
    if quiet(ctx):
        yield lambda text: None
        return
    import threading
    import time

    start = time.monotonic()
    state = {"note": ""}
    done = threading.Event()
    width = [0]

    def tick() -> None:
        if done.wait(2.0):
            return
        while True:
            line = f"{label}: {time.monotonic() - start:.0f}s {state['note']}".rstrip()
            sys.stderr.write("\r" + line.ljust(width[0]))
            sys.stderr.flush()
            width[0] = max(width[0], len(line))
            if done.wait(0.5):
                break
        sys.stderr.write("\r" + " " * width[0] + "\r")
        sys.stderr.flush()

    thread = threading.Thread(target=tick, daemon=True)
    thread.start()
    try:
        yield lambda text: state.__setitem__("note", text)
    finally:
        done.set()
        thread.join()


def language_argument(name: str) -> Any:
    """Resolve a language name given on the command line (exit 2 with suggestions)."""
    from symcomp.core.registry import get_language

    return get_language(name)


def executor_options(function: Callable[..., Any]) -> Callable[..., Any]:
    """``--executor local|ray`` and ``--address``, for commands whose work can spread out."""
    function = click.option(
        "--address",
        metavar="ADDR",
        help="Ray cluster to use with --executor ray (default: start a local one here). "
        "`ray start --head` prints the address of a new cluster.",
    )(function)
    return click.option(
        "--executor",
        type=click.Choice(["local", "ray"]),
        default="local",
        show_default=True,
        help="Where the work runs: local processes (--jobs), or a Ray cluster (pip install "
        "'symcomp[ray]'); the output is identical either way.",
    )(function)


def jobs_from(jobs: int, executor: str, address: str | None) -> Any:
    """What library functions take as ``jobs``: local processes, or a Ray executor."""
    if executor == "local":
        if address:
            raise UserError("--address names a Ray cluster: use it with --executor ray.")
        return jobs
    from symcomp.data.ray_executor import RayExecutor

    return RayExecutor(address, workers=jobs if jobs > 1 else None)


# -- experiment configuration (--config run.toml) ------------------------------------------------

CONFIG_SECTIONS = ("generate", "split", "train", "evaluate")


def config_option(function: Callable[..., Any]) -> Callable[..., Any]:
    """``--config FILE.toml``: the command's values from a TOML experiment file.

    The command reads the table named after it (``[generate]``, ``[train]``, ``[evaluate]``;
    ``[split]`` for every split method and ``[split.dbca]`` etc. for one); keys are its
    parameters, written as flags (``max-da``) or parameter names (``max_da``), arguments
    included (``language``, ``pool``). Values given on the command line win. An unknown key or
    table is an error naming it and the file.
    """
    return click.option(
        "--config",
        type=click.Path(path_type=Path, dir_okay=False),
        is_eager=True,
        expose_value=False,
        callback=_read_config,
        metavar="FILE.toml",
        help="Read this command's settings from a TOML experiment file (its [command] table; "
        "see the README); options given here override them.",
    )(function)


def _read_config(ctx: click.Context, param: click.Parameter, path: Path | None) -> None:
    if path is None:
        return
    import tomllib

    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise click.BadParameter(f"cannot read {path}: {error.strerror or error}.") from None
    except UnicodeDecodeError:
        raise click.BadParameter(f"{path} is not UTF-8 text.") from None
    except tomllib.TOMLDecodeError as error:
        raise click.BadParameter(f"{path} is not valid TOML: {error}.") from None
    names = ctx.command_path.split()[1:]  # e.g. ["split", "dbca"]
    values: dict[str, Any] = {}
    for key, value in data.items():
        if key not in CONFIG_SECTIONS or not isinstance(value, dict):
            where = "key" if not isinstance(value, dict) else "table"
            raise click.BadParameter(
                f"{path}: unknown {where} {key!r} at the top level; put settings in the tables "
                f"{', '.join(f'[{s}]' for s in CONFIG_SECTIONS)} (split methods: [split.dbca])."
            )
    section = data.get(names[0], {})
    if len(names) > 1:  # [split] holds the keys of every method, [split.<method>] its own
        values.update(_section_values(ctx, path, names[0], section, nested=True))
        own = section.get(names[1], {})
        values.update(_section_values(ctx, path, ".".join(names), own, nested=False))
    else:
        values.update(_section_values(ctx, path, names[0], section, nested=False))
    ctx.default_map = {**(ctx.default_map or {}), **values}


def _section_values(
    ctx: click.Context, path: Path, table: str, section: dict[str, Any], *, nested: bool
) -> dict[str, Any]:
    """The default_map entries of one table of the file, every key checked."""
    known: dict[str, click.Parameter] = {}
    for param in ctx.command.params:
        if param.name is None or param.name == "config":
            continue
        known[param.name] = param
        for opt in (*param.opts, *param.secondary_opts):
            if opt.startswith("--"):
                known[opt[2:].replace("-", "_")] = param
    siblings = set()
    parent = ctx.parent.command if ctx.parent is not None else None
    if nested and isinstance(parent, click.Group):
        siblings = set(parent.commands)
    found: dict[str, Any] = {}
    for key, value in section.items():
        if nested and key in siblings and isinstance(value, dict):
            continue  # [split.<method>] tables
        found_param = known.get(key.replace("-", "_"))
        if found_param is None:
            keys = sorted({name.replace("_", "-") for name in known})
            raise click.BadParameter(
                f"{path}: unknown key {key!r} in [{table}]; `{ctx.command_path}` takes "
                f"{', '.join(keys)}."
            )
        found[str(found_param.name)] = _config_value(found_param, value, key, table, path)
    return found


def _config_value(param: click.Parameter, value: Any, key: str, table: str, path: Path) -> Any:
    if isinstance(value, dict):
        if not param.multiple:
            raise click.BadParameter(f"{path}: [{table}] {key} must be a value, not a table.")
        return [f"{k}={_text(v)}" for k, v in value.items()]  # [train.set] epochs = 1
    if param.multiple or getattr(param, "nargs", 1) == -1:
        return [_text(v) for v in value] if isinstance(value, list) else [_text(value)]
    if isinstance(value, list):
        raise click.BadParameter(f"{path}: [{table}] {key} takes one value, not a list.")
    return value


def _text(value: Any) -> Any:
    if isinstance(value, bool):
        return "true" if value else "false"
    return value if isinstance(value, str) else str(value)
