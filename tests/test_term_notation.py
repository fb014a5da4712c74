"""symcomp reads λ-terms in nltk.sem.logic notation with its own Lark grammar
(symcomp.logic.term_notation), so that a command need not import nltk: it must read every term
exactly as nltk does. Checked against nltk's own parser on every shipped lexicon and axiom,
and on random terms written with the fewest brackets (where precedence decides), with every
spelling of every operator."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from symcomp.errors import GrammarError
from symcomp.logic.lambda_terms import read_entries
from symcomp.logic.term_notation import parse_term

logic: ModuleType = pytest.importorskip("nltk.sem.logic")
PROVERS = Path(__file__).resolve().parents[1] / "provers"


def by_nltk(text: str) -> tuple[Any, ...] | None:
    """nltk's reading of ``text`` in symcomp's tuples; None where nltk refuses it."""
    try:
        return _tuples(logic.Expression.fromstring(text))
    except (logic.LogicalExpressionException, ValueError):
        return None


def by_symcomp(text: str) -> tuple[Any, ...] | None:
    try:
        return parse_term(text, "<test>")
    except GrammarError:
        return None


def _tuples(e: Any) -> tuple[Any, ...]:
    m = logic
    if isinstance(e, m.LambdaExpression):
        return ("lam", e.variable.name, _tuples(e.term))
    if isinstance(e, m.AllExpression | m.ExistsExpression):
        kind = "all" if isinstance(e, m.AllExpression) else "exists"
        return (kind, e.variable.name, _tuples(e.term))
    if isinstance(e, m.IotaExpression):
        raise ValueError("iota")  # symcomp refuses it too
    if isinstance(e, m.NegatedExpression):
        return ("not", _tuples(e.term))
    if isinstance(e, m.AndExpression | m.OrExpression):
        kind = "and" if isinstance(e, m.AndExpression) else "or"
        return (kind, (_tuples(e.first), _tuples(e.second)))
    binary = {m.ImpExpression: "imp", m.IffExpression: "iff", m.EqualityExpression: "eq"}
    if type(e) in binary:
        return (binary[type(e)], _tuples(e.first), _tuples(e.second))
    if isinstance(e, m.ApplicationExpression):
        return ("app", _tuples(e.function), _tuples(e.argument))
    if isinstance(e, m.ConstantExpression):
        return ("const", e.variable.name)
    return ("var", e.variable.name)


def shipped_terms() -> list[str]:
    """Every term of the lexicons and axioms in provers/."""
    terms = []
    for path in sorted(PROVERS.rglob("*.txt")):
        terms += [term for _, _, term in read_entries(path.read_text(), str(path))]
    return terms


def test_every_shipped_term_is_read_as_nltk_reads_it() -> None:
    terms = shipped_terms()
    assert len(terms) >= 287  # the monotonicity lexicon and axioms
    for term in terms:
        assert by_symcomp(term) == by_nltk(term) != None, term  # noqa: E711


NAMES = st.sampled_from(["x", "y2", "e", "e1", "P", "Q", "R1", "dog", "john", "ex", "allx"])
PREFIX = st.sampled_from(["\\", "all", "forall", "exists", "exist", "some", "-", "!", "not"])
BINARY = st.sampled_from(
    ["&", "^", "and", "|", "or", "->", "=>", "implies", "<->", "<=>", "iff", "=", "==", "!="]
)


@st.composite
def written(draw: st.DrawFn, depth: int = 0) -> str:
    """A term in nltk notation, brackets only where the draw put them (so that precedence
    decides), binders always with their dot."""
    leaf = depth >= 4 or draw(st.integers(0, 3)) == 0
    if leaf:
        return draw(NAMES)
    kind = draw(st.sampled_from(["prefix", "binary", "apply", "brackets"]))
    if kind == "prefix":
        symbol = draw(PREFIX)
        if symbol in ("-", "!", "not"):
            return f"{symbol}{' ' if symbol == 'not' else ''}{draw(written(depth + 1))}"
        names = " ".join(draw(st.lists(NAMES, min_size=1, max_size=2)))
        return f"{symbol}{'' if symbol == chr(92) else ' '}{names}.{draw(written(depth + 1))}"
    if kind == "binary":
        return f"{draw(written(depth + 1))} {draw(BINARY)} {draw(written(depth + 1))}"
    if kind == "apply":
        arguments = draw(st.lists(written(depth + 1), min_size=1, max_size=2))
        return f"{draw(written(depth + 1))}({', '.join(arguments)})"
    return f"({draw(written(depth + 1))})"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(written())
def test_random_terms_are_read_as_nltk_reads_them(text: str) -> None:
    assert by_symcomp(text) == by_nltk(text), text


P_OF_X, Q_OF_X = ("app", ("var", "P"), ("var", "x")), ("app", ("var", "Q"), ("var", "x"))


@pytest.mark.parametrize(
    ("text", "reading"),
    [
        ("all x.P(x) & Q(x)", ("and", (("all", "x", P_OF_X), Q_OF_X))),
        ("a -> b -> c", ("imp", ("imp", ("var", "a"), ("var", "b")), ("var", "c"))),
        ("allx", ("const", "allx")),
    ],
)
def test_the_quirks_of_nltk_precedence(text: str, reading: tuple[Any, ...]) -> None:
    assert parse_term(text, "<test>") == reading == by_nltk(text)


def test_a_bad_term_names_its_place_with_a_caret() -> None:
    with pytest.raises(GrammarError) as caught:
        parse_term("\\x.dog(x) &", "lexicon.txt:3")
    message = str(caught.value)
    assert message.startswith("lexicon.txt:3: not a λ-term")
    assert "^" in message


def test_a_constant_cannot_be_bound() -> None:
    with pytest.raises(GrammarError, match="'dog' cannot be quantified"):
        parse_term("all dog.P(dog)", "<test>")
