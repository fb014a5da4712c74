"""Random bytes and random token strings on the commands that read user files: never a
traceback, never the internal-error code; exit 0, 2, or 1 (verify found disagreements)."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from symcomp.cli import cli

TOKENS = st.sampled_from(
    ["walk", "jump", "twice", "and", "after", "left", "around", "{", "}", "[", "]", ",", ":",
     '"id"', '"input"', '"output"', "\t", "\n", "\r\n", "\ufeff", "\x00", "é", "1", "-1", "null",
     "copy", "append", "A1", "B2", "|||", "->", "*1", "trainIdxs", "testIdxs"]
)  # fmt: skip
CONTENT = st.one_of(
    st.binary(max_size=400),
    st.lists(TOKENS, max_size=60).map(lambda parts: " ".join(parts).encode("utf-8")),
)
FUZZ = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
counter = itertools.count()


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("fuzz")
    runner = CliRunner()
    assert (
        runner.invoke(cli, ["generate", "scan", "--n", "40", "--out", str(root / "pool")]).exit_code
        == 0
    )
    assert (
        runner.invoke(cli, ["suite", "scan", "--out", str(root / "suite"), "--no-export"]).exit_code
        == 0
    )
    return root


def check(world: Path, content: bytes, command: list[str], allowed: set[int]) -> None:
    path = world / f"input-{next(counter)}.dat"
    path.write_bytes(content)
    result = CliRunner().invoke(cli, ["-q", *[str(path) if a == "FILE" else a for a in command]])
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code in allowed, (result.exit_code, result.output)


@FUZZ
@given(content=CONTENT)
def test_interpret_file(world: Path, content: bytes) -> None:
    check(world, content, ["interpret", "scan", "--file", "FILE"], {0, 2})


@FUZZ
@given(text=st.lists(TOKENS, max_size=30).map(" ".join))
def test_interpret_text(world: Path, text: str) -> None:
    result = CliRunner().invoke(cli, ["-q", "interpret", "scan", "--", text])
    assert "Traceback" not in result.output
    assert result.exit_code in {0, 2}, result.output


@FUZZ
@given(content=CONTENT)
def test_stats(world: Path, content: bytes) -> None:
    check(world, content, ["stats", "FILE"], {0, 2})


@FUZZ
@given(content=CONTENT)
def test_divergence(world: Path, content: bytes) -> None:
    check(world, content, ["divergence", str(world / "pool"), "FILE"], {0, 2})


@FUZZ
@given(content=CONTENT)
def test_verify(world: Path, content: bytes) -> None:
    check(world, content, ["verify", "FILE", "--language", "scan"], {0, 1, 2})


@FUZZ
@given(content=CONTENT)
def test_evaluate_predictions(world: Path, content: bytes) -> None:
    command = ["evaluate", str(world / "suite"), "--predictions", "FILE", "--test", "simple"]
    check(world, content, command, {0, 2})
