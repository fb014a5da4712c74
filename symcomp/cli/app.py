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
import signal
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import click

from symcomp.data.signals import (
    Terminated,
    command_done,
    expect_output,
    first_stop,
    forget_stops,
    on_stop,
    signals_held,
    stop_exception,
)

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


# The stopping signals are recorded in `symcomp.data.signals` (the exception a handler raises
# can be lost in a finaliser, or turned into another on its way out: raised in the middle of
# `import torch`, it leaves a half-imported module behind, and the next import fails). A command
# that fails, or even succeeds, after a stop was asked for is reported as stopped.


def catch_signals() -> None:
    """SIGTERM and SIGHUP raise :class:`Terminated`, Ctrl-C KeyboardInterrupt, as Python's
    own handler does (in the main thread only; an ignored Ctrl-C stays ignored). Each is also
    recorded, and a stop's exception that a finaliser swallowed is not reported."""
    import threading

    if threading.current_thread() is not threading.main_thread():
        return
    forget_stops()  # a new command (tests run many in one process)
    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), on_stop)
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, on_stop)
    if not isinstance(sys.unraisablehook, _QuietAboutStops):
        sys.unraisablehook = _QuietAboutStops(sys.unraisablehook)


class _QuietAboutStops:
    """An unraisable hook that says nothing of a stop's exception swallowed by a finaliser
    (Python would print "Exception ignored in ..." with a traceback fragment): the stop is
    recorded, and the command ends as stopped. Everything else goes to the hook it wraps."""

    def __init__(self, wrapped: Callable[[Any], object]) -> None:
        self.wrapped = wrapped

    def __call__(self, unraisable: Any) -> None:
        stop = isinstance(unraisable.exc_value, KeyboardInterrupt | Terminated)
        if not (stop and first_stop() is not None):
            self.wrapped(unraisable)


def _stopped(signal_number: int, error: BaseException) -> Interrupted:
    """The exit of a command stopped by ``signal_number`` (Ctrl-C: 130; others: 128 + n)."""
    _release(error)
    if signal_number == signal.SIGINT:
        return _interrupted("interrupted; no half-written file was left.", EXIT_INTERRUPTED)
    return _interrupted(
        f"stopped by signal {signal_number}; no half-written file was left.",
        128 + signal_number,
    )


def _guarded(ctx: click.Context, command: click.Command, call: Callable[[], Any]) -> Any:
    """Run a command, turning every exception into its exit code and one paragraph; after a
    stopping signal, every failure is the stop. Once the exit code is decided, the command is
    done: a stop that arrives later changes nothing (see `symcomp.data.signals`)."""
    out = ctx.params.get("out")
    if isinstance(out, Path):  # a command writing --out is done once its output is in place
        expect_output(out)
    try:
        result = _translated(ctx, command, call)
    except (click.ClickException, click.exceptions.Exit, click.Abort) as error:
        stop = _decided()
        if stop is not None and not isinstance(error, Interrupted):
            raise _stopped(stop, error) from None
        raise
    stop = _decided()
    if stop is not None:  # its exception was swallowed where it landed (a finaliser)
        raise _stopped(stop, stop_exception(stop))
    return result


def _decided() -> int | None:
    """The stop that ends the command, if any; either way its exit is decided, and the command
    is done from now on."""
    with signals_held():
        stop = first_stop()
        command_done()
    return stop


def _translated(ctx: click.Context, command: click.Command, call: Callable[[], Any]) -> Any:
    from symcomp.errors import SymcompError

    try:
        return call()
    except SymcompError as error:
        message = in_flags(str(error), command, ctx.find_root().command)
        raise UserError(config_note(ctx, message)) from None
    except UserError as error:
        noted = config_note(ctx, error.message)
        if noted == error.message:
            raise
        raise UserError(noted) from None
    except (click.ClickException, click.exceptions.Exit, click.Abort):
        raise
    except KeyboardInterrupt as error:
        raise _stopped(signal.SIGINT, error) from None
    except Terminated as stop:
        raise _stopped(stop.signal_number, stop) from None
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
        if (ctx.find_root().obj or {}).get("debug") and first_stop() is None:
            raise
        name = ctx.command_path
        raise InternalError(
            f"internal error in `{name}`: {type(error).__name__}: {error}. This is a bug in "
            f"symcomp, not in your input as far as symcomp can tell; please report it at "
            f"{ISSUES} with the command you ran (add --debug to see the traceback)."
        ) from None


