"""Bad input on every command, as a table (lark's style): case, command, exit code, message.

Every case must end with its exit code (2 for bad usage or input, 0 where symcomp copes) and a
message holding the fragment, never with a traceback or the internal-error code 3. Fixtures are
generated: binary, Latin-1, empty, truncated, huge and deeply nested files, NUL bytes, JSON that
is not an object, traversal names in manifests, files where folders belong and existing outputs.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from symcomp._util import Record
from symcomp.cli import cli
from symcomp.suites.reading import Suite

BAD = {
    "binary": bytes(range(256)) * 8,
    "latin1": "walk caf\xe9\n".encode("latin-1"),
    "empty": b"",
    "truncated": b'{"id": "a", "input": "walk", "out',
    "huge": ("walk " * 300_000 + "\n").encode(),
    "deep": ("[" * 5000 + "]" * 5000 + "\n").encode(),
    "array": b"[1, 2, 3]\n",
    "nul": b"walk\x00twice\n",
}
TRAVERSALS = {
    "parent": "../../../../escaped/PWNED",
    "absolute": "/tmp/absolute-test-name",
    "inner-parent": "simple/../../..",
    "backslash": "a\\..\\..\\b",
    "nul": "nul\x00byte",
    "dotdot": "..",
    "empty": "",
}


def invoke(*args: object) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["-q", *(str(a) for a in args)])
    return result.exit_code, result.output


@pytest.fixture(scope="module")
def paths(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Every fixture, by the name the table uses in braces."""
    root = tmp_path_factory.mktemp("errors")
    found: dict[str, str] = {"root": str(root)}
    for kind, data in BAD.items():
        (root / f"{kind}.dat").write_bytes(data)
        pool = root / f"pool-{kind}"
        pool.mkdir()
        (pool / "examples.jsonl").write_bytes(data)
        (pool / "manifest.json").write_text(json.dumps({"language": "scan", "files": {}}))
    assert invoke("generate", "scan", "--n", 60, "--seed", 1, "--out", root / "pool")[0] == 0
    assert invoke("generate", "pcfg-set", "--n", 60, "--seed", 1, "--out", root / "pcfg")[0] == 0
    assert invoke("split", "random", root / "pool", "--out", root / "split.json")[0] == 0
    assert invoke("split", "random", root / "pcfg", "--out", root / "pcfg-split.json")[0] == 0
    assert invoke("suite", "scan", "--out", root / "suite", "--no-export")[0] == 0
    edited = Path(shutil.copytree(root / "pool", root / "edited-pool"))
    assert invoke("split", "random", edited, "--out", root / "edited-split.json")[0] == 0
    lines = (edited / "examples.jsonl").read_text().splitlines(keepends=True)
    (edited / "examples.jsonl").write_text("".join([lines[1], lines[0], *lines[2:]]))
    (root / "range.json").write_text(json.dumps({"trainIdxs": [0, 999], "testIdxs": [1]}))
    (root / "no-test.json").write_text(json.dumps({"trainIdxs": [0, 1], "testIdxs": []}))
    (root / "no-test-key.json").write_text(json.dumps({"trainIdxs": [0, 1]}))
    (root / "unknown-key.toml").write_text(
        "[generate]\nsede = 3\n[split]\nsede = 3\n[train]\nsede = 3\n[evaluate]\nsede = 3\n"
    )
    (root / "unknown-table.toml").write_text("[genrate]\nn = 3\n")
    (root / "top-key.toml").write_text("seed = 3\n")
    (root / "broken.toml").write_text("[generate\n")
    (root / "list.toml").write_text("[generate]\nseed = [1, 2]\n")
    (root / "file").write_text("a file where a folder belongs\n")
    mine = root / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("the user's own file\n")
    (root / "foreign-pool").mkdir()
    (root / "foreign-pool" / "examples.jsonl").write_text("my data\n")
    (root / "foreign-export").mkdir()
    (root / "foreign-export" / "examples.tsv").write_text("my\tdata\n")
    (root / "no-examples").mkdir()
    (root / "model.py").write_text(
        "def broken(inputs):\n    raise ZeroDivisionError('boom')\n\n"
        "def short(inputs):\n    return inputs[:-1]\n\nnot_callable = 3\n"
    )
    (root / "plugin.py").write_text("raise RuntimeError('the plugin fails')\n")
    write_predictions(root, Suite.read(root / "suite").test("simple").test)
    for case, name in TRAVERSALS.items():
        suite = root / f"suite-{case}"
        shutil.copytree(root / "suite", suite)
        manifest = json.loads((suite / "manifest.json").read_text())
        manifest["tests"] = {
            (name if k == "simple" else k): v for k, v in manifest["tests"].items()
        }
        (suite / "manifest.json").write_text(json.dumps(manifest))
        found[f"suite-{case}"] = str(suite)
    for case, value in {"absolute": "/etc/passwd", "up": "../../../../etc/passwd"}.items():
        suite = root / f"suite-pool-{case}"
        shutil.copytree(root / "suite", suite)
        manifest = json.loads((suite / "manifest.json").read_text())
        manifest["tests"]["simple"]["pool"] = value
        (suite / "manifest.json").write_text(json.dumps(manifest))
        found[f"suite-pool-{case}"] = str(suite)
    found.update({p.name: str(p) for p in root.iterdir() if p.name not in found})
    return found


