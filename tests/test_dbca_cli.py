"""``symcomp split`` and ``symcomp divergence``: files, meta, exit codes, bad input."""

import json
import os
import subprocess
import sys

import pytest
from click.testing import CliRunner, Result

from symcomp.cli import cli
from symcomp.data.splits import read_split
from symcomp.dbca.measure import MEASURE_VERSION


@pytest.fixture
def run():
    runner = CliRunner()

    def invoke(*args):
        return runner.invoke(cli, [str(a) for a in args])

    return invoke


@pytest.fixture(scope="module")
def pools(tmp_path_factory):
    """A SCAN pool with stored DAGs and the same pool without them."""
    folder = tmp_path_factory.mktemp("pools")
    runner = CliRunner()
    for name, extra in (("dag", ["--with-dag"]), ("plain", [])):
        result = runner.invoke(
            cli,
            ["generate", "scan", "--n", "1500", "--seed", "1", "--out", str(folder / name), *extra],
        )
        assert result.exit_code == 0, result.output
    return folder


def no_traceback(result: Result) -> None:
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_dbca_split_writes_a_measured_split(run, pools, tmp_path):
    out = tmp_path / "mcd.json"
    result = run("split", "dbca", pools / "dag", "--rounds", 2, "--dev-frac", 0.05, "--out", out)
    assert result.exit_code == 0, result.output
    assert "wrote mcd split" in result.output and "D_C" in result.output
    split = read_split(out, pool_size=1500)
    assert (len(split.train), len(split.dev), len(split.test)) == (600, 75, 150)
    meta = split.meta
    assert meta["method"] == "mcd" and meta["seed"] == 0 and meta["target_met"] is True
    assert meta["parameters"]["max_da"] == 0.02 and meta["parameters"]["rounds"] == 2
    assert meta["atom_divergence"] <= 0.02 and meta["compound_divergence"] > 0.4
    assert meta["dev_atom_divergence"] <= 0.02  # the bound holds for everything reported
    for key in (
        "dev_compound_divergence",
        "atom_coverage",
        "input_pattern_coverage",
        "output_pattern_coverage",
        "input_length_ratio",
        "output_length_ratio",
    ):
        assert key in meta
    assert meta["pool"]["examples"] == 1500 and len(meta["pool"]["sha256"]) == 64
    assert meta["features"]["weighting"] == "dbca"
    assert json.loads(out.read_text())["trainIdxs"] == list(split.train)


def test_stored_and_rebuilt_dags_give_the_same_split(run, pools, tmp_path):
    files = []
    for name in ("dag", "plain"):
        out = tmp_path / f"{name}.json"
        result = run("split", "dbca", pools / name, "--rounds", 1, "--seed", 5, "--out", out)
        assert result.exit_code == 0, result.output
        files.append(read_split(out))
    assert files[0].train == files[1].train and files[0].test == files[1].test


def test_divergence_command_measures_any_split(run, pools, tmp_path):
    out = tmp_path / "random.json"
    assert run("split", "random", pools / "plain", "--seed", 2, "--out", out).exit_code == 0
    result = run("divergence", pools / "plain", out, "--json")
    assert result.exit_code == 0, result.output
    values = json.loads(result.output)
    meta = read_split(out).meta
    assert values["compound_divergence"] == meta["compound_divergence"]
    assert values["atom_divergence"] == meta["atom_divergence"] < 0.01
    text = run("divergence", pools / "plain", out)
    assert text.exit_code == 0 and "compound divergence" in text.output
    counts = json.loads(
        run("divergence", pools / "plain", out, "--weighting", "counts", "--json").output
    )
    assert counts["features"]["weighting"] == "counts"


@pytest.mark.parametrize(
    ("command", "extra"),
    [
        ("length", ["--by", "input"]),
        ("length", []),
        ("pattern", ["--by", "input"]),
        ("pattern", []),
    ],
)
def test_baseline_commands(run, pools, tmp_path, command, extra):
    out = tmp_path / "split.json"
    result = run("split", command, pools / "plain", *extra, "--out", out)
    assert result.exit_code == 0, result.output
    meta = read_split(out).meta
    by = extra[1] if extra else "output"
    assert meta["method"] == f"{by}_{command}"
    if command == "pattern":
        assert meta[f"{by}_pattern_coverage"] == 0.0
    else:
        assert meta[f"{by}_length_ratio"] < 1.0


def test_swap_method(run, pools, tmp_path):
    out = tmp_path / "swap.json"
    result = run(
        "split", "dbca", pools / "plain", "--method", "swap", "--max-iterations", 30, "--out", out
    )
    assert result.exit_code == 0, result.output
    meta = read_split(out).meta
    assert meta["method"] == "swap" and meta["search"]["swaps"] > 0
    assert meta["atom_coverage"] == 1.0


