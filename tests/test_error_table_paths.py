"""Paths and places in errors, as a table: case, command, exit code, message fragment.

Two promises are checked here. No path read from a manifest, a split or a published folder
reaches outside its folder (``..``, absolute paths and symbolic links out are refused with exit
2, naming the file, the key and the value). And a message about a bad line names the file and
line that hold it: the ``.src`` file for a bad program, the ``.tgt`` file for a wrong target.
Every case must end with its exit code and a message holding the fragment (placeholders in
braces are fixture paths), never a traceback or the internal-error code 3.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from symcomp.cli import cli
from symcomp.languages.pcfg_set.published import import_published
from tests.published_pcfg_set import synthetic

N = 20  # programs per published test file: enough to import, quick to check


def invoke(*args: object) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["-q", *(str(a) for a in args)])
    return result.exit_code, result.output


def edit_lines(path: Path, change: Callable[[list[bytes]], list[bytes]]) -> None:
    """Rewrite a file's lines (bytes, without their newlines)."""
    lines = path.read_bytes().split(b"\n")[:-1]
    path.write_bytes(b"".join(line + b"\n" for line in change(lines)))


def replace_line(number: int, text: bytes) -> Callable[[list[bytes]], list[bytes]]:
    return lambda lines: [text if i == number else line for i, line in enumerate(lines, 1)]


def copy_ratio(ratio: str) -> Callable[[Path], None]:
    """A second set of overgeneralisation files, named with ``ratio``."""

    def change(folder: Path) -> None:
        base = folder / "overgeneralisation"
        for part in ("original.src", "original.tgt", "exception.tgt"):
            shutil.copy(
                base / f"test_pcfg_ratio=0.001_{part}", base / f"test_pcfg_ratio={ratio}_{part}"
            )

    return change


def link_out(relative: str) -> Callable[[Path], None]:
    """Replace a file or folder of the published folder by a link to a copy outside it."""

    def change(folder: Path) -> None:
        inside = folder / relative
        outside = folder.parent / f"outside-{folder.name}-{inside.name}"
        shutil.move(inside, outside)
        os.symlink(outside, inside)

    return change


def with_train(folder: Path) -> None:
    """Training files for the task, line 4 of train.src broken."""
    for end in ("src", "tgt"):
        shutil.copy(folder / f"pcfgset/test.{end}", folder / f"pcfgset/train.{end}")
    edit_lines(folder / "pcfgset/train.src", replace_line(4, b"copy"))


def with_overgeneralisation_train(folder: Path) -> None:
    base = folder / "overgeneralisation/train_pcfg_ratio=0.001"
    Path(f"{base}.src").write_text("reverse A1 B1\nbogus bogus\n")
    Path(f"{base}.tgt").write_text("B1 A1\nB1\n")


def blank_at_end(folder: Path, *names: str) -> None:
    for name in names:
        edit_lines(folder / name, lambda lines: [*lines, b""])


TEST_SRC = "pcfgset/test.src"
TEST_TGT = "pcfgset/test.tgt"
ORIGINAL_SRC = "overgeneralisation/test_pcfg_ratio=0.001_original.src"

