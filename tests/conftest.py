"""Shared fixtures: the published data in ../shared/peers (tests using it skip without it)."""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PEERS = REPO.parent / "shared" / "peers"

# tests/plugins is a third-party language installed only for the subprocesses of
# test_third_party_language.py; collecting it would put its entry point on this process's path
collect_ignore = ["plugins"]

# Other processes share the cores (two test workers on two cores): one thread per process for
# torch, OpenMP and BLAS, in the workers and in the symcomp processes tests start. Set before
# torch is imported, so module- and session-scoped fixtures that train (they run before any
# function-scoped fixture could lower the count) do not spin a second thread on a busy core.
THREAD_VARIABLES = ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS")


def pytest_configure(config: pytest.Config) -> None:
    for name in THREAD_VARIABLES:
        os.environ.setdefault(name, "1")
    if "torch" in sys.modules:  # imported by a plugin before this file: set it directly
        sys.modules["torch"].set_num_threads(1)


@pytest.fixture
def peers() -> Path:
    """The folder of published reference data; skips the test when it is absent."""
    if not PEERS.is_dir():
        pytest.skip("../shared/peers is not beside this checkout")
    return PEERS


def read_tsv(path: Path) -> list[list[str]]:
    """Rows of a TAB-separated file without header."""
    return [line.rstrip("\n").split("\t") for line in path.read_text(encoding="utf-8").splitlines()]


@contextlib.contextmanager
def _alone(lock: Path) -> Iterator[None]:
    with lock.open("w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield


def built_once(
    tmp_path_factory: pytest.TempPathFactory, name: str, build: Callable[[Path], object]
) -> Path:
    """``build(folder)`` done once per test session, however many xdist workers ask for it: the
    first builds it (the others wait), and all read the same folder, which they must not
    change. Without xdist, a folder of this process's own."""
    if "PYTEST_XDIST_WORKER" not in os.environ:
        out = tmp_path_factory.mktemp(name) / name
        build(out)
        return out
    shared = tmp_path_factory.getbasetemp().parent  # the session's folder, above the workers'
    out, done = shared / name, shared / f"{name}.built"
    with _alone(shared / f"{name}.lock"):
        if not done.exists():
            shutil.rmtree(out, ignore_errors=True)  # a build that failed in another worker
            build(out)
            done.touch()
    return out


@pytest.fixture(scope="session")
def pcfg_set_suite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small PCFG SET suite, built once per test session (read only)."""
    from symcomp.languages.pcfg_set.suite import PcfgSetSuiteSpec, build

    return built_once(
        tmp_path_factory, "pcfg-set-suite", lambda out: build(out, PcfgSetSuiteSpec(n=4000, seed=1))
    )


@pytest.fixture(scope="session")
def scan_suite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """SCAN's suite (no exports) in a folder named ``scan``, built once per test session (read
    only)."""
    from symcomp.languages.scan.suite import ScanSuiteSpec, build

    return built_once(tmp_path_factory, "scan", lambda out: build(out, ScanSuiteSpec(export=False)))


@pytest.fixture(scope="session")
def mono_suite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small monotonicity (NLI) suite in a folder named ``mono``, built once per test
    session (read only)."""
    from symcomp.core.registry import get_language

    builder = get_language("monotonicity").suite_builder()
    assert builder is not None
    return built_once(
        tmp_path_factory, "mono", lambda out: builder.build(out, builder.make({"n": 600}))
    )
