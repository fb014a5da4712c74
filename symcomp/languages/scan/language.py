"""SCAN (Lake & Baroni 2018): commands such as ``jump around left twice`` to actions.

The interpretation is the paper's: ``x twice`` repeats, ``x1 and x2`` concatenates, ``x1 after
x2`` puts ``x2`` first, ``u left`` turns then acts, ``u opposite left`` turns twice then acts,
``u around left`` turns and acts four times; ``turn`` alone only turns.

>>> language = build()
>>> language.interpret("jump around left after walk")
'I_WALK I_TURN_LEFT I_JUMP I_TURN_LEFT I_JUMP I_TURN_LEFT I_JUMP I_TURN_LEFT I_JUMP'
>>> language.interpret("turn opposite right")
'I_TURN_RIGHT I_TURN_RIGHT'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from lark import Tree

from symcomp._util import Record
from symcomp.core.abstraction import PatternAbstraction
from symcomp.core.fresh_strings import FreshWords, Renamable
from symcomp.core.language import Language
from symcomp.core.resources import load_grammar
from symcomp.core.semantics import Semantics
from symcomp.languages.scan.dag import scan_node_link

if TYPE_CHECKING:
    from symcomp.core.suite_builder import SuiteBuilder

Actions = list[str]


NAME = "scan"


PRIMITIVES = ("walk", "look", "run", "jump")
OUTPUT = "I_{upper}"  # a primitive's action is named after its word


class ScanSemantics(Semantics):
    """Meaning of a SCAN command: the list of actions. ``words`` renames primitives (alias ->
    the word written for it, :meth:`Scan.with_fresh_words`): ``I_DAX`` for ``dax``."""

    def __init__(self, words: Mapping[str, str] | None = None) -> None:
        super().__init__()
        self.words = dict(words or {})

    def _action(self, alias: str) -> Actions:
        return [OUTPUT.format(upper=self.words.get(alias, alias).upper())]

    def walk(self, children: list[Actions]) -> Actions:
        return self._action("walk")

    def look(self, children: list[Actions]) -> Actions:
        return self._action("look")

    def run(self, children: list[Actions]) -> Actions:
        return self._action("run")

    def jump(self, children: list[Actions]) -> Actions:
        return self._action("jump")

    def turn(self, children: list[Actions]) -> Actions:
        return []

    def left(self, children: list[Actions]) -> Actions:
        return ["I_TURN_LEFT"]

    def right(self, children: list[Actions]) -> Actions:
        return ["I_TURN_RIGHT"]

    def directed(self, children: list[Actions]) -> Actions:
        action, direction = children
        return direction + action

    def opposite(self, children: list[Actions]) -> Actions:
        action, direction = children
        return direction + direction + action

    def around(self, children: list[Actions]) -> Actions:
        action, direction = children
        return (direction + action) * 4

    def twice(self, children: list[Actions]) -> Actions:
        return children[0] * 2

    def thrice(self, children: list[Actions]) -> Actions:
        return children[0] * 3

    def conjoin(self, children: list[Actions]) -> Actions:
        return children[0] + children[1]

    def after(self, children: list[Actions]) -> Actions:
        return children[1] + children[0]


# Keysers et al. (2020, §4): SCAN's patterns merge the primitives, the directions, `around` and
# `opposite`, and `twice` and `thrice`; outputs merge the primitive actions and the turns.
PATTERNS = PatternAbstraction(
    input_classes={
        **dict.fromkeys(("walk", "look", "run", "jump"), "U"),
        **dict.fromkeys(("left", "right"), "D"),
        **dict.fromkeys(("around", "opposite"), "A"),
        **dict.fromkeys(("twice", "thrice"), "T"),
    },
    output_classes={
        **dict.fromkeys(("I_WALK", "I_LOOK", "I_RUN", "I_JUMP"), "U"),
        **dict.fromkeys(("I_TURN_LEFT", "I_TURN_RIGHT"), "D"),
    },
)


class Scan(Language):
    """SCAN, with its published splits as its suite and the paper's DAG and patterns."""

    def node_link(self, tree: Tree[Any]) -> Record:
        """Phrase-structure and interpretation rules (:mod:`symcomp.languages.scan.dag`)."""
        return scan_node_link(tree)

    def pattern_abstraction(self) -> PatternAbstraction:
        """The paper's word classes (:data:`PATTERNS`; of the fresh words when renamed)."""
        fresh = self.fresh_words
        if fresh is None:
            return PATTERNS
        outputs = fresh.output_mapping([OUTPUT])
        return PatternAbstraction(
            input_classes={fresh.mapping.get(w, w): c for w, c in PATTERNS.input_classes.items()},
            output_classes={outputs.get(w, w): c for w, c in PATTERNS.output_classes.items()},
        )

    def renamable(self) -> Renamable:
        """The primitives (not ``turn``, the directions or the function words)."""
        reserved = {OUTPUT.format(upper=w.upper()) for w in PRIMITIVES}
        reserved |= set(PATTERNS.output_classes)
        return Renamable(("primitive",), outputs=(OUTPUT,), reserved=frozenset(reserved))

    def renamed_semantics(self, fresh: FreshWords) -> ScanSemantics:
        """Primitives' actions named after their fresh words (``jump`` -> ``dax``: ``I_DAX``)."""
        return ScanSemantics({alias: fresh.mapping[alias] for alias in PRIMITIVES})

    def suite_builder(self) -> SuiteBuilder:
        """``symcomp suite scan``: :mod:`symcomp.languages.scan.suite`."""
        from symcomp.languages.scan.suite import suite_builder

        return suite_builder()


def build() -> Language:
    """The ``scan`` language from the packaged grammar."""
    return Scan("scan", load_grammar("scan", "scan"), ScanSemantics)
