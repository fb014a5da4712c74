"""Output folders, as a table: case, earlier commands, command, exit code, message fragment.

Three promises are checked here. A folder symcomp wrote as one kind (a pool, an export, a
suite) is only ever replaced by a command writing the same kind: an export never goes into a
pool's folder, nor a pool into an export's. An export redone with ``--overwrite`` replaces
every file of the previous export, whatever its format, and keeps nothing of it (no stale
``examples.tsv``, no top-level ``train.jsonl`` of a one-configuration GenBench task). And a
split or test whose name would take the place of one of the output's own files
(``manifest.json.json``) is refused before anything is written, naming the split file. And
``--join-lines`` leaves no line break in any line-based field of any format: NLI pairs too
(premise and hypothesis, and GenBench's input made of both).

Placeholders in braces are paths: ``{pool}`` and ``{splits}`` are shared fixtures, ``{t}`` the
case's own folder (a copy of the pool lies in ``{t}/pool``).
"""

from __future__ import annotations

import hashlib
import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from symcomp.cli import cli

Check = Callable[[Path], None]
# case, earlier commands (each must succeed), command, exit code, fragment, check afterwards
Case = tuple[str, list[tuple[str, ...]], tuple[object, ...], int, str, Check | None]


def invoke(*args: object) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["-q", *(str(a) for a in args)])
    return result.exit_code, result.output