# published folder variants: name -> how the copy of a sound folder is spoiled
PUBLISHED: dict[str, Callable[[Path], None]] = {
    "ratio-abc": copy_ratio("abc"),
    "ratio-nan": copy_ratio("nan"),
    "ratio-inf": copy_ratio("inf"),
    "ratio-negative": copy_ratio("-0.1"),
    "ratio-above-one": copy_ratio("2"),
    "link-file": link_out("systematicity/test.tgt"),
    "link-folder": link_out("productivity"),
    "src-unparsable": lambda f: edit_lines(f / TEST_SRC, replace_line(3, b"reverse reverse")),
    "src-nul": lambda f: edit_lines(f / TEST_SRC, replace_line(3, b"copy A1\x00 B1")),
    "src-bom": lambda f: edit_lines(f / TEST_SRC, lambda ls: [b"\xef\xbb\xbf" + ls[0], *ls[1:]]),
    "src-trailing-blank": lambda f: blank_at_end(f, TEST_SRC),
    "both-trailing-blank": lambda f: blank_at_end(f, TEST_SRC, TEST_TGT),
    "tgt-trailing-blank": lambda f: blank_at_end(f, TEST_TGT),
    "src-too-deep": lambda f: edit_lines(f / TEST_SRC, replace_line(2, b"copy " * 3000 + b"A1")),
    "tgt-wrong": lambda f: edit_lines(f / "systematicity/test.tgt", replace_line(3, b"A1")),
    "train-src": with_train,
    "twin-src": lambda f: edit_lines(
        f / "substitutivity/primitive/test_twin.src", replace_line(2, b"repeat_twin")
    ),
    "original-src": lambda f: edit_lines(f / ORIGINAL_SRC, replace_line(1, b"echo")),
    "overgeneralisation-train": with_overgeneralisation_train,
    "unrolled-binary": lambda f: edit_lines(
        f / "localism/unrolled_test.tsv", lambda _: [bytes(range(256)) * 4]
    ),
}


def write_predictions(suite: Path, path: Path, wrong: int) -> None:
    """A TSV prediction file for the task test, every ``wrong``-th prediction wrong."""
    test = task_records(suite)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        "".join(
            f"{r['input']}\t{r['output']}\t{'X1' if i % wrong == 0 else r['output']}\n"
            for i, r in enumerate(test)
        )
    )


def task_records(suite: Path) -> list[dict[str, object]]:
    """The records of the task test's test part."""
    manifest = json.loads((suite / "manifest.json").read_text())
    entry = manifest["tests"]["task"]
    pool = [json.loads(line) for line in (suite / entry["pool"]).read_text().splitlines()]
    return pool[-entry["sizes"]["test"] :]


# prediction_tree patterns a sender could write into a suite's manifest
PATTERNS: dict[str, object] = {
    "up": "../outside/run={run}.txt",
    "absolute": "/tmp/outside/run={run}.txt",
    "inner-up": "pcfgset/../../outside/run={run}.txt",
    "backslash": "pcfgset\\run={run}.txt",
    "nul": "pcfgset/run={run}\x00.txt",
    "dot": "./pcfgset/run={run}.txt",
    "empty-part": "pcfgset//run={run}.txt",
    "no-run": "pcfgset/run=1.txt",
    "run-twice": "pcfgset/run={run}_{run}.txt",
    "run-in-folder": "run={run}/predictions.txt",
    "star-in-folder": "*/run={run}.txt",
    "not-a-string": 5,
}

OVERSAMPLE: dict[str, object] = {
    "list": [1, 2],
    "string": "many",
    "many": {"0": "many"},
    "negative": {"0": -1},
    "zero": {"0": 0},
    "fraction": {"0": 2.5},
    "boolean": {"0": True},
    "key": {"x": 2},
    "not-train": {"1": 3},
}


