"""PCFG-LET (Neely & Talha 2020, "LET's Test Compositionality"): list-edit programs.

Two languages with one grammar, one consistent choice per function each:

``pcfg-let`` (the paper's Figure 2)
    lists of integers, ``E`` the empty list everywhere (also inside a literal list, where it
    contributes nothing). ``min`` / ``max``: the singleton of the smallest / largest item;
    ``mirror``: each half reversed in place, an odd list's middle item kept in the middle
    (``x1 x2 .. xc .. xn-1 xn -> .. x2 x1 xc xn xn-1 ..``); every other function returns a set,
    written in order of first occurrence: ``remove_repeated`` the items occurring once,
    ``remove_unique`` those occurring at least twice, ``filter x , y`` = {x} minus {y},
    ``union`` {x} ∪ {y}, ``intersection`` {x} ∩ {y}, ``difference`` the symmetric difference.
    An empty result is written ``E``.
``pcfg-let-notebook`` (the authors' notebook, compositionality.ipynb, exactly)
    ``mirror`` swaps the halves (odd: ``b[1:] + b[:1] + a`` of halves a, b); ``filter`` keeps
    x's repetitions; an empty result ``E`` as argument makes ``filter x , E``, ``union`` and
    ``intersection`` return the other argument unchanged (``intersection E , y`` = y), and
    ``difference`` likewise (a literal ``E`` is a one-item list, not the empty result);
    ``E`` inside a literal list is dropped by most functions but kept by those pass-throughs;
    ``mirror`` of a list of only ``E`` and ``union`` of such lists give the empty list, written
    as an empty output.

The uniqueness rule of the published data holds in both: in a pool, a function is never
applied twice to the same literal list as its first argument.

>>> paper, notebook = build(), build_notebook()
>>> paper.interpret("mirror 1 2 3 4 5"), notebook.interpret("mirror 1 2 3 4 5")
('2 1 3 5 4', '4 5 3 1 2')
>>> paper.interpret("filter 1 1 2 , 2"), notebook.interpret("filter 1 1 2 , 2")
('1', '1 1')
>>> program = "intersection remove_unique 1 , 5 6"  # remove_unique 1 is empty: E
>>> paper.interpret(program), notebook.interpret(program)
('E', '5 6')
>>> paper.interpret("difference remove_unique 17 17 4 , 23 17")
'23'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable
from typing import TYPE_CHECKING, Any

from lark import Tree

from symcomp.core.language import Language
from symcomp.core.resources import load_grammar
from symcomp.core.semantics import Semantics

if TYPE_CHECKING:
    from symcomp.core.suite_builder import SuiteBuilder

Items = list[int]
EMPTY = "E"
UNARY = ("min", "max", "remove_unique", "remove_repeated", "mirror")
BINARY = ("filter", "union", "intersection", "difference")


def unique(items: Iterable[int]) -> Items:
    """Items once each, in order of first occurrence."""
    return list(dict.fromkeys(items))


def without(x: Items, y: Items) -> Items:
    """The items of x not in y, in order."""
    exclude = set(y)
    return [item for item in x if item not in exclude]


NAME = "pcfg-let"
NOTEBOOK = "pcfg-let-notebook"


class PcfgLetSemantics(Semantics):
    """Meaning of a PCFG-LET program: a list of integers (empty = ``E``)."""

    def numbers(self, children: list[str]) -> Items:
        return [int(token) for token in children if token != EMPTY]

    def min(self, children: list[Items]) -> Items:
        return [min(children[0])] if children[0] else []

    def max(self, children: list[Items]) -> Items:
        return [max(children[0])] if children[0] else []

    def remove_repeated(self, children: list[Items]) -> Items:
        counts = Counter(children[0])
        return [item for item in children[0] if counts[item] == 1]

    def remove_unique(self, children: list[Items]) -> Items:
        counts = Counter(children[0])
        return unique(item for item in children[0] if counts[item] >= 2)

    def mirror(self, children: list[Items]) -> Items:
        x = children[0]
        half = len(x) // 2
        return x[:half][::-1] + x[half : len(x) - half] + x[len(x) - half :][::-1]

    def filter(self, children: list[Items]) -> Items:
        return unique(without(children[0], children[1]))

    def union(self, children: list[Items]) -> Items:
        x, y = children
        return unique(x + without(y, x))

    def intersection(self, children: list[Items]) -> Items:
        x, y = children
        return unique([item for item in x if item in set(y)] + [i for i in y if i in set(x)])

    def difference(self, children: list[Items]) -> Items:
        x, y = children
        return unique(without(x, y) + without(y, x))

    def render(self, meaning: Items) -> str:
        return " ".join(str(item) for item in meaning) if meaning else EMPTY


Value = str | list[Any]  # the notebook's values: the token E, or a list (which may hold E)


def _strip(items: Value) -> list[Any]:
    """A list without its ``E`` tokens (the string ``E`` is no list: nothing)."""
    return [] if isinstance(items, str) else [item for item in items if item != EMPTY]


def _unique(items: Value) -> list[Any]:
    return list(dict.fromkeys(_strip(items)))


class NotebookSemantics(Semantics):
    """PCFG-LET as the authors' notebook computes it (``E`` is a token, not a list)."""

    def numbers(self, children: list[str]) -> list[Any]:
        return [EMPTY if token == EMPTY else int(token) for token in children]

    def min(self, children: list[Value]) -> Value:
        items = _strip(children[0])
        return [min(items)] if items else EMPTY

    def max(self, children: list[Value]) -> Value:
        items = _strip(children[0])
        return [max(items)] if items else EMPTY

    def remove_unique(self, children: list[Value]) -> Value:
        if children[0] == EMPTY:
            return EMPTY
        counts = Counter(_strip(children[0]))
        return [item for item, count in counts.items() if count != 1] or EMPTY

    def remove_repeated(self, children: list[Value]) -> Value:
        if children[0] == EMPTY:
            return EMPTY
        counts = Counter(_strip(children[0]))
        return [item for item, count in counts.items() if count == 1] or EMPTY

    def mirror(self, children: list[Value]) -> Value:
        if children[0] == EMPTY:
            return EMPTY
        items = _strip(children[0])
        first, second = items[: len(items) // 2], items[len(items) // 2 :]
        return second + first if len(items) % 2 == 0 else second[1:] + second[:1] + first

    def filter(self, children: list[Value]) -> Value:
        x, y = children
        if x == EMPTY:
            return EMPTY
        if y == EMPTY:
            return x
        return [item for item in _strip(x) if item not in y] or EMPTY

    def union(self, children: list[Value]) -> Value:
        x, y = children
        if x == EMPTY or y == EMPTY:
            return y if x == EMPTY else x
        return _unique(list(x) + [item for item in y if item not in x])

    def intersection(self, children: list[Value]) -> Value:
        x, y = children
        if x == EMPTY or y == EMPTY:
            return y if x == EMPTY else x
        both = [item for item in x if item in y] + [item for item in y if item in x]
        return _unique(both) if both else EMPTY

    def difference(self, children: list[Value]) -> Value:
        x, y = children
        only_x = self.filter([x, y])
        only_y = self.filter([y, x])
        if only_x == EMPTY or only_y == EMPTY:
            return only_y if only_x == EMPTY else only_x
        return _unique(list(only_x) + list(only_y))

    def render(self, meaning: Value) -> str:
        return meaning if isinstance(meaning, str) else " ".join(str(item) for item in meaning)


class PcfgLet(Language):
    """PCFG-LET with its pool uniqueness rule."""

    def uniqueness_keys(self, tree: Tree[Any], text: str) -> Iterable[Hashable]:
        """(function, literal first argument) for every function applied to a literal list."""
        for node in tree.iter_subtrees():
            first = node.children[0] if node.children else None
            if isinstance(first, Tree) and first.data == "numbers":
                yield (str(node.data), tuple(str(token) for token in first.children))

    def suite_builder(self) -> SuiteBuilder | None:
        """``symcomp suite pcfg-let``: :mod:`symcomp.languages.pcfg_let.suite`."""
        from symcomp.languages.pcfg_let.suite import suite_builder

        return suite_builder()


class PcfgLetNotebook(PcfgLet):
    """PCFG-LET with the notebook's definitions; its suite is ``symcomp suite pcfg-let``
    with `definitions` ``notebook``."""

    def suite_builder(self) -> None:
        return None


def build() -> Language:
    """The ``pcfg-let`` language (the paper's definitions) from the packaged grammar."""
    return PcfgLet("pcfg-let", load_grammar("pcfg-let", "pcfg_let"), PcfgLetSemantics)


def build_notebook() -> Language:
    """``pcfg-let-notebook``: the same grammar with the authors' notebook's definitions."""
    grammar = load_grammar(NOTEBOOK, "pcfg_let")
    description = "PCFG-LET with the definitions of the authors' notebook (Neely & Talha 2020)"
    return PcfgLetNotebook(NOTEBOOK, grammar, NotebookSemantics, description)