# a prediction that is not a string is refused (never scored as its Python text, "None");
# an empty string is a prediction, a wrong one
PREDICTION_VALUES = {
    "null": None,
    "number": 7,
    "bool": True,
    "array": ["JUMP"],
    "object": {"text": "JUMP"},
    "empty": "",
}


def write_predictions(root: Path, records: list[Record]) -> None:
    """``<kind>-prediction.jsonl``: the right prediction for every input of a test, but
    the second line's is ``PREDICTION_VALUES[kind]``."""
    for kind, value in PREDICTION_VALUES.items():
        rows = [{"id": r["id"], "prediction": r["output"]} for r in records]
        rows[1]["prediction"] = value
        lines = "".join(json.dumps(row) + "\n" for row in rows)
        (root / f"{kind}-prediction.jsonl").write_text(lines)


def file_matrix() -> Iterator[tuple[str, tuple[str, ...], int, str]]:
    """Each bad kind of file fed to every command that reads one."""
    for kind in BAD:
        f, pool = f"{{root}}/{kind}.dat", f"{{root}}/pool-{kind}"
        yield f"stats-file-{kind}", ("stats", f), 2, f"{kind}.dat"
        yield f"stats-pool-{kind}", ("stats", pool), 2, f"pool-{kind}"
        yield (
            f"export-{kind}",
            ("export", pool, "--format", "tsv", "--out", f"{{root}}/x-{kind}"),
            2,
            f"pool-{kind}",
        )
        yield f"divergence-split-{kind}", ("divergence", "{pool}", f), 2, f"{kind}.dat"
        yield f"divergence-pool-{kind}", ("divergence", pool, "{split.json}"), 2, f"pool-{kind}"
        yield (
            f"split-random-{kind}",
            ("split", "random", pool, "--out", f"{{root}}/r-{kind}.json"),
            2,
            f"pool-{kind}",
        )
        yield (
            f"split-dbca-{kind}",
            ("split", "dbca", pool, "--rounds", "0", "--out", f"{{root}}/d-{kind}.json"),
            2,
            f"pool-{kind}",
        )
        yield (
            f"predictions-{kind}",
            ("evaluate", "{suite}", "--predictions", f, "--test", "simple"),
            2,
            f"{kind}.dat",
        )
        yield (
            f"target-{kind}",
            (
                "generate",
                "pcfg-set",
                "--n",
                "20",
                "--naturalize",
                "--target",
                f,
                "--out",
                f"{{root}}/g-{kind}",
            ),
            2,
            f"{kind}.dat",
        )
        code = 0 if kind == "empty" else 2
        yield (
            f"interpret-file-{kind}",
            ("interpret", "scan", "--file", f),
            code,
            "" if code == 0 else f"{kind}.dat",
        )


MISSING = [
    ("missing-stats", ("stats", "{root}/nowhere"), 2, "does not exist"),
    ("missing-export", ("export", "{root}/nowhere", "--format", "tsv"), 2, "does not exist"),
    (
        "missing-divergence-pool",
        ("divergence", "{root}/nowhere", "{split.json}"),
        2,
        "does not exist",
    ),
    (
        "missing-divergence-split",
        ("divergence", "{pool}", "{root}/nowhere.json"),
        2,
        "does not exist",
    ),
    (
        "missing-split-random",
        ("split", "random", "{root}/nowhere", "--out", "{root}/s.json"),
        2,
        "does not exist",
    ),
    (
        "missing-split-length",
        ("split", "length", "{root}/nowhere", "--out", "{root}/s.json"),
        2,
        "does not exist",
    ),
    (
        "missing-split-pattern",
        ("split", "pattern", "{root}/nowhere", "--out", "{root}/s.json"),
        2,
        "does not exist",
    ),
    (
        "missing-split-dbca",
        ("split", "dbca", "{root}/nowhere", "--out", "{root}/s.json"),
        2,
        "does not exist",
    ),
    ("missing-evaluate", ("evaluate", "{root}/nowhere", "--model", "oracle"), 2, "does not exist"),
    ("missing-verify", ("verify", "{root}/nowhere"), 2, "no such file"),
    (
        "missing-train",
        ("train", "{root}/nowhere", "--model", "bow", "--out", "{root}/t"),
        2,
        "does not exist",
    ),
    (
        "missing-interpret-file",
        ("interpret", "scan", "--file", "{root}/nowhere"),
        2,
        "No such file",
    ),
    (
        "missing-target",
        (
            "generate",
            "pcfg-set",
            "--n",
            "5",
            "--naturalize",
            "--target",
            "{root}/nowhere",
            "--out",
            "{root}/g",
        ),
        2,
        "No such file",
    ),
    (
        "missing-predictions",
        ("evaluate", "{suite}", "--predictions", "{root}/nowhere"),
        2,
        "does not exist",
    ),
    (
        "missing-monotonicity-pool",
        ("suite", "monotonicity", "--pool", "{root}/nowhere", "--out", "{root}/m"),
        2,
        "nowhere",
    ),
]

