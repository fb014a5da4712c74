"""The lock a writing command holds on its output (``symcomp.data.artifacts``)."""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from typing import IO

import pytest

from symcomp.data import artifacts
from symcomp.data.artifacts import writing_beside
from symcomp.errors import OutputError


def test_a_second_writer_is_refused_and_the_lock_file_goes(tmp_path: Path) -> None:
    out = tmp_path / "mcd.json"
    refused = pytest.raises(OutputError, match="another symcomp command is writing")
    with writing_beside(out), refused, writing_beside(out):
        pass
    assert list(tmp_path.iterdir()) == []


def test_a_lock_file_removed_as_it_was_opened_is_not_held(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The holder before us removes its lock file when it is done; a file we opened just before
    that is a dead one. Locking it would shut out nobody: a third command creating the file
    anew would write at the same time. The lock is taken on the file at the path."""
    out = tmp_path / "mcd.json"
    lock = artifacts.lock_beside(out)
    flock = fcntl.flock
    finished: list[bool] = []

    def holder_finishes_first(handle: IO[str], operation: int) -> None:
        if not finished:  # the earlier holder removes the file between our open and our lock
            finished.append(True)
            os.unlink(lock)
        flock(handle, operation)

    monkeypatch.setattr(fcntl, "flock", holder_finishes_first)
    with writing_beside(out):
        assert finished and lock.exists()
        monkeypatch.setattr(fcntl, "flock", flock)
        with (
            pytest.raises(OutputError, match="another symcomp command is writing"),
            writing_beside(out),
        ):
            pass
    assert not lock.exists()
