"""Meaning as a Lark Transformer whose methods are named after the grammar's aliases.

A language's semantics is a subclass of :class:`Semantics`: for every alias (tree label) it has
a method taking the list of the node's already-interpreted children. Nodes with exactly one
child and no method pass that child's meaning through, so wrapper alternatives such as
``arg: func -> call`` need no code. :meth:`Semantics.render` turns the root meaning into the
output text written to datasets.

>>> from lark import Tree
>>> class Sum(Semantics):
...     def plus(self, children):
...         return children[0] + children[1]
...     def number(self, children):
...         return int(children[0])
>>> Sum().transform(Tree("plus", [Tree("number", ["2"]), Tree("number", ["3"])]))
5
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from lark import Transformer

from symcomp.errors import SemanticsError


class Semantics(Transformer[Any, Any]):
    """Base class of every language's meaning function (see the module docstring)."""

    # Terminal callbacks are not used; skipping them makes interpretation faster.
    __visit_tokens__ = False

    def __default__(self, data: str, children: list[Any], meta: Any) -> Any:
        if len(children) == 1:
            return children[0]
        raise SemanticsError(
            f"{type(self).__name__} has no method {data!r}, and node {data!r} has "
            f"{len(children)} children so its meaning cannot be passed through; add "
            f"`def {data}(self, children): ...`."
        )

    def render(self, meaning: Any) -> str:
        """The output text of a meaning: strings as they are, sequences joined by spaces."""
        if isinstance(meaning, str):
            return meaning
        if isinstance(meaning, Iterable):
            return " ".join(str(item) for item in meaning)
        return str(meaning)
