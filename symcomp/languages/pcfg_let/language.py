"""PCFG-LET (Neely & Talha 2020, "LET's Test Compositionality"): list-edit programs.

Semantics (lists of integers; ``E`` is the empty list, written for every empty result):

``min`` / ``max``
    the singleton of the smallest / largest item.
``remove_repeated``
    the items that occur exactly once, in order.
``remove_unique``
    the items that occur at least twice, once each, in order of first occurrence.
``mirror``
    swaps the two halves; for odd lengths the middle item stays in the middle.
``filter x , y``
    the items of x that are not in y, in order (x's repetitions kept).
``union`` / ``intersection`` / ``difference``
    ordered sets: ``unique(x + (y - x))``, ``unique(x ∩ y + y ∩ x)`` and the symmetric
    difference ``unique((x - y) + (y - x))``.

Where the authors' notebook disagrees with these set definitions, symcomp follows the paper
and treats ``E`` as the empty list everywhere:

* the notebook returns ``y`` for ``intersection(E, y)`` and ``x`` for ``intersection(x, E)``
  (here: ``E``);
* for ``union`` and ``filter`` with an ``E`` argument it returns the other argument unchanged,
  without removing repetitions (here ``union`` always de-duplicates);
* an ``E`` token inside a literal list (only in the notebook's ``INCLUDE_EMPTY_TOKEN`` mode) is
  dropped by most notebook functions but kept by ``filter(x, E)``; here it always contributes
  nothing.

The uniqueness rule of the published data is kept: in a pool, a function is never applied
twice to the same literal list as its first argument.

>>> language = build()
>>> language.interpret("difference remove_unique 17 17 4 , 23 17")
'23'
>>> language.interpret("mirror 1 2 3 4 5")
'4 5 3 1 2'
>>> language.interpret("intersection E , 5 6")
'E'
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
    from symcomp.suites.builder import SuiteBuilder

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
        first, second = x[: len(x) // 2], x[len(x) // 2 :]
        if len(x) % 2 == 0:
            return second + first
        return second[1:] + second[:1] + first

    def filter(self, children: list[Items]) -> Items:
        return without(children[0], children[1])

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


class PcfgLet(Language):
    """PCFG-LET with its pool uniqueness rule."""

    def uniqueness_keys(self, tree: Tree[Any], text: str) -> Iterable[Hashable]:
        """(function, literal first argument) for every function applied to a literal list."""
        for node in tree.iter_subtrees():
            first = node.children[0] if node.children else None
            if isinstance(first, Tree) and first.data == "numbers":
                yield (str(node.data), tuple(str(token) for token in first.children))

    def suite_builder(self) -> SuiteBuilder:
        """``symcomp suite pcfg-let``: :mod:`symcomp.languages.pcfg_let.suite`."""
        from symcomp.languages.pcfg_let.suite import suite_builder

        return suite_builder()


def build() -> Language:
    """The ``pcfg-let`` language from the packaged grammar."""
    return PcfgLet("pcfg-let", load_grammar("pcfg-let", "pcfg_let"), PcfgLetSemantics)
