"""A stop that arrives once the command is done changes nothing.

Once the output of ``symcomp`` is in place (the step that completes ``--out``), or the command
has returned and its exit code is decided, the stopping signals are ignored for the rest of
the process: it exits with the command's own code (0), its output complete. A signal that
landed while Python finalised used to kill it (exit -15, the default handler back) or to end
it as stopped (143) after its output was complete, depending on the machine's speed.

Deterministic, not a race: a plugin (``--plugin``) freezes the command (SIGSTOP) at the point
under test; the test then sends the signal, which waits while the command is stopped, and lets
it go on (SIGCONT).
"""

from __future__ import annotations

import signal
import sys
from pathlib import Path

import pytest

from tests.children import complete, finish, run_here, signal_frozen, signalling_plugin, start

pytestmark = [
    pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals"),
    pytest.mark.signals,
]


@pytest.fixture(scope="module")
def pool(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("exit") / "pool"
    assert run_here("generate", "pcfg-set", "--n", 300, "--seed", 0, "--out", out)[0] == 0
    return out


# where the command is frozen: (when, function, inside, count) of signalling_plugin
AFTER = {
    # the export's folder moved into place, the old files not yet removed (signals held)
    "swapped": ("return", "symcomp.data.artifacts:_merge", "move_into_place", 1),
    # the export written, returned to the command, which has yet to say so
    "written": ("return", "symcomp.data.export:write_export", "", 1),
    # the command returned (its guard, wrapped when the plugin loads, is the command's)
    "returned": ("return", "symcomp.cli.app:_guarded", "", 1),
}


@pytest.mark.parametrize("previous", [False, True], ids=["new", "replacing"])
@pytest.mark.parametrize(
    ("point", "sig"),
    [("swapped", signal.SIGINT), ("written", signal.SIGTERM), ("returned", signal.SIGHUP)],
)
def test_a_stop_after_the_output_is_in_place_changes_nothing(
    pool: Path, tmp_path: Path, point: str, sig: int, previous: bool
) -> None:
    out = tmp_path / "export"
    args = ["export", pool, "--format", "tsv", "--out", out]
    if previous:
        assert run_here(*args, "--join-lines")[0] == 0  # other bytes: a manifest of its own
        args.append("--overwrite")
    when, function, inside, count = AFTER[point]
    plugin = signalling_plugin(tmp_path / "freeze.py", (when, function, inside, "SIGSTOP", count))
    process = start("--plugin", plugin, *args)
    signal_frozen(process, sig)
    found, err = finish(process)
    assert found == 0, err
    assert err == ""
    assert complete(out)
    assert 'join_lines": false' in (out / "manifest.json").read_text()  # the new export


def test_a_stop_while_python_finalises_changes_nothing(pool: Path, tmp_path: Path) -> None:
    """Frozen as Python finalises, its default handlers back: the signal used to kill the
    process there (exit -15, CI's red run of test_an_interrupted_reproduction_continues)."""
    out = tmp_path / "export"
    plugin = signalling_plugin(tmp_path / "freeze.py", finalising="SIGSTOP")
    process = start("--plugin", plugin, "export", pool, "--format", "tsv", "--out", out)
    signal_frozen(process, signal.SIGTERM)
    found, err = finish(process)
    assert found == 0, err
    assert err == ""
    assert complete(out)


def test_a_stop_before_the_output_is_in_place_still_stops(pool: Path, tmp_path: Path) -> None:
    """The other side of the line: frozen as the swap begins, the stop ends the command."""
    out = tmp_path / "export"
    plugin = signalling_plugin(
        tmp_path / "freeze.py", ("call", "symcomp.data.artifacts:move_into_place", "", "SIGSTOP", 1)
    )
    process = start("--plugin", plugin, "export", pool, "--format", "tsv", "--out", out)
    signal_frozen(process, signal.SIGTERM)
    found, err = finish(process)
    assert found == 143, err
    assert err.strip() == "Error: stopped by signal 15; no half-written file was left."
    assert not out.exists()


@pytest.mark.parametrize("command", ["languages", "split"])
def test_a_stop_after_a_command_returned_changes_nothing(
    pool: Path, tmp_path: Path, command: str
) -> None:
    """Commands without an output folder (one that prints; a split file, with --out) are done
    when they return."""
    args: list[object] = ["languages", "--json"]
    if command == "split":
        args = ["split", "random", pool, "--seed", 0, "--out", tmp_path / "split.json"]
    plugin = signalling_plugin(
        tmp_path / "freeze.py", ("return", "symcomp.cli.app:_guarded", "", "SIGSTOP", 1)
    )
    process = start("--plugin", plugin, *args)
    signal_frozen(process, signal.SIGTERM)
    found, err = finish(process)
    assert found == 0, err
    assert err == ""
