"""Commands that used to hang on bad settings end quickly, with exit 2 and a message saying
what to change: a removal after every MCD addition (the split never grows), an unreachable Ray
cluster (Ray itself retries for ten minutes). The time limit bounds the MCD construction too.
A plugin that never finishes loading is stopped by Ctrl-C or SIGTERM as any command is: one
line and exit 130 or 143, symcomp's own."""

from __future__ import annotations

import signal
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from symcomp.cli import cli
from symcomp.dbca.mcd import McdConfig, mcd_split
from symcomp.dbca.split import PoolData
from symcomp.errors import DataError
from tests.children import finish, start, wait_for


def invoke(*args: object) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["-q", *(str(a) for a in args)])
    return result.exit_code, result.output


@pytest.fixture(scope="module")
def pool(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("hangs") / "scan"
    code, output = invoke("generate", "scan", "--n", 200, "--seed", 0, "--out", out)
    assert code == 0, output
    return out


@pytest.mark.parametrize(
    ("case", "args", "fragment"),
    [
        ("removal after every addition", ("--removal-interval", 1), "--removal-interval 1"),
        ("time limit nan", ("--time-limit", "nan"), "--time-limit"),
        ("time limit zero", ("--time-limit", 0), "--time-limit"),
    ],
    ids=lambda value: value if isinstance(value, str) else "",
)
def test_split_settings_that_cannot_end(
    pool: Path, tmp_path: Path, case: str, args: tuple[object, ...], fragment: str
) -> None:
    out = tmp_path / "s.json"
    code, output = invoke("split", "dbca", pool, "--rounds", 0, *args, "--out", out)
    assert code == 2 and fragment in output, (case, output)
    assert "Traceback" not in output and not out.exists()


def test_the_time_limit_bounds_the_construction(pool: Path) -> None:
    """Past the limit the construction only adds: it ends even with removals every 2nd step."""
    features = PoolData.read(pool).features
    config = McdConfig(train_size=120, test_size=40, removal_interval=2, rounds=50, time_limit=1e-9)
    result = mcd_split(features, config, seed=0)
    assert len(result.train) == 120 and len(result.test) == 40
    with pytest.raises(DataError, match="removal_interval"):
        mcd_split(features, McdConfig(train_size=120, test_size=40, removal_interval=1))


def test_an_unreachable_ray_cluster_fails_in_seconds(tmp_path: Path) -> None:
    pytest.importorskip("ray")
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text("premise\thypothesis\tlabel\nSome dogs ran.\tSome animals ran.\tentailment\n")
    started = time.monotonic()
    code, output = invoke(
        "verify",
        pairs,
        "--language",
        "monotonicity",
        "--executor",
        "ray",
        "--address",
        "127.0.0.1:1",
    )
    assert code == 2 and "cannot reach a Ray cluster at --address '127.0.0.1:1'" in output
    assert time.monotonic() - started < 30


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.signals
@pytest.mark.parametrize(
    ("sig", "code", "said"),
    [
        (signal.SIGTERM, 143, "stopped by signal 15; no half-written file was left."),
        (signal.SIGINT, 130, "interrupted; no half-written file was left."),
    ],
    ids=["term", "int"],
)
def test_a_plugin_stuck_while_loading_is_stopped_by_a_signal(
    tmp_path: Path, sig: int, code: int, said: str
) -> None:
    marker = tmp_path / "loading"
    plugin = tmp_path / "stuck.py"
    plugin.write_text(
        f"from pathlib import Path\nPath({str(marker)!r}).touch()\nwhile True:\n    pass\n"
    )
    process = start("-q", "--plugin", plugin, "languages", "--json")
    try:
        wait_for(lambda: marker.exists() or process.poll() is not None)
        process.send_signal(sig)
        found, err = finish(process, seconds=60)
    finally:
        process.kill()
    assert found == code, err
    assert err.strip() == f"Error: {said}", err
