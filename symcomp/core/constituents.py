"""Worked steps by construction: the constituents of an input that are inputs themselves.

A language's *sentence categories* are the nonterminals whose every string is a sentence of
the language: the start symbol and whatever it derives through unit rules (a rule whose
right-hand side is one nonterminal and nothing else: SCAN's ``command: sentence -> single``,
PCFG SET's ``start: func``). A constituent of an input's parse whose category is one of them is
a sentence, and its meaning *as an input* is the meaning of its subtree wrapped in the unit
rules from the start symbol down to its category: the tree the parser builds for its text.

The steps of an input are those constituents, innermost first (children before parents, left
to right), each with its text and its meaning written in the language's output format, and
last the whole input with its output. Where several nodes share the same words (a chain of unit
rules: SCAN's ``walk`` is a ``sentence``, a ``verb`` and a ``primitive``), the words are one
step. A constituent whose meaning is written as its own text (a numeral of CobA arithmetic)
states nothing and is no step; a text met twice is one step. Meanings are computed once per
node, bottom-up, from the children's: the semantics must
compose bottom-up (each node's meaning a function of its children's), as a Lark transformer
does.

>>> from symcomp.core.registry import get_language
>>> scan = get_language("scan")
>>> for step in scan.steps("jump around left twice and walk"):
...     print(step.input, "=", " ".join(step.output.split()[:4]))
jump = I_JUMP
jump around left = I_TURN_LEFT I_JUMP I_TURN_LEFT I_JUMP
jump around left twice = I_TURN_LEFT I_JUMP I_TURN_LEFT I_JUMP
walk = I_WALK
jump around left twice and walk = I_TURN_LEFT I_JUMP I_TURN_LEFT I_JUMP
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from lark import Tree

from symcomp.core.grammar import Grammar
from symcomp.core.plan import NONTERMINAL, REPEAT, Plan
from symcomp.core.semantics import Semantics
from symcomp.errors import DataError


@dataclass(frozen=True)
class Step:
    """One worked step: a sub-input (words of the input, a sentence of the language) and its
    meaning written in the language's output format (on one line)."""

    input: str
    output: str

    def to_json(self) -> dict[str, str]:
        return {"input": self.input, "output": self.output}

    @classmethod
    def from_json(cls, data: Any, where: str) -> Step:
        """A step from its JSON object; a :class:`DataError` naming ``where`` otherwise."""
        if (
            not isinstance(data, Mapping)
            or not isinstance(data.get("input"), str)
            or not isinstance(data.get("output"), str)
        ):
            raise DataError(f'{where}: a step is an object {{"input": TEXT, "output": TEXT}}.')
        return cls(data["input"], data["output"])


def one_line(text: str) -> str:
    """``text`` with its runs of whitespace (line breaks too) joined by single spaces."""
    return " ".join(text.split())


