"""Exact numeral quantifiers: meanings that count distinct witnesses.

``at least n A B`` holds when n pairwise distinct individuals are both A and B (the counting
quantifier of :mod:`symcomp.logic.fol`, written out with ordinary quantifiers and equality for
the provers); the other numerals are defined from it:

=====================  ==================================
``at least n``         at least n
``more than n``        at least n + 1
``at most n``          not at least n + 1
``less than n``        not at least n (also ``fewer than n``)
``exactly n``          at least n and not at least n + 1
``several``            at least 2 (the paper's bare plural, its ``emptydet``)
=====================  ==================================

Number words run from one to ten. The meanings are values of :mod:`symcomp.logic.lambda_terms`
(a λ-term cannot count), added to ``provers/monotonicity/lexicon.txt`` when it is read.

>>> from symcomp.logic.fol import to_text
>>> from symcomp.logic.lambda_terms import apply, to_formula
>>> dogs, ran = (lambda x: ("pred", "dog", (x,))), (lambda x: ("pred", "ran", (x,)))
>>> to_text(to_formula(apply(apply(numeral_value("more than one"), dogs), ran)))
'exists x1.exists x2.(-(x2 = x1) & dog(x1) & ran(x1) & dog(x2) & ran(x2))'
>>> to_text(to_formula(apply(apply(numeral_value("fewer than one"), dogs), ran)))
'-exists x1.(dog(x1) & ran(x1))'
>>> numeral_value("some") is None
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from symcomp.logic.lambda_terms import Value, apply, counting

NUMBERS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
RELATIONS = ("at least", "more than", "at most", "less than", "fewer than", "exactly")
CARDINAL_WORDS = {"several": ("at least", 2)}


def parse_numeral(phrase: str) -> tuple[str, int] | None:
    """``(relation, n)`` of a numeral phrase, or None for any other word.

    >>> parse_numeral("At most three"), parse_numeral("several")
    (('at most', 3), ('at least', 2))
    """
    phrase = phrase.lower()
    if phrase in CARDINAL_WORDS:
        return CARDINAL_WORDS[phrase]
    relation, _space, number = phrase.rpartition(" ")
    if relation not in RELATIONS or number not in NUMBERS:
        return None
    return relation, NUMBERS.index(number) + 1


def numeral_value(phrase: str) -> Value | None:
    """The meaning of a numeral phrase (None when ``phrase`` is not one)."""
    parsed = parse_numeral(phrase)
    if parsed is None:
        return None
    relation, n = parsed
    if relation == "at least":
        return counting(n)
    if relation == "more than":
        return counting(n + 1)
    if relation == "at most":
        return _negated(counting(n + 1))
    if relation == "exactly":
        return _both(counting(n), _negated(counting(n + 1)))
    return _negated(counting(n))  # less than, fewer than


def numeral_values(words: Iterable[str]) -> dict[str, Value]:
    """Word → meaning for every numeral phrase among ``words``."""
    found = {word.lower(): numeral_value(word) for word in words}
    return {word: value for word, value in found.items() if value is not None}


def _negated(quantifier: Value) -> Callable[[Any], Callable[[Any], Any]]:
    return lambda first: lambda second: ("not", apply(apply(quantifier, first), second))


def _both(one: Value, other: Value) -> Callable[[Any], Callable[[Any], Any]]:
    def meaning(first: Any) -> Callable[[Any], Any]:
        return lambda second: (
            "and",
            (apply(apply(one, first), second), apply(apply(other, first), second)),
        )

    return meaning