@pytest.fixture(scope="module")
def paths(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Every fixture, by the name the table uses in braces."""
    root = tmp_path_factory.mktemp("paths")
    published = synthetic(root / "published", n=N)
    for name, spoil in PUBLISHED.items():
        folder = root / f"published-{name}"
        shutil.copytree(published, folder)
        spoil(folder)
    suite = root / "suite"
    import_published(published, suite)
    write_predictions(suite, root / "tree/pcfgset/run=1.txt", wrong=3)
    write_predictions(suite, root / "outside/run=1.txt", wrong=10**9)
    for name, pattern in PATTERNS.items():
        evil = root / f"suite-{name}"
        shutil.copytree(suite, evil)
        manifest = json.loads((evil / "manifest.json").read_text())
        manifest["prediction_tree"]["task"]["files"] = [pattern]
        (evil / "manifest.json").write_text(json.dumps(manifest))
    evil = root / "suite-no-files"
    shutil.copytree(suite, evil)
    manifest = json.loads((evil / "manifest.json").read_text())
    manifest["prediction_tree"]["task"]["files"] = []
    (evil / "manifest.json").write_text(json.dumps(manifest))
    evil = root / "suite-pool-inner-up"
    shutil.copytree(suite, evil)
    manifest = json.loads((evil / "manifest.json").read_text())
    manifest["tests"]["task"]["pool"] = "task/../task/examples.jsonl"
    (evil / "manifest.json").write_text(json.dumps(manifest))
    # trees: a file linked out, a folder linked out, two logs for one run, no runs at all
    (root / "tree-link-file/pcfgset").mkdir(parents=True)
    os.symlink(root / "outside/run=1.txt", root / "tree-link-file/pcfgset/run=1.txt")
    (root / "tree-link-folder").mkdir()
    os.symlink(root / "outside", root / "tree-link-folder/pcfgset")
    logs = root / "tree-two-logs/overgeneralisation"
    logs.mkdir(parents=True)
    for prefix in ("a", "b"):
        (logs / f"{prefix}_ratio=0.001_run=1.txt").write_text(
            "Epoch 1\nAdapted - Sequence Accuracy: 0.0\nOriginal - Sequence Accuracy: 0.5\n"
        )
    (root / "tree-empty").mkdir()
    # predictions: JSON lines with an upper-case extension, and JSON nested too deeply
    records = task_records(suite)
    lines = "".join(json.dumps({"id": r["id"], "prediction": r["output"]}) + "\n" for r in records)
    (root / "upper.JSONL").write_text(lines)
    (root / "upper-folder").mkdir()
    (root / "upper-folder/predictions.JSONL").write_text(lines)
    first = json.dumps({"id": records[0]["id"], "prediction": "A1"})
    (root / "deep.jsonl").write_text(f"{first}\n{'[' * 100_000}{']' * 100_000}\n")
    # a run set whose run folder is a link out of it
    runset = root / "runset-link"
    runset.mkdir()
    (root / "elsewhere-run").mkdir()
    (root / "elsewhere-run/config.json").write_text("{}")
    os.symlink(root / "elsewhere-run", runset / "task")
    (runset / "runs.json").write_text(
        json.dumps({"format": "symcomp-runs", "suite": str(suite), "runs": {"task": "task"}})
    )
    # splits whose meta.oversample is not a map of training indices to copy counts
    assert invoke("generate", "scan", "--n", 40, "--seed", 1, "--out", root / "pool")[0] == 0
    split = {"trainIdxs": [0, 2, 3, 4, 5, 6, 7, 8], "devIdxs": [], "testIdxs": [1, 9]}
    for name, value in OVERSAMPLE.items():
        (root / f"oversample-{name}.json").write_text(
            json.dumps({**split, "meta": {"oversample": value}})
        )
    (root / "plugin-exit.py").write_text("import sys\nsys.exit(5)\n")
    (root / "plugin-exit-none.py").write_text("raise SystemExit\n")
    found = {"root": str(root)}
    found.update({p.name: str(p) for p in root.iterdir()})
    return found


def import_cases() -> Iterator[tuple[str, tuple[str, ...], int, str]]:
    """``suite import pcfg-set`` on each spoilt folder: the file (and line) in the message."""
    expected = {
        "ratio-abc": "overgeneralisation/test_pcfg_ratio=abc_original.src: the ratio 'abc'",
        "ratio-nan": "overgeneralisation/test_pcfg_ratio=nan_original.src: the ratio 'nan'",
        "ratio-inf": "overgeneralisation/test_pcfg_ratio=inf_original.src: the ratio 'inf'",
        "ratio-negative": "test_pcfg_ratio=-0.1_original.src: the ratio '-0.1'",
        "ratio-above-one": "test_pcfg_ratio=2_original.src: the ratio '2' in its name is not",
        "link-file": "systematicity/test.tgt leads out of",
        "link-folder": "productivity/test.src leads out of",
        "src-unparsable": f"{TEST_SRC}:3: not valid pcfg-set input",
        "src-nul": f"{TEST_SRC}:3: not valid pcfg-set input: unexpected character '\\x00'",
        "src-bom": f"{TEST_SRC}:1: a byte-order mark",
        "src-trailing-blank": f"{TEST_SRC}:{N + 1}: a blank line",
        "both-trailing-blank": f"{TEST_SRC}:{N + 1}: a blank line",
        "tgt-trailing-blank": f"{TEST_TGT}:{N + 1}: no partner line",
        "src-too-deep": f"{TEST_SRC}:2: the program is nested too deeply",
        "tgt-wrong": "systematicity/test.tgt:3: target 'A1' is not the meaning",
        "train-src": "pcfgset/train.src:4: not valid pcfg-set input",
        "twin-src": "substitutivity/primitive/test_twin.src:2: not valid pcfg-set input",
        "original-src": f"{ORIGINAL_SRC}:1: not valid pcfg-set input",
        "overgeneralisation-train": "train_pcfg_ratio=0.001.src:2: not valid pcfg-set input",
        "unrolled-binary": "localism/unrolled_test.tsv:2: not UTF-8 text (byte 0x80)",
    }
    assert set(expected) == set(PUBLISHED)
    for name, fragment in expected.items():
        args = (
            "suite",
            "import",
            "pcfg-set",
            f"{{published-{name}}}",
            "--out",
            f"{{root}}/s-{name}",
        )
        yield f"import-{name}", args, 2, fragment


def runs_cases() -> Iterator[tuple[str, tuple[str, ...], int, str]]:
    """``evaluate --runs``: patterns from the manifest stay in the tree, files too."""
    key = "manifest.json: `prediction_tree.task.files[0]`"
    for name, pattern in PATTERNS.items():
        if name in {"no-run", "run-twice", "run-in-folder", "star-in-folder"}:
            fragment = f"{key} {pattern!r} is not a file pattern"
        elif name == "not-a-string":
            fragment = f"{key} must be a non-empty relative path, got 5"
        else:
            fragment = f"{key} {pattern!r} is not a path inside"
        args = ("evaluate", f"{{suite-{name}}}", "--runs", "{tree}", "--test", "task")
        yield f"runs-pattern-{name}", args, 2, fragment
    yield (
        "runs-pattern-none",
        ("evaluate", "{suite-no-files}", "--runs", "{tree}", "--test", "task"),
        2,
        "manifest.json: `prediction_tree.task` needs a kind (predictions, trace, epoch_log) and a "
        "non-empty list of files, got kind 'predictions' and files []",
    )
    for name in ("link-file", "link-folder"):
        yield (
            f"runs-{name}",
            ("evaluate", "{suite}", "--runs", f"{{tree-{name}}}", "--test", "task"),
            2,
            f"tree-{name}/pcfgset/run=1.txt leads out of {{tree-{name}}}",
        )
    yield (
        "runs-two-logs",
        ("evaluate", "{suite}", "--runs", "{tree-two-logs}"),
        2,
        "{tree-two-logs}/overgeneralisation/a_ratio=0.001_run=1.txt and "
        "{tree-two-logs}/overgeneralisation/b_ratio=0.001_run=1.txt both match",
    )
    yield (
        "runs-test-unknown",
        ("evaluate", "{suite}", "--runs", "{tree}", "--test", "nope"),
        2,
        "no test named 'nope'; tests: task, systematicity",
    )
    yield (
        "runs-test-not-in-tree",
        ("evaluate", "{suite}", "--runs", "{tree}", "--test", "per_function"),
        2,
        "test 'per_function' of {suite} has no files in a published tree",
    )
    yield (
        "runs-no-run",
        ("evaluate", "{suite}", "--runs", "{tree-empty}", "--test", "systematicity"),
        2,
        "holds no run of the test (expected files like systematicity/run={run}.txt",
    )
    yield (
        "runs-no-run-of-any-test",
        ("evaluate", "{suite}", "--runs", "{tree-empty}"),
        2,
        "holds no run of any test (expected files like pcfgset/run={run}.txt (task)",
    )


def other_cases() -> Iterator[tuple[str, tuple[str, ...], int, str]]:
    """Manifests, run sets, prediction files, splits and plugins."""
    yield (
        "evaluate-pool-inner-up",
        ("evaluate", "{suite-pool-inner-up}", "--model", "oracle", "--test", "task"),
        2,
        "manifest.json: pool 'task/../task/examples.jsonl' is not a path inside",
    )
    yield (
        "evaluate-runset-link",
        ("evaluate", "{suite}", "--model", "{runset-link}", "--test", "task"),
        2,
        "runs.json: run folder name 'task' is not a path inside {runset-link}",
    )
    for name in ("upper.JSONL", "upper-folder"):
        yield (
            f"predictions-{name}",
            ("evaluate", "{suite}", "--predictions", f"{{{name}}}", "--test", "task"),
            0,
            "1.0000",
        )
    yield (
        "predictions-too-deep",
        ("evaluate", "{suite}", "--predictions", "{deep.jsonl}", "--test", "task"),
        2,
        "deep.jsonl:2: JSON nested too deeply",
    )
    for name, value in OVERSAMPLE.items():
        split = f"oversample-{name}.json"
        if name in {"list", "string"}:
            fragment = f"{split}: meta.oversample must be an object"
        elif name == "key":
            fragment = f'{split}: meta.oversample key "x" is not an example index'
        elif name == "not-train":
            fragment = f"{split}: meta.oversample names example 1, which is not in trainIdxs"
        else:
            assert isinstance(value, dict)
            fragment = f'{split}: meta.oversample["0"] = {json.dumps(value["0"])} is not'
        yield (
            f"export-oversample-{name}",
            ("export", "{pool}", "--split", f"{{{split}}}", "--format", "tsv", "--out", "{root}/e"),
            2,
            fragment,
        )
        yield (
            f"from-splits-oversample-{name}",
            ("suite", "from-splits", "{pool}", f"{{{split}}}", "--out", "{root}/f"),
            2,
            fragment,
        )
    yield (
        "plugin-exit-5",
        ("--plugin", "{plugin-exit.py}", "languages"),
        2,
        "plugin-exit.py' called sys.exit(5) while being imported",
    )
    yield (
        "plugin-exit-none",
        ("--plugin", "{plugin-exit-none.py}", "languages"),
        2,
        "plugin-exit-none.py' called sys.exit(None) while being imported",
    )


CASES = [*import_cases(), *runs_cases(), *other_cases()]


def resolve(text: str, paths: dict[str, str]) -> str:
    """``text`` with each ``{name}`` of a fixture replaced by its path (others, such as
    ``{run}``, kept)."""
    return re.sub(r"\{([^{}]+)\}", lambda m: paths.get(m.group(1), m.group(0)), text)


def test_every_case_has_a_unique_name() -> None:
    assert len({case[0] for case in CASES}) == len(CASES) >= 60


@pytest.mark.parametrize(("case", "args", "code", "fragment"), CASES, ids=[c[0] for c in CASES])
def test_bad_path_or_place(
    paths: dict[str, str], case: str, args: tuple[str, ...], code: int, fragment: str
) -> None:
    found, output = invoke(*(resolve(arg, paths) for arg in args))
    assert "Traceback" not in output, output
    assert found == code, f"{case}: exit {found}, expected {code}: {output}"
    assert resolve(fragment, paths) in output, f"{case}: {fragment!r} not in: {output}"
    root = Path(paths["root"])
    assert not (root / "e").exists() and not (root / "f").exists()  # refused: nothing written
    assert not list(root.glob("s-*/manifest.json"))


def test_a_pattern_out_of_the_tree_reads_nothing_there(paths: dict[str, str]) -> None:
    """The file outside scores 1.0 and the tree's own 0.65: neither is printed."""
    code, output = invoke(
        "evaluate", paths["suite-up"], "--runs", paths["tree"], "--test", "task", "--json"
    )
    assert code == 2 and "1.0" not in output and "0.65" not in output
    code, output = invoke(
        "evaluate", paths["suite"], "--runs", paths["tree"], "--test", "task", "--json"
    )
    accuracy = json.loads(output)["runs"][0]["tests"]["task"]["accuracy"]
    assert code == 0 and accuracy == pytest.approx(1 - len(range(0, N, 3)) / N)
