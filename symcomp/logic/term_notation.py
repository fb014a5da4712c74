"""The notation of λ-terms and formulas in lexicon and axiom files, read with a Lark grammar.

The notation is :mod:`nltk.sem.logic`'s (``\\x.dog(x)``, ``all x.(P(x) -> Q(x))``, ``-``,
``&``, ``|``, ``->``, ``<->``, ``=``, ``!=``), and it is read exactly as nltk reads it, its
quirks included, so that every file written for nltk means the same here. Reading it with
Lark instead of nltk saves every command that proves something the 1-2 s of importing nltk
(whose ``__init__`` imports scipy), most of a small ``symcomp verify``.

nltk's parser is a precedence climber: a construct parsed in a context takes the operators
that bind tighter than the context's. From tight to loose: λ, negation, application,
``=``/``!=``, quantifiers, ``&``, ``|``, ``->``, ``<->``. So a λ's body is one primary
(``\\x.P(x) & Q(x)`` is ``(\\x.P(x)) & Q(x)``), a negation's too, a quantifier's body takes
``=`` and application but not the connectives (``all x.P(x) & Q(x)`` is
``(all x.P(x)) & Q(x)``), and every binary connective groups to the left
(``a -> b -> c`` is ``(a -> b) -> c``). The grammar below has one rule per context; where a
prefix construct could stop or go on, the LALR parser shifts, which is nltk's greedy body.

Names are classified as nltk does: ``x``, ``y1`` (a lower-case letter but ``e``, then digits)
and ``e``, ``e2`` are individual and event variables, ``P``, ``Q3`` function variables, and
every other name a constant. ``tests/logic/test_term_notation.py`` checks this reader against
nltk's on every shipped file and on random terms.

>>> parse_term("\\\\P Q.exists x.(P(x) & Q(x))", "<doc>")[:2]
('lam', 'P')
>>> parse_term("all x.P(x) & Q(x)", "<doc>")[0]
'and'
"""

from __future__ import annotations

import functools
import re
from typing import Any

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedInput, VisitError

from symcomp.errors import GrammarError

# A term as symcomp.logic.lambda_terms evaluates it: ("lam", var, body), ("app", f, a),
# ("var", name), ("const", name), ("not", t), ("and" | "or", (t, u)),
# ("imp" | "iff" | "eq", t, u), ("all" | "exists", var, body).
LambdaTerm = tuple[Any, ...]

# e_N: what a construct parsed in context N takes (the operators of precedence below N). The
# words among the operators are keywords only as whole names (Lark retypes a NAME that is one),
# so `allx` stays a name, as in nltk.
GRAMMAR = r"""
?start: e10
?e10: e10 _iff e9 -> iff | e9
?e9: e9 _imp e8 -> imp | e8
?e8: e8 _or e7 -> or_ | e7
?e7: e7 _and e5 -> and_ | e5
?e5: e5 _eq e3 -> eq | e5 "!=" e3 -> neq | e3
?e3: e3 "(" e3 ("," e3)* ")" -> application | primary
?primary: NAME
        | NAME "(" e3 ("," e3)* ")" -> application
        | "(" e10 ")"
        | "\\" NAME+ "." primary -> lambda_
        | _not primary -> not_
        | _exists NAME+ "." e5 -> exists
        | _all NAME+ "." e5 -> all_
        | "iota" NAME+ "." e5 -> iota

_not: "-" | "!" | "not"
_and: "&" | "^" | "and"
_or: "|" | "or"
_imp: "->" | "=>" | "implies"
_iff: "<->" | "<=>" | "iff"
_eq: "=" | "=="
_exists: "exists" | "exist" | "some"
_all: "all" | "forall"

NAME: /[^\s\\.(),!&^|=<>-]+/

%import common.WS
%ignore WS
"""

_INDIVIDUAL = re.compile(r"[a-df-z]\d*|e\d*")  # individual and event variables
_FUNCTION = re.compile(r"[A-Z]\d*")


def is_variable(name: str) -> bool:
    """True for a name nltk reads as a variable (individual, event or function).

    >>> [is_variable(name) for name in ("x", "e2", "P", "dog", "ex", "Q1")]
    [True, True, True, False, False, True]
    """
    return bool(_INDIVIDUAL.fullmatch(name) or _FUNCTION.fullmatch(name))


