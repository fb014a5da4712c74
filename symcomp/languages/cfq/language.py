"""cfq: CFQ-style questions about films and people, to SPARQL (Keysers et al. 2020).

Questions use CFQ's anonymised entities ``M0 .. M9`` and its tokenisation (``M0 's director ,
editor , and star``); outputs are SPARQL queries in CFQ's normalised form (see
:mod:`symcomp.languages.cfq.logic`), with the Freebase properties CFQ uses
(:mod:`symcomp.languages.cfq.knowledge`).
Conjunctions distribute as in CFQ: every verb of a verb list applies to every object of an
object list, and every role of a role list to the possessor.

The derivation DAG (:meth:`CfqLanguage.node_link`, and the ``derivation`` written by
``--with-dag``) adds knowledge and resolution rules to the grammar rules
(:mod:`symcomp.languages.cfq.dag`).

Pools are drawn as the CFQ paper describes: :data:`OVERSAMPLE` times as many distinct
questions as asked for are drawn, then subsampled to a uniform distribution over complexity
(number of rule applications) while greedily maximising the entropy of the compound
distribution (:mod:`symcomp.dbca.subsample`).

>>> language = build()
>>> print(language.interpret("Did M1 's female actor edit and produce M0"))
SELECT count(*) WHERE {
?x0 ns:film.actor.film/ns:film.performance.character M1 .
?x0 ns:film.editor.film M0 .
?x0 ns:film.producer.film|ns:film.production_company.films M0 .
?x0 ns:people.person.gender ns:m.02zsn
}
>>> print(language.interpret("Which film did M0 direct"))
SELECT DISTINCT ?x0 WHERE {
?x0 a ns:film.film .
M0 ns:film.director.film ?x0
}
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lark import Tree

from symcomp.core.language import Language
from symcomp.core.resources import load_grammar
from symcomp.core.semantics import Semantics
from symcomp.languages.cfq.dag import cfq_node_link
from symcomp.languages.cfq.knowledge import ATTRIBUTES, PASSIVES, ROLES, TYPES, VERBS, Relation
from symcomp.languages.cfq.logic import (
    Description,
    Filter,
    Phrase,
    Query,
    Term,
    Triple,
    Var,
    VerbPhrase,
    to_sparql,
)

if TYPE_CHECKING:
    from symcomp.data.generate import PoolSpec, PoolWriter
    from symcomp.data.parallel import Jobs

NAME = "cfq"
OVERSAMPLE = 2  # draw this many times the pool size, then subsample (Keysers et al. 2020, §4)


@dataclass(frozen=True)
class RoleDescription:
    """Roles (with adjectives) relating a new head to a possessor."""

    relations: list[Relation]
    attributes: list[tuple[str, str]] = field(default_factory=list)

    def phrase(self, possessor: Phrase) -> Phrase:
        head = Var()
        triples: list[Triple] = [(head, prop, value) for prop, value in self.attributes]
        filters: list[Filter] = []
        for relation in self.relations:
            triples.extend(relation.clause(head, possessor.head))
            filters.extend(relation.filters(head, possessor.head))
        return Phrase(head, triples, [possessor], filters)


@dataclass(frozen=True)
class TypeDescription:
    """``[gender] [nationality] <type>``."""

    kind: str
    attributes: list[tuple[str, str]] = field(default_factory=list)

    def triples(self, head: Term) -> list[Triple]:
        return [(head, "a", self.kind)] + [(head, p, v) for p, v in self.attributes]


@dataclass(frozen=True)
class Relative:
    """``that <verb> X`` (the head is the subject) or ``that X <verb>`` (the object)."""

    relation: Relation
    other: Phrase
    head_is_subject: bool

    def constraints(self, head: Term) -> tuple[list[Triple], list[Filter]]:
        subject, obj = (head, self.other.head) if self.head_is_subject else (self.other.head, head)
        return self.relation.clause(subject, obj), self.relation.filters(subject, obj)


class CfqSemantics(Semantics):
    """Meaning of a cfq question: a :class:`Query`, rendered as normalised SPARQL."""

    def render(self, meaning: Any) -> str:
        return to_sparql(meaning)

    # -- questions ----------------------------------------------------------------------------

    def did_question(self, c: list[Any]) -> Query:
        subject, verbs = c
        return Query(True, [subject, verbs.about(subject.head)])

    did_roles_question = did_question
    was_passive_question = did_question

    def was_question(self, c: list[Any]) -> Query:
        subject, predicate = c
        return Query(True, [subject, predicate], {predicate.head: subject.head})

    def who_question(self, c: list[Any]) -> Query:
        return Query(False, [c[0].about(Var())])

    who_passive_question = who_question

    def which_question(self, c: list[Any]) -> Query:
        _wh, nominal, verbs = c
        head = Var()
        return Query(False, [nominal.phrase(head), verbs.about(head)])

    which_passive_question = which_question

    def which_object_question(self, c: list[Any]) -> Query:
        _wh, nominal, subject, verbs = c
        head = Var()
        gap = VerbPhrase(verbs, [Phrase(head)]).about(subject.head)
        return Query(False, [nominal.phrase(head), subject, gap])

    def what(self, c: list[Any]) -> str:
        return "what"

    def which(self, c: list[Any]) -> str:
        return "which"

    # -- noun phrases -------------------------------------------------------------------------

    def entity(self, c: list[Any]) -> Phrase:
        return Phrase(str(c[0]))

    def entity_possessive(self, c: list[Any]) -> Phrase:
        possessor, role = c
        result: Phrase = role.phrase(possessor)
        return result

    nested_possessive = entity_possessive

    def entity_roles(self, c: list[Any]) -> Phrase:
        possessor, roles = c
        relations = [relation for role in roles for relation in role.relations]
        return RoleDescription(relations).phrase(possessor)

    possessive_roles = entity_roles

    def role_pair(self, c: list[Any]) -> list[Any]:
        return [c[0], c[1]]

    def role_series(self, c: list[Any]) -> list[Any]:
        return [c[0], *c[1]]

    role_series_more = role_series
    role_series_end = role_pair

    def indefinite_np(self, c: list[Any]) -> Phrase:
        result: Phrase = c[0].phrase(Var())
        return result

    indefinite_predicate = indefinite_np

    def simple_indefinite(self, c: list[Any]) -> Phrase:
        head = Var()
        return Phrase(head, c[0].triples(head))

    def plain_nominal(self, c: list[Any]) -> Description:
        kind = c[0]
        return Description(lambda head: (kind.triples(head), [], []))

    def restricted_nominal(self, c: list[Any]) -> Description:
        kind, relative = c

        def build(head: Term) -> tuple[list[Triple], list[Filter], list[Phrase]]:
            triples, filters = relative.constraints(head)
            return kind.triples(head) + triples, filters, [relative.other]

        return Description(build)

    def role_of(self, c: list[Any]) -> Description:
        relation, other = c[0].relations[0], c[1]

        def build(head: Term) -> tuple[list[Triple], list[Filter], list[Phrase]]:
            return (
                relation.clause(head, other.head),
                relation.filters(head, other.head),
                [other],
            )

        return Description(build)

    def subject_relative(self, c: list[Any]) -> Relative:
        return Relative(c[0], c[1], True)

    def object_relative(self, c: list[Any]) -> Relative:
        return Relative(c[1], c[0], False)

    # -- adjectives ---------------------------------------------------------------------------

    def plain_role(self, c: list[Any]) -> RoleDescription:
        role: RoleDescription = c[0]
        return role

    def gendered_role(self, c: list[Any]) -> RoleDescription:
        *attributes, role = c
        return RoleDescription(role.relations, [*attributes, *role.attributes])

    national_role = gendered_role
    gendered_national_role = gendered_role

    def gendered_type(self, c: list[Any]) -> TypeDescription:
        *attributes, kind = c
        return TypeDescription(kind.kind, [*attributes, *kind.attributes])

    national_type = gendered_type
    gendered_national_type = gendered_type

    # -- verbs and objects --------------------------------------------------------------------

    def verb_phrase(self, c: list[Any]) -> VerbPhrase:
        return VerbPhrase(c[0], c[1])

    past_phrase = verb_phrase
    passive_phrase = verb_phrase

    def one_object(self, c: list[Any]) -> list[Any]:
        return [c[0]]

    def object_pair(self, c: list[Any]) -> list[Any]:
        return [c[0], c[1]]

    def object_series(self, c: list[Any]) -> list[Any]:
        return [c[0], *c[1]]

    object_series_more = object_series
    object_series_end = object_pair
    one_verb = one_object
    verb_pair = object_pair
    verb_series = object_series
    verb_series_more = object_series
    verb_series_end = object_pair
    one_past = one_object
    past_pair = object_pair
    one_participle = one_object
    participle_pair = object_pair


class CfqLanguage(Language):
    """The cfq language: extended DAGs and CFQ-style subsampled pools."""

    def node_link(self, tree: Tree[Any]) -> dict[str, Any]:
        """The extended DAG: grammar, knowledge and resolution rules
        (:mod:`symcomp.languages.cfq.dag`)."""
        return cfq_node_link(tree)

    def pool_writer(self) -> PoolWriter:
        """Draw :data:`OVERSAMPLE` × n questions, subsample n (uniform complexity, max
        entropy): :func:`write_cfq_pool`."""
        return write_cfq_pool


def write_cfq_pool(
    language: Language,
    out: Path,
    spec: PoolSpec,
    *,
    jobs: Jobs = 1,
    overwrite: bool = False,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """A CFQ-style pool: subsampled from twice as many well-formed questions."""
    from symcomp.languages.cfq.subsampled_pool import write_subsampled_pool

    return write_subsampled_pool(
        language,
        out,
        spec,
        oversample=OVERSAMPLE,
        keep=well_formed,
        jobs=jobs,
        overwrite=overwrite,
        progress=progress,
    )


LIST_HEADS = frozenset(
    {"role_pair", "role_series", "object_pair", "object_series", "verb_pair", "verb_series"}
    | {"past_pair", "participle_pair"}
)


def well_formed(tree: Tree[Any], text: str) -> bool:
    """The pool filter of cfq: distinct entities, and no item twice in one conjunction.

    >>> language = build()
    >>> well_formed(language.parse("Did M0 edit and edit M1"), "Did M0 edit and edit M1")
    False
    """
    if not distinct_entities(text):
        return False
    for node in tree.iter_subtrees():
        if str(node.data) in LIST_HEADS:
            items = list(_list_items(node))
            if len(items) != len(set(items)):
                return False
    return True


def _list_items(node: Tree[Any]) -> Any:
    for child in node.children:
        if not isinstance(child, Tree):
            continue
        label = str(child.data)
        if label.endswith("_more") or label.endswith("_end"):
            yield from _list_items(child)
        else:
            yield repr(child)


def distinct_entities(text: str) -> bool:
    """True when no entity placeholder occurs twice (CFQ numbers distinct entities).

    >>> distinct_entities("Did M0 marry M1"), distinct_entities("Did M0 marry M0")
    (True, False)
    """
    entities = [token for token in text.split() if token[:1] == "M" and token[1:].isdigit()]
    return len(entities) == len(set(entities))


def _lexical(value: Any) -> Callable[[Semantics, list[Any]], Any]:
    def method(self: Semantics, children: list[Any]) -> Any:
        return value

    return method


for _alias, _relation in ROLES.items():
    setattr(CfqSemantics, _alias, _lexical(RoleDescription([_relation])))
for _alias, _meaning in [*VERBS.items(), *PASSIVES.items(), *ATTRIBUTES.items()]:
    setattr(CfqSemantics, _alias, _lexical(_meaning))
for _alias, _kind in TYPES.items():
    setattr(CfqSemantics, _alias, _lexical(TypeDescription(_kind)))


def build() -> Language:
    """The ``cfq`` language from the packaged grammar."""
    return CfqLanguage(NAME, load_grammar(NAME, NAME), CfqSemantics)
