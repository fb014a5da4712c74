"""A stop never leaves a temporary behind, nor an output half replaced.

Temporary files and folders are made and removed with the stopping signals held: a stop that
arrives while one is removed (an export's staging folder or the files it replaced, the suite
in the original words of ``suite --fresh-words``) waits until it is gone. A pool's examples
and manifest are put in place together. Issue 48's items 4 and 12.

Deterministic, not a race: a plugin (``--plugin``) makes the command raise the signal in its
own process at the point under test (see :func:`tests.children.signalling_plugin`).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.children import (
    complete,
    digests,
    finish,
    run_here,
    signalling_plugin,
    start,
)

pytestmark = [
    pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals"),
    pytest.mark.signals,
]

RMTREE = "shutil:rmtree"
STAGING = r"/\.staging-[^/]*\.tmp$"  # an export's staging folder, or its replaced files
FRESH = r"/\.s\.fresh\.[^/]*$"  # the suite in the original words, beside --out (s)


@pytest.fixture(scope="module")
def pool(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("temporaries") / "pool"
    assert run_here("generate", "pcfg-set", "--n", 300, "--seed", 0, "--out", out)[0] == 0
    return out


def everything(root: Path) -> list[str]:
    """Every entry under ``root``, temporaries included, by relative path."""
    return sorted(path.relative_to(root).as_posix() for path in root.rglob("*"))


def test_a_stop_while_a_replaced_export_is_removed_leaves_nothing_of_it(
    pool: Path, tmp_path: Path
) -> None:
    """Item 12: the stop lands as the previous export's files, moved aside, are removed: it
    waits until they are gone; the new export was in place, so the command is done (exit 0)."""
    out = tmp_path / "export"
    args = ["export", pool, "--format", "tsv", "--out", out]
    assert run_here(*args, "--join-lines")[0] == 0
    plugin = signalling_plugin(
        tmp_path / "stop.py", ("call", RMTREE, "move_into_place", "SIGINT", 1, STAGING)
    )
    found, err = finish(start("--plugin", plugin, *args, "--overwrite"))
    assert found == 0, err
    assert complete(out), everything(out)  # the new export, and nothing beside it
    assert '"join_lines": false' in (out / "manifest.json").read_text()


@pytest.mark.parametrize("previous", [True, False], ids=["replacing", "new"])
def test_a_second_stop_while_the_staging_folder_is_removed_leaves_nothing(
    pool: Path, tmp_path: Path, previous: bool
) -> None:
    """Item 12: Ctrl-C while the export is written, and again while its staging folder is
    removed: the previous export whole (or none), no staging folder."""
    out = tmp_path / "export"
    args = ["export", pool, "--format", "tsv", "--out", out]
    before: dict[str, str] = {}
    if previous:
        assert run_here(*args, "--join-lines")[0] == 0
        before = digests(out)
        args.append("--overwrite")
    plugin = signalling_plugin(
        tmp_path / "stop.py",
        # the export's files are written: the manifest's records of them are being made
        ("call", "symcomp.data.artifacts:file_record", "write_export", "SIGINT", 1),
        ("call", RMTREE, "staging_in", "SIGINT", 1, STAGING),
    )
    found, err = finish(start("--plugin", plugin, *args))
    assert found == 130, err
    if previous:
        assert digests(out) == before, everything(out)
    else:
        assert not out.exists(), everything(out)


@pytest.mark.parametrize("sig", ["SIGTERM", "SIGINT"])
def test_a_second_stop_while_the_suite_in_original_words_is_removed_leaves_nothing(
    tmp_path: Path, sig: str
) -> None:
    """Item 4: ``suite --fresh-words`` stopped while renaming, and again while the suite in
    the original words (built beside --out) is removed: nothing is left beside --out."""
    plugin = signalling_plugin(
        tmp_path / "stop.py",
        ("call", "symcomp.suites.fresh:rename_suite", "", sig, 1),
        ("call", RMTREE, "_fresh_suite", sig, 1, FRESH),
    )
    root = tmp_path / "suites"
    root.mkdir()
    found, err = finish(
        start("-q", "--plugin", plugin, "suite", "scan", "--fresh-words", 0, "--out", root / "s")
    )
    assert found == (130 if sig == "SIGINT" else 143), err
    assert everything(root) == []


def test_a_stop_as_the_suite_in_original_words_is_removed_after_success(tmp_path: Path) -> None:
    """Item 4: the suite in fresh words is in place, and a stop arrives as the suite in the
    original words is removed: it waits until it is gone, and the command is done (exit 0)."""
    plugin = signalling_plugin(
        tmp_path / "stop.py", ("call", RMTREE, "_fresh_suite", "SIGTERM", 1, FRESH)
    )
    root = tmp_path / "suites"
    root.mkdir()
    found, err = finish(
        start("-q", "--plugin", plugin, "suite", "scan", "--fresh-words", 0, "--out", root / "s")
    )
    assert found == 0, err
    assert sorted(path.name for path in root.iterdir()) == ["s"]
    assert complete(root / "s")


@pytest.mark.parametrize("command", ["pcfg-set", "monotonicity"])
def test_a_stop_between_a_pools_examples_and_its_manifest_keeps_the_previous_pool(
    tmp_path: Path, command: str
) -> None:
    """A pool's examples and manifest are put in place together: stopped once the examples
    are written and before the manifest is, the previous pool stays whole (its examples used
    to be replaced already, beside the previous manifest)."""
    out = tmp_path / "pool"
    args = ["generate", command, "--n", 200, "--out", out]
    assert run_here(*args, "--seed", 1)[0] == 0
    before = digests(out)
    # the manifest's record of the examples is the first thing made once they are written
    plugin = signalling_plugin(
        tmp_path / "stop.py",
        ("call", "symcomp.data.artifacts:file_record", "", "SIGTERM", 1, r"examples\.jsonl$"),
    )
    found, err = finish(start("--plugin", plugin, *args, "--seed", 2, "--overwrite"))
    assert found == 143, err
    assert digests(out) == before, everything(out)
