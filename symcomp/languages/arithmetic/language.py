"""CobA arithmetic expressions: generation by value decomposition, values, infix, sympy checks.

Generation follows the paper: draw a natural integer in 1..100; decompose it as the sum or the
product of two integers (primes and 1 have no product decomposition; 1 has no sum of naturals
either); decompose each part again, or keep it, with probability ``p`` (0.5). Here the drawn
value itself is decomposed with the same probability, so expressions have 0..9 operators (the
upper bound is the sidecar's ``max_length`` of 19 tokens). A sum ``n = a + b`` takes ``a``
uniform in 1..n-1; a product takes ``a`` uniform among the divisors 2..n/2; sum or product is a
fair coin when both exist. Written in prefix notation, one token per integer or operator.

>>> arithmetic = build()
>>> arithmetic.interpret("× 2 + 14 3")
'34'
>>> to_infix(from_tree(arithmetic.parse("× 2 + 14 3")))
'2 × (14 + 3)'
>>> check_value("× 2 + 14 3", "34", notation="prefix").value
34
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from lark import Tree

from symcomp.core.language import Language
from symcomp.core.resources import load_grammar
from symcomp.core.sampler import Derivation, Rejected, Table
from symcomp.core.semantics import Semantics
from symcomp.errors import DataError, ParseError

if TYPE_CHECKING:
    from symcomp.suites.builder import SuiteBuilder
    from symcomp.verify import Checker, VerifyOptions

NAME = "arithmetic"
ADD, MUL = "+", "×"
OPERATORS = {ADD: "add", MUL: "mul"}
VALUES = (1, 100)
Expr = int | tuple[str, "Expr", "Expr"]


class ArithmeticSemantics(Semantics):
    """The value of an expression."""

    def number(self, children: list[str]) -> int:
        return int(children[0])

    def add(self, children: list[int]) -> int:
        return children[0] + children[1]

    def mul(self, children: list[int]) -> int:
        return children[0] * children[1]

    def render(self, meaning: int) -> str:
        return str(meaning)


class Arithmetic(Language):
    """CobA's language with its value-driven generator."""

    decompose_probability = 0.5

    def suite_builder(self) -> SuiteBuilder:
        """``symcomp suite arithmetic``: :mod:`symcomp.languages.arithmetic.suite`."""
        from symcomp.languages.arithmetic.suite import suite_builder

        return suite_builder()

    def make_checker(self, options: VerifyOptions) -> Checker | None:
        """``symcomp verify`` checks arithmetic data with sympy (see :class:`ArithmeticChecker`)."""
        return ArithmeticChecker(options)

    def derive(
        self,
        rng: random.Random,
        *,
        tables: Mapping[str, Table] | None = None,
        used: AbstractSet[Hashable] = frozenset(),
        max_length: int | None = None,
    ) -> Derivation:
        value = VALUES[0] + int(rng.random() * (VALUES[1] - VALUES[0] + 1))
        tokens: list[str] = []
        limit = max_length if max_length is not None else 1 << 30
        tree = self._decompose(value, rng, tokens, limit)
        return Derivation(Tree("start", [tree]), tokens)

    def _decompose(
        self, value: int, rng: random.Random, tokens: list[str], limit: int
    ) -> Tree[Any]:
        if len(tokens) >= limit:
            raise Rejected("length")
        splits = decompositions(value)
        if not splits or rng.random() >= self.decompose_probability:
            tokens.append(str(value))
            return Tree("number", [str(value)])
        kinds = [kind for kind in (ADD, MUL) if splits.get(kind)]
        kind = kinds[int(rng.random() * len(kinds))]
        options = splits[kind]
        left = options[int(rng.random() * len(options))]
        right = value - left if kind == ADD else value // left
        tokens.append(kind)
        return Tree(
            OPERATORS[kind],
            [self._decompose(left, rng, tokens, limit), self._decompose(right, rng, tokens, limit)],
        )


