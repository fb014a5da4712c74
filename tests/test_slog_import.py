"""``symcomp suite import slog``: SLOG's published folder as a suite, in either output format,
with the report card's groups and every kind of bad input named by file and line.

The small folders are written here, row by row (sentences of SLOG's grammar, not SLOG's data);
the full published set is imported when ``SYMCOMP_SLOG_DATA`` names SLOG's ``data`` folder with
``generalization_sets.zip`` unpacked (see ``tests/test_slog_published.py``).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from symcomp.cli import cli
from symcomp.languages.slog.attachment import is_outer_by_phrase
from symcomp.languages.slog.cases import GROUPS

# the by-phrase on the outer verb: the reading SLOG's grammar also derives, kept as published
AMBIGUOUS = "Who was given a box that was handed to Liam by a dog ?"
AMBIGUOUS_COGS = (
    "give . recipient ( x _ 2 , ? ) AND give . theme ( x _ 2 , x _ 4 ) AND "
    "give . agent ( x _ 2 , x _ 12 ) AND box ( x _ 4 ) AND box . nmod ( x _ 4 , x _ 7 ) AND "
    "hand . theme ( x _ 7 , x _ 4 ) AND hand . recipient ( x _ 7 , Liam ) AND dog ( x _ 12 )"
)
AMBIGUOUS_VARFREE = (
    "give ( recipient = ? , theme = box ( nmod = hand ( theme = box , recipient = Liam ) ) , "
    "agent = dog )"
)
PP_3 = "Emma saw a cat on a table beside a box in the house ."
ROWS = {
    "varfree_LF/train.tsv": [
        "A cake was eaten by the dog .\teat ( theme = cake , agent = * dog )\tin_distribution",
        "Emma saw a cat that slept .\tsee ( agent = Emma , theme = cat ( nmod = sleep ( "
        "agent = cat ) ) )\tobject_modifying_RC",
        "cake\tcake\tprimitive",
    ],
    "varfree_LF/dev.tsv": ["Liam ran .\trun ( agent = Liam )\tin_distribution"],
    "varfree_LF/test.tsv": [
        "Who ate the cake ?\teat ( agent = ? , theme = * cake )\twh_Q_simple_trans"
    ],
    "cogs_LF/dev.tsv": ["Liam ran .\trun . agent ( x _ 1 , Liam )\tin_distribution"],
    "cogs_LF/test.tsv": [
        "Who ate the cake ?\t* cake ( x _ 3 ) ; eat . agent ( x _ 1 , ? ) AND "
        "eat . theme ( x _ 1 , x _ 3 )\twh_Q_simple_trans"
    ],
    "generalization_sets/gen_cogsLF.tsv": [
        f"{PP_3}\t* house ( x _ 12 ) ; see . agent ( x _ 1 , Emma ) AND "
        "see . theme ( x _ 1 , x _ 3 ) AND cat ( x _ 3 ) AND cat . nmod . on ( x _ 3 , x _ 6 ) "
        "AND table ( x _ 6 ) AND table . nmod . beside ( x _ 6 , x _ 9 ) AND box ( x _ 9 ) AND "
        "box . nmod . in ( x _ 9 , x _ 12 )\tPP_3",
        "A dog on the table smiled .\t* table ( x _ 4 ) ; dog ( x _ 1 ) AND "
        "dog . nmod . on ( x _ 1 , x _ 4 ) AND smile . agent ( x _ 5 , x _ 1 )\tPP_modif_subj",
        "What did Liam give Owen ?\tgive . agent ( x _ 3 , Liam ) AND give . theme ( x _ 3 , ? ) "
        "AND give . recipient ( x _ 3 , Owen )\tQ_dobj_ditransV",
        f"{AMBIGUOUS}\t{AMBIGUOUS_COGS}\tQ_modified_NPs",
    ],
    "generalization_sets/gen_varfreeLF.tsv": [
        f"{PP_3}\tsee ( agent = Emma , theme = cat ( nmod . on = table ( nmod . beside = box ( "
        "nmod . in = * house ) ) ) )\tPP_3",
        "A dog on the table smiled .\tsmile ( agent = dog ( nmod . on = * table ) )\tPP_modif_subj",
        "What did Liam give Owen ?\tgive ( agent = Liam , theme = ? , recipient = Owen )"
        "\tQ_dobj_ditransV",
        f"{AMBIGUOUS}\t{AMBIGUOUS_VARFREE}\tQ_modified_NPs",
    ],
}


def _published(folder: Path, rows: dict[str, list[str]] = ROWS) -> Path:
    for name, lines in rows.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return folder


def _import(source: Path, out: Path, *options: str) -> tuple[int, str]:
    result = CliRunner().invoke(
        cli, ["-q", "suite", "import", "slog", str(source), "--out", str(out), *options]
    )
    return result.exit_code, result.output


def _refused(source: Path, out: Path, message: str) -> None:
    """The import of ``source`` is exit 2 with ``message`` and writes nothing at ``out``."""
    code, output = _import(source, out)
    assert code == 2
    assert message in " ".join(output.split())
    assert not out.exists()


def _records(suite: Path) -> list[dict[str, object]]:
    lines = (suite / "examples.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


def test_import_writes_every_part_in_the_cogs_format(tmp_path: Path) -> None:
    code, output = _import(_published(tmp_path / "data"), tmp_path / "suite")
    assert code == 0, output
    records = _records(tmp_path / "suite")
    assert [record["meta"]["part"] for record in records] == [  # type: ignore[index]
        *["train"] * 3,
        "dev",
        "test",
        *["gen"] * 4,
    ]
    # train is published variable-free only: its COGS logical forms are symcomp's
    assert records[0]["output"] == (
        "* dog ( x _ 6 ) ; cake ( x _ 1 ) AND eat . theme ( x _ 3 , x _ 1 ) AND "
        "eat . agent ( x _ 3 , x _ 6 )"
    )
    assert records[2]["output"] == "LAMBDA a . cake ( a )"
    assert records[3]["output"] == "run . agent ( x _ 1 , Liam )"
    manifest = json.loads((tmp_path / "suite" / "manifest.json").read_text(encoding="utf-8"))
    files = manifest["published_files"]
    assert files["train"] == {
        "file": "varfree_LF/train.tsv",
        "format": "varfree",
        "rows": 3,
        "logical_forms": "symcomp's",
    }
    assert files["gen"]["file"] == "generalization_sets/gen_cogsLF.tsv"
    assert files["dev"]["logical_forms"] == "published"
    assert manifest["tests"]["gen"]["sizes"] == {"train": 3, "dev": 1, "test": 4}
    assert manifest["tests"]["test"]["sizes"] == {"train": 3, "dev": 1, "test": 1}


def test_the_other_attachment_is_kept_as_published_and_counted(tmp_path: Path) -> None:
    code, output = _import(_published(tmp_path / "data"), tmp_path / "suite")
    assert code == 0, output
    kept = [record for record in _records(tmp_path / "suite") if record["input"] == AMBIGUOUS]
    assert [record["output"] for record in kept] == [AMBIGUOUS_COGS]
    assert "reading" in kept[0]["meta"]  # type: ignore[operator]
    manifest = json.loads((tmp_path / "suite" / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["published_reading_kept"] == ["generalization_sets/gen_cogsLF.tsv:4"]


def test_a_varfree_suite_reads_the_varfree_files(tmp_path: Path) -> None:
    code, output = _import(_published(tmp_path / "data"), tmp_path / "suite", "--output", "varfree")
    assert code == 0, output
    records = _records(tmp_path / "suite")
    assert records[0]["output"] == "eat ( theme = cake , agent = * dog )"
    assert records[3]["output"] == "run ( agent = Liam )"
    assert records[-1]["output"] == AMBIGUOUS_VARFREE
    manifest = json.loads((tmp_path / "suite" / "manifest.json").read_text(encoding="utf-8"))
    assert {part["logical_forms"] for part in manifest["published_files"].values()} == {"published"}
    assert manifest["parameters"]["output"] == "varfree"


def test_gen_records_name_case_and_group_and_the_report_card_uses_them(tmp_path: Path) -> None:
    code, output = _import(_published(tmp_path / "data"), tmp_path / "suite")
    assert code == 0, output
    gen = [record for record in _records(tmp_path / "suite") if record["meta"]["part"] == "gen"]  # type: ignore[index]
    assert [(r["meta"]["category"], r["meta"]["group"]) for r in gen] == [  # type: ignore[index]
        ("PP_3", "recursion"),
        ("PP_modif_subj", "PP"),
        ("Q_dobj_ditransV", "question"),
        ("Q_modified_NPs", "question"),
    ]
    # every prediction right but the question whose by-phrase symcomp attaches inside
    predictions = tmp_path / "predictions.jsonl"
    predictions.write_text(
        "".join(
            json.dumps(
                {"id": r["id"], "prediction": "wrong" if r["input"] == AMBIGUOUS else r["output"]}
            )
            + "\n"
            for r in gen
        ),
        encoding="utf-8",
    )
    result = CliRunner().invoke(
        cli,
        [
            "evaluate",
            str(tmp_path / "suite"),
            "--predictions",
            str(predictions),
            "--test",
            "gen",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)["tests"]["gen"]
    assert report["by_group"] == {
        "PP": {"n": 1, "accuracy": 1.0},
        "question": {"n": 2, "accuracy": 0.5},
        "recursion": {"n": 1, "accuracy": 1.0},
    }
    assert report["by_category"]["Q_modified_NPs"] == {"n": 1, "accuracy": 0.0}


def test_the_groups_cover_the_17_cases_in_four_groups() -> None:
    assert len(GROUPS) == 17
    assert sorted(set(GROUPS.values())) == ["PP", "RC", "question", "recursion"]
    assert {case for case, group in GROUPS.items() if group == "RC"} == {
        "RC_modif_subj",
        "RC_modif_iobj",
        "RC_iobj_extracted",
    }


def _replace(name: str, lines: list[str]) -> dict[str, list[str]]:
    return {**ROWS, name: lines}


DEV = ROWS["cogs_LF/dev.tsv"]
WRONG_AGENT = AMBIGUOUS_COGS.replace(
    "give . agent ( x _ 2 , x _ 12 )", "give . agent ( x _ 2 , Emma )"
)


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        (
            _replace("cogs_LF/dev.tsv", [*DEV, "Liam ran .\trun . agent ( x _ 1 , Liam )"]),
            "cogs_LF/dev.tsv:2: 2 columns; SLOG files have three",
        ),
        (
            _replace(
                "cogs_LF/dev.tsv", [*DEV, "Liam ran .\trun . agent ( x _ 1 , Liam )\tin_dist"]
            ),
            "cogs_LF/dev.tsv:2: unknown category 'in_dist'",
        ),
        (
            _replace(
                "generalization_sets/gen_cogsLF.tsv",
                [ROWS["generalization_sets/gen_cogsLF.tsv"][0].replace("PP_3", "PP_4")],
            ),
            "gen_cogsLF.tsv:1: unknown category 'PP_4'",
        ),
        (
            _replace(
                "cogs_LF/dev.tsv",
                [*DEV, "Noah helped .\thelp . agent ( x _ 1 , Noah )\tin_distribution"],
            ),
            "cogs_LF/dev.tsv:2: not valid slog input",
        ),
        (
            _replace("cogs_LF/dev.tsv", [*DEV, "Liam ran .\trun ( x _ 1 )\tin_distribution"]),
            "cogs_LF/dev.tsv:2: the logical form of 'Liam ran .' is not the grammar's",
        ),
        (
            _replace("cogs_LF/dev.tsv", ["Liam ran .\tLiam ( run )\tin_distribution"]),
            "cogs_LF/dev.tsv:1: the logical form is in none of SLOG's formats",
        ),
        # the agent moved to the outer verb, but another one: not the grammar's other reading
        (
            _replace(
                "generalization_sets/gen_cogsLF.tsv",
                [f"{AMBIGUOUS}\t{WRONG_AGENT}\tQ_modified_NPs"],
            ),
            "gen_cogsLF.tsv:1: the logical form",
        ),
    ],
)
def test_a_bad_published_line_is_named(
    tmp_path: Path, rows: dict[str, list[str]], message: str
) -> None:
    _refused(_published(tmp_path / "data", rows), tmp_path / "suite", message)


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    source = _published(tmp_path / "data")
    (source / "cogs_LF" / "dev.tsv").unlink()
    (source / "varfree_LF" / "dev.tsv").unlink()
    _refused(source, tmp_path / "suite", "no cogs_LF/dev.tsv or varfree_LF/dev.tsv")


def test_a_file_not_in_utf8_is_named_with_its_line(tmp_path: Path) -> None:
    source = _published(tmp_path / "data")
    (source / "cogs_LF" / "dev.tsv").write_bytes(
        b"Liam ran .\trun . agent ( x _ 1 , Liam )\tin_distribution\nLiam ran \xff .\n"
    )
    _refused(source, tmp_path / "suite", "cogs_LF/dev.tsv:2: not UTF-8 text (byte 0xff)")


def test_a_link_out_of_the_folder_is_refused(tmp_path: Path) -> None:
    source = _published(tmp_path / "data")
    outside = tmp_path / "elsewhere.tsv"
    (source / "cogs_LF" / "dev.tsv").rename(outside)
    (source / "cogs_LF" / "dev.tsv").symlink_to(outside)
    _refused(source, tmp_path / "suite", "dev.tsv leads out of")


def test_a_zip_not_unpacked_says_to_unpack_it(tmp_path: Path) -> None:
    source = _published(tmp_path / "data")
    for path in (source / "generalization_sets").iterdir():
        path.unlink()
    (source / "generalization_sets").rmdir()
    (source / "generalization_sets.zip").write_bytes(b"PK\x03\x04")
    _refused(source, tmp_path / "suite", "unpack generalization_sets.zip there first")


def test_a_part_falls_back_to_the_other_format(tmp_path: Path) -> None:
    source = _published(tmp_path / "data")
    (source / "cogs_LF" / "dev.tsv").unlink()
    code, output = _import(source, tmp_path / "suite")
    assert code == 0, output
    manifest = json.loads((tmp_path / "suite" / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["published_files"]["dev"]["logical_forms"] == "symcomp's"
    assert _records(tmp_path / "suite")[3]["output"] == "run . agent ( x _ 1 , Liam )"


def test_the_other_reading_cannot_change_format(tmp_path: Path) -> None:
    source = _published(tmp_path / "data")
    (source / "generalization_sets" / "gen_cogsLF.tsv").unlink()
    code, output = _import(source, tmp_path / "suite")
    assert code == 2
    assert "gen_varfreeLF.tsv:4: the published reading" in " ".join(output.split())


@pytest.mark.parametrize(
    ("language", "output", "message"),
    [
        ("slog", "recogs_positional_index", "writes cogs, varfree"),
        ("cogs", "varfree", "writes none"),
    ],
)
def test_an_output_the_importer_does_not_write_is_refused(
    tmp_path: Path, language: str, output: str, message: str
) -> None:
    source = _published(tmp_path / "data")
    result = CliRunner().invoke(
        cli,
        [
            "suite",
            "import",
            language,
            str(source),
            "--out",
            str(tmp_path / "s"),
            "--output",
            output,
        ],
    )
    assert result.exit_code == 2
    assert message in " ".join(result.output.split())


def test_the_other_attachment_is_recognised_only_as_itself() -> None:
    ours = (
        "lend ( recipient = ? , theme = * rose ( nmod = paint ( theme = * rose , agent = Emma ) ) )"
    )
    theirs = (
        "lend ( recipient = ? , theme = * rose ( nmod = paint ( theme = * rose ) ) , agent = Emma )"
    )
    assert is_outer_by_phrase(ours, theirs, "varfree")
    assert not is_outer_by_phrase(ours, theirs.replace("= Emma )", "= Liam )"), "varfree")
    assert not is_outer_by_phrase(ours, ours, "varfree")
    assert not is_outer_by_phrase(ours, theirs, "recogs_positional_index")


SLOG_DATA = os.environ.get("SYMCOMP_SLOG_DATA")


@pytest.mark.slow
@pytest.mark.skipif(not SLOG_DATA, reason="set SYMCOMP_SLOG_DATA to SLOG's data folder")
def test_the_whole_published_set_imports(tmp_path: Path) -> None:
    assert SLOG_DATA is not None
    code, output = _import(Path(SLOG_DATA), tmp_path / "suite")
    assert code == 0, output
    manifest = json.loads((tmp_path / "suite" / "manifest.json").read_text(encoding="utf-8"))
    rows = {name: part["rows"] for name, part in manifest["published_files"].items()}
    assert rows == {"train": 32_755, "dev": 4_046, "test": 4_046, "gen": 17_000}
    gen = [r for r in _records(tmp_path / "suite") if r["meta"]["part"] == "gen"]  # type: ignore[index]
    cases: dict[str, int] = {}
    for record in gen:
        case = record["meta"]["category"]  # type: ignore[index]
        cases[case] = cases.get(case, 0) + 1
    assert cases == dict.fromkeys(GROUPS, 1000)
    kept = manifest["published_reading_kept"]
    assert len(kept) == 5
    assert all(entry.startswith("generalization_sets/gen_cogsLF.tsv:") for entry in kept)
