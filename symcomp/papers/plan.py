"""What a reproduction is: its scales, its runs, and the protocol every paper module follows.

>>> RunSpec("dc-0.30", "lstms2s", seed=1).folder
'dc-0.30/lstms2s-seed1'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

SCALES = ("tiny", "small", "paper")


@dataclass(frozen=True)
class RunSpec:
    """One training run: a test of the reproduction's suite, a model and its settings."""

    test: str
    model: str
    preset: str = "small"
    sets: tuple[str, ...] = ()  # key=value overrides (symcomp.models.zoo.resolve)
    seed: int = 0
    label: str = ""  # the architecture's name in tables and figures (default: model)
    scored: tuple[str, ...] = ("*",)  # the tests the run is scored on (shell patterns)

    @property
    def name(self) -> str:
        return self.label or self.model

    @property
    def folder(self) -> str:
        return f"{self.test}/{self.name}-seed{self.seed}"


@dataclass(frozen=True)
class Outcome:
    """A finished run: its spec, its training summary and its scores."""

    spec: RunSpec
    summary: Mapping[str, Any]
    scores: Mapping[str, Any] = field(default_factory=dict)
    cpu_seconds: float = 0.0
    wall_seconds: float = 0.0


def suite_folder(data: Path) -> Path:
    """Where :meth:`Paper.build_data` keeps the suite in the data folder ``data`` (every
    paper builds it there, so a rerun finds it, and checks it, before anything is written).

    >>> suite_folder(Path("r/data")).as_posix()
    'r/data/suite'
    """
    return data / "suite"


class Paper(Protocol):
    """A reproduction; see :mod:`symcomp.papers`."""

    name: str
    title: str

    def build_data(self, out: Path, scale: str, seed: int) -> Path:
        """Build (or find, when already built) the suite the runs train on, in
        ``suite_folder(out)``; return it."""
        ...

    def runs(self, suite: Path, scale: str, seed: int) -> Sequence[RunSpec]:
        """Every run the paper compares at this scale."""
        ...

    def score(self, suite: Path, run: Path, spec: RunSpec, device: str) -> dict[str, Any]:
        """The scores of one finished run (models in the loop, on ``device``, where a test
        needs them)."""
        ...

    def report(self, outcomes: Sequence[Outcome], out: Path, scale: str) -> dict[str, Any]:
        """Figures under ``out/figures`` and the results: ``markdown`` (the report, the paper's
        numbers beside symcomp's), ``findings`` (each with ``reproduced``) and ``tables``."""
        ...