def test_impossible_target_warns_and_strict_exits_one(run, pools, tmp_path):
    out = tmp_path / "hard.json"
    args = ["split", "dbca", pools / "plain", "--target-dc", 0.9, "--max-da", 0, "--rounds", 0]
    result = run(*args, "--out", out)
    no_traceback(result)
    assert result.exit_code == 0
    assert "warning: targets not met" in result.output and "D_C" in result.output
    assert read_split(out).meta["target_met"] is False
    strict = run(*args, "--out", out, "--overwrite", "--strict")
    assert strict.exit_code == 1


def test_bad_split_files_are_exit_two(run, pools, tmp_path):
    outside = tmp_path / "outside.json"
    outside.write_text(json.dumps({"trainIdxs": [0, 1], "devIdxs": [], "testIdxs": [5000]}))
    result = run("divergence", pools / "plain", outside)
    no_traceback(result)
    assert result.exit_code == 2 and "outside the pool of 1,500" in result.output
    overlap = tmp_path / "overlap.json"
    overlap.write_text(json.dumps({"trainIdxs": [0, 1], "devIdxs": [], "testIdxs": [1]}))
    result = run("divergence", pools / "plain", overlap)
    assert result.exit_code == 2 and "must be disjoint" in result.output


def test_missing_derivations_without_a_language_are_exit_two(run, tmp_path):
    folder = tmp_path / "pool"
    folder.mkdir()
    lines = [{"id": str(i), "input": f"w{i} x", "output": "y"} for i in range(30)]
    (folder / "examples.jsonl").write_text("".join(json.dumps(r) + "\n" for r in lines))
    result = run("split", "dbca", folder, "--out", tmp_path / "s.json")
    no_traceback(result)
    assert result.exit_code == 2
    assert "examples.jsonl:1: the line has no derivation" in result.output
    assert "--compounds ngrams" in result.output
    (folder / "manifest.json").write_text(json.dumps({"language": "no-such-language"}))
    result = run("split", "dbca", folder, "--out", tmp_path / "s.json")
    assert result.exit_code == 2 and "cannot be loaded" in result.output
    ngrams = run("split", "dbca", folder, "--compounds", "ngrams", "--out", tmp_path / "s.json")
    assert ngrams.exit_code == 0, ngrams.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--target-dc", "high"), "--target-dc must be a number"),
        (("--target-dc", "1.5"), "must lie in [0, 1]"),
        (("--train-frac", "0.9", "--test-frac", "0.2"), "exceeds 1"),
        (("--max-da", "-0.1"), "'--max-da': -0.1 is not in the range 0.0<=x<=1.0"),
    ],
)
def test_bad_arguments_are_exit_two(run, pools, tmp_path, args, message):
    result = run("split", "dbca", pools / "plain", *args, "--out", tmp_path / "x.json")
    no_traceback(result)
    assert result.exit_code == 2 and message in result.output


def test_existing_output_needs_overwrite(run, pools, tmp_path):
    out = tmp_path / "r.json"
    assert run("split", "random", pools / "plain", "--out", out).exit_code == 0
    result = run("split", "random", pools / "plain", "--out", out)
    assert result.exit_code == 2 and "--overwrite" in result.output
    assert run("split", "random", pools / "plain", "--out", out, "--overwrite").exit_code == 0


def test_atoms_count_once_per_example_unless_told(run, pools, tmp_path):
    out = tmp_path / "random.json"
    assert run("split", "random", pools / "dag", "--seed", 2, "--out", out).exit_code == 0
    meta = read_split(out).meta
    assert (
        meta["features"]["atom_frequency"] == "example"
        and meta["measure_version"] == MEASURE_VERSION
    )
    per_occurrence = json.loads(
        run("divergence", pools / "dag", out, "--atom-frequency", "occurrence", "--json").output
    )
    assert per_occurrence["features"]["atom_frequency"] == "occurrence"
    assert per_occurrence["compound_divergence"] == meta["compound_divergence"]
    assert per_occurrence["atom_divergence"] != meta["atom_divergence"]
    # a split measured before the option existed (no atom_frequency in its meta) is measured
    # as it was: per occurrence
    raw = json.loads(out.read_text(encoding="utf-8"))
    del raw["meta"]["features"]["atom_frequency"]
    old = tmp_path / "old.json"
    old.write_text(json.dumps(raw), encoding="utf-8")
    measured = json.loads(run("divergence", pools / "dag", old, "--json").output)
    assert measured["atom_divergence"] == per_occurrence["atom_divergence"]
    bad = run("divergence", pools / "dag", out, "--atom-frequency", "token")
    assert bad.exit_code == 2 and "--atom-frequency" in bad.output


def test_pairs_compounds_are_recorded_and_reused(run, pools, tmp_path):
    out = tmp_path / "pairs.json"
    result = run(
        "split", "dbca", pools / "plain", "--compounds", "pairs", "--rounds", 0, "--out", out
    )
    assert result.exit_code == 0, result.output
    meta = read_split(out).meta
    assert meta["features"]["compounds"] == "pairs"
    assert meta["features"]["spec"]["max_nodes"] == 2
    measured = json.loads(run("divergence", pools / "plain", out, "--json").output)
    assert measured["compound_divergence"] == meta["compound_divergence"]
    assert measured["features"]["compounds"] == "pairs"


