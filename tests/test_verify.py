"""The verification library: row readers, the checker extension point, the report."""

import io

import pytest

import symcomp
from symcomp.errors import DataError, SymcompError
from symcomp.languages.monotonicity.entailment import Gold, agrees, parse_labels
from symcomp.logic.prover import Label
from symcomp.verify import (
    RecomputeChecker,
    Status,
    VerifyOptions,
    checker_for,
    sample_indices,
)
from symcomp.verify.report import verify_file
from symcomp.verify.rows import Row, guess_format, parse_lines


def rows(
    text: str, fmt: str, columns: tuple[str, ...] = ("premise", "hypothesis", "label")
) -> list[Row]:
    return list(parse_lines(io.StringIO(text), fmt, columns, "data"))


def test_tsv_rows_by_header_or_position():
    by_name = rows("label\tpremise\thypothesis\nyes\tA.\tB.\n", "tsv")
    assert by_name[0].fields == {"label": "yes", "premise": "A.", "hypothesis": "B."}
    positional = rows("# a comment\nA.\tB.\tyes\t\n", "tsv")  # a trailing TAB is no column
    assert positional[0].line == 2 and positional[0].fields["label"] == "yes"
    (extra,) = rows("A.\tB.\tyes\textra\n", "tsv")
    assert extra.error.startswith("4 TAB-separated columns, expected 3 (premise, hypothesis")
    assert "extra: 'extra'" in extra.error
    (named,) = rows("premise\thypothesis\tlabel\nA.\tB.\tyes\tmore\tx\n", "tsv")
    assert named.error.startswith("5 TAB-separated columns, the header names 3")
    short = rows("A.\tB.\n", "tsv")
    assert short[0].error == "2 TAB-separated columns, expected 3 (missing label)"


def test_mnli_needs_its_header_and_ids_come_from_pair_id():
    text = "index\tpairID\tsentence1\tsentence2\tgold_label\n0\tp7\tA.\tB.\tneutral\n"
    (row,) = rows(text, "mnli")
    assert row.fields["pairID"] == "p7" and row.line == 2
    with pytest.raises(DataError, match="data:1: the MultiNLI header lacks sentence2"):
        rows("sentence1\tgold_label\nA.\tneutral\n", "mnli")
    with pytest.raises(DataError, match="unknown format"):
        rows("x\n", "csv")


def test_guess_format(tmp_path):
    (tmp_path / "a.jsonl").write_text("{}\n")
    (tmp_path / "b.tsv").write_text("sentence1\tsentence2\tgold_label\n")
    (tmp_path / "c.tsv").write_text("premise\thypothesis\tlabel\n")
    formats = [guess_format(tmp_path / name) for name in ("a.jsonl", "b.tsv", "c.tsv")]
    assert formats == ["jsonl", "mnli", "tsv"]


def test_label_vocabularies():
    assert parse_labels("auto")["unk"] is Gold.NON_ENTAILMENT
    assert parse_labels("auto")["neutral"] is Gold.NEUTRAL
    assert parse_labels("two-way")["neutral"] is Gold.NON_ENTAILMENT
    # pairs extend the vocabulary (auto, or a preset named first)
    extended = parse_labels("Y=entailment, N=contradiction")
    assert extended["y"] is Gold.ENTAILMENT and extended["n"] is Gold.CONTRADICTION
    assert extended["entailment"] is Gold.ENTAILMENT and extended["unk"] is Gold.NON_ENTAILMENT
    two_way = parse_labels("two-way,maybe=neutral")
    assert two_way["neutral"] is Gold.NON_ENTAILMENT and two_way["maybe"] is Gold.NEUTRAL
    with pytest.raises(SymcompError, match="did you mean 'neutral'"):
        parse_labels("x=nuetral")
    assert agrees(Gold.NON_ENTAILMENT, Label.CONTRADICTION)
    assert not agrees(Gold.NEUTRAL, Label.CONTRADICTION)
    assert agrees(Gold.CONTRADICTION, Label.CONTRADICTION)


def test_languages_choose_their_checker():
    monotonicity = checker_for(symcomp.get_language("monotonicity"), VerifyOptions())
    assert monotonicity.columns == ("premise", "hypothesis", "label")
    assert "portfolio prover" in monotonicity.name
    scan = checker_for(symcomp.get_language("scan"), VerifyOptions())
    assert isinstance(scan, RecomputeChecker)
    check = scan.check(Row(3, {"input": "walk"}))
    assert check.status is Status.INVALID and "missing or non-text field output" in check.message
    check = scan.check(Row(4, {"input": "walk", "output": "I_WALK", "meta": {"depth": 2}}))
    assert check.status is Status.AGREE and check.groups == (("depth", "2"),)


def test_sample_indices_are_seeded_and_bounded():
    assert sample_indices(100, 10, seed=1) == sample_indices(100, 10, seed=1)
    assert sample_indices(100, 10, seed=1) != sample_indices(100, 10, seed=2)
    assert sample_indices(5, 10, seed=0) == frozenset(range(5))


def test_verify_file_api(tmp_path):
    data = tmp_path / "pairs.tsv"
    data.write_text("Some dogs ran.\tSome animals ran.\tentailment\n")
    report = verify_file(data, symcomp.get_language("monotonicity"), VerifyOptions())
    assert report.rows == 1 and report.counts["agree"] == 1 and report.exit_code() == 0
    assert report.options["format"] == "tsv"