def _release(error: BaseException) -> None:
    """Free the locals of the frames an interrupt went through, now: the exception stays
    reachable (as the context of the exit) until the interpreter ends, when objects in those
    frames (a z3 solver) would be deleted after the library they need, with a traceback."""
    import traceback

    traceback.clear_frames(error.__traceback__)


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

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except click.BadParameter as error:  # a value from --config names the file and key
            raise config_origin(ctx, error) from None


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

    ctx.obj = {"quiet": quiet, "debug": debug}
    catch_signals()  # first: a plugin that never finishes loading is stopped as any command is
    load_plugins_from_environment()
    load_plugins(plugins)


def quiet(ctx: click.Context) -> bool:
    """True when progress output should be suppressed (``--quiet`` or not a terminal)."""
    obj = ctx.find_root().obj or {}
    return bool(obj.get("quiet")) or not sys.stderr.isatty()


@contextlib.contextmanager
def progress(
    ctx: click.Context,
    total: int | None,
    label: str,
    describe: Callable[[Any], str | None] | None = None,
) -> Iterator[Callable[..., None]]:
    """A progress bar on stderr when it is a terminal; a no-op in pipes and with --quiet.
    Yields ``step(n, item=None)``; with ``describe``, the bar shows the position and
    ``describe(item)`` of the latest item."""
    if quiet(ctx) or total is None:
        yield lambda steps, item=None: None
        return
    color = False if os.environ.get("NO_COLOR") else None
    with click.progressbar(
        length=total,
        label=label,
        file=sys.stderr,
        color=color,
        item_show_func=describe,
        show_pos=describe is not None,
    ) as bar:
        yield bar.update


@contextlib.contextmanager
def progress_when_used(
    ctx: click.Context,
    label: str,
    total: Callable[[], int | None],
    pause: Callable[[str | None], None] | None = None,
    describe: Callable[[Any], str | None] | None = None,
) -> Iterator[Callable[..., None]]:
    """A progress bar as :func:`progress` (``step(n, item=None)``, ``describe`` as there),
    opened at its first step (its length from ``total()`` then): work that turns out not to
    be needed (features extracted before) shows none. ``pause`` (a :func:`working` note) is
    given None when the bar opens, so that a status line gives the terminal's line to the
    bar."""
    with contextlib.ExitStack() as stack:
        bar: list[Callable[..., None]] = []

        def step(steps: int, item: Any = None) -> None:
            if not bar:
                if pause is not None:
                    pause(None)
                bar.append(stack.enter_context(progress(ctx, total(), label, describe)))
            bar[0](steps, item)

        yield step


@contextlib.contextmanager
def working(ctx: click.Context, label: str) -> Iterator[Callable[[str | None], None]]:
    """A status line on stderr for work without a known length: after 2 s on a terminal it
    shows the label, the seconds so far and the latest note (what the work is doing), and
    is cleared when the work ends; nothing in pipes and with --quiet. Yields ``note(text)``;
    ``note(None)`` clears the line and keeps it silent (a progress bar has it) until the next
    note."""
    if quiet(ctx):
        yield lambda text: None
        return
    import threading
    import time

    start = time.monotonic()
    state: dict[str, str | None] = {"note": ""}
    done = threading.Event()
    width = [0]

    def clear() -> None:
        sys.stderr.write("\r" + " " * width[0] + "\r")
        sys.stderr.flush()
        width[0] = 0

    def tick() -> None:
        if done.wait(2.0):
            return
        while True:
            with lock:
                note = state["note"]
                if note is not None:
                    line = f"{label}: {time.monotonic() - start:.0f}s {note}".rstrip()
                    sys.stderr.write("\r" + line.ljust(width[0]))
                    sys.stderr.flush()
                    width[0] = max(width[0], len(line))
            if done.wait(0.5):
                break
        with lock:
            if width[0]:
                clear()

    def note(text: str | None) -> None:
        with lock:
            if text is None and width[0]:
                clear()  # now, before the caller writes its own line
            state["note"] = text

    lock = threading.Lock()
    thread = threading.Thread(target=tick, daemon=True)
    thread.start()
    try:
        yield note
    finally:
        done.set()
        thread.join()


