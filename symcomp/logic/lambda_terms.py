"""λ-term lexicons: word → term and rule alias → combinator, composed by β-reduction.

A lexicon file (``provers/<language>/lexicon.txt``) has one ``KEY: TERM`` entry per line in
:mod:`nltk.sem.logic` notation; ``#`` starts a comment. A key is a word or phrase of the
grammar, or ``@alias`` for the combinator of a grammar rule, which is applied to the
meanings of the node's children in order.

:mod:`symcomp.logic.term_notation` reads the terms (as nltk would, without importing it);
β-reduction is done here, by *normalisation by evaluation*: a closed
term is evaluated once into a value (a λ becomes a Python function, everything else stays
syntax), application is a function call, and a value of type t is read back as a
first-order formula (:mod:`symcomp.logic.fol`) with canonical variable names. Every bound
variable gets a fresh name while evaluating, so no capture can happen; this is exact
β-normalisation for the simply typed terms of a lexicon, and much faster than re-simplifying
nltk expressions at every node.

>>> lexicon = LambdaLexicon.from_text(
...     "some: \\\\P Q.exists x.(P(x) & Q(x))\\ndog: \\\\x.dog(x)\\nran: \\\\x.ran(x)\\n"
...     "@np: \\\\D N.D(N)\\n", source="<doc>")
>>> noun_phrase = lexicon.combine("np", [lexicon.word("some"), lexicon.word("dog")])
>>> to_formula(apply(noun_phrase, lexicon.word("ran")))
('exists', 'x1', ('and', (('pred', 'dog', (('var', 'x1'),)), ('pred', 'ran', (('var', 'x1'),)))))
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from symcomp._util import did_you_mean
from symcomp.errors import GrammarError, SemanticsError
from symcomp.logic.fol import Formula, Term, canonical
from symcomp.logic.term_notation import LambdaTerm, parse_term

# A term (symcomp.logic.term_notation.LambdaTerm) is a nested tuple: ("lam", var, body),
# ("app", f, a), ("var", name), ("const", name), or a connective as in symcomp.logic.fol
# ("not", "and", "or", "imp", "iff", "eq", "all", "exists") over terms. A value is a Python
# function (an evaluated λ) or a first-order formula / term tuple.
Value = Any
COMBINATOR_PREFIX = "@"
_fresh = itertools.count()


@dataclass(frozen=True)
class LambdaLexicon:
    """Evaluated λ-terms of words and rule combinators.

    Attributes
    ----------
    words : mapping
        Lower-cased word or phrase → value.
    combinators : mapping
        Rule alias → value applied to the children's meanings.
    source : str
        Where the entries come from (a path), for messages.
    """

    words: Mapping[str, Value]
    combinators: Mapping[str, Value]
    source: str

    def with_words(self, extra: Mapping[str, Value]) -> LambdaLexicon:
        """This lexicon with more word values (made in Python, e.g. counting quantifiers)."""
        twice = sorted(set(extra) & set(self.words))
        if twice:
            raise GrammarError(f"{self.source}: {twice} are defined twice; keep one entry each.")
        return LambdaLexicon({**self.words, **extra}, self.combinators, self.source)

    @classmethod
    def from_text(cls, text: str, *, source: str) -> LambdaLexicon:
        """Parse a lexicon file's text; errors name ``source`` and the line."""
        words: dict[str, Value] = {}
        combinators: dict[str, Value] = {}
        for number, key, term in read_entries(text, source):
            target = combinators if key.startswith(COMBINATOR_PREFIX) else words
            name = key.removeprefix(COMBINATOR_PREFIX)
            if name in target:
                raise GrammarError(
                    f"{source}:{number}: {key!r} is defined twice; keep one entry per key."
                )
            target[name] = evaluate(parse_term(term, f"{source}:{number}"))
        return cls(words, combinators, source)

    def word(self, text: str) -> Value:
        """The meaning of a word or phrase (case-insensitive)."""
        key = text.lower()
        if key not in self.words:
            raise SemanticsError(
                f"{self.source}: no λ-term for the word {text!r}"
                f"{did_you_mean(key, list(self.words))}; add a line `{key}: TERM`."
            )
        return self.words[key]

    def combine(self, alias: str, children: Iterable[Value]) -> Value:
        """The combinator of ``alias`` applied to ``children`` in order."""
        if alias not in self.combinators:
            raise SemanticsError(
                f"{self.source}: no combinator for rule {alias!r}; add a line "
                f"`{COMBINATOR_PREFIX}{alias}: TERM`."
            )
        value = self.combinators[alias]
        for child in children:
            value = apply(value, child)
        return value


def read_entries(text: str, source: str) -> Iterable[tuple[int, str, str]]:
    """``(line, key, term)`` of every ``KEY: TERM`` line; keys are lower-cased."""
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        key, colon, term = line.partition(":")
        if not colon or not key.strip() or not term.strip():
            raise GrammarError(f"{source}:{number}: expected `KEY: TERM`, got {raw.strip()!r}.")
        yield number, key.strip().lower(), term.strip()