USAGE = [
    # generate
    (
        "generate-unknown-language",
        ("generate", "scna", "--n", "5", "--out", "{root}/g"),
        2,
        "did you mean 'scan'",
    ),
    ("generate-n-zero", ("generate", "scan", "--n", "0", "--out", "{root}/g"), 2, "--n"),
    (
        "generate-n-and-all",
        ("generate", "scan", "--n", "5", "--all", "--out", "{root}/g"),
        2,
        "either --n",
    ),
    ("generate-neither", ("generate", "scan", "--out", "{root}/g"), 2, "either --n"),
    (
        "generate-negative-seed",
        ("generate", "scan", "--n", "5", "--seed", "-1", "--out", "{root}/g"),
        2,
        "--seed",
    ),
    (
        "generate-target-alone",
        ("generate", "scan", "--n", "5", "--target", "{split.json}", "--out", "{root}/g"),
        2,
        "--naturalize",
    ),
    (
        "generate-no-default-target",
        ("generate", "scan", "--n", "5", "--naturalize", "--out", "{root}/g"),
        2,
        "--target",
    ),
    ("generate-too-many", ("generate", "scan", "--n", "30000", "--out", "{root}/g"), 2, "20,910"),
    (
        "generate-depth-zero",
        ("generate", "scan", "--n", "5", "--max-depth", "0", "--out", "{root}/g"),
        2,
        "--max-depth",
    ),
    (
        "generate-jobs-zero",
        ("generate", "scan", "--n", "5", "--jobs", "0", "--out", "{root}/g"),
        2,
        "--jobs",
    ),
    (
        "generate-bad-executor",
        ("generate", "scan", "--n", "5", "--executor", "spark", "--out", "{root}/g"),
        2,
        "--executor",
    ),
    (
        "generate-address-locally",
        ("generate", "scan", "--n", "5", "--address", "x:1", "--out", "{root}/g"),
        2,
        "--executor ray",
    ),
    ("generate-out-is-file", ("generate", "scan", "--n", "5", "--out", "{file}"), 2, "is a file"),
    (
        "generate-foreign-pool",
        ("generate", "scan", "--n", "5", "--out", "{foreign-pool}", "--overwrite"),
        2,
        "did not write",
    ),
    ("generate-existing", ("generate", "scan", "--n", "5", "--out", "{pool}"), 2, "--overwrite"),
    ("generate-plugin-raises", ("--plugin", "{plugin.py}", "languages"), 2, "the plugin fails"),
    (
        "generate-plugin-missing",
        ("--plugin", "{root}/none.py", "languages"),
        2,
        "cannot load plugin",
    ),
    # interpret
    ("interpret-unknown-language", ("interpret", "scna", "walk"), 2, "did you mean 'scan'"),
    ("interpret-neither", ("interpret", "scan"), 2, "either TEXT or --file"),
    (
        "interpret-both",
        ("interpret", "scan", "walk", "--file", "{split.json}"),
        2,
        "either TEXT or --file",
    ),
    ("interpret-unparsable", ("interpret", "scan", "walk walk"), 2, "^"),
    ("interpret-deep", ("interpret", "pcfg-set", "copy " * 3000 + "A1 B2"), 2, "nested too deeply"),
    *(
        (
            f"predictions-{kind}-value",
            (
                "evaluate",
                "{suite}",
                "--predictions",
                f"{{{kind}-prediction.jsonl}}",
                "--test",
                "simple",
            ),
            0 if kind == "empty" else 2,
            "" if kind == "empty" else f'{kind}-prediction.jsonl:2: "prediction" must be a string',
        )
        for kind in PREDICTION_VALUES
    ),
    # stats, export
    ("stats-no-examples", ("stats", "{no-examples}"), 2, "no examples.jsonl"),
    ("export-bad-format", ("export", "{pool}", "--format", "csv"), 2, "--format"),
    (
        "export-out-is-file",
        ("export", "{pool}", "--format", "tsv", "--out", "{file}"),
        2,
        "is a file",
    ),
    (
        "export-foreign",
        ("export", "{pool}", "--format", "tsv", "--out", "{foreign-export}"),
        2,
        "did not write",
    ),
    # split
    (
        "split-train-frac",
        ("split", "random", "{pool}", "--train-frac", "1.5", "--out", "{root}/s.json"),
        2,
        "--train-frac",
    ),
    (
        "split-fractions-sum",
        (
            "split",
            "random",
            "{pool}",
            "--train-frac",
            "0.8",
            "--test-frac",
            "0.5",
            "--out",
            "{root}/s.json",
        ),
        2,
        "exceeds 1",
    ),
    (
        "split-empty-test",
        (
            "split",
            "random",
            "{pool}",
            "--train-frac",
            "0.9",
            "--test-frac",
            "0",
            "--out",
            "{root}/s.json",
        ),
        2,
        "at least one",
    ),
    (
        "split-over-notes",
        ("split", "random", "{pool}", "--out", "{mine}/notes.txt", "--overwrite"),
        2,
        "not a split file",
    ),
    ("split-existing", ("split", "random", "{pool}", "--out", "{split.json}"), 2, "--overwrite"),
    (
        "split-folder-missing",
        ("split", "random", "{pool}", "--out", "{root}/no/such/s.json"),
        2,
        "does not exist",
    ),
    (
        "split-length-by",
        ("split", "length", "{pool}", "--by", "size", "--out", "{root}/s.json"),
        2,
        "--by",
    ),
    (
        "split-target-dc-high",
        ("split", "dbca", "{pool}", "--target-dc", "2", "--out", "{root}/s.json"),
        2,
        "--target-dc",
    ),
    (
        "split-target-dc-word",
        ("split", "dbca", "{pool}", "--target-dc", "most", "--out", "{root}/s.json"),
        2,
        "--target-dc",
    ),
    (
        "split-max-da",
        ("split", "dbca", "{pool}", "--max-da", "-1", "--out", "{root}/s.json"),
        2,
        "--max-da",
    ),
    (
        "split-time-limit",
        ("split", "dbca", "{pool}", "--time-limit", "-5", "--out", "{root}/s.json"),
        2,
        "--time-limit",
    ),
    (
        "split-candidates",
        ("split", "dbca", "{pool}", "--candidates", "0", "--out", "{root}/s.json"),
        2,
        "--candidates",
    ),
    (
        "split-rounds",
        ("split", "dbca", "{pool}", "--rounds", "-1", "--out", "{root}/s.json"),
        2,
        "--rounds",
    ),
    (
        "split-method",
        ("split", "dbca", "{pool}", "--method", "anneal", "--out", "{root}/s.json"),
        2,
        "--method",
    ),
    (
        "split-seeding",
        ("split", "dbca", "{pool}", "--seeding", "maybe", "--out", "{root}/s.json"),
        2,
        "--seeding",
    ),
    (
        "split-compounds",
        ("split", "dbca", "{pool}", "--compounds", "trees", "--out", "{root}/s.json"),
        2,
        "--compounds",
    ),
    (
        "split-weighting",
        ("split", "dbca", "{pool}", "--weighting", "tfidf", "--out", "{root}/s.json"),
        2,
        "--weighting",
    ),
    (
        "split-max-nodes",
        ("split", "dbca", "{pool}", "--max-nodes", "0", "--out", "{root}/s.json"),
        2,
        "--max-nodes",
    ),
    (
        "split-seed",
        ("split", "dbca", "{pool}", "--seed", "-3", "--out", "{root}/s.json"),
        2,
        "--seed",
    ),
    (
        "split-pairs-pool",
        ("split", "dbca", "{pool-array}", "--out", "{root}/s.json"),
        2,
        "pool-array",
    ),
    # divergence
    ("divergence-out-of-range", ("divergence", "{pool}", "{range.json}"), 2, "outside the pool"),
    ("divergence-other-pool", ("divergence", "{pcfg}", "{split.json}"), 2, "another pool"),
    ("divergence-empty-test", ("divergence", "{pool}", "{no-test.json}"), 2, "empty test part"),
    # suite
    ("suite-no-suite", ("suite", "cfq", "--out", "{root}/c"), 2, "No such command"),
    ("suite-unknown", ("suite", "scna", "--out", "{root}/c"), 2, "No such command"),
    (
        "suite-pcfg-small-n",
        ("suite", "pcfg-set", "--n", "50", "--out", "{root}/p"),
        2,
        "--n must be at least 100",
    ),
    (
        "suite-pcfg-unknown-function",
        ("suite", "pcfg-set", "--pairs", "append frobnicate", "--out", "{root}/p"),
        2,
        "frobnicate",
    ),
    (
        "suite-pcfg-one-word-pair",
        ("suite", "pcfg-set", "--pairs", "append", "--out", "{root}/p"),
        2,
        "two function names",
    ),
    (
        "suite-pcfg-three-word-pair",
        ("suite", "pcfg-set", "--pairs", "append copy echo", "--out", "{root}/p"),
        2,
        "two function names",
    ),
    (
        "suite-pcfg-threshold",
        ("suite", "pcfg-set", "--threshold", "0", "--out", "{root}/p"),
        2,
        "--threshold",
    ),
    (
        "suite-pcfg-threshold-above-the-pool",
        ("suite", "pcfg-set", "--n", "300", "--threshold", "1000", "--out", "{root}/p"),
        2,
        "leaves the productivity test empty",
    ),
    (
        "suite-pcfg-per-function",
        ("suite", "pcfg-set", "--per-function", "0", "--out", "{root}/p"),
        2,
        "--per-function",
    ),
    (
        "suite-let-vocabulary",
        ("suite", "pcfg-let", "--vocabulary", "5", "--out", "{root}/p"),
        2,
        "--vocabulary",
    ),
    (
        "suite-coba-in-domain",
        ("suite", "arithmetic", "--in-domain", "5", "--out", "{root}/p"),
        2,
        "--in-domain",
    ),
    (
        "suite-nli-protocol",
        ("suite", "monotonicity", "--protocol", "V", "--out", "{root}/p"),
        2,
        "--protocol",
    ),
    (
        "suite-nli-anchor",
        ("suite", "monotonicity", "--anchor", "r9", "--out", "{root}/p"),
        2,
        "--anchor",
    ),
    (
        "suite-nli-depth",
        ("suite", "monotonicity", "--max-depth", "12", "--out", "{root}/p"),
        2,
        "--max-depth",
    ),
    ("suite-nli-n", ("suite", "monotonicity", "--n", "1", "--out", "{root}/p"), 2, "--n"),
    ("suite-scan-seed", ("suite", "scan", "--seed", "-1", "--out", "{root}/p"), 2, "--seed"),
    ("suite-foreign", ("suite", "scan", "--out", "{mine}", "--overwrite"), 2, "notes.txt"),
    ("suite-out-is-file", ("suite", "scan", "--out", "{file}"), 2, "is a file"),
    ("suite-existing", ("suite", "scan", "--out", "{suite}", "--no-export"), 2, "--overwrite"),
    # evaluate
    ("evaluate-nothing", ("evaluate", "{suite}"), 2, "give one of --model"),
    (
        "evaluate-both",
        ("evaluate", "{suite}", "--model", "oracle", "--predictions", "{split.json}"),
        2,
        "give one of --model",
    ),
    ("evaluate-unknown-model", ("evaluate", "{suite}", "--model", "orcale"), 2, "unknown model"),
    (
        "evaluate-no-attribute",
        ("evaluate", "{suite}", "--model", "{model.py}:missing"),
        2,
        "no attribute",
    ),
    (
        "evaluate-not-callable",
        ("evaluate", "{suite}", "--model", "{model.py}:not_callable"),
        2,
        "neither callable",
    ),
    (
        "evaluate-model-raises",
        ("evaluate", "{suite}", "--model", "{model.py}:broken", "--test", "simple"),
        2,
        "raised ZeroDivisionError",
    ),
    (
        "evaluate-model-short",
        ("evaluate", "{suite}", "--model", "{model.py}:short", "--test", "simple"),
        2,
        "predictions for",
    ),
    (
        "evaluate-missing-module",
        ("evaluate", "{suite}", "--model", "no_such_module:f"),
        2,
        "cannot load model",
    ),
    (
        "evaluate-unknown-test",
        ("evaluate", "{suite}", "--model", "oracle", "--test", "simpel"),
        2,
        "no test named",
    ),
    ("evaluate-pool", ("evaluate", "{pool}", "--model", "oracle"), 2, "not a suite"),
    (
        "evaluate-threads",
        ("evaluate", "{suite}", "--model", "oracle", "--threads", "0"),
        2,
        "--threads",
    ),
    ("evaluate-not-a-run", ("evaluate", "{suite}", "--model", "{mine}"), 2, "not a symcomp run"),
    (
        "evaluate-pool-absolute",
        ("evaluate", "{suite-pool-absolute}", "--model", "oracle"),
        2,
        "not a path inside",
    ),
    (
        "evaluate-pool-up",
        ("evaluate", "{suite-pool-up}", "--model", "oracle"),
        2,
        "not a path inside",
    ),
    # verify
    ("verify-unknown-language", ("verify", "{pool}", "--language", "scna"), 2, "did you mean"),
    ("verify-no-language", ("verify", "{mine}/notes.txt"), 2, "which language"),
    ("verify-bad-format", ("verify", "{pool}", "--format", "xml"), 2, "--format"),
    # train
    (
        "train-model",
        ("train", "{suite}/simple", "--model", "gpt", "--out", "{root}/t"),
        2,
        "--model",
    ),
    (
        "train-preset",
        ("train", "{suite}/simple", "--model", "bow", "--preset", "huge", "--out", "{root}/t"),
        2,
        "no preset",
    ),
    (
        "train-set-key",
        ("train", "{suite}/simple", "--model", "lstms2s", "--set", "hiden=3", "--out", "{root}/t"),
        2,
        "did you mean 'hidden'",
    ),
    (
        "train-set-type",
        (
            "train",
            "{suite}/simple",
            "--model",
            "lstms2s",
            "--set",
            "beam=wide",
            "--out",
            "{root}/t",
        ),
        2,
        "not a int",
    ),
    (
        "train-set-no-equals",
        ("train", "{suite}/simple", "--model", "lstms2s", "--set", "beam", "--out", "{root}/t"),
        2,
        "key=value",
    ),
    (
        "train-lr-nan",
        ("train", "{suite}/simple", "--model", "lstms2s", "--set", "lr=nan", "--out", "{root}/t"),
        2,
        "finite",
    ),
    (
        "train-batch-zero",
        (
            "train",
            "{suite}/simple",
            "--model",
            "lstms2s",
            "--set",
            "batch_size=0",
            "--out",
            "{root}/t",
        ),
        2,
        "at least 1",
    ),
    (
        "train-epochs-negative",
        (
            "train",
            "{suite}/simple",
            "--model",
            "lstms2s",
            "--set",
            "epochs=-1",
            "--out",
            "{root}/t",
        ),
        2,
        "at least 1",
    ),
    (
        "train-dropout",
        (
            "train",
            "{suite}/simple",
            "--model",
            "lstms2s",
            "--set",
            "dropout=2",
            "--out",
            "{root}/t",
        ),
        2,
        "[0, 1)",
    ),
    (
        "train-classifier-on-sequences",
        ("train", "{suite}/simple", "--model", "bow", "--out", "{root}/t"),
        2,
        "sequence outputs",
    ),
    (
        "train-resume-nothing",
        ("train", "{suite}/simple", "--model", "lstms2s", "--resume", "--out", "{mine}"),
        2,
        "not a run",
    ),
    (
        "train-foreign",
        ("train", "{suite}/simple", "--model", "lstms2s", "--out", "{mine}", "--overwrite"),
        2,
        "notes.txt",
    ),
    (
        "train-out-is-file",
        ("train", "{suite}/simple", "--model", "lstms2s", "--out", "{file}"),
        2,
        "is a file",
    ),
    (
        "train-not-a-test",
        ("train", "{pool}", "--model", "lstms2s", "--out", "{root}/t"),
        2,
        "not inside a suite",
    ),
    (
        "train-no-gpu",
        ("train", "{suite}/simple", "--model", "lstms2s", "--device", "cuda", "--out", "{root}/t"),
        2,
        "CUDA",
    ),
    # reproduce
    ("reproduce-paper", ("reproduce", "keysers2021"), 2, "Invalid value"),
    ("reproduce-scale", ("reproduce", "coba", "--scale", "huge"), 2, "--scale"),
    ("reproduce-seed", ("reproduce", "coba", "--seed", "-1"), 2, "--seed"),
]

