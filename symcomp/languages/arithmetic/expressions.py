"""CobA expressions as values: nested ``(operator, left, right)`` tuples over natural integers,
their prefix and infix texts, values, operator counts and parities, and the decompositions of
a value that generation draws from.

>>> to_infix(("×", 2, ("+", 14, 3)))
'2 × (14 + 3)'
>>> value(("×", 2, ("+", 14, 3)))
34
"""

from __future__ import annotations

from typing import Any

from lark import Tree

ADD, MUL = "+", "×"
OPERATORS = {ADD: "add", MUL: "mul"}
VALUES = (1, 100)
Expr = int | tuple[str, "Expr", "Expr"]


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


def _kinds_and_splits(value: int) -> tuple[tuple[str, ...], dict[str, list[int]]]:
    splits = decompositions(value)
    return tuple(kind for kind in (ADD, MUL) if splits.get(kind)), splits


# every value a draw meets (1..100 and the parts they decompose into), computed once: drawing
# asked for them hundreds of thousands of times (read only; never change them)
SPLITS = {value: _kinds_and_splits(value) for value in range(VALUES[0], VALUES[1] + 1)}


def kinds_and_splits(value: int) -> tuple[tuple[str, ...], dict[str, list[int]]]:
    """The operators ``value`` decomposes by and the left operands of each (read only).

    >>> kinds_and_splits(7)
    (('+',), {'+': [1, 2, 3, 4, 5, 6], '×': []})
    """
    return SPLITS[value] if value in SPLITS else _kinds_and_splits(value)


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
