"""The rule-application DAG of a ``cfq`` question: grammar, knowledge and resolution rules.

Keysers et al. (2020) build CFQ's DAG from three kinds of rule: the grammar rules that derive the
question, the knowledge rules that give each lexical item its meaning in the knowledge base, and
the resolution rules that turn the logical form into SPARQL. Here:

grammar nodes
    The derivation tree exactly as :mod:`symcomp.core.derivation` writes it (conjunctions are
    right-branching binary rules in the grammar, so one rule combination is one subgraph).
knowledge nodes
    One child under every lexical node, labelled with the property or value it means
    (``kb:film.director.film``): a role and a verb with one meaning share it.
resolution nodes
    Children of the nodes whose logical form a query-building rule turns into SPARQL
    (``res:count`` for a yes/no question, ``res:role_triple`` for a possessive, ...), and of
    knowledge nodes whose relation is written reversed or needs a ``FILTER``.

Extra children come after the grammar children, so their positions follow the grammar's. The
result has the schema of :mod:`symcomp.core.derivation` (node-link JSON, nodes in pre-order).

>>> from lark import Tree
>>> verbs = Tree("one_past", [Tree("married_verb", [])])
>>> objects = Tree("one_object", [Tree("entity_np", [Tree("entity", ["M0"])])])
>>> tree = Tree("start", [Tree("who_question", [Tree("past_phrase", [verbs, objects])])])
>>> [node["rule"][:25] for node in cfq_node_link(tree)["nodes"]]  # doctest: +NORMALIZE_WHITESPACE
['start', 'who_question', 'past_phrase', 'one_past', 'married_verb',
 'kb:people.person.spouse_s', 'res:neq_filter', 'one_object', 'entity_np', 'entity',
 'res:verb_triples', 'res:select']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from lark import Tree

from symcomp.core.derivation import DagBuilder
from symcomp.languages.cfq.knowledge import knowledge_label, relation_of

_COUNT = ("did_question", "did_roles_question", "was_question", "was_passive_question")
_SELECT = (
    "who_question",
    "who_passive_question",
    "which_question",
    "which_passive_question",
    "which_object_question",
)

RESOLUTION: Mapping[str, tuple[str, ...]] = {
    **{alias: ("res:count",) for alias in _COUNT},
    **{alias: ("res:select",) for alias in _SELECT},
    "was_question": ("res:count", "res:identify"),
    "which_object_question": ("res:select", "res:object_gap_triples"),
    "entity_possessive": ("res:role_triple",),
    "nested_possessive": ("res:role_triple",),
    "entity_roles": ("res:role_triples",),
    "possessive_roles": ("res:role_triples",),
    "role_of": ("res:role_triple",),
    "subject_relative": ("res:subject_gap_triple",),
    "object_relative": ("res:object_gap_triple",),
    "verb_phrase": ("res:verb_triples",),
    "past_phrase": ("res:verb_triples",),
    "passive_phrase": ("res:passive_triples",),
    "gendered_role": ("res:attribute_triple",),
    "national_role": ("res:attribute_triple",),
    "gendered_national_role": ("res:attribute_triples",),
    "gendered_type": ("res:attribute_triple",),
    "national_type": ("res:attribute_triple",),
    "gendered_national_type": ("res:attribute_triples",),
    "indefinite_np": ("res:new_variable",),
    "simple_indefinite": ("res:new_variable",),
    "indefinite_predicate": ("res:new_variable",),
}


def _extra_children(label: str) -> list[tuple[str, list[str]]]:
    """(knowledge label, its resolution children) for a lexical node; then resolution leaves."""
    extra: list[tuple[str, list[str]]] = []
    knowledge = knowledge_label(label)
    if knowledge is not None:
        relation = relation_of(label)
        below = []
        if relation is not None and relation.reverse:
            below.append("res:reverse_triple")
        if relation is not None and relation.distinct:
            below.append("res:neq_filter")
        extra.append((knowledge, below))
    extra.extend((resolution, []) for resolution in RESOLUTION.get(label, ()))
    return extra


def cfq_node_link(tree: Tree[Any]) -> dict[str, Any]:
    """The extended DAG of a ``cfq`` derivation tree, in node-link form."""
    builder = DagBuilder()

    def walk(node: Tree[Any], parent: int | None, position: int) -> None:
        label = str(node.data)
        tokens = [str(child) for child in node.children if not isinstance(child, Tree)]
        index = builder.add(label, tokens, parent, position)
        subtrees = [child for child in node.children if isinstance(child, Tree)]
        for child_position, child in enumerate(subtrees):
            walk(child, index, child_position)
        for offset, (extra, below) in enumerate(_extra_children(label)):
            extra_index = builder.add(extra, (), index, len(subtrees) + offset)
            for below_position, resolution in enumerate(below):
                builder.add(resolution, (), extra_index, below_position)

    walk(tree, None, 0)
    return builder.node_link()
