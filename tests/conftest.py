"""Shared fixtures: the published data in ../shared/peers (tests using it skip without it)."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PEERS = REPO.parent / "shared" / "peers"

# tests/plugins is a third-party language installed only for the subprocesses of
# test_third_party_language.py; collecting it would put its entry point on this process's path
collect_ignore = ["plugins"]


@pytest.fixture
def peers() -> Path:
    """The folder of published reference data; skips the test when it is absent."""
    if not PEERS.is_dir():
        pytest.skip("../shared/peers is not beside this checkout")
    return PEERS


def read_tsv(path: Path) -> list[list[str]]:
    """Rows of a TAB-separated file without header."""
    return [line.rstrip("\n").split("\t") for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.fixture(scope="session")
def pcfg_set_suite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small PCFG SET suite, built once per test session."""
    from symcomp.languages.pcfg_set.suite import PcfgSetSuiteSpec, build

    out = tmp_path_factory.mktemp("suites") / "pcfg-set"
    build(out, PcfgSetSuiteSpec(n=4000, seed=1))
    return out
