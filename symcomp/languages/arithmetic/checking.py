"""``symcomp verify`` for arithmetic data: every value recomputed with sympy, independently of
symcomp's own semantics.

>>> check_value("× 2 + 14 3", "34", notation="prefix").value
34
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from symcomp.core.registry import get_language
from symcomp.errors import DataError, ParseError
from symcomp.languages.arithmetic.expressions import ADD, MUL, VALUES, from_tree, to_infix

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
        infix = to_infix(from_tree(get_language("arithmetic").parse(text)))
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
                "`cross_check` compares provers; arithmetic values are checked "
                "with sympy alone. Drop `cross_check`."
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