# the type of every --fresh-words SEED (suite, export, evaluate): the library refuses the same
# values (symcomp.core.fresh_strings.fresh_seed), so no command accepts a seed another refuses
FRESH_WORDS_SEED = click.IntRange(min=0)


def language_argument(name: str) -> Any:
    """Resolve a language name given on the command line (exit 2 with suggestions)."""
    from symcomp.core.registry import get_language

    return get_language(name)


def jobs_option(help: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``--jobs N``: worker processes of a command whose work can spread out."""
    return click.option(
        "--jobs", type=click.IntRange(min=1), default=1, show_default=True, help=help
    )


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
_CONFIG = "symcomp.config"  # ctx.meta key: the file read and where each value came from


class FiniteFloat(click.FloatRange):
    """A float (in a range, when given) that is finite: click's float types take ``nan`` and
    ``inf``, which no option of symcomp means, and ``nan`` passes every range check.

    >>> FiniteFloat(min=0.0).convert("1.5", None, None)
    1.5
    >>> FiniteFloat().convert("nan", None, None)
    Traceback (most recent call last):
    click.exceptions.BadParameter: 'nan' is not a finite number.
    """

    name = "float"

    def _describe_range(self) -> str:
        if self.min is None and self.max is None:
            return ""  # no bounds: no "[x<=None]" in --help
        return super()._describe_range()

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        import math

        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number.", param, ctx)
        return number


class PathSpec(click.types.StringParamType):
    """A string that may name a file or folder (``--model``: a built-in name, a run folder,
    ``file.py:attribute`` or ``module:attribute``). A config file's relative paths in it are
    taken relative to the config file's folder, as for path options."""

    name = "spec"


class _Origin:
    """Where a config value came from: the table, the key and the value as written."""

    def __init__(self, table: str, key: str, value: Any) -> None:
        self.table, self.key, self.value = table, key, value

    def __str__(self) -> str:
        return f"[{self.table}] {self.key}"


def config_option(function: Callable[..., Any]) -> Callable[..., Any]:
    """``--config FILE.toml``: the command's values from a TOML experiment file.

    The command reads the table named after it (``[generate]``, ``[train]``, ``[evaluate]``;
    ``[split]`` for every split method and ``[split.dbca]`` etc. for one); keys are its
    parameters, written as flags (``max-da``) or parameter names (``max_da``), arguments
    included (``language``, ``pool``). Values given on the command line win. A value is read
    as the same value typed on the command line (an integer option takes a TOML integer, a
    flag true or false, a path a string); relative paths are relative to the config file's
    folder. An unknown key or table, a key named twice (``train-frac`` and ``train_frac``) or
    a value of the wrong kind is an error naming the file, the table and the key.
    """
    return click.option(
        "--config",
        type=click.Path(path_type=Path, dir_okay=False),
        is_eager=True,
        expose_value=False,
        callback=_read_config,
        metavar="FILE.toml",
        help="Read this command's settings from a TOML experiment file (its [command] table; "
        "see the README); options given here override them. Relative paths in the file are "
        "relative to the file's folder.",
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
    origins: dict[str, _Origin] = {}
    for key, value in data.items():
        if key not in CONFIG_SECTIONS or not isinstance(value, dict):
            where = "key" if not isinstance(value, dict) else "table"
            raise click.BadParameter(
                f"{path}: unknown {where} {key!r} at the top level; put settings in the tables "
                f"{', '.join(f'[{s}]' for s in CONFIG_SECTIONS)} (split methods: [split.dbca])."
            )
    section = data.get(names[0], {})
    tables: list[tuple[str, dict[str, Any], bool]] = []
    if len(names) > 1:  # [split] holds the keys of every method, [split.<method>] its own
        own = section.get(names[1], {})
        if not isinstance(own, dict):
            raise click.BadParameter(
                f"{path}: [{names[0]}] {names[1]} must be a table ([{'.'.join(names)}])."
            )
        tables = [(names[0], section, True), (".".join(names), own, False)]
    else:
        tables = [(names[0], section, False)]
    for table, content, nested in tables:
        found = _section_values(ctx, path, table, content, nested=nested)
        for name, (value, origin) in found.items():
            values[name] = value
            origins[name] = origin
    ctx.default_map = {**(ctx.default_map or {}), **values}
    ctx.meta[_CONFIG] = (path, origins)


def _section_values(
    ctx: click.Context, path: Path, table: str, section: dict[str, Any], *, nested: bool
) -> dict[str, tuple[Any, _Origin]]:
    """The default_map entries of one table of the file, every key checked."""
    known: dict[str, tuple[click.Parameter, bool]] = {}  # key -> parameter, negated
    for param in ctx.command.params:
        if param.name is None or param.name == "config":
            continue
        known[param.name] = (param, False)
        for opt in param.opts:
            if opt.startswith("--"):
                known[opt[2:].replace("-", "_")] = (param, False)
        for opt in param.secondary_opts:  # --no-chains = true is --chains = false
            if opt.startswith("--"):
                known[opt[2:].replace("-", "_")] = (param, True)
    siblings = set()
    parent = ctx.parent.command if ctx.parent is not None else None
    if nested and isinstance(parent, click.Group):
        siblings = set(parent.commands)
    found: dict[str, tuple[Any, _Origin]] = {}
    for key, value in section.items():
        if nested and key in siblings and isinstance(value, dict):
            continue  # [split.<method>] tables
        entry = known.get(key.replace("-", "_"))
        if entry is None:
            keys = sorted({name.replace("_", "-") for name in known})
            raise click.BadParameter(
                f"{path}: unknown key {key!r} in [{table}]; `{ctx.command_path}` takes "
                f"{', '.join(keys)}."
            )
        param, negated = entry
        name = str(param.name)
        if name in found:  # which one would win is an accident of the file's order
            raise click.BadParameter(
                f"{path}: [{table}] sets {_flag(param)} twice, as {found[name][1].key!r} and "
                f"{key!r}; keep one of them."
            )
        origin = _Origin(table, key, value)
        converted = _config_value(param, value, origin, path)
        if negated:
            converted = not converted
        found[name] = (converted, origin)
    return found


def _flag(param: click.Parameter) -> str:
    if isinstance(param, click.Option):
        return max(param.opts, key=len)
    return str(param.human_readable_name)


def _config_value(param: click.Parameter, value: Any, origin: _Origin, path: Path) -> Any:
    """What the command line would have given for ``value``: text for click to convert as
    if typed (so ``n = 5.7`` fails as ``--n 5.7`` does), a bool for a flag, a path relative
    to the config file's folder."""
    if isinstance(value, dict):
        if not param.multiple:
            raise _config_error(path, origin, value, "a value, not a table")
        return [f"{k}={_text(v)}" for k, v in value.items()]  # [train.set] epochs = 1
    if param.multiple or getattr(param, "nargs", 1) == -1:
        items = value if isinstance(value, list) else [value]
        return [_config_item(param, item, origin, path) for item in items]
    if isinstance(value, list):
        raise click.BadParameter(f"{path}: {origin} takes one value, not a list.")
    return _config_item(param, value, origin, path)


def _config_item(param: click.Parameter, value: Any, origin: _Origin, path: Path) -> Any:
    expected = _expected(param)
    if isinstance(param, click.Option) and param.is_flag:
        if isinstance(value, bool):
            return value
        raise _config_error(path, origin, value, expected)
    kind = param.type
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise _config_error(path, origin, value, expected)
    if isinstance(kind, (click.Path, PathSpec)):
        if not isinstance(value, str):
            raise _config_error(path, origin, value, expected)
        return _relative_to(path.parent, value, spec=isinstance(kind, PathSpec))
    if isinstance(kind, click.types.IntParamType):
        if isinstance(value, float):
            raise _config_error(path, origin, value, expected)
        return str(value)
    if isinstance(kind, click.types.FloatParamType):
        return str(value)
    if not isinstance(value, str):
        raise _config_error(path, origin, value, expected)
    return value


def _relative_to(folder: Path, value: str, *, spec: bool) -> str:
    """``value`` (a path, or with ``spec`` a --model SPEC) read relative to ``folder``."""
    if spec:
        location, colon, attribute = value.rpartition(":")
        if colon and location.endswith(".py"):  # file.py:attribute
            return f"{_relative_to(folder, location, spec=False)}:{attribute}"
        if colon or not ("/" in value or (folder / value).exists()):
            return value  # a built-in name or module:attribute
    if not value or Path(value).is_absolute():
        return value
    return str(folder / value)


def _expected(param: click.Parameter) -> str:
    """What a value of ``param`` must be, in a config file's terms."""
    kind = param.type
    if isinstance(param, click.Option) and param.is_flag:
        return "true or false"
    if isinstance(kind, click.Path):
        return "a path (a TOML string)"
    if isinstance(kind, PathSpec):
        return "a string (a model name, folder or file.py:attribute)"
    bounds = ""
    if isinstance(kind, (click.IntRange, click.FloatRange)) and (
        kind.min is not None or kind.max is not None
    ):
        bounds = f" ({kind._describe_range()})"
    if isinstance(kind, click.types.IntParamType):
        return f"an integer{bounds}"
    if isinstance(kind, click.types.FloatParamType):
        return f"a finite number{bounds}"
    if isinstance(kind, click.Choice):
        return "one of " + ", ".join(repr(str(choice)) for choice in kind.choices)
    return "a string"


def _toml(value: Any) -> str:
    """A value as it is written in TOML (for messages)."""
    import datetime
    import json
    import math

    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, list):
        return "[" + ", ".join(_toml(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {_toml(v)}" for k, v in value.items()) + "}"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def _config_error(path: Path, origin: _Origin, value: Any, expected: str) -> click.BadParameter:
    kind = _toml_kind(value)
    return click.BadParameter(
        f"{path}: {origin} = {_toml(value)} (a TOML {kind}) is not valid; expected {expected}."
    )


def _toml_kind(value: Any) -> str:
    import datetime

    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, datetime.datetime):
        return "date-time"
    for kind, name in ((datetime.date, "date"), (datetime.time, "time"), (int, "integer")):
        if isinstance(value, kind):
            return name
    names = {float: "float", str: "string", list: "array", dict: "table"}
    return names.get(type(value), type(value).__name__)


def config_origin(ctx: click.Context, error: click.BadParameter) -> click.BadParameter:
    """``error`` about a parameter whose value came from --config, with the file, table, key
    and the value as written there (click's own message names only the flag)."""
    from click.core import ParameterSource

    config = ctx.meta.get(_CONFIG)
    param = error.param
    name = param.name if param is not None else None
    if config is None or param is None or name is None:
        return error
    path, origins = config
    origin = origins.get(name)
    if origin is None or ctx.get_parameter_source(name) is not ParameterSource.DEFAULT_MAP:
        return error
    rewritten = click.BadParameter(
        f"{path}: {origin} = {_toml(origin.value)} is not valid: {error.message} Expected "
        f"{_expected(param)}{_relative_note(param)}.",
        ctx=ctx,
        param=param,
    )
    return rewritten


def _relative_note(param: Any) -> str:
    if isinstance(param.type, (click.Path, PathSpec)):
        return "; relative paths in a config file are relative to its folder"
    return ""


def config_note(ctx: click.Context, message: str) -> str:
    """``message`` with the config file and the keys it gave, when the command read one
    and the message does not name it already (an error may come from a value of the file)."""
    from click.core import ParameterSource

    config = ctx.meta.get(_CONFIG)
    if config is None:
        return message
    path, origins = config
    used = [
        str(origin)
        for name, origin in origins.items()
        if ctx.get_parameter_source(name) is ParameterSource.DEFAULT_MAP
    ]
    if not used or str(path) in message:
        return message
    return f"{message} (settings read from {path}: {', '.join(used)})"


def _text(value: Any) -> Any:
    if isinstance(value, bool):
        return "true" if value else "false"
    return value if isinstance(value, str) else str(value)