def test_length_threshold_and_its_bad_values(run, pools, tmp_path):
    out = tmp_path / "length.json"
    result = run("split", "length", pools / "plain", "--max-train-length", 22, "--out", out)
    assert result.exit_code == 0, result.output
    meta = read_split(out).meta
    assert meta["parameters"]["max_train_length"] == 22 and meta["output_length_ratio"] < 0.6
    for threshold in (0, 1000):
        bad = run(
            "split",
            "length",
            pools / "plain",
            "--max-train-length",
            threshold,
            "--out",
            out,
            "--overwrite",
        )
        no_traceback(bad)
        assert bad.exit_code == 2 and f"--max-train-length {threshold} leaves 0" in bad.output


def test_pattern_abstraction_must_be_declared_when_asked_for(run, pools, tmp_path):
    scan = run(
        "split",
        "pattern",
        pools / "plain",
        "--pattern-abstraction",
        "language",
        "--out",
        tmp_path / "p.json",
    )
    assert scan.exit_code == 0, scan.output
    assert read_split(tmp_path / "p.json").meta["pattern_abstraction"] == "language"
    folder = tmp_path / "pcfg"
    assert run("generate", "pcfg-set", "--n", 200, "--out", folder).exit_code == 0
    result = run(
        "split",
        "pattern",
        folder,
        "--pattern-abstraction",
        "language",
        "--out",
        tmp_path / "q.json",
    )
    no_traceback(result)
    assert result.exit_code == 2 and "declares no pattern abstraction" in result.output
    assert "--pattern-abstraction fillers" in result.output


def test_raw_counts_keep_every_compound_unless_told(run, pools, tmp_path):
    out = tmp_path / "counts.json"
    result = run("split", "random", pools / "dag", "--weighting", "counts", "--out", out)
    assert result.exit_code == 0 and "note:" not in result.output
    features = read_split(out).meta["features"]
    assert features["top_k"] is None
    assert features["kept_compounds"] == features["weighted_compounds"]
    cut = run(
        "split",
        "random",
        pools / "dag",
        "--weighting",
        "counts",
        "--top-k",
        5,
        "--out",
        out,
        "--overwrite",
    )
    assert cut.exit_code == 0 and "note: D_C is over the 5 heaviest" in cut.output


def test_mcd_splits_can_be_kept_apart(run, pools, tmp_path):
    first, second = tmp_path / "mcd1.json", tmp_path / "mcd2.json"
    assert (
        run("split", "dbca", pools / "dag", "--rounds", 0, "--seed", 1, "--out", first).exit_code
        == 0
    )
    result = run(
        "split",
        "dbca",
        pools / "dag",
        "--rounds",
        0,
        "--seed",
        2,
        "--distinct-from",
        first,
        "--out",
        second,
    )
    assert result.exit_code == 0, result.output
    assert "test overlap with" in result.output
    meta = read_split(second).meta
    assert meta["test_overlap"][str(first)] <= 0.3
    assert meta["parameters"]["distinct_from"] == [str(first)]


def _split_stderr(pools, out, *flags: str, terminal: bool) -> str:
    """What ``symcomp [FLAGS] split dbca`` writes on stderr: a pseudo-terminal (read until the
    command closes it) or a pipe."""
    command = [sys.executable, "-c", "from symcomp.cli import main; main()", *flags]
    command += ["split", "dbca", str(pools / "dag"), "--rounds", "2", "--out", str(out)]
    if not terminal:
        return subprocess.run(command, capture_output=True, text=True, check=True).stderr
    leader, follower = os.openpty()
    with subprocess.Popen(
        command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=follower
    ) as child:
        os.close(follower)
        chunks = []
        while True:
            try:
                chunk = os.read(leader, 4096)
            except OSError:  # EIO: every end of the terminal closed, the command has ended
                break
            if not chunk:
                break
            chunks.append(chunk)
        assert child.wait() == 0
    os.close(leader)
    return b"".join(chunks).decode("utf-8", errors="replace")


def test_split_dbca_shows_the_search_on_a_terminal_only(pools, tmp_path):
    shown = _split_stderr(pools, tmp_path / "tty.json", terminal=True)
    assert "split dbca" in shown and "construction" in shown and "round 2/2" in shown
    assert "D_A 0." in shown and "D_C 0." in shown and "measuring the split" in shown
    # placed / planned: two constructions (seeded and plain) of 750, two rounds regrowing 225
    assert f"/{2 * (600 + 150) + 2 * (180 + 45)}" in shown
    shown_train = read_split(tmp_path / "tty.json").train
    for name, flags, terminal in (("quiet", ("-q",), True), ("pipe", (), False)):
        silent = _split_stderr(pools, tmp_path / f"{name}.json", *flags, terminal=terminal)
        assert "round" not in silent and "\r" not in silent and "D_C" not in silent
        assert read_split(tmp_path / f"{name}.json").train == shown_train