SPLITS_AND_CONFIG = [
    # export --split, export of a suite, suite from-splits
    (
        "export-split-other-pool",
        ("export", "{pool}", "--split", "{pcfg-split.json}", "--format", "hf", "--out", "{root}/e"),
        2,
        "made for another pool",
    ),
    (
        "export-split-edited-pool",
        (
            "export",
            "{edited-pool}",
            "--split",
            "{edited-split.json}",
            "--format",
            "hf",
            "--out",
            "{root}/e",
        ),
        2,
        "edited-pool/examples.jsonl has changed since",
    ),
    (
        "divergence-edited-pool",
        ("divergence", "{edited-pool}", "{edited-split.json}"),
        2,
        "edited-pool/examples.jsonl has changed since",
    ),
    (
        "from-splits-edited-pool",
        ("suite", "from-splits", "{edited-pool}", "{edited-split.json}", "--out", "{root}/fs"),
        2,
        "edited-pool/examples.jsonl has changed since",
    ),
    (
        "export-split-empty-part",
        ("export", "{pool}", "--split", "{no-test.json}", "--format", "tsv", "--out", "{root}/e"),
        2,
        "empty test part",
    ),
    (
        "export-split-missing-part",
        (
            "export",
            "{pool}",
            "--split",
            "{no-test-key.json}",
            "--format",
            "tsv",
            "--out",
            "{root}/e",
        ),
        2,
        "missing testIdxs",
    ),
    (
        "export-split-out-of-range",
        (
            "export",
            "{pool}",
            "--split",
            "{range.json}",
            "--format",
            "genbench",
            "--out",
            "{root}/e",
        ),
        2,
        "outside the pool",
    ),
    (
        "export-split-missing-file",
        ("export", "{pool}", "--split", "{root}/nowhere.json", "--format", "tsv"),
        2,
        "does not exist",
    ),
    (
        "export-split-binary",
        ("export", "{pool}", "--split", "{binary.dat}", "--format", "tsv", "--out", "{root}/e"),
        2,
        "binary.dat",
    ),
    (
        "export-split-twice",
        (
            "export",
            "{pool}",
            "--split",
            "{split.json}",
            "--split",
            "{split.json}",
            "--format",
            "tsv",
            "--out",
            "{root}/e",
        ),
        2,
        "two splits are named split",
    ),
    (
        "export-suite-with-split",
        ("export", "{suite}", "--split", "{split.json}", "--format", "tsv", "--out", "{root}/e"),
        2,
        "is a suite",
    ),
    (
        "export-test-of-a-pool",
        ("export", "{pool}", "--test", "simple", "--format", "tsv", "--out", "{root}/e"),
        2,
        "is not a suite",
    ),
    (
        "export-unknown-test",
        ("export", "{suite}", "--test", "nope", "--format", "hf", "--out", "{root}/e"),
        2,
        "no test named 'nope'",
    ),
    ("export-unknown-format", ("export", "{pool}", "--format", "csv"), 2, "Invalid value"),
    (
        "from-splits-other-pool",
        ("suite", "from-splits", "{pool}", "{pcfg-split.json}", "--out", "{root}/fs"),
        2,
        "made for another pool",
    ),
    (
        "from-splits-empty-part",
        ("suite", "from-splits", "{pool}", "{no-test.json}", "--out", "{root}/fs"),
        2,
        "empty test part",
    ),
    (
        "from-splits-missing-part",
        ("suite", "from-splits", "{pool}", "{no-test-key.json}", "--out", "{root}/fs"),
        2,
        "missing testIdxs",
    ),
    (
        "from-splits-out-of-range",
        ("suite", "from-splits", "{pool}", "{range.json}", "--out", "{root}/fs"),
        2,
        "outside the pool",
    ),
    (
        "from-splits-no-split",
        ("suite", "from-splits", "{pool}", "--out", "{root}/fs"),
        2,
        "Missing argument",
    ),
    (
        "from-splits-missing-pool",
        ("suite", "from-splits", "{root}/nowhere", "{split.json}", "--out", "{root}/fs"),
        2,
        "does not exist",
    ),
    (
        "from-splits-missing-split",
        ("suite", "from-splits", "{pool}", "{root}/nowhere.json", "--out", "{root}/fs"),
        2,
        "does not exist",
    ),
    (
        "from-splits-binary-split",
        ("suite", "from-splits", "{pool}", "{binary.dat}", "--out", "{root}/fs"),
        2,
        "binary.dat",
    ),
    (
        "from-splits-into-a-file",
        ("suite", "from-splits", "{pool}", "{split.json}", "--out", "{file}"),
        2,
        "is a file",
    ),
    (
        "from-splits-into-foreign-folder",
        ("suite", "from-splits", "{pool}", "{split.json}", "--out", "{mine}"),
        2,
        "not part of a symcomp suite",
    ),
    (
        "from-splits-kind",
        ("suite", "from-splits", "{pool}", "{split.json}", "--kind", "bleu", "--out", "{root}/fs"),
        2,
        "Invalid value",
    ),
    # --config run.toml
    (
        "config-generate-unknown-key",
        ("generate", "scan", "--config", "{unknown-key.toml}", "--out", "{root}/g"),
        2,
        "unknown key 'sede' in [generate]",
    ),
    (
        "config-split-unknown-key",
        ("split", "random", "{pool}", "--config", "{unknown-key.toml}", "--out", "{root}/s.json"),
        2,
        "unknown key 'sede' in [split]",
    ),
    (
        "config-train-unknown-key",
        (
            "train",
            "{suite}/simple",
            "--model",
            "bow",
            "--config",
            "{unknown-key.toml}",
            "--out",
            "{root}/t",
        ),
        2,
        "unknown key 'sede' in [train]",
    ),
    (
        "config-evaluate-unknown-key",
        ("evaluate", "{suite}", "--config", "{unknown-key.toml}"),
        2,
        "unknown key 'sede' in [evaluate]",
    ),
    (
        "config-unknown-table",
        ("generate", "scan", "--config", "{unknown-table.toml}", "--out", "{root}/g"),
        2,
        "unknown table 'genrate'",
    ),
    (
        "config-top-level-key",
        ("generate", "scan", "--config", "{top-key.toml}", "--out", "{root}/g"),
        2,
        "unknown key 'seed' at the top level",
    ),
    (
        "config-not-toml",
        ("generate", "scan", "--config", "{broken.toml}", "--out", "{root}/g"),
        2,
        "not valid TOML",
    ),
    (
        "config-binary",
        ("generate", "scan", "--config", "{binary.dat}", "--out", "{root}/g"),
        2,
        "binary.dat",
    ),
    (
        "config-missing",
        ("generate", "scan", "--config", "{root}/nowhere.toml", "--out", "{root}/g"),
        2,
        "nowhere.toml",
    ),
    (
        "config-list-for-one-value",
        ("generate", "scan", "--config", "{list.toml}", "--out", "{root}/g"),
        2,
        "takes one value",
    ),
    (
        "config-a-folder",
        ("generate", "scan", "--config", "{root}", "--out", "{root}/g"),
        2,
        "--config",
    ),
]

