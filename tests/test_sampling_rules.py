"""Weighted lexicons, words in several classes, depth kinds, distinct-word constraints and
weight tables: the sidecar features every grammar author gets."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from symcomp.core.grammar import Grammar
from symcomp.core.sampler import Rejected, Sampler
from symcomp.core.sampling_rules import zeta, zipf_weights
from symcomp.core.sidecar import Sidecar
from symcomp.errors import GrammarError

TEXT = """\
start: NOUN VERB obj -> clause
     | NOUN VERB -> bare
obj: "the" PLACE -> plain
   | "the" PLACE pp -> modified
pp: "on" obj
NOUN: /[a-z]+/
VERB: /[a-z]+/
PLACE: /[a-z]+/
%ignore " "
"""


def _grammar(**sections: Any) -> Grammar:
    data = {
        "language": {"version": "1", "words_in_several_classes": True},
        "lexicon": {"NOUN": ["cat", "box"], "VERB": ["saw"], "PLACE": ["box", "mat"]},
        **sections,
    }
    return Grammar.from_text(TEXT, data, name="toy")


def _draws(sampler: Sampler, n: int, **kwargs: Any) -> tuple[list[Any], Counter[str]]:
    rng, found, rejected = random.Random(0), [], Counter[str]()
    for _ in range(n):
        try:
            found.append(sampler.sample(rng, **kwargs))
        except Rejected as rejection:
            rejected[rejection.reason] += 1
    return found, rejected


def test_zipf_weights_are_slogs() -> None:
    weights = zipf_weights(100, 1.4)
    assert abs(zeta(1.4) - 3.1055472779775) < 1e-12
    assert abs(sum(weights) - 1) < 1e-12
    leftover = (1 - sum(k**-1.4 / zeta(1.4) for k in range(1, 101))) / 100
    assert abs(weights[0] - (1 / zeta(1.4) + leftover)) < 1e-15


def test_a_word_in_two_classes_parses_by_its_context() -> None:
    grammar = _grammar()
    tree = grammar.parse("box saw the box on the mat")
    assert tree.children[0] == "box" and tree.children[2].children[0] == "box"
    assert grammar.parser_kind == "lalr"


def test_shared_words_are_parsed_as_written_unless_the_sidecar_asks() -> None:
    # monotonicity's terminals tell "a" (article, quantifier) apart themselves, by case and
    # lookahead: its grammar must reach the parser unchanged
    lexicon = {"NOUN": ["box"], "VERB": ["saw"], "PLACE": ["box"]}
    sidecar = {"language": {"version": "1"}, "lexicon": lexicon}
    grammar = Grammar.from_text(TEXT, sidecar, name="toy")
    assert grammar.lark_text == grammar.text
    assert _grammar().lark_text != _grammar().text


def test_sampled_trees_equal_the_parse_of_their_yield() -> None:
    grammar = _grammar()
    sampler = Sampler(grammar)
    for derivation in _draws(sampler, 200)[0]:
        assert grammar.parse(" ".join(derivation.tokens)) == derivation.tree


def test_weighted_words_follow_their_weights_and_unsampled_words_never_come() -> None:
    lexicon = {
        "NOUN": {"words": ["cat", "box"], "weights": [3, 1], "unsampled": ["hedgehog"]},
        "VERB": {"words": ["saw"], "zipf": 1.4},
        "PLACE": ["box", "mat"],
    }
    grammar = _grammar(lexicon=lexicon)
    counts = Counter(d.tokens[0] for d in _draws(Sampler(grammar), 2000)[0])
    assert counts["hedgehog"] == 0
    assert 0.70 < counts["cat"] / 2000 < 0.80
    assert grammar.parse("hedgehog saw").children == ["hedgehog", "saw"]


def test_a_depth_cap_rejects_deeper_draws_and_a_table_opens_a_window() -> None:
    grammar = _grammar(
        weights={"clause": 1, "bare": 0, "plain": 1, "modified": 1},
        depths={"pp": {"aliases": ["modified"], "max": 1}},
        tables={"deep": {"weights": {"plain": 0.2}, "depths": {"pp": {"min": 3, "max": 4}}}},
    )
    sampler = Sampler(grammar)
    found, rejected = _draws(sampler, 500)
    assert all(d.tokens.count("on") <= 1 for d in found) and rejected["pp_depth"] > 0
    table = grammar.sidecar.table("deep")
    tables = sampler.weighted_tables({**grammar.sidecar.weights, **table.weights})
    found, rejected = _draws(sampler, 500, tables=tables, windows=table.depths)
    assert {d.tokens.count("on") for d in found} == {3, 4}
    assert rejected["pp_depth_below_min"] > 0


def test_distinct_words_reject_a_repeated_noun() -> None:
    grammar = _grammar(constraints={"distinct": {"nouns": ["NOUN", "PLACE"]}})
    found, rejected = _draws(Sampler(grammar), 500)
    assert rejected["repeated_nouns"] > 0
    for derivation in found:
        nouns = [t for t in derivation.tokens if t in ("cat", "box", "mat")]
        assert len(nouns) == len(set(nouns))


@pytest.mark.parametrize(
    ("sections", "message"),
    [
        ({"lexicon": {"NOUN": {"words": ["a"], "weights": [1, 2]}}}, "one per word"),
        ({"lexicon": {"NOUN": {"words": ["a"], "zipf": 1}}}, "zipf must be a number > 1"),
        ({"depths": {"pp": {"aliases": ["nope"]}}}, "neither an alias nor a rule"),
        ({"constraints": {"distinct": {"n": ["NOPE"]}}}, "no word list"),
        ({"tables": {"t": {"weights": {"nope": 1}}}}, "unknown alias"),
        ({"tables": {"t": {"depths": {"cp": {"max": 2}}}}}, "not recursion kinds"),
    ],
)
def test_bad_sampling_rules_name_the_file_and_line(sections: dict[str, Any], message: str) -> None:
    with pytest.raises(GrammarError, match=message):
        _grammar(**sections)


def test_an_unknown_table_says_which_exist() -> None:
    sidecar = Sidecar.from_toml('[language]\nversion = "1"\n[tables.a]\n', "x.toml")
    with pytest.raises(GrammarError, match=r"no weight table 'b'.*tables: a"):
        sidecar.table("b")
