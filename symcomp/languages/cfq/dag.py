"""The rule-application DAG of a ``cfq`` question: grammar, knowledge, inference, resolution.

Keysers et al. (2020) build CFQ's DAG from four kinds of rule: the grammar rules that derive the
question, the knowledge rules that give each lexical item its meaning in the knowledge base,
the inference rules that derive facts the question needs from stored ones, and the resolution
rules that turn the logical form into SPARQL. Here:

grammar nodes
    The derivation tree exactly as :mod:`symcomp.core.derivation` writes it (conjunctions are
    right-branching binary rules in the grammar, so one rule combination is one subgraph).
knowledge nodes
    One node per property or value a question uses (``kb:film.director.film``), shared by every
    lexical node that means it: ``director`` and ``directed`` in one question reach one
    knowledge node, which then has two parents (CFQ's DAG is a DAG, not a tree).
inference nodes
    Between a lexical node and its knowledge node when the meaning is derived rather than
    stored: ``inf:inverse_employs`` (``employee`` from ``employ``), ``inf:inverse_prequel``
    (``sequel``) and the other inverses, and ``inf:passive`` (``directed by`` from
    ``direct``), each with ``res:reverse_triple``; ``inf:symmetric_spouse`` and
    ``inf:symmetric_sibling`` with ``res:neq_filter``; and under list and copula rules, the
    distribution of a conjunction (``inf:distribute_verbs``, ...) and the identification of
    two noun phrases (``inf:identify``).
resolution nodes
    Children of the nodes whose logical form a query-building rule turns into SPARQL
    (``res:count`` for a yes/no question, ``res:role_triple`` for a possessive, ...).

Extra children come after the grammar children, so their positions follow the grammar's. The
result has the schema of :mod:`symcomp.core.derivation` (node-link JSON, nodes numbered in
order of creation; grammar nodes in pre-order).

>>> from lark import Tree
>>> verbs = Tree("one_unit", [Tree("active_unit", [Tree("married_verb", [])])])
>>> objects = Tree("one_object", [Tree("entity_np", [Tree("entity", ["M0"])])])
>>> tree = Tree("start", [Tree("who_question", [Tree("shared_past", [verbs, objects])])])
>>> [node["rule"][:25] for node in cfq_node_link(tree)["nodes"]]  # doctest: +NORMALIZE_WHITESPACE
['start', 'who_question', 'shared_past', 'one_unit', 'active_unit', 'married_verb',
 'inf:symmetric_spouse', 'kb:people.person.spouse_s', 'res:neq_filter', 'one_object',
 'entity_np', 'entity', 'res:verb_triples', 'res:select']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from lark import Tree

from symcomp.core.derivation import DagBuilder
from symcomp.languages.cfq.knowledge import PASSIVES, SPOUSE, knowledge_label, relation_of

_COUNT = (
    "did_question",
    "was_question",
    "was_entity_question",
    "was_passive_question",
    "were_passive_question",
)
_SELECT = (
    "who_question",
    "who_copular_question",
    "who_object_question",
    "which_question",
    "which_copular_question",
    "which_passive_question",
    "which_object_question",
    "what_passive_question",
    "what_object_question",
)
_VERB_TRIPLES = (
    "shared_active",
    "shared_past",
    "shared_passive",
    "shared_by_passive",
    "simple_passive",
    "active_item",
    "past_item",
    "passive_item",
)
_NEW_VARIABLE = (
    "a_indefinite",
    "an_indefinite",
    "a_many",
    "an_many",
    "a_possessor",
    "an_possessor",
    "relative_a_kind",
    "relative_an_kind",
)
_TYPE_TRIPLE = (
    "type_head_c",
    "type_head_v",
    "restricted_head_c",
    "restricted_head_v",
    "plain_kind_c",
    "plain_kind_v",
    "modified_kind_c",
    "modified_kind_v",
)
_DISTRIBUTION = {
    "entity": "inf:distribute_subjects",
    "object": "inf:distribute_objects",
    "verb": "inf:distribute_verbs",
    "unit": "inf:distribute_verbs",
    "participle": "inf:distribute_verbs",
    "by": "inf:distribute_verbs",
    "role": "inf:distribute_roles",
    "active": "inf:conjoin_predicates",
    "past": "inf:conjoin_predicates",
    "passive": "inf:conjoin_predicates",
}


def _distribution(alias: str) -> tuple[str, ...]:
    """The inference rule spreading a conjunction over what it conjoins (list heads only)."""
    kind, _, shape = alias.partition("_")
    if shape.split("_")[0] in ("pair", "series") and kind in _DISTRIBUTION:
        return (_DISTRIBUTION[kind],)
    return ()


RESOLUTION: Mapping[str, tuple[str, ...]] = {
    **{alias: ("res:count",) for alias in _COUNT},
    **{alias: ("res:select",) for alias in _SELECT},
    **{alias: ("res:verb_triples",) for alias in _VERB_TRIPLES},
    **{alias: ("res:new_variable",) for alias in _NEW_VARIABLE},
    **{alias: ("res:type_triple",) for alias in _TYPE_TRIPLE},
    "was_question": ("res:count", "inf:identify", "res:identify"),
    "was_entity_question": ("res:count", "inf:identify", "res:identify"),
    "which_copular_question": ("res:select", "inf:identify", "res:identify"),
    "who_object_question": ("res:select", "res:object_gap_triples"),
    "which_object_question": ("res:select", "res:object_gap_triples"),
    "what_object_question": ("res:select", "res:object_gap_triples"),
    "first_possessive": ("res:role_triple",),
    "nested_possessive": ("res:role_triple",),
    "role_list_possessive": ("res:role_triples",),
    "role_of_head_c": ("res:role_triple",),
    "role_of_head_v": ("res:role_triple",),
    "plain_many_c": ("res:role_triples",),
    "plain_many_v": ("res:role_triples",),
    "modified_many_c": ("res:role_triples",),
    "modified_many_v": ("res:role_triples",),
    "subject_relative": ("res:subject_gap_triple",),
    "passive_subject_relative": ("res:subject_gap_triple",),
    "object_relative": ("res:object_gap_triple",),
    "passive_object_relative": ("res:object_gap_triple",),
    "gender_modifier": ("res:attribute_triple",),
    "nationality_modifier_c": ("res:attribute_triple",),
    "nationality_modifier_v": ("res:attribute_triple",),
    "gender_then": ("res:attribute_triples",),
    "nationality_then_c": ("res:attribute_triples",),
    "nationality_then_v": ("res:attribute_triples",),
}


# roles and verbs whose relation is the inverse of the stored one, by the inverse rule's name
_INVERSES = {
    "employee_role": "employs",
    "distributor_role": "distributes",
    "distribute_verb": "distributes",
    "distributed_verb": "distributes",
    "nationality_role": "nationality",
    "sequel_role": "prequel",
    "prequel_role": "sequel",
}


def _inference(alias: str) -> str | None:
    """The inference rule between a lexical node and its knowledge node, if any: the inverse
    of a stored relation (one rule per relation, as CFQ's rules are), the passive of a verb,
    or the symmetry of a relation (spouse, sibling)."""
    relation = relation_of(alias)
    if relation is None:
        return None
    if alias in PASSIVES and relation.prop != PASSIVES["influenced_by"].prop:
        return "inf:passive"
    if relation.distinct:
        return "inf:symmetric_" + ("spouse" if relation.prop == SPOUSE else "sibling")
    if alias in _INVERSES:
        return "inf:inverse_" + _INVERSES[alias]
    return None


class _Builder:
    """Grammar nodes in pre-order, knowledge nodes shared per question."""

    def __init__(self) -> None:
        self.dag = DagBuilder()
        self.knowledge: dict[str, int] = {}

    def knowledge_node(self, label: str, parent: int, position: int) -> None:
        """Link ``parent`` to the question's node for ``label``, made on first use."""
        known = self.knowledge.get(label)
        if known is None:
            self.knowledge[label] = self.dag.add(label, (), parent, position)
        else:
            self.dag.link(parent, known, position)

    def walk(self, node: Tree[Any], parent: int | None, position: int) -> None:
        label = str(node.data)
        tokens = [str(child) for child in node.children if not isinstance(child, Tree)]
        index = self.dag.add(label, tokens, parent, position)
        subtrees = [child for child in node.children if isinstance(child, Tree)]
        for child_position, child in enumerate(subtrees):
            self.walk(child, index, child_position)
        extra = len(subtrees)
        knowledge = knowledge_label(label)
        if knowledge is not None:
            inference = _inference(label)
            if inference is None:
                self.knowledge_node(knowledge, index, extra)
            else:  # the derived use resolves its own triple: reversed, or with a FILTER
                step = self.dag.add(inference, (), index, extra)
                self.knowledge_node(knowledge, step, 0)
                resolution = (
                    "res:neq_filter"
                    if inference.startswith("inf:symmetric")
                    else "res:reverse_triple"
                )
                self.dag.add(resolution, (), step, 1)
            extra += 1
        for offset, rule in enumerate((*_distribution(label), *RESOLUTION.get(label, ()))):
            self.dag.add(rule, (), index, extra + offset)


def cfq_node_link(tree: Tree[Any]) -> dict[str, Any]:
    """The extended DAG of a ``cfq`` derivation tree, in node-link form."""
    builder = _Builder()
    builder.walk(tree, None, 0)
    return builder.dag.node_link()