SECURITY = [
    (
        f"traversal-evaluate-{case}",
        ("evaluate", f"{{suite-{case}}}", "--model", "oracle"),
        2,
        "test name",
    )
    for case in TRAVERSALS
] + [
    (
        f"traversal-train-{case}",
        ("train", f"{{suite-{case}}}", "--model", "lstms2s", "--out", f"{{root}}/t-{case}"),
        2,
        "test name",
    )
    for case in TRAVERSALS
]

CASES = [*file_matrix(), *MISSING, *USAGE, *SPLITS_AND_CONFIG, *SECURITY]


def test_the_table_has_two_hundred_cases() -> None:
    assert len(CASES) >= 200
    assert len({case[0] for case in CASES}) == len(CASES)


@pytest.mark.parametrize(("case", "args", "code", "fragment"), CASES, ids=[c[0] for c in CASES])
def test_bad_input(
    paths: dict[str, str], case: str, args: tuple[str, ...], code: int, fragment: str
) -> None:
    resolved = [re.sub(r"\{([^{}]+)\}", lambda m: paths[m.group(1)], arg) for arg in args]
    found, output = invoke(*resolved)
    assert "Traceback" not in output, output
    assert found == code, f"{case}: exit {found}, expected {code}: {output}"
    assert fragment in output, f"{case}: {fragment!r} not in: {output}"
    assert not (Path(paths["root"]).parent / "escaped").exists()


