"""Model tests: one torch thread (other processes share the cores), small fixtures."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import torch

from tests.conftest import built_once


@pytest.fixture(autouse=True)
def one_thread() -> Iterator[None]:
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


@pytest.fixture(scope="session")
def tiny_pcfg_suite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A PCFG SET suite of 300 programs (every test kind, 8 exceptions; trains in seconds),
    built once per session (read only)."""
    from symcomp.languages.pcfg_set.suite import PcfgSetSuiteSpec, build

    spec = PcfgSetSuiteSpec(
        n=300, seed=0, exception_ratios=(0.02,), per_function=60, per_length=4, export=False
    )
    return built_once(tmp_path_factory, "tiny-pcfg-suite", lambda out: build(out, spec))
