"""COGS against the published data (``../shared/peers/cogs``; skipped without it): every row
parses with the LALR(1) grammar and interprets to the published logical form byte for byte."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from symcomp.core.registry import get_language
from tests.conftest import read_tsv

SPLITS = ("train", "dev", "test", "gen")


def _rows(peers: Path, step: int) -> list[tuple[str, str, str, str]]:
    """(part, sentence, logical form, category): every ``step``-th row, every primitive and
    exposure row, and at least one row of every gen case."""
    rows = []
    for split in SPLITS:
        path = peers / "cogs" / f"{split}.tsv"
        if not path.is_file():
            pytest.skip(f"{path} is absent")
        for number, (sentence, lf, category) in enumerate(read_tsv(path)):
            keep = number % step == 0 or (category != "in_distribution" and split == "train")
            if keep or (split == "gen" and number % 1000 == 0):
                part = category if split == "gen" else split
                rows.append((part, sentence, lf, category))
    return rows


def _mismatches(rows: list[tuple[str, str, str, str]]) -> Counter[str]:
    language = get_language("cogs")
    wrong: Counter[str] = Counter()
    for part, sentence, lf, _category in rows:
        if language.interpret(sentence) != lf:
            wrong[part] += 1
    return wrong


def test_the_grammar_is_lalr1_without_conflicts() -> None:
    """No shift/reduce or reduce/reduce conflict: every sentence has at most one parse."""
    from lark.common import ParserConf
    from lark.parsers.lalr_analysis import LALR_Analyzer

    grammar = get_language("cogs").grammar
    assert grammar.parser_kind == "lalr"
    analyzer = LALR_Analyzer(ParserConf(grammar.lark.rules, {}, ["start"]), strict=True)
    analyzer.compute_lalr()  # type: ignore[no-untyped-call]  # raises on any conflict


def test_a_sample_of_every_part_gives_the_published_logical_forms(peers: Path) -> None:
    rows = _rows(peers, step=25)
    assert {part for part, *_ in rows} >= {"train", "dev", "test", "pp_recursion"}
    assert len({part for part, *_ in rows}) == 24  # train, dev, test and the 21 gen cases
    assert _mismatches(rows) == Counter()


@pytest.mark.slow
def test_every_published_row_gives_its_logical_form(peers: Path) -> None:
    rows = _rows(peers, step=1)
    assert len(rows) == 51_155
    assert _mismatches(rows) == Counter()
