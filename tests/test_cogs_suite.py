"""``symcomp suite cogs`` at a small size: the parts and categories, COGS's constraints, the
same bytes for a seed; ``suite import cogs`` and its errors; the output formats."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from symcomp.cli import cli
from symcomp.core.registry import get_language
from symcomp.languages.cogs.cases import CASES, EXPOSURES, STRUCTURAL
from symcomp.languages.cogs.generation import depth
from symcomp.languages.cogs.language import with_output

SMALL = ["--n-train", "300", "--n-dev", "40", "--n-test", "40", "--n-gen", "10"]
SMALL += ["--per-depth", "2", "--exposures-100", "2", "--no-export"]


def _suite(out: Path, *extra: str) -> list[dict[str, object]]:
    result = CliRunner().invoke(cli, ["-q", "suite", "cogs", *SMALL, *extra, "--out", str(out)])
    assert result.exit_code == 0, result.output
    lines = (out / "examples.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict[str, object]]]:
    out = tmp_path_factory.mktemp("cogs") / "suite"
    return out, _suite(out)


def test_parts_have_cogs_composition(small: tuple[Path, list[dict[str, object]]]) -> None:
    _out, records = small
    parts = Counter((r["meta"]["part"], r["meta"]["category"]) for r in records)  # type: ignore[index]
    assert parts["train", "in_distribution"] == 300
    assert parts["train", "primitive"] == 143
    assert sum(parts["train", category] for category in EXPOSURES) == 12
    assert parts["dev", "in_distribution"] == parts["test", "in_distribution"] == 40
    assert {c for (p, c) in parts if p == "gen"} == set(CASES) | set(STRUCTURAL)
    assert parts["gen", "pp_recursion"] == parts["gen", "cp_recursion"] == 20


def test_constraints_hold(small: tuple[Path, list[dict[str, object]]]) -> None:
    _out, records = small
    language = get_language("cogs")
    texts = [str(r["input"]) for r in records if r["meta"]["part"] != "train_100_exposures"]  # type: ignore[index]
    assert len(texts) == len(set(texts))  # no sentence twice across parts
    targets = {case.target for case in CASES.values()}
    for record in records:
        meta, text = record["meta"], str(record["input"])
        assert isinstance(meta, dict)
        if meta["category"] == "primitive":
            continue
        tree = language.parse(text)
        assert language.render(language.evaluate(tree)) == record["output"]
        found = [word for word in text.split() if word in targets]
        if meta["category"] == "in_distribution":
            assert not found
            assert depth(tree, ["pp_on", "pp_in", "pp_beside"]) <= 2
            assert depth(tree, ["clausal_complement"]) <= 2
        elif meta["category"] in CASES:
            assert found == [CASES[str(meta["category"])].target]
        elif meta["category"] == "pp_recursion":
            assert 3 <= depth(tree, ["pp_on", "pp_in", "pp_beside"]) <= 12


def test_the_same_seed_writes_the_same_bytes(
    small: tuple[Path, list[dict[str, object]]], tmp_path: Path
) -> None:
    out, _records = small
    _suite(tmp_path / "again")
    for name in ("examples.jsonl", "gen/split.json", "targets.txt"):
        assert (tmp_path / "again" / name).read_bytes() == (out / name).read_bytes()


def test_formats_of_one_meaning() -> None:
    sentence = "The girl wanted to walk ."
    assert with_output(get_language("cogs"), "recogs_positional_index").interpret(sentence) == (
        "* girl ( 1 ) ; want ( 2 ) AND agent ( 2 , 1 ) AND xcomp ( 2 , 4 ) AND walk ( 4 ) "
        "AND agent ( 4 , 1 )"
    )
    assert with_output(get_language("cogs"), "varfree").interpret(sentence) == (
        "want ( agent = * girl , xcomp = walk ( agent = * girl ) )"
    )


def test_bad_options_exit_2(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        cli, ["suite", "cogs", "--output", "lisp", "--out", str(tmp_path / "x")]
    )
    assert result.exit_code == 2
    assert "lisp" in result.output


def _published(folder: Path, rows: dict[str, list[str]]) -> Path:
    folder.mkdir()
    for name in ("train", "dev", "test", "gen"):
        (folder / f"{name}.tsv").write_text("\n".join(rows[name]) + "\n", encoding="utf-8")
    return folder


ROWS = {
    "train": ["Emma slept .\tsleep . agent ( x _ 1 , Emma )\tin_distribution"],
    "dev": ["A cat slept .\tcat ( x _ 1 ) AND sleep . agent ( x _ 2 , x _ 1 )\tin_distribution"],
    "test": ["Liam slept .\tsleep . agent ( x _ 1 , Liam )\tin_distribution"],
    "gen": ["Charlie slept .\tsleep . agent ( x _ 1 , Charlie )\tobj_to_subj_proper"],
}


def test_import_published_files(tmp_path: Path) -> None:
    source = _published(tmp_path / "data", ROWS)
    result = CliRunner().invoke(
        cli, ["-q", "suite", "import", "cogs", str(source), "--out", str(tmp_path / "suite")]
    )
    assert result.exit_code == 0, result.output
    records = (tmp_path / "suite" / "examples.jsonl").read_text(encoding="utf-8").splitlines()
    assert json.loads(records[-1])["meta"] == {
        "category": "obj_to_subj_proper",
        "part": "gen",
        "group": "lexical",
    }


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("Liam slept .\tsleep . agent ( x _ 1 , Liam )", "dev.tsv:2: 2 columns"),
        ("Liam slept .\tsleep ( agent = Liam )\tin_distribution", "dev.tsv:2: the logical form"),
        ("Liam flew .\tfly ( x _ 1 )\tin_distribution", "dev.tsv:2: not valid cogs input"),
    ],
)
def test_a_bad_published_line_is_named(tmp_path: Path, line: str, message: str) -> None:
    rows = {**ROWS, "dev": [*ROWS["dev"], line]}
    source = _published(tmp_path / "data", rows)
    result = CliRunner().invoke(
        cli, ["suite", "import", "cogs", str(source), "--out", str(tmp_path / "suite")]
    )
    assert result.exit_code == 2
    assert message in result.output
    assert not (tmp_path / "suite").exists()