def read_named_formulas(text: str, *, source: str) -> tuple[tuple[str, Formula], ...]:
    """``NAME: FORMULA`` lines (an axioms file) as named formulas; errors name the line."""
    found: dict[str, Formula] = {}
    for number, name, term in read_entries(text, source):
        if name in found:
            raise GrammarError(f"{source}:{number}: the name {name!r} is used twice.")
        try:
            found[name] = parse_formula(term, f"{source}:{number}")
        except SemanticsError as error:
            raise GrammarError(f"{source}:{number}: {error}") from None
    return tuple(found.items())


def parse_formula(text: str, where: str = "<formula>") -> Formula:
    """A closed first-order formula written in :mod:`nltk.sem.logic` notation.

    >>> parse_formula("all x.(dog(x) -> animal(x))")
    ('all', 'x1', ('imp', ('pred', 'dog', (('var', 'x1'),)), ('pred', 'animal', (('var', 'x1'),))))
    """
    return to_formula(evaluate(parse_term(text, where)))


# -- normalisation by evaluation ----------------------------------------------------------------


def evaluate(term: LambdaTerm, env: Mapping[str, Value] | None = None) -> Value:
    """The value of a term; free variables must be bound in ``env``."""
    env = env or {}
    kind = term[0]
    if kind == "var":
        if term[1] not in env:
            raise SemanticsError(f"the variable {term[1]} is free in a lexicon term.")
        return env[term[1]]
    if kind == "const":
        return ("pred", term[1], ())
    if kind == "lam":
        return _closure(term[1], term[2], env)
    if kind == "app":
        return apply(evaluate(term[1], env), evaluate(term[2], env))
    if kind in ("all", "exists"):
        fresh = f"v{next(_fresh)}"
        return (kind, fresh, evaluate(term[2], {**env, term[1]: ("var", fresh)}))
    if kind == "not":
        return ("not", _formula(evaluate(term[1], env)))
    if kind in ("and", "or"):
        return junction(kind, [_formula(evaluate(part, env)) for part in term[1]])
    if kind == "eq":
        return ("eq", _term(evaluate(term[1], env)), _term(evaluate(term[2], env)))
    return (kind, _formula(evaluate(term[1], env)), _formula(evaluate(term[2], env)))


def junction(kind: str, parts: Iterable[Formula]) -> Formula:
    """``and``/``or`` of ``parts``, flattened; a conjunct ``t = t`` is true and dropped (so
    ``λx.(x = x)`` can stand for "any thing")."""
    flat: list[Formula] = []
    for part in parts:
        flat.extend(part[1] if part[0] == kind else (part,))
    if kind == "and":
        kept = [part for part in flat if not (part[0] == "eq" and part[1] == part[2])]
        flat = kept or flat[:1]
        if len(flat) == 1:
            return flat[0]
    return (kind, tuple(flat))


def counting(n: int) -> Value:
    """The quantifier "at least n": λP.λQ.count(n, x, P(x) ∧ Q(x)) (see :mod:`symcomp.logic.fol`).

    >>> dog, ran = (lambda x: ("pred", "dog", (x,))), (lambda x: ("pred", "ran", (x,)))
    >>> to_formula(apply(apply(counting(3), dog), ran))[:3]
    ('count', 3, 'x1')
    """

    def restrictor(first: Value) -> Value:
        def scope(second: Value) -> Formula:
            name = f"v{next(_fresh)}"
            variable = ("var", name)
            body = junction(
                "and", [_formula(apply(first, variable)), _formula(apply(second, variable))]
            )
            return ("count", n, name, body)

        return scope

    return restrictor


def _closure(name: str, body: LambdaTerm, env: Mapping[str, Value]) -> Callable[[Value], Value]:
    def function(argument: Value) -> Value:
        return evaluate(body, {**env, name: argument})

    return function


def apply(function: Value, argument: Value) -> Value:
    """``function(argument)``, β-reduced."""
    if callable(function):
        return function(argument)
    if isinstance(function, tuple) and function[0] == "pred":
        return ("pred", function[1], (*function[2], _term(argument)))
    raise SemanticsError(f"cannot apply {_show(function)} to an argument: the types do not fit.")


def to_formula(value: Value) -> Formula:
    """The first-order formula of a value of type t, with canonical variable names."""
    return canonical(_formula(value))


def _formula(value: Value) -> Formula:
    if callable(value) or not isinstance(value, tuple) or value[0] in ("var", "const"):
        raise SemanticsError(
            f"expected a formula, got {_show(value)}: a λ-term is not fully applied; check "
            f"the types of the lexicon entries."
        )
    return value


def _term(value: Value) -> Term:
    if isinstance(value, tuple) and value[0] == "var":
        return ("var", value[1])
    if isinstance(value, tuple) and value[0] == "pred" and not value[2]:
        return ("const", value[1])
    raise SemanticsError(f"expected an individual, got {_show(value)}.")


def _show(value: Value) -> str:
    return "a function" if callable(value) else repr(value)