@functools.cache
def _parser() -> Lark:
    return Lark(GRAMMAR, parser="lalr", lexer="contextual", propagate_positions=False)


def parse_term(text: str, where: str) -> LambdaTerm:
    """One term in :mod:`nltk.sem.logic` notation as a nested tuple (errors name ``where``
    and show the place with a caret)."""
    try:
        tree = _parser().parse(text)
    except UnexpectedInput as error:
        context = error.get_context(text, span=40).rstrip("\n")
        raise GrammarError(
            f"{where}: not a λ-term: unexpected input at column {error.column}:\n{context}\n"
            f"Write the term in nltk.sem.logic notation, e.g. \\x.exists y.(dog(y) & see(x, y))."
        ) from None
    try:
        term: LambdaTerm = _ToTerm().transform(tree)
    except VisitError as error:
        raise GrammarError(f"{where}: not a λ-term: {error.orig_exc}") from None
    return term


def _bound(names: tuple[LambdaTerm, ...], what: str) -> list[str]:
    for kind, name in names:
        if kind != "var":
            raise ValueError(f"{name!r} cannot be {what}: it is a constant, not a variable")
    return [name for _kind, name in names]


def _callable(function: LambdaTerm) -> LambdaTerm:
    kind = function[0]
    takes = kind in ("lam", "app", "const") or (
        kind == "var" and _FUNCTION.fullmatch(function[1]) is not None
    )
    if not takes:
        shown = f"the variable {function[1]!r}" if kind == "var" else f"a term of kind {kind!r}"
        raise ValueError(
            f"{shown} is given arguments, but only a λ, an application, a predicate name or a "
            f"function variable (P, Q1) takes them"
        )
    return function


def _binding(kind: str, names: tuple[LambdaTerm, ...], body: LambdaTerm, what: str) -> LambdaTerm:
    """``kind x y.body`` as ``kind x.kind y.body``."""
    for name in reversed(_bound(names, what)):
        body = (kind, name, body)
    return body


@v_args(inline=True)
class _ToTerm(Transformer[Token, LambdaTerm]):
    """The parse tree as the tuples of :mod:`symcomp.logic.lambda_terms`."""

    def NAME(self, token: Token) -> LambdaTerm:  # noqa: N802 (a terminal's callback)
        name = str(token)
        return ("var", name) if is_variable(name) else ("const", name)

    def application(self, function: LambdaTerm, *arguments: LambdaTerm) -> LambdaTerm:
        for argument in arguments:
            function = ("app", _callable(function), argument)
        return function

    def lambda_(self, *names_and_body: LambdaTerm) -> LambdaTerm:
        return _binding("lam", names_and_body[:-1], names_and_body[-1], "abstracted")

    def exists(self, *names_and_body: LambdaTerm) -> LambdaTerm:
        return _binding("exists", names_and_body[:-1], names_and_body[-1], "quantified")

    def all_(self, *names_and_body: LambdaTerm) -> LambdaTerm:
        return _binding("all", names_and_body[:-1], names_and_body[-1], "quantified")

    def iota(self, *names_and_body: LambdaTerm) -> LambdaTerm:
        raise ValueError("the iota operator is not supported (first-order formulas only)")

    def not_(self, body: LambdaTerm) -> LambdaTerm:
        return ("not", body)

    def and_(self, first: LambdaTerm, second: LambdaTerm) -> LambdaTerm:
        return ("and", (first, second))

    def or_(self, first: LambdaTerm, second: LambdaTerm) -> LambdaTerm:
        return ("or", (first, second))

    def imp(self, first: LambdaTerm, second: LambdaTerm) -> LambdaTerm:
        return ("imp", first, second)

    def iff(self, first: LambdaTerm, second: LambdaTerm) -> LambdaTerm:
        return ("iff", first, second)

    def eq(self, first: LambdaTerm, second: LambdaTerm) -> LambdaTerm:
        return ("eq", first, second)

    def neq(self, first: LambdaTerm, second: LambdaTerm) -> LambdaTerm:
        return ("not", ("eq", first, second))
