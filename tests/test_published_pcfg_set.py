"""The published PCFG SET data and predictions: `symcomp suite import pcfg-set`, `symcomp
evaluate --runs`, the readers of published traces and logs, and their errors."""

from __future__ import annotations

import json
import os
import random
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from symcomp.cli import cli
from symcomp.languages.pcfg_set.published import import_published
from symcomp.metrics.prediction_trees import score_tree
from tests.published_pcfg_set import from_peers, synthetic

# Hupkes et al. (2020), Table 1 (three runs each) and Table 2 (systematicity per held-out pair)
TABLE1 = {
    "lstms2s": {
        "task": 0.79,
        "systematicity": 0.53,
        "productivity": 0.30,
        "ed": 0.80,
        "primitive": 0.60,
        "localism": 0.46,
        "overgeneralisation": 0.68,
    },
    "convs2s": {
        "task": 0.85,
        "systematicity": 0.56,
        "productivity": 0.31,
        "ed": 0.95,
        "primitive": 0.58,
        "overgeneralisation": 0.79,
    },
    "transformer": {
        "task": 0.92,
        "systematicity": 0.72,
        "productivity": 0.50,
        "ed": 0.98,
        "primitive": 0.90,
        "overgeneralisation": 0.88,
    },
}
TABLE2 = {
    "lstms2s": (0.40, 0.54, 0.66, 0.48),
    "convs2s": (0.49, 0.46, 0.67, 0.56),
    "transformer": (0.53, 0.80, 0.80, 0.73),
}
PAIRS = (
    "swap_first_last repeat",
    "append remove_second",
    "repeat remove_second",
    "append swap_first_last",
)


