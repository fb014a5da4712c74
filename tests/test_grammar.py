import pytest

from symcomp.core.grammar import Grammar
from symcomp.errors import GrammarError, ParseError

BASE = {"language": {"version": "1"}, "lexicon": {"WORD": ["cat", "dog"]}}
TAIL = 'WORD: /[a-z]+/\n%ignore " "\n'


def grammar(text: str, sidecar: dict[str, object] | None = None) -> Grammar:
    return Grammar.from_text(text + TAIL, sidecar or BASE, name="toy", source="toy.lark")


def test_unnamed_alternative_is_rejected_with_file_line_and_fix():
    with pytest.raises(GrammarError, match=r"toy.lark:2: alternative 2 of rule 'start'.*no alias"):
        grammar('start: "a" WORD -> a_word\n     | "b" WORD\n')


def test_duplicate_alias_names_both_places():
    with pytest.raises(GrammarError, match=r"toy.lark:3: alias 'x' is used twice.*line 1"):
        grammar('start: "a" t -> x\n     | "b" t -> y\nt: WORD -> x\n | "z" -> z\n')


def test_alias_equal_to_a_rule_name_is_rejected():
    with pytest.raises(GrammarError, match="also the name of the rule"):
        grammar('start: "a" t -> t\n     | "b" -> b\nt: WORD\n')


def test_weights_for_unknown_alias_suggest_the_closest():
    sidecar = {**BASE, "weights": {"frist": 1.0, "second": 1.0}}
    with pytest.raises(GrammarError, match=r"unknown alias 'frist' \(did you mean 'first'\?\)"):
        grammar('start: "a" WORD -> first\n     | "b" WORD -> second\n', sidecar)


def test_zero_sum_and_partial_weights_are_rejected():
    text = 'start: "a" WORD -> first\n     | "b" WORD -> second\n'
    with pytest.raises(GrammarError, match="sum to zero"):
        grammar(text, {**BASE, "weights": {"first": 0, "second": 0}})
    with pytest.raises(GrammarError, match=r"not for \['second'\]"):
        grammar(text, {**BASE, "weights": {"first": 1}})


def test_weight_errors_name_the_toml_line():
    from symcomp.core.sidecar import Sidecar

    sidecar = Sidecar.from_toml(
        '[language]\nversion = "1"\n[lexicon]\nWORD = ["cat"]\n[weights]\nfirst = 0\nsecond = 0\n',
        "toy.toml",
    )
    with pytest.raises(GrammarError, match=r"toy.toml:6:"):
        Grammar('start: "a" WORD -> first\n     | "b" WORD -> second\n' + TAIL, sidecar, name="toy")


def test_lexicon_words_must_match_their_terminal():
    with pytest.raises(GrammarError, match=r"word 'Cat' does not match WORD"):
        grammar("start: WORD\n", {**BASE, "lexicon": {"WORD": ["Cat"]}})


def test_pattern_terminals_need_a_lexicon():
    with pytest.raises(GrammarError, match=r"WORD .* has no word list"):
        grammar("start: WORD\n", {"language": {"version": "1"}})


def test_lexicon_for_unknown_or_literal_terminal():
    with pytest.raises(GrammarError, match="terminal 'WROD', which no rule"):
        grammar("start: WORD\n", {**BASE, "lexicon": {"WORD": ["cat"], "WROD": ["x"]}})


def test_grammar_must_ignore_spaces():
    with pytest.raises(GrammarError, match="must ignore spaces"):
        Grammar.from_text('start: "a"\n', {"language": {"version": "1"}}, name="toy")


def test_malformed_grammar_is_a_grammar_error():
    with pytest.raises(GrammarError, match=r"toy.lark: Lark cannot compile"):
        grammar("start: undefined_rule\n")


def test_templates_are_refused():
    with pytest.raises(GrammarError, match="template"):
        grammar("start: pair{WORD}\npair{x}: x x\n")


def test_unknown_names_in_other_sections():
    with pytest.raises(GrammarError, match=r"\[metrics\] names 'nope'"):
        grammar("start: WORD\n", {**BASE, "metrics": {"functions": ["nope"]}})


def test_lalr_when_possible_earley_otherwise():
    assert grammar('start: "a" WORD -> x\n     | "b" WORD -> y\n').parser_kind == "lalr"
    # unambiguous but needs two tokens of lookahead: a reduce/reduce conflict for LALR(1)
    lookahead2 = 'start: p "x" "z" -> one\n     | q "x" "y" -> two\np: WORD\nq: WORD\n'
    g = grammar(lookahead2)
    assert g.parser_kind == "earley"
    assert g.parse("cat x y").data == "two"


def test_parse_error_shows_a_caret_under_the_offending_token():
    g = grammar('start: "go" WORD -> go\n     | "stop" -> stop\n')
    with pytest.raises(ParseError) as info:
        g.parse("stop cat")
    message = str(info.value)
    assert "not valid toy input: unexpected 'cat' at line 1, column 6" in message
    assert "    stop cat\n         ^" in message
    assert "toy.lark" in message
    with pytest.raises(ParseError, match="ends too early"):
        g.parse("go")
    with pytest.raises(ParseError, match="unexpected character '%'"):
        g.parse("go %")