def decompositions(value: int) -> dict[str, list[int]]:
    """Left operands of the sum and product decompositions of ``value``.

    >>> decompositions(6)
    {'+': [1, 2, 3, 4, 5], '×': [2, 3]}
    >>> decompositions(7)['×'], decompositions(1)
    ([], {})
    """
    if value < 2:
        return {}
    return {
        ADD: list(range(1, value)),
        MUL: [a for a in range(2, value // 2 + 1) if value % a == 0],
    }


# -- expressions as plain data --------------------------------------------------------------


def from_tree(tree: Tree[Any]) -> Expr:
    """An expression tree as nested tuples ``(operator, left, right)`` of ints."""
    node = tree.children[0] if tree.data == "start" else tree
    assert isinstance(node, Tree)
    if node.data == "number":
        return int(str(node.children[0]))
    left, right = (from_tree(child) for child in node.children if isinstance(child, Tree))
    return (ADD if node.data == "add" else MUL, left, right)


def to_prefix(expr: Expr) -> str:
    """Prefix notation, one token per integer or operator.

    >>> to_prefix(("×", 2, ("+", 14, 3)))
    '× 2 + 14 3'
    """
    if isinstance(expr, int):
        return str(expr)
    operator, left, right = expr
    return f"{operator} {to_prefix(left)} {to_prefix(right)}"


def to_infix(expr: Expr) -> str:
    """Infix with the parentheses the structure needs (× binds tighter; a right operand with
    the same operator is bracketed so the written structure is the tree's).

    >>> to_infix(("+", ("+", 1, 2), ("+", 3, 4)))
    '1 + 2 + (3 + 4)'
    """
    if isinstance(expr, int):
        return str(expr)
    operator, left, right = expr

    def wrap(side: Expr, is_right: bool) -> str:
        text = to_infix(side)
        if isinstance(side, int):
            return text
        loose = operator == MUL and side[0] == ADD
        return f"({text})" if loose or (is_right and side[0] == operator) else text

    return f"{wrap(left, False)} {operator} {wrap(right, True)}"


def value(expr: Expr) -> int:
    if isinstance(expr, int):
        return expr
    operator, left, right = expr
    return value(left) + value(right) if operator == ADD else value(left) * value(right)


def operators(expr: Expr) -> int:
    return 0 if isinstance(expr, int) else 1 + operators(expr[1]) + operators(expr[2])


def numbers(expr: Expr) -> list[int]:
    return [expr] if isinstance(expr, int) else numbers(expr[1]) + numbers(expr[2])


def operator_kinds(expr: Expr) -> str:
    """``none``, ``add``, ``mul`` or ``both``: which operators occur."""
    found: set[str] = set()
    stack = [expr]
    while stack:
        node = stack.pop()
        if not isinstance(node, int):
            found.add(node[0])
            stack += [node[1], node[2]]
    return {frozenset(): "none", frozenset({ADD}): "add", frozenset({MUL}): "mul"}.get(
        frozenset(found), "both"
    )


def parity(expr: Expr) -> str:
    """``odd``, ``even`` or ``mixed``: the parities of the integers written."""
    kinds = {n % 2 for n in numbers(expr)}
    return "mixed" if len(kinds) == 2 else ("odd" if 1 in kinds else "even")


# -- checking values with sympy -------------------------------------------------------------


@dataclass(frozen=True)
class ValueCheck:
    """The result of checking one (expression, value) pair."""

    expression: str
    claimed: str
    value: int
    infix: str

    @property
    def agrees(self) -> bool:
        return self.claimed.strip() == str(self.value)


def sympy_value(infix: str) -> int:
    """The value of an infix expression computed by sympy (independently of symcomp)."""
    from sympy import Integer
    from sympy.parsing.sympy_parser import parse_expr

    result = parse_expr(infix.replace(MUL, "*"), evaluate=True)
    if not isinstance(result, Integer):
        raise DataError(f"{infix!r} does not evaluate to an integer (got {result}).")
    return int(result)


def check_value(expression: str, claimed: str, *, notation: str = "prefix") -> ValueCheck:
    """Check a claimed value with sympy; errors show the position of a malformed expression.

    Raises
    ------
    ParseError
        For a malformed expression (wrong arity, unknown token), with a caret.
    DataError
        For an expression or claimed value outside the language (values are 1..100).
    """
    if notation == "prefix":
        text = expression.replace("*", MUL)
        infix = to_infix(from_tree(get_arithmetic().parse(text)))
    elif notation == "infix":
        infix = _checked_infix(expression)
    else:
        raise DataError(f"unknown notation {notation!r}; use prefix or infix.")
    result = sympy_value(infix)
    if not VALUES[0] <= result <= VALUES[1]:
        raise DataError(
            f"{expression!r} has value {result}, outside the language's {VALUES[0]}..{VALUES[1]}."
        )
    return ValueCheck(expression, claimed, result, infix)


def _checked_infix(expression: str) -> str:
    allowed = set("0123456789+*() ×")
    for position, character in enumerate(expression):
        if character not in allowed:
            raise ParseError(
                f"not an arithmetic expression: unexpected character {character!r} at column "
                f"{position + 1}\n    {expression}\n    {' ' * position}^\n"
                f"Infix expressions use integers, +, × (or *) and parentheses."
            )
    return expression


def notation_of(expression: str) -> str:
    """``prefix`` when the expression starts with an operator or is a single number, else
    ``infix``.

    >>> notation_of("× 2 + 14 3"), notation_of("2 × (14 + 3)"), notation_of("7")
    ('prefix', 'infix', 'prefix')
    """
    tokens = expression.split()
    if not tokens or tokens[0] in (ADD, MUL, "*") or len(tokens) == 1:
        return "prefix"
    return "infix"


class ArithmeticChecker:
    """``symcomp verify`` for arithmetic data: each row's value is recomputed with sympy.

    A row holds an expression (``input``, or ``expression``) in prefix or infix notation and a
    claimed value (``output``, or ``value``); TSV rows without header are ``expression<TAB>
    value``. Malformed expressions are unparsable (with a caret), values outside 1..100 invalid.
    """

    columns: tuple[str, ...] = ("input", "output")
    name = "sympy (value of the expression)"

    def __init__(self, options: Any) -> None:
        from symcomp.errors import SymcompError

        if getattr(options, "cross_check", None):
            raise SymcompError(
                "--cross-check compares provers; arithmetic values are checked "
                "with sympy alone. Drop --cross-check."
            )

    def check(self, row: Any, *, cross_check: bool = False) -> Any:
        from symcomp.verify import Check, Status, invalid, row_id

        if row.error:
            return invalid(row, row.error)
        identifier = row_id(row.fields, row.line)
        expression = row.fields.get("input", row.fields.get("expression"))
        claimed = row.fields.get("output", row.fields.get("value"))
        if expression is None or claimed is None:
            return invalid(
                row, "a row needs an expression (input) and a value (output)", identifier
            )
        expression, claimed = str(expression), str(claimed)
        base = Check(
            row.line, identifier, Status.AGREE, claimed, texts=(("expression", expression),)
        )
        try:
            result = check_value(expression, claimed, notation=notation_of(expression))
        except ParseError as error:
            return replace_check(base, status=Status.UNPARSABLE, message=f"expression: {error}")
        except DataError as error:
            return replace_check(base, status=Status.INVALID, message=str(error))
        status = Status.AGREE if result.agrees else Status.DISAGREE
        return replace_check(
            base,
            status=status,
            found=str(result.value),
            groups=(("operators", str(result.infix.count(ADD) + result.infix.count(MUL))),),
        )


def replace_check(check: Any, **changes: Any) -> Any:
    from dataclasses import replace

    return replace(check, **changes)


def get_arithmetic() -> Arithmetic:
    """The registered arithmetic language (built once)."""
    from symcomp.core.registry import get_language

    language = get_language(NAME)
    assert isinstance(language, Arithmetic)
    return language


def build() -> Arithmetic:
    """The ``arithmetic`` language from the packaged grammar."""
    return Arithmetic(NAME, load_grammar(NAME, "arithmetic"), ArithmeticSemantics)