# -- what plugins print while they load -----------------------------------------------------------

PLUGINS = Path(__file__).parent / "plugins"  # the toy robot, a third-party language
LOUD = """\
import sys
from pathlib import Path

import symcomp_robot
from symcomp import Language

print("hello from the loud plugin")  # a stray print, as plugins have


def build() -> Language:
    print("building the loud language")
    grammar = Path(symcomp_robot.__file__).with_name("robot.lark")
    return Language.from_grammar("loud", grammar, semantics=symcomp_robot.Robot)
"""


def loud_plugin(folder: Path) -> None:
    """``loud.py``, also installed the third-party way (``loud = loud:build``)."""
    (folder / "loud.py").write_text(LOUD)
    info = folder / "loud-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: loud\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[symcomp.languages]\nloud = loud:build\n")


@pytest.mark.parametrize("how", ["--plugin", "SYMCOMP_PLUGINS", "entry point"])
def test_what_plugins_print_while_loading_goes_to_stderr(tmp_path: Path, how: str) -> None:
    """`languages --json` (any --json) stays JSON: plugins' prints go to stderr."""
    installed = tmp_path / "site"
    installed.mkdir()
    loud_plugin(installed)
    path = [str(PLUGINS), *([str(installed)] if how == "entry point" else [])]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(path)}
    env.pop("SYMCOMP_PLUGINS", None)
    args = ["languages", "--json"]
    if how == "--plugin":
        args = ["--plugin", str(installed / "loud.py"), *args]
    elif how == "SYMCOMP_PLUGINS":
        env["SYMCOMP_PLUGINS"] = str(installed / "loud.py")
    command = [sys.executable, "-c", "from symcomp.cli import main; main()", *args]
    done = subprocess.run(
        command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    names = [row["name"] for row in json.loads(done.stdout)]
    assert {"loud", "robot", "scan"} <= set(names) if how == "entry point" else "scan" in names
    assert "hello from the loud plugin" in done.stderr and "Traceback" not in done.stderr
    assert ("building the loud language" in done.stderr) == (how == "entry point")
