"""SCAN's rule-application DAG at the paper's grain: 38 rules (Keysers et al. 2020, App. on SCAN).

Keysers et al. build SCAN's MCD splits from the 38 rules of Lake & Baroni (2018): the 18
phrase-structure rules of the grammar and the 20 interpretation rules ``⟦·⟧`` that give each
expression its actions. The grammar (``grammars/scan.lark``) splits ``D -> U left`` into a
``turnable`` and a ``direction``; here the atoms are the paper's rules:

phrase-structure rules (18, named after the grammar's aliases)
    ``conjoin`` ``after`` ``single`` (C), ``twice`` ``thrice`` ``once`` (S), ``opposite``
    ``around`` ``directed`` ``bare`` (V), ``u_left`` ``u_right`` ``turn_left`` ``turn_right``
    (D), ``walk`` ``look`` ``run`` ``jump`` (U).
interpretation rules (20, prefixed ``sem.``)
    ``sem.walk`` .. ``sem.jump``; ``sem.turn_left`` ``sem.u_left``, ``sem.turn_opposite_left``
    ``sem.u_opposite_left``, ``sem.turn_around_left`` ``sem.u_around_left`` and the same for
    ``right``; ``sem.twice`` ``sem.thrice`` ``sem.and`` ``sem.after``.

The DAG follows how meaning is composed. Each interpretation rule application is a node whose
children are the interpretation rule applications it takes as arguments (``⟦x twice⟧`` takes
``⟦x⟧``; ``⟦u opposite left⟧ = ⟦turn opposite left⟧ ⟦u⟧`` takes both), followed by the
phrase-structure rule applications that built the expression it interprets, as leaves (for
``jump around left``: ``around`` and ``u_left``; the rules that only pass a meaning on —
``single``, ``once``, ``bare`` — hang under the meaning they pass on). Every rule application
of the derivation is one node, so atoms count rule applications as the paper does; the DAG is
a tree. Directions are part of the interpretation atoms, so the ``right``, ``opposite right``
and ``around right`` template splits differ in their atoms.

>>> from symcomp.languages.scan.language import build
>>> scan = build()
>>> [node["rule"] for node in scan_node_link(scan.parse("jump opposite left twice"))["nodes"]]
... # doctest: +NORMALIZE_WHITESPACE
['sem.twice', 'sem.u_opposite_left', 'sem.turn_opposite_left', 'sem.jump', 'jump',
 'opposite', 'u_left', 'twice', 'single']
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from lark import Tree

from symcomp.core.derivation import DagBuilder

PHRASE_RULES = (
    *("conjoin", "after", "single", "twice", "thrice", "once"),
    *("opposite", "around", "directed", "bare"),
    *("u_left", "u_right", "turn_left", "turn_right", "walk", "look", "run", "jump"),
)
INTERPRETATION_RULES = (
    *(f"sem.{word}" for word in ("walk", "look", "run", "jump")),
    *(
        f"sem.{subject}{how}_{side}"
        for side in ("left", "right")
        for how in ("", "_opposite", "_around")
        for subject in ("turn", "u")
    ),
    *("sem.twice", "sem.thrice", "sem.and", "sem.after"),
)


@dataclass
class _Meaning:
    """An interpretation rule application: its rule, arguments and phrase-structure leaves."""

    rule: str
    arguments: list[_Meaning] = field(default_factory=list)
    phrases: list[str] = field(default_factory=list)

    def emit(self, builder: DagBuilder, parent: int | None = None, position: int = 0) -> int:
        node = builder.add(self.rule, parent=parent, position=position)
        for number, argument in enumerate(self.arguments):
            argument.emit(builder, node, number)
        for offset, phrase in enumerate(self.phrases, start=len(self.arguments)):
            builder.add(phrase, parent=node, position=offset)
        return node


def _rule(tree: Tree[Any]) -> str:
    return str(tree.data)


def _subtrees(tree: Tree[Any]) -> list[Tree[Any]]:
    return [child for child in tree.children if isinstance(child, Tree)]


def _verb(tree: Tree[Any]) -> _Meaning:
    """``V``: ``bare`` passes ``⟦u⟧`` on; the others interpret ``u/turn [opposite|around] d``."""
    how = _rule(tree)
    if how == "bare":
        (primitive,) = _subtrees(tree)
        word = _rule(primitive)
        return _Meaning(f"sem.{word}", phrases=[word, "bare"])
    turnable, direction = _subtrees(tree)
    side = _rule(direction)
    subject = "u" if _rule(turnable) == "act" else "turn"
    infix = "" if how == "directed" else f"_{how}"
    arguments: list[_Meaning] = []
    if subject == "u" and how == "opposite":  # ⟦u opposite d⟧ = ⟦turn opposite d⟧ ⟦u⟧
        arguments.append(_Meaning(f"sem.turn_opposite_{side}"))
    if subject == "u":
        word = _rule(_subtrees(turnable)[0])
        arguments.append(_Meaning(f"sem.{word}", phrases=[word]))
    return _Meaning(f"sem.{subject}{infix}_{side}", arguments, [how, f"{subject}_{side}"])


def _sentence(tree: Tree[Any]) -> _Meaning:
    meaning = _verb(_subtrees(tree)[0])
    if _rule(tree) == "once":
        meaning.phrases.append("once")
        return meaning
    return _Meaning(f"sem.{_rule(tree)}", [meaning], [_rule(tree)])


def scan_node_link(tree: Tree[Any]) -> dict[str, Any]:
    """The paper-grain DAG of a SCAN derivation tree (``start`` or ``command`` at the root)."""
    command = _subtrees(tree)[0] if _rule(tree) == "start" else tree
    sentences = [_sentence(sentence) for sentence in _subtrees(command)]
    how = _rule(command)
    if how == "single":
        top = sentences[0]
        top.phrases.append("single")
    else:
        top = _Meaning("sem.and" if how == "conjoin" else "sem.after", sentences, [how])
    builder = DagBuilder()
    top.emit(builder)
    return builder.node_link()