class StepFinder:
    """The steps of one language's inputs: its sentence categories (from the grammar) and the
    unit rules that lead to each, read once; :meth:`steps` per input.

    ``evaluate`` is the language's meaning of a tree (its errors mapped) and ``render`` its
    output text of a meaning.
    """

    def __init__(
        self,
        grammar: Grammar,
        plans: Mapping[str, list[Plan]],
        semantics: Semantics,
        evaluate: Callable[[Tree[Any]], Any],
        render: Callable[[Any], str],
    ) -> None:
        self.grammar, self.semantics = grammar, semantics
        self.evaluate, self.render = evaluate, render
        self.chains = unit_chains(plans, grammar.sidecar.start)
        self.proper = _proper_categories(plans) & set(self.chains)
        self._rules = {alias: info.rule for alias, info in grammar.aliases.items()}

    @property
    def has_steps(self) -> bool:
        """True when some constituent of an input can be a sentence (a sentence category occurs
        inside a rule with more than itself on its right-hand side): else the only step of an
        input would be the input itself."""
        return bool(self.proper)

    def category(self, node: Tree[Any]) -> str:
        """The nonterminal a node was derived from (its alias's rule, or its label)."""
        label = str(node.data)
        return self._rules.get(label, label)

    def steps(self, text: str) -> list[Step]:
        """The steps of ``text`` (see the module); raises ParseError when it is no input."""
        tree = self.grammar.parse_with_positions(text)
        found: dict[str, Step] = {}
        meanings: dict[int, Any] = {}
        for node in _post_order(tree):
            meaning = self._meaning(node, meanings)
            meanings[id(node)] = meaning
            if node is tree or node.meta.empty:
                continue
            chain = self.chains.get(self.category(node))
            words = one_line(text[node.meta.start_pos : node.meta.end_pos])
            if chain is None or words in found:
                continue
            output = one_line(self.render(self._as_input(meaning, chain)))
            if output != words:  # a numeral states nothing
                found[words] = Step(words, output)
        whole = one_line(text)
        found.pop(whole, None)
        return [*found.values(), Step(whole, one_line(self.render(meanings[id(tree)])))]

    def _meaning(self, node: Tree[Any], meanings: Mapping[int, Any]) -> Any:
        """A node's meaning from its children's (computed before it)."""
        children = [meanings[id(c)] if isinstance(c, Tree) else c for c in node.children]
        if any(isinstance(child, Tree) for child in children):
            return self.evaluate(node)  # a meaning that is a tree would be transformed again
        return self.evaluate(Tree(node.data, children, node.meta))

    def _as_input(self, meaning: Any, chain: tuple[Plan, ...]) -> Any:
        """The meaning of a constituent given as an input: wrapped in the unit rules from the
        start symbol to its category, innermost first (a rule without a method passes its
        one child's meaning through, and most have none)."""
        labels = [plan.label for plan in reversed(chain) if plan.label and not plan.expand1]
        if not any(callable(getattr(self.semantics, label, None)) for label in labels):
            return meaning
        meaning = copy.deepcopy(meaning)  # the parent's meaning is built from the same object
        for label in labels:
            meaning = self.evaluate(Tree(label, [meaning]))
        return meaning


def unit_chains(plans: Mapping[str, list[Plan]], start: str) -> dict[str, tuple[Plan, ...]]:
    """Sentence category -> the unit rules from ``start`` down to it (breadth first: the
    shortest chain).

    >>> from symcomp.core.registry import get_language
    >>> sorted(unit_chains(get_language("scan").sampler.plans, "start"))
    ['command', 'primitive', 'sentence', 'start', 'verb']
    """
    chains: dict[str, tuple[Plan, ...]] = {start: ()}
    queue = [start]
    while queue:
        origin = queue.pop(0)
        for plan in plans.get(origin, ()):
            if len(plan.symbols) != 1 or plan.symbols[0][0] != NONTERMINAL:
                continue
            child = str(plan.symbols[0][1])
            if child not in chains:
                chains[child] = (*chains[origin], plan)
                queue.append(child)
    return chains


def _proper_categories(plans: Mapping[str, list[Plan]]) -> set[str]:
    """The nonterminals that can stand for a proper part of a string: those on a right-hand
    side beside other symbols (or repeated), and what they derive through unit rules."""
    found: set[str] = set()
    for expansions in plans.values():
        for plan in expansions:
            if len(plan.symbols) > 1 or any(kind == REPEAT for kind, _, _ in plan.symbols):
                found.update(str(p) for kind, p, _ in plan.symbols if kind == NONTERMINAL)
                found.update(_repeated(plan))
    queue = list(found)
    while queue:
        for plan in plans.get(queue.pop(), ()):
            if len(plan.symbols) == 1 and plan.symbols[0][0] == NONTERMINAL:
                child = str(plan.symbols[0][1])
                if child not in found:
                    found.add(child)
                    queue.append(child)
    return found


def _repeated(plan: Plan) -> Iterator[str]:
    """The rule names of a plan's repetitions (``x+``: Lark's ``__x_plus_N`` rules)."""
    for kind, payload, _ in plan.symbols:
        if kind == REPEAT:
            yield str(payload[1])


def _post_order(tree: Tree[Any]) -> list[Tree[Any]]:
    """Every node, children before parents and left to right (without recursion: a deep tree
    stays far from Python's limit)."""
    order: list[Tree[Any]] = []
    stack = [tree]
    while stack:
        node = stack.pop()
        order.append(node)
        stack.extend(child for child in node.children if isinstance(child, Tree))
    order.reverse()
    return order
