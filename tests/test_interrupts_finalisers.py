"""A stop whose exception a finaliser swallowed is still a stop.

Python ignores an exception raised in a finaliser (``__del__``, a weakref callback, garbage
collection): a Ctrl-C that lands there used to be lost, and the command went on to write its
output and exit 0, after printing "Exception ignored in ...". The handlers record the stop, so
the command ends as stopped before its output replaces the previous one.

Deterministic, not a race: a plugin given with ``--plugin`` drops an object whose ``__del__``
raises the signal in its own process, when the command first calls the function named in the
plugin: one that runs while the output is being written, before it is put in place (the first
atomic file of a pool, a split or an import; the swap of an export's or a suite's folder).
"""

from __future__ import annotations

import signal
import sys
from pathlib import Path

import pytest

from tests.children import digests, finish, run_here, start

pytestmark = [
    pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals"),
    pytest.mark.signals,
]

STOPPER = '''\
"""Raise {signal} in a finaliser when {target} is first called."""
import signal
import sys


class Finalised:
    def __del__(self):
        signal.raise_signal({number})  # the handler's exception is swallowed here


def at_call(frame, event, arg):
    if event == "call" and frame.f_code.co_name == {target!r}:
        sys.setprofile(None)
        Finalised()  # garbage at once: its finaliser runs now


sys.setprofile(at_call)
'''

# the command, the function during which the finaliser runs, and the output it writes
COMMANDS = {
    "generate": ("atomic_writer", "pool"),
    "export": ("move_into_place", "export"),
    "suite": ("_move_into_place", "suite"),
    "split": ("atomic_writer", "split.json"),
    "import": ("atomic_writer", "imported"),
}
SIGNALS = {"int": (signal.SIGINT, 130), "term": (signal.SIGTERM, 143), "hup": (signal.SIGHUP, 129)}


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A pool to export and split, and a corpus to import."""
    from symcomp.data.corpus.samples import write_samples

    root = tmp_path_factory.mktemp("finalisers")
    assert run_here("generate", "pcfg-set", "--n", 300, "--seed", 0, "--out", root / "pool")[0] == 0
    write_samples(root / "corpus")
    return root


def arguments(command: str, inputs: Path, out: Path, seed: int) -> list[object]:
    """The command line of ``command`` writing ``out`` (``seed`` makes a run's bytes its own)."""
    pool, corpus = inputs / "pool", inputs / "corpus"
    if command == "generate":
        return ["generate", "pcfg-set", "--n", 200, "--seed", seed, "--out", out]
    if command == "export":
        return ["export", pool, "--format", "tsv", "--out", out]
    if command == "suite":
        sizes = ["--in-domain", 60, "--generalisation", 30]
        return ["suite", "arithmetic", *sizes, "--seed", seed, "--out", out]
    if command == "split":
        return ["split", "random", pool, "--seed", seed, "--out", out]
    parts = [f"train={corpus / 'train.tsv'}", f"test={corpus / 'test.tsv'}"]
    return ["import", "--part", parts[0], "--part", parts[1], "--out", out]


def contents(out: Path) -> dict[str, str]:
    """Every file of an output, by relative path and sha256 (its lock file and temporaries
    included, were any left)."""
    if out.is_file():
        return digests(out.parent)
    return digests(out)


@pytest.mark.parametrize("previous", [True, False], ids=["previous", "none"])
@pytest.mark.parametrize(
    ("command", "stop"),
    [
        ("generate", "int"),
        ("export", "term"),
        ("suite", "hup"),
        ("split", "int"),
        ("import", "term"),
    ],
)
def test_a_stop_swallowed_by_a_finaliser_ends_the_command(
    inputs: Path, tmp_path: Path, command: str, stop: str, previous: bool
) -> None:
    target, name = COMMANDS[command]
    number, code = SIGNALS[stop]
    plugin = tmp_path / "stopper.py"
    plugin.write_text(STOPPER.format(signal=stop, number=int(number), target=target))
    out = tmp_path / "outputs" / name
    out.parent.mkdir()
    before: dict[str, str] = {}
    if previous:
        assert run_here(*arguments(command, inputs, out, seed=1))[0] == 0
        before = contents(out)
    args = arguments(command, inputs, out, seed=2) + (["--overwrite"] if previous else [])
    found, err = finish(start("--plugin", plugin, *args))
    assert found == code, err
    reason = "interrupted" if stop == "int" else f"stopped by signal {int(number)}"
    assert err.strip() == f"Error: {reason}; no half-written file was left.", err
    assert "Exception ignored" not in err
    if previous:
        assert contents(out) == before  # every file as it was, nothing beside it
    else:
        assert list(out.parent.iterdir()) == []


def test_other_finalisers_errors_are_still_reported(tmp_path: Path) -> None:
    """Only a stop's exception is kept quiet: a finaliser's own bug still shows."""
    plugin = tmp_path / "broken.py"
    plugin.write_text(
        "class Broken:\n"
        "    def __del__(self):\n"
        "        raise ValueError('a finaliser of the plugin failed')\n"
        "Broken()\n"
    )
    found, err = finish(start("--plugin", plugin, "languages"))
    assert found == 0
    assert "Exception ignored" in err and "a finaliser of the plugin failed" in err
