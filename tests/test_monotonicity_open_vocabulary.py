"""The open-vocabulary reader of `verify` (MED coverage) and its option."""

from __future__ import annotations

from pathlib import Path

import pytest

import symcomp
from symcomp.errors import ParseError
from symcomp.languages.monotonicity.open_reader import read_sentence
from symcomp.logic.fol import to_text
from symcomp.verify import VerifyOptions
from symcomp.verify.report import verify_file

MED = Path("/work/shared/peers/med_monotonicity/MED_crowd.tsv")
MED_COVERAGE_FLOOR = 0.29  # measured 1,250 / 4,068 = 30.7 %
MED_AGREEMENT_FLOOR = 0.82  # measured 1,056 / 1,250 = 84.5 % of parsed rows


def test_unknown_words_are_fresh_predicates() -> None:
    formula = to_text(read_sentence("Tom doesn't play soccer."))
    assert formula == "-exists x1.(n_soccer(x1) & v2_play(tom,x1))"


@pytest.mark.parametrize(
    "sentence", ["Tom did nothing but cry.", "Don't run.", "He ran, then sat."]
)
def test_outside_the_fragment_is_a_parse_error(sentence: str) -> None:
    with pytest.raises(ParseError):
        read_sentence(sentence)


def _verify(tmp_path: Path, rows: str, *, open_vocabulary: bool = True) -> dict[str, int]:
    path = tmp_path / "pairs.tsv"
    path.write_text("premise\thypothesis\tlabel\n" + rows, encoding="utf-8")
    language = symcomp.get_language("monotonicity")
    options = VerifyOptions(labels="two-way", open_vocabulary=open_vocabulary)
    return dict(verify_file(path, language, options).counts)


def test_structure_is_proved_with_open_vocabulary(tmp_path: Path) -> None:
    rows = (
        "I don't like horror movies.\tI don't like horror gore movies.\tentailment\n"
        "Tom has a red tie.\tTom has a tie.\tentailment\n"
        "Tom has a tie.\tTom has a red tie.\tneutral\n"
        "No dogs ran.\tNo small dogs ran.\tentailment\n"
    )
    assert _verify(tmp_path, rows) == {"agree": 4}
    assert _verify(tmp_path, rows, open_vocabulary=False) == {"unparsable": 3, "agree": 1}


@pytest.mark.skipif(not MED.exists(), reason="the MED data in /work/shared is absent")
def test_med_coverage_floor() -> None:
    language = symcomp.get_language("monotonicity")
    report = verify_file(MED, language, VerifyOptions(labels="two-way", open_vocabulary=True))
    counts = report.counts
    parsed = report.rows - counts["unparsable"]
    assert parsed / report.rows > MED_COVERAGE_FLOOR
    assert counts["agree"] / parsed > MED_AGREEMENT_FLOOR