def run(*args: object) -> tuple[int, str]:
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert "Traceback" not in result.output
    return result.exit_code, result.output


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A synthetic published folder and its imported suite."""
    root = synthetic(tmp_path_factory.mktemp("published") / "pcfgset")
    suite = root.parent / "suite"
    import_published(root, suite)
    return root, suite


def test_import_keeps_every_published_test_line(tiny: tuple[Path, Path]):
    root, suite = tiny
    manifest = json.loads((suite / "manifest.json").read_text())
    tests = manifest["tests"]
    lines = len((root / "pcfgset/test.src").read_text().splitlines())
    assert tests["task"]["sizes"] == {"train": 0, "dev": lines, "test": lines}
    assert tests["systematicity"]["meta"]["held_out_pairs"][0] == ["swap_first_last", "repeat"]
    assert set(tests) >= {"localism", "per_function", "overgeneralisation/ratio=0.001"}
    assert manifest["prediction_tree"]["localism"] == {
        "kind": "trace",
        "files": ["localism/run={run}.txt"],
    }
    pairs = (suite / "substitutivity/primitive/pairs.jsonl").read_text().splitlines()
    assert len(pairs) == len((root / "substitutivity/primitive/test.src").read_text().splitlines())


def test_import_errors_name_the_file(tiny: tuple[Path, Path], tmp_path: Path):
    root, _ = tiny
    broken = tmp_path / "pcfgset"
    shutil.copytree(root, broken)
    (broken / "productivity/test.tgt").unlink()
    code, output = run("suite", "import", "pcfg-set", broken, "--out", tmp_path / "s")
    assert code == 2 and "productivity/test.tgt: missing" in output
    shutil.copy(root / "productivity/test.tgt", broken / "productivity/test.tgt")
    lines = (broken / "systematicity/test.tgt").read_text().splitlines()
    lines[2] = "A1"
    (broken / "systematicity/test.tgt").write_text("\n".join(lines) + "\n")
    code, output = run("suite", "import", "pcfg-set", broken, "--out", tmp_path / "s")
    assert code == 2 and "systematicity/test.tgt:3: target 'A1' is not the meaning" in output
    code, output = run("suite", "import", "pcfg-let", broken, "--out", tmp_path / "s")
    assert code == 2 and "pcfg-let has no importer" in output and "pcfg-set (" in output


def write_tree(suite: Path, tree: Path, runs: tuple[str, ...], wrong: int = 3) -> None:
    """Prediction files for the task and systematicity tests, every ``wrong``-th one wrong."""
    manifest = json.loads((suite / "manifest.json").read_text())
    for name, folder in (("task", "pcfgset"), ("systematicity", "systematicity")):
        pool = [
            json.loads(line)
            for line in (suite / manifest["tests"][name]["pool"]).read_text().splitlines()
        ]
        test = pool[-manifest["tests"][name]["sizes"]["test"] :]
        for number in runs:
            lines = ["source\ttarget\tprediction"] + [
                f"{r['input']}\t{r['output']}\t{'X1' if i % wrong == 0 else r['output']}"
                for i, r in enumerate(test)
            ]
            path = tree / folder / f"run={number}.txt"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("\n".join(lines) + "\n")


def test_runs_of_a_tree_and_their_mean(tiny: tuple[Path, Path], tmp_path: Path):
    _, suite = tiny
    tree = tmp_path / "model"
    write_tree(suite, tree, ("1", "2"))
    (tree / "overgeneralisation").mkdir()
    for number, peak in (("1", 0.5), ("2", 1.0)):
        log = f"Epoch 1\nAdapted - Sequence Accuracy: 0.0\nOriginal - Sequence Accuracy: {peak}\n"
        (tree / f"overgeneralisation/prefix_ratio=0.001_run={number}.txt").write_text(log)
    scored = score_tree(suite, tree)
    mean = dict(scored["summary"][0]["tests"]["overgeneralisation/ratio=0.001"]["rows"])
    assert mean["peak overgen., pair-only exceptions (paper)"] == pytest.approx(0.75)
    task = dict(scored["summary"][0]["tests"]["task"]["rows"])
    size = json.loads((suite / "manifest.json").read_text())["tests"]["task"]["sizes"]["test"]
    assert task["accuracy (exact match)"] == pytest.approx(1 - len(range(0, size, 3)) / size)
    assert "localism" in scored["not_in_tree"]
    code, output = run("evaluate", suite, "--runs", tree)
    assert code == 0 and "run=2" in output and "mean" in output and "std" in output


def test_a_tree_with_a_missing_run_is_an_error(tiny: tuple[Path, Path], tmp_path: Path):
    _, suite = tiny
    tree = tmp_path / "model"
    write_tree(suite, tree, ("1", "2"))
    (tree / "systematicity/run=2.txt").unlink()
    code, output = run("evaluate", suite, "--runs", tree)
    assert code == 2 and "systematicity/run=2.txt: missing" in output


def test_a_trace_line_without_an_arrow_is_an_error(tiny: tuple[Path, Path], tmp_path: Path):
    _, suite = tiny
    tree = tmp_path / "model"
    (tree / "localism").mkdir(parents=True)
    (tree / "localism/run=1.txt").write_text("-----\ncopy A1 B1 -> A1 B1\ncopy A1 B1 A1 B1\nTrue\n")
    code, output = run("evaluate", suite, "--runs", tree)
    assert code == 2 and "localism/run=1.txt:3: expected `source -> prediction`" in output


def test_a_published_trace_is_scored_by_depth_and_step(tiny: tuple[Path, Path], tmp_path: Path):
    _, suite = tiny
    tree = tmp_path / "model"
    trace = (
        "-----\nshift A1 B1 -> B1 A1\nreverse B1 A1 -> A1 B1\nreverse shift A1 B1 -> A1 B1\nTrue\n"
        "-----\ncopy C1 -> C1\necho C1 -> C1 C1\nrepeat C1 C1 -> C1\n"
        "echo copy repeat C1 -> C1 C1 C1\nFalse\n"
    )
    (tree / "localism").mkdir(parents=True)
    (tree / "localism/run=1.txt").write_text(trace)
    result = score_tree(suite, tree, ["localism"])["runs"][0]["tests"]["localism"]["localism"]
    assert result["consistency"] == 0.5 and result["unrolled_accuracy"] == 0.5
    assert result["consistency_by_depth"] == {
        "2": {"n": 1, "accuracy": 1.0},
        "3": {"n": 1, "accuracy": 0.0},
    }
    assert result["local_accuracy_by_function"]["repeat"] == {"n": 1, "accuracy": 0.0}
    assert result["local_accuracy"] == pytest.approx(4 / 5)


# -- the published predictions in ../shared/peers -----------------------------------------------


@pytest.fixture(scope="module")
def peers_suite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from tests.conftest import PEERS

    if not PEERS.is_dir():
        pytest.skip("../shared/peers is not beside this checkout")
    root = from_peers(PEERS, tmp_path_factory.mktemp("peers") / "pcfgset")
    suite = root.parent / "suite"
    import_published(root, suite)
    return suite


@pytest.mark.slow
def test_transformer_run_1_from_the_cli_equals_the_authors_scripts(peers_suite: Path, peers: Path):
    """The authors' accuracy.py and consistency.py give 0.9070 (task) and 0.8952 (primitive
    substitutivity consistency) on run 1; Table 1 (three runs) reports 0.92 and 0.90."""
    tree = peers / "pcfgset_am_i_compositional/model_predictions/transformer"
    code, output = run("evaluate", peers_suite, "--runs", tree, "--json")
    assert code == 0
    [card] = json.loads(output)["runs"]
    assert round(card["tests"]["task"]["accuracy"], 4) == 0.9070
    primitive = card["tests"]["substitutivity/primitive"]
    assert round(primitive["consistency"], 4) == 0.8952
    assert round(primitive["accuracy_original"], 4) == 0.8889
    assert round(primitive["accuracy_synonym"], 4) == 0.8499
    assert abs(primitive["consistency"] - TABLE1["transformer"]["primitive"]) <= 0.01


@pytest.mark.slow
def test_line_order_does_not_matter_and_is_reported(peers_suite: Path, peers: Path, tmp_path: Path):
    published = peers / "pcfgset_am_i_compositional/model_predictions/transformer/pcfgset/run=1.txt"
    header, *lines = published.read_text(encoding="utf-8").splitlines()
    random.Random(0).shuffle(lines)  # as fairseq writes them: not in test order
    shuffled = tmp_path / "run=1.txt"
    shuffled.write_text("\n".join([header, *lines]) + "\n", encoding="utf-8")
    code, output = run("evaluate", peers_suite, "--predictions", shuffled, "--test", "task")
    assert code == 0 and "0.9070" in output and "matched by source text" in output


# -- the whole published tree (when a checkout of am-i-compositional is named) -----------------

AMIC = os.environ.get("SYMCOMP_AM_I_COMPOSITIONAL")


@pytest.mark.slow
@pytest.mark.skipif(
    not AMIC, reason="set SYMCOMP_AM_I_COMPOSITIONAL to a checkout of am-i-compositional"
)
def test_tables_1_and_2_of_the_paper_from_every_published_run(
    tmp_path_factory: pytest.TempPathFactory,
):
    root = Path(str(AMIC))
    suite = tmp_path_factory.mktemp("amic") / "suite"
    import_published(root / "data/pcfgset", suite)
    for model, expected in TABLE1.items():
        scored = score_tree(suite, root / "model_predictions" / model)
        mean = {name: dict(test["rows"]) for name, test in scored["summary"][0]["tests"].items()}
        got = {
            "task": mean["task"]["accuracy (exact match)"],
            "systematicity": mean["systematicity"]["accuracy (exact match)"],
            "productivity": mean["productivity"]["accuracy (exact match)"],
            "ed": mean["substitutivity/equally_distributed"]["consistency (equal, non-empty)"],
            "primitive": mean["substitutivity/primitive"]["consistency (equal, non-empty)"],
            "overgeneralisation": mean["overgeneralisation/ratio=0.001"][
                "peak overgen., pair-only exceptions (paper)"
            ],
        }
        if "localism" in expected:
            got["localism"] = mean["localism"]["consistency (unrolled = whole)"]
        for key, value in expected.items():
            assert abs(got[key] - value) <= 0.01, (model, key, got[key], value)
        for pair, value in zip(PAIRS, TABLE2[model], strict=True):
            found = mean["systematicity"][f"accuracy, held-out pair {pair}"]
            assert abs(found - value) <= 0.01, (model, pair, found, value)
