"""Fresh words (issue 43): a language's open-class words renamed to new pronounceable strings,
every renamed output re-interpreted by the renamed language rebuilt from the manifest, the
same bytes for a seed, and an error for a language that declares nothing to rename."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from symcomp.cli import cli
from symcomp.core.fresh_strings import literals
from symcomp.core.fresh_words import language_of, rename_records, renamed_language
from symcomp.core.registry import get_language
from symcomp.dbca.pool import pool_dags, read_pool
from symcomp.errors import DataError, SymcompError
from symcomp.suites.reading import Suite

SMALL = {
    "scan": ["--no-export"],
    "cogs": [
        *("--n-train", "200", "--n-dev", "20", "--n-test", "20", "--n-gen", "4"),
        *("--per-depth", "1", "--exposures-100", "1", "--case", "subj_to_obj_common"),
        *("--case", "pp_recursion", "--output", "varfree"),
    ],
    "slog": ["--scale", "0.002", "--n-gen", "8", "--no-export"],
}
PRONOUNCEABLE = re.compile(r"^(?:[bdfgklmnprstvz][aeiou]){2}[bdfgklmnprstvz]?(?:ed|en)?$")


def _suite(language: str, out: Path, *extra: str) -> Path:
    args = ["-q", "suite", language, *SMALL[language], *extra, "--out", str(out)]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture(scope="module")
def suites(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("fresh")
    return {name: _suite(name, root / name, "--fresh-words", "0") for name in SMALL}


def _bytes(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()
    }


# -- the mapping -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["scan", "cogs", "slog"])
def test_fresh_words_are_new_distinct_and_pronounceable(name: str) -> None:
    language = get_language(name)
    fresh = language.draw_fresh_words(0)
    new = list(fresh.mapping.values())
    assert len({word.lower() for word in new}) == len(new)
    vocabulary = {w.lower() for ws in language.grammar.sidecar.lexicon.values() for w in ws}
    vocabulary |= {w.lower() for w in literals(language.grammar)}
    assert not vocabulary & {word.lower() for word in new}
    assert all(PRONOUNCEABLE.match(word.lower()) for word in new), new
    assert fresh == language.draw_fresh_words(0)
    assert fresh.mapping != language.draw_fresh_words(1).mapping


def test_the_mapping_does_not_depend_on_the_hash_seed() -> None:
    code = "import json, symcomp; language = symcomp.get_language('cogs')\n"
    code += "print(json.dumps(language.draw_fresh_words(5).mapping))"
    found = []
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, check=True
        )
        found.append(done.stdout)
    assert found[0] == found[1]


def test_scan_renames_primitives_only() -> None:
    scan = get_language("scan")
    fresh = scan.draw_fresh_words(0)
    assert sorted(fresh.mapping) == ["jump", "look", "run", "walk"]
    renamed = scan.with_fresh_words(fresh)
    dax = fresh.mapping["jump"]
    assert renamed.interpret(f"{dax} around left") == " ".join([f"I_TURN_LEFT I_{dax.upper()}"] * 4)
    assert renamed.interpret("turn left twice") == "I_TURN_LEFT I_TURN_LEFT"
    abstraction = renamed.pattern_abstraction()
    assert abstraction is not None and dax in abstraction.input_classes
    with pytest.raises(SymcompError, match="not valid scan input"):
        renamed.interpret("jump")  # the old word is no word of the renamed language


def test_cogs_names_the_fresh_noun_lemma_and_name() -> None:
    cogs = get_language("cogs")
    fresh = cogs.draw_fresh_words(0)
    rename = fresh.mapping
    renamed = cogs.with_fresh_words(fresh)
    girl, like, liked, emma = rename["girl"], rename["like"], rename["liked"], rename["Emma"]
    assert liked == like + "ed" and emma[0].isupper()
    assert rename["eaten"] == rename["eat"] + "en" and rename["ate"] == rename["eat"] + "ed"
    assert rename["split"] == rename["split"]  # its own past: one fresh string for all forms
    text = fresh.rename_text("The girl liked Emma .")
    assert text == f"The {girl} {liked} {emma} ."
    assert renamed.interpret(text) == (
        f"* {girl} ( x _ 1 ) ; {like} . agent ( x _ 2 , x _ 1 ) AND "
        f"{like} . theme ( x _ 2 , {emma} )"
    )
    # `liked` is transitive, infinitive-taking and clause-taking: one fresh string in all three
    assert renamed.interpret(f"{emma} {liked} to {rename['walk']} .").startswith(f"{like} . agent")
    assert (
        renamed.with_output("varfree").interpret(text)
        == f"{like} ( agent = * {girl} , theme = {emma} )"
    )


def test_rename_records_keeps_ids_and_refuses_a_wrong_output() -> None:
    cogs = get_language("cogs")
    record = cogs.record(cogs.example("A cake was eaten by Emma ."), with_dag=True)
    [renamed] = rename_records(cogs, [record], 3)
    assert renamed["id"] == record["id"] and renamed["meta"] == record["meta"]
    assert "derivation" not in renamed and "cake" not in renamed["input"]
    with pytest.raises(DataError, match="not its output renamed"):
        rename_records(cogs, [{**record, "output": "cake ( x _ 1 )"}], 3)
    with pytest.raises(DataError, match="does not re-interpret"):
        rename_records(cogs, [{**record, "input": "A cake was eaten by Zorblax ."}], 3)


def test_a_language_without_renamable_classes_is_refused(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="cogs, scan, slog"):
        renamed_language(get_language("pcfg-set"), 0)
    out = tmp_path / "suite"
    result = CliRunner().invoke(cli, ["suite", "pcfg-set", "--out", str(out), "--fresh-words", "0"])
    assert result.exit_code == 2, result.output
    assert "declares no word classes to rename" in result.output and not out.exists()


def test_an_export_in_fresh_words_names_the_languages_that_can_be_renamed(
    pcfg_set_suite: Path, tmp_path: Path
) -> None:
    for fmt in ("tsv", "lm-eval"):
        out = tmp_path / fmt
        args = ["export", str(pcfg_set_suite), "--format", fmt, "--fresh-words", "0"]
        result = CliRunner().invoke(cli, [*args, "--out", str(out)])
        assert result.exit_code == 2, result.output
        assert "rename the open-class words of: cogs, scan, slog" in result.output
        assert not out.exists()


def test_a_negative_seed_is_refused_by_every_command_and_the_library(
    scan_suite: Path, tmp_path: Path
) -> None:
    from symcomp.llm.harness_tasks import HarnessOptions

    commands = {
        "suite": ["suite", "scan", "--no-export"],
        "tsv": ["export", str(scan_suite), "--format", "tsv", "--test", "template_right"],
        "lm-eval": ["export", str(scan_suite), "--format", "lm-eval", "--test", "template_right"],
    }
    for name, args in commands.items():
        out = tmp_path / name
        result = CliRunner().invoke(cli, [*args, "--fresh-words", "-1", "--out", str(out)])
        assert result.exit_code == 2, (name, result.output)
        assert "-1 is not in the range x>=0" in result.output and not out.exists()
    scan = get_language("scan")
    record = scan.record(scan.example("jump twice"))
    for call in (
        lambda: rename_records(scan, [record], -1),
        lambda: scan.with_fresh_words(-1),
        lambda: HarnessOptions(fresh_words=-1),
    ):
        with pytest.raises(DataError, match="a whole number 0 or more"):
            call()


# -- suites ----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["scan", "cogs", "slog"])
def test_every_renamed_example_reinterprets_to_its_output(
    suites: dict[str, Path], name: str
) -> None:
    suite = Suite.read(suites[name])
    entry = suite.manifest["fresh_words"]
    assert entry["seed"] == 0 and entry["mapping"]
    language = suite.load_language()
    assert language is not None and language.fresh_words is not None
    pool = suite.pool(next(iter(suite.tests)))
    assert all(language.interpret(str(r["input"])) == r["output"] for r in pool)
    old = {w.lower() for w in entry["mapping"]}
    assert not any(token.lower() in old for r in pool for token in str(r["input"]).split())
    fresh = set(entry["mapping"].values())
    original = get_language(name)
    assert not fresh & {w for ws in original.grammar.sidecar.lexicon.values() for w in ws}
    # the original outputs (of the inputs renamed back) hold no fresh word
    if entry["output"] is not None:
        original = original.with_output(entry["output"])
    back = {new: old for old, new in entry["mapping"].items()}
    tokens = set()
    for record in pool[:300]:
        text = " ".join(back.get(t, t) for t in str(record["input"]).split(" "))
        tokens |= {t.lower() for t in original.interpret(text).split()}
    assert tokens and not tokens & {w.lower() for w in fresh}


def test_no_fresh_word_is_an_original_output_token(suites: dict[str, Path], tmp_path: Path) -> None:
    original = _suite("scan", tmp_path / "scan")
    tokens = {
        t
        for line in (original / "examples.jsonl").open()
        for t in json.loads(line)["output"].split()
    }
    fresh = Suite.read(suites["scan"]).manifest["fresh_words"]["mapping"].values()
    assert not tokens & {*fresh, *(f"I_{w.upper()}" for w in fresh)}


def test_the_same_seed_writes_the_same_bytes(suites: dict[str, Path], tmp_path: Path) -> None:
    again = _suite("cogs", tmp_path / "again", "--fresh-words", "0")
    assert _bytes(again) == _bytes(suites["cogs"])
    other = _suite("cogs", tmp_path / "other", "--fresh-words", "1")
    assert (other / "examples.jsonl").read_bytes() != (again / "examples.jsonl").read_bytes()
    assert (again / "targets.txt").read_text() != "hedgehog\n"  # the target words renamed too


def test_a_renamed_suite_is_evaluated(suites: dict[str, Path]) -> None:
    result = CliRunner().invoke(cli, ["evaluate", str(suites["cogs"]), "--model", "oracle"])
    assert result.exit_code == 0, result.output
    scores = re.findall(r"accuracy \(exact match\)\s+([0-9.]+)", result.output)
    assert scores and all(score == "1.0000" for score in scores), result.output


def test_dags_of_a_renamed_pool_are_rebuilt(suites: dict[str, Path]) -> None:
    records, manifest = read_pool(suites["scan"], derivations=False)
    assert manifest is not None
    language = language_of(manifest, "manifest")
    assert language is not None and language.fresh_words is not None
    dags = list(pool_dags(records[:200], manifest, "examples.jsonl"))
    assert len(dags) == 200