def digests(folder: Path) -> dict[str, str]:
    return {
        path.relative_to(folder).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def listed(folder: Path) -> list[str]:
    return sorted(json.loads((folder / "manifest.json").read_text())["files"])


def files(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


def holds_exactly(relative: str, *names: str) -> Check:
    """The folder holds exactly ``names`` (and the manifest, which lists every other one)."""

    def check(case: Path) -> None:
        folder = case / relative
        assert files(folder) == sorted([*names, "manifest.json"])
        assert listed(folder) == sorted(names)

    return check


def pool_unchanged(case: Path) -> None:
    assert json.loads((case / "pool/manifest.json").read_text())["format"] == "symcomp.pool/1"
    assert files(case / "pool") == ["examples.jsonl", "manifest.json"]


def export_unchanged(case: Path) -> None:
    manifest = json.loads((case / "e/manifest.json").read_text())
    assert manifest["format"] == "symcomp.export.tsv/1"
    assert files(case / "e") == ["examples.tsv", "manifest.json"]


def suite_unchanged(case: Path) -> None:
    assert json.loads((case / "s/manifest.json").read_text())["format"] == "symcomp.suite/1"
    assert not (case / "s/examples.tsv").exists()


def nothing_written(case: Path) -> None:
    assert not (case / "e").exists()
    assert not [p for p in case.rglob(".*") if p.name.endswith((".tmp", ".lock"))]


def users_file_kept(case: Path) -> None:
    assert (case / "e/r3/dev.tsv").read_text() == "mine\n"
    assert listed(case / "e") == ["r3/test.tsv", "r3/train.tsv"]


def one_line_fields(case: Path) -> None:
    """Every line of a line format is one example; no text field of a JSON line format holds
    a line break (``{t}/e`` is an export of a whole pool with ``--join-lines``)."""
    manifest = json.loads((case / "e/manifest.json").read_text())
    assert manifest["join_lines"] is True
    examples = sum(manifest["configs"]["default"].values())
    for path in (case / "e").rglob("*"):
        if path.suffix in (".tsv", ".src", ".tgt"):
            lines = path.read_text().split("\n")
            assert lines[-1] == "" and len(lines) - 1 == examples, path
            assert all(line.count("\t") == (path.suffix == ".tsv") for line in lines[:-1])
        elif path.suffix == ".jsonl":
            rows = [json.loads(line) for line in path.read_text().splitlines()]
            assert len(rows) == examples, path
            for row in rows:
                broken = {k: v for k, v in row.items() if isinstance(v, str) and "\n" in v}
                assert not broken, (path, broken)


SUITE = ("suite", "from-splits", "{t}/pool", "{splits}/r1.json", "--out", "{t}/s", "--no-export")
EXPORT = ("export", "{t}/pool", "--out", "{t}/e")
GENBENCH_TWO: tuple[str, ...] = (*EXPORT, "--format", "genbench", "--split", "{splits}/r1.json")
GENBENCH_TWO += ("--split", "{splits}/r2.json")


def clash(fmt: str, name: str, *more: str) -> Case:
    """Export with a split file called ``name`` (besides ``more``) in ``fmt``."""
    splits = [f"{{splits}}/{s}" for s in (*more, name)]
    args: list[object] = [*EXPORT, "--format", fmt]
    for split in splits:
        args += ["--split", split]
    return (
        f"{fmt}-split-{name}",
        [],
        tuple(args),
        2,
        f"the split file {{splits}}/{name} names the configuration",
        nothing_written,
    )


CASES: list[Case] = [
    # --join-lines: one line per field, in every format, for NLI pairs too
    *(
        (
            f"join-lines-{pool}-{fmt}",
            [],
            ("export", f"{{{pool}}}", "--format", fmt, "--join-lines", "--out", "{t}/e"),
            0,
            "",
            one_line_fields,
        )
        for pool in ("monotonicity", "nli")
        for fmt in ("tsv", "srctgt", "hf", "genbench")
    ),
    # one kind never replaces another (§2.2)
    (
        "export-into-its-pool",
        [],
        ("export", "{t}/pool", "--format", "tsv", "--out", "{t}/pool", "--overwrite"),
        2,
        "{t}/pool is a pool folder (see its manifest.json); an export cannot go into it",
        pool_unchanged,
    ),
    (
        "export-into-its-pool-hf",
        [],
        ("export", "{t}/pool", "--format", "hf", "--out", "{t}/pool", "--overwrite"),
        2,
        "is a pool folder",
        pool_unchanged,
    ),
    (
        "export-into-a-suite",
        [SUITE],
        (*EXPORT[:2], "--format", "tsv", "--out", "{t}/s", "--overwrite"),
        2,
        "{t}/s is a suite folder (see its manifest.json); an export cannot go into it",
        suite_unchanged,
    ),
    (
        "generate-into-an-export",
        [(*EXPORT, "--format", "tsv")],
        ("generate", "scan", "--n", "5", "--out", "{t}/e", "--overwrite"),
        2,
        "{t}/e is an export folder (see its manifest.json); a pool cannot go into it",
        export_unchanged,
    ),
    (
        "generate-into-a-suite",
        [SUITE],
        ("generate", "scan", "--n", "5", "--out", "{t}/s", "--overwrite"),
        2,
        "is a suite folder",
        suite_unchanged,
    ),
    (
        "suite-into-an-export",
        [(*EXPORT, "--format", "tsv")],
        (*SUITE[:-3], "--out", "{t}/e", "--overwrite"),
        2,
        "not part of a symcomp suite",
        export_unchanged,
    ),
    (
        "export-into-a-pool-without-overwrite",
        [],
        ("export", "{t}/pool", "--format", "tsv", "--out", "{t}/pool"),
        2,
        "is a pool folder",
        pool_unchanged,
    ),
    # an export redone replaces every file of the previous one (§15)
    (
        "tsv-srctgt-tsv",
        [(*EXPORT, "--format", "tsv"), (*EXPORT, "--format", "srctgt", "--overwrite")],
        (*EXPORT, "--format", "tsv", "--overwrite"),
        0,
        "as tsv to {t}/e",
        holds_exactly("e", "examples.tsv"),
    ),
    (
        "tsv-then-srctgt",
        [(*EXPORT, "--format", "tsv")],
        (*EXPORT, "--format", "srctgt", "--overwrite"),
        0,
        "as srctgt",
        holds_exactly("e", "examples.src", "examples.tgt"),
    ),
    (
        "genbench-one-then-two",
        [(*EXPORT, "--format", "genbench", "--split", "{splits}/r1.json")],
        (*GENBENCH_TWO, "--overwrite"),
        0,
        "as genbench",
        holds_exactly(
            "e",
            "config.jsonnet",
            "doc.md",
            *(f"{c}/{f}" for c in ("r1", "r2") for f in ("config.jsonnet", "test.jsonl")),
            "r1/train.jsonl",
            "r2/train.jsonl",
        ),
    ),
    (
        "genbench-two-then-one",
        [GENBENCH_TWO],
        (*EXPORT, "--format", "genbench", "--split", "{splits}/r1.json", "--overwrite"),
        0,
        "as genbench",
        holds_exactly("e", "config.jsonnet", "doc.md", "test.jsonl", "train.jsonl"),
    ),
    (
        "splits-then-whole-pool",
        [(*EXPORT, "--format", "tsv", "--split", "{splits}/r1.json")],
        (*EXPORT, "--format", "tsv", "--overwrite"),
        0,
        "as tsv",
        holds_exactly("e", "examples.tsv"),
    ),
    (
        "hf-then-tsv",
        [(*EXPORT, "--format", "hf", "--split", "{splits}/r1.json")],
        (*EXPORT, "--format", "tsv", "--overwrite"),
        0,
        "as tsv",
        holds_exactly("e", "examples.tsv"),
    ),
    (
        "a-users-file-in-the-way",
        [(*EXPORT, "--format", "tsv", "--split", "{splits}/r3.json"), ("write", "e/r3/dev.tsv")],
        (*EXPORT, "--format", "tsv", "--split", "{splits}/dev/r3.json", "--overwrite"),
        2,
        "{t}/e/r3/dev.tsv is in the way of the new output and symcomp did not write it",
        users_file_kept,
    ),
    # a split named like one of the output's own files (§13)
    clash("tsv", "manifest.json.json", "r1.json"),
    clash("srctgt", "manifest.json.json"),
    clash("tsv", ".symcomp.lock.json"),
    clash("genbench", "config.jsonnet.json", "r1.json"),
    clash("genbench", "doc.md.json", "r1.json"),
    clash("genbench", "train.jsonl.json", "r1.json"),
    (
        "suite-split-examples.jsonl.json",
        [],
        ("suite", "from-splits", "{t}/pool", "{splits}/examples.jsonl.json", "--out", "{t}/e"),
        2,
        "the split file {splits}/examples.jsonl.json names the test 'examples.jsonl', whose "
        "folder would take the place of the suite's own examples.jsonl; rename the split file",
        nothing_written,
    ),
    (
        "suite-split-README.md.json",
        [],
        ("suite", "from-splits", "{t}/pool", "{splits}/README.md.json", "--out", "{t}/e"),
        2,
        "names the test 'README.md'",
        nothing_written,
    ),
    (
        "suite-split-manifest.json.json",
        [],
        ("suite", "from-splits", "{t}/pool", "{splits}/manifest.json.json", "--out", "{t}/e"),
        2,
        "names the test 'manifest.json'",
        nothing_written,
    ),
]


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("outputs")
    pool, splits = root / "pool", root / "splits"
    assert invoke("generate", "scan", "--n", 60, "--out", pool)[0] == 0
    splits.mkdir()
    (splits / "dev").mkdir()
    for name, seed in (("r1", 0), ("r2", 1), ("r3", 2)):
        assert (
            invoke("split", "random", pool, "--seed", seed, "--out", splits / f"{name}.json")[0]
            == 0
        )
    # r3 again, now with a dev part: its export writes r3/dev.tsv
    code, output = invoke(
        "split", "random", pool, "--seed", 2, "--dev-frac", 0.1, "--out", splits / "dev/r3.json"
    )
    assert code == 0, output
    monotonicity, nli = root / "monotonicity", root / "nli"
    code, output = invoke("generate", "monotonicity", "--n", 20, "--out", monotonicity)
    assert code == 0, output
    rows = [  # imported NLI pairs whose texts span lines
        {"premise": "All dogs\nran.", "hypothesis": "Some dogs ran.", "label": "entailment"},
        {"premise": "Some dogs ran.", "hypothesis": "All\r\ndogs ran.", "label": "neutral"},
    ]
    pairs = root / "pairs.jsonl"
    pairs.write_text(
        "".join(
            json.dumps({"input": f"{r['premise']}\n{r['hypothesis']}", "output": r["label"], **r})
            + "\n"
            for r in rows
        )
    )
    code, output = invoke("import", pairs, "--out", nli)
    assert code == 0, output
    names = ("manifest.json", ".symcomp.lock", "config.jsonnet", "doc.md", "train.jsonl")
    for name in (*names, "examples.jsonl", "README.md"):
        shutil.copy(splits / "r1.json", splits / f"{name}.json")
    return {"pool": pool, "splits": splits, "monotonicity": monotonicity, "nli": nli}


def resolve(text: object, places: dict[str, Path]) -> str:
    shown = str(text)
    for key, value in places.items():
        shown = shown.replace(f"{{{key}}}", str(value))
    return shown


def test_every_case_has_a_unique_name() -> None:
    assert len({case[0] for case in CASES}) == len(CASES) >= 20


@pytest.mark.parametrize(
    ("case", "before", "args", "code", "fragment", "check"), CASES, ids=[c[0] for c in CASES]
)
def test_output_folder(
    made: dict[str, Path],
    tmp_path: Path,
    case: str,
    before: list[tuple[str, ...]],
    args: tuple[object, ...],
    code: int,
    fragment: str,
    check: Check | None,
) -> None:
    shutil.copytree(made["pool"], tmp_path / "pool")
    places = {**made, "t": tmp_path}
    for step in before:
        if step[0] == "write":  # a file of the user's own
            (tmp_path / step[1]).write_text("mine\n")
            continue
        done, output = invoke(*(resolve(arg, places) for arg in step))
        assert done == 0, f"{case}: {step}: {output}"
    found, output = invoke(*(resolve(arg, places) for arg in args))
    assert "Traceback" not in output, output
    assert found == code, f"{case}: exit {found}, expected {code}: {output}"
    assert resolve(fragment, places) in output, f"{case}: {fragment!r} not in: {output}"
    if check is not None:
        check(tmp_path)
    assert not [p for p in tmp_path.rglob(".*") if p.name.endswith((".tmp", ".lock"))]
