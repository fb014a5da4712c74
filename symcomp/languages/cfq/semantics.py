"""The meaning of ``cfq`` questions: a :class:`~symcomp.languages.cfq.logic.Query` per question.

Noun phrases denote :class:`Phrase` objects (a head and its constraints), nominals (what follows
``a``, ``what``, ``which``) denote :class:`Description` objects waiting for a head, verb phrases
denote :class:`Predicate` objects (verbs with their objects, applied to a subject). Lists
distribute as in CFQ: every verb of a verb list applies to every object of its object list,
every role of a role list to its possessor or complements, every subject of a subject list gets
the whole predicate.

>>> from symcomp.languages.cfq.language import build
>>> print(build().interpret("Who was a writer and star of M0 and M1"))
SELECT DISTINCT ?x0 WHERE {
?x0 ns:film.actor.film/ns:film.performance.film M0 .
?x0 ns:film.actor.film/ns:film.performance.film M1 .
?x0 ns:film.writer.film M0 .
?x0 ns:film.writer.film M1
}
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from symcomp.core.semantics import Semantics
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
    merge,
    to_sparql,
)

Attributes = list[tuple[str, str]]
Parts = tuple[list[Triple], list[Filter], list[Phrase]]


@dataclass(frozen=True)
class RoleDescription:
    """Roles (with adjectives) relating a head to a possessor or to complements."""

    relations: list[Relation]
    attributes: Attributes = field(default_factory=list)

    def constraints(self, head: Term, others: Sequence[Phrase]) -> Parts:
        triples: list[Triple] = [(head, prop, value) for prop, value in self.attributes]
        filters: list[Filter] = []
        for relation in self.relations:
            for other in others:
                triples.extend(relation.clause(head, other.head))
                filters.extend(relation.filters(head, other.head))
        return triples, filters, list(others)

    def phrase(self, possessor: Phrase) -> Phrase:
        """``<possessor> 's <roles>``: a new head with every role towards the possessor."""
        head = Var()
        triples, filters, parts = self.constraints(head, [possessor])
        return Phrase(head, triples, parts, filters)

    def of(
        self, others: Sequence[Phrase], attributes: Sequence[tuple[str, str]] = ()
    ) -> Description:
        """``<roles> of <others>``: a description of heads with every role towards each."""
        described = RoleDescription(self.relations, [*attributes, *self.attributes])
        return Description(lambda head: described.constraints(head, others))


def merged_roles(roles: Sequence[RoleDescription]) -> RoleDescription:
    """One description for a role list (the adjectives of all its roles)."""
    return RoleDescription(
        [relation for role in roles for relation in role.relations],
        [attribute for role in roles for attribute in role.attributes],
    )


@dataclass(frozen=True)
class TypeDescription:
    """``[adjectives] <type>``."""

    kind: str
    attributes: Attributes = field(default_factory=list)

    def triples(self, head: Term) -> list[Triple]:
        return [(head, "a", self.kind)] + [(head, p, v) for p, v in self.attributes]

    def phrase(self) -> Phrase:
        head = Var()
        return Phrase(head, self.triples(head))


@dataclass(frozen=True)
class Relative:
    """A relative clause: ``relation(subject, object)`` with the head as one of them."""

    relation: Relation
    others: list[Phrase]
    head_is_subject: bool

    def constraints(self, head: Term) -> Parts:
        triples: list[Triple] = []
        filters: list[Filter] = []
        for other in self.others:
            subject, obj = (head, other.head) if self.head_is_subject else (other.head, head)
            triples.extend(self.relation.clause(subject, obj))
            filters.extend(self.relation.filters(subject, obj))
        return triples, filters, list(self.others)


@dataclass(frozen=True)
class Predicate:
    """Verb phrases applied to one subject (each verb phrase to its own objects)."""

    phrases: list[VerbPhrase]

    def about(self, subject: Term) -> Phrase:
        return merge(subject, [phrase.about(subject) for phrase in self.phrases])


def _described(build: Callable[[Term], Parts]) -> Description:
    return Description(build)


def _modified(attributes: Attributes, description: Description) -> Description:
    def build(head: Term) -> Parts:
        triples, filters, parts = description.build(head)
        return [(head, p, v) for p, v in attributes] + triples, filters, parts

    return Description(build)


def _gap_question(subjects: list[Phrase], verbs: list[Relation], first: list[Phrase]) -> Query:
    """``Who/What/Which X did <subjects> <verbs>``: the focus is the verbs' object."""
    head = first[0].head
    gaps = [VerbPhrase(verbs, [Phrase(head)]).about(subject.head) for subject in subjects]
    return Query(False, [*first, *subjects, *gaps])


def _pair(self: Semantics, c: list[Any]) -> list[Any]:
    return [c[0], c[1]]


def _series(self: Semantics, c: list[Any]) -> list[Any]:
    return [c[0], *c[1]]


def _one(self: Semantics, c: list[Any]) -> list[Any]:
    return [c[0]]


class CfqSemantics(Semantics):
    """Meaning of a cfq question: a :class:`Query`, rendered as normalised SPARQL."""

    def render(self, meaning: Any) -> str:
        return to_sparql(meaning)

    # -- questions --------------------------------------------------------------------------

    def did_question(self, c: list[Any]) -> Query:
        subjects, predicate = c
        return Query(True, [*subjects, *(predicate.about(s.head) for s in subjects)])

    def was_question(self, c: list[Any]) -> Query:
        subject, predicate = c
        return Query(True, [subject, predicate], {predicate.head: subject.head})

    def was_entity_question(self, c: list[Any]) -> Query:
        subject, entity = c
        return Query(True, [subject], {subject.head: entity.head})

    def was_passive_question(self, c: list[Any]) -> Query:
        subject, predicate = c
        return Query(True, [subject, predicate.about(subject.head)])

    def were_passive_question(self, c: list[Any]) -> Query:
        return self.did_question(c)

    def who_question(self, c: list[Any]) -> Query:
        return Query(False, [c[0].about(Var())])

    what_passive_question = who_question

    def who_copular_question(self, c: list[Any]) -> Query:
        return Query(False, [c[0]])

    def who_object_question(self, c: list[Any]) -> Query:
        subjects, verbs = c
        return _gap_question(subjects, verbs, [Phrase(Var())])

    what_object_question = who_object_question

    def which_question(self, c: list[Any]) -> Query:
        _wh, nominal, predicate = c
        head = Var()
        return Query(False, [nominal.phrase(head), predicate.about(head)])

    which_passive_question = which_question

    def which_copular_question(self, c: list[Any]) -> Query:
        _wh, nominal, predicate = c
        head = Var()
        return Query(False, [nominal.phrase(head), predicate], {predicate.head: head})

    def which_object_question(self, c: list[Any]) -> Query:
        _wh, nominal, subjects, verbs = c
        return _gap_question(subjects, verbs, [nominal.phrase(Var())])

    def what(self, c: list[Any]) -> str:
        return "what"

    def which(self, c: list[Any]) -> str:
        return "which"

    # -- noun phrases -------------------------------------------------------------------------

    def entity(self, c: list[Any]) -> Phrase:
        return Phrase(str(c[0]))

    single_subject = _one
    entity_pair = _pair
    entity_series = _series
    entity_series_more = _series
    entity_series_end = _pair

    def first_possessive(self, c: list[Any]) -> Phrase:
        possessor, role = c
        result: Phrase = role.phrase(possessor)
        return result

    nested_possessive = first_possessive

    def role_list_possessive(self, c: list[Any]) -> Phrase:
        possessor, roles = c
        return merged_roles(roles).phrase(possessor)

    def a_possessor(self, c: list[Any]) -> Phrase:
        result: Phrase = c[0].phrase()
        return result

    an_possessor = a_possessor
    relative_a_kind = a_possessor
    relative_an_kind = a_possessor

    def modified_role_c(self, c: list[Any]) -> RoleDescription:
        attributes, role = c
        return RoleDescription(role.relations, [*attributes, *role.attributes])

    modified_role_v = modified_role_c

    def a_indefinite(self, c: list[Any]) -> Phrase:
        result: Phrase = c[0].phrase(Var())
        return result

    an_indefinite = a_indefinite
    a_many = a_indefinite
    an_many = a_indefinite

    def modified_many_c(self, c: list[Any]) -> Description:
        attributes, roles, others = c
        return merged_roles(roles).of(others, attributes)

    modified_many_v = modified_many_c

    def plain_many_c(self, c: list[Any]) -> Description:
        roles, others = c
        return merged_roles(roles).of(others)

    plain_many_v = plain_many_c

    # -- nominals -----------------------------------------------------------------------------

    def modified_nominal_c(self, c: list[Any]) -> Description:
        attributes, description = c
        return _modified(attributes, description)

    modified_nominal_v = modified_nominal_c

    def type_head_c(self, c: list[Any]) -> Description:
        kind = c[0]
        return _described(lambda head: (kind.triples(head), [], []))

    type_head_v = type_head_c

    def restricted_head_c(self, c: list[Any]) -> Description:
        kind, relative = c

        def build(head: Term) -> Parts:
            triples, filters, parts = relative.constraints(head)
            return kind.triples(head) + triples, filters, parts

        return _described(build)

    restricted_head_v = restricted_head_c

    def role_of_head_c(self, c: list[Any]) -> Description:
        roles, other = c
        return merged_roles(roles).of([other])

    role_of_head_v = role_of_head_c

    def modified_kind_c(self, c: list[Any]) -> TypeDescription:
        attributes, kind = c
        return TypeDescription(kind.kind, [*attributes, *kind.attributes])

    modified_kind_v = modified_kind_c

    def subject_relative(self, c: list[Any]) -> Relative:
        return Relative(c[0], [c[1]], True)

    passive_subject_relative = subject_relative

    def object_relative(self, c: list[Any]) -> Relative:
        return Relative(c[1], c[0], False)

    passive_object_relative = object_relative

    # -- adjectives and role lists ------------------------------------------------------------

    gender_modifier = _one
    nationality_modifier_c = _one
    nationality_modifier_v = _one
    gender_then = _series
    nationality_then_c = _series
    nationality_then_v = _series
    one_role_c = _one
    one_role_v = _one
    role_pair_c = _pair
    role_pair_v = _pair
    role_series_c = _series
    role_series_v = _series
    role_pair = _pair
    role_series = _series
    role_series_more = _series
    role_series_end = _pair

    # -- verb phrases and objects -------------------------------------------------------------

    def shared_active(self, c: list[Any]) -> Predicate:
        verbs, objects = c
        return Predicate([VerbPhrase(verbs, objects)])

    shared_past = shared_active
    shared_passive = shared_active
    shared_by_passive = shared_active

    def simple_passive(self, c: list[Any]) -> Predicate:
        return Predicate([VerbPhrase([c[0]], c[1])])

    def active_item(self, c: list[Any]) -> VerbPhrase:
        return VerbPhrase([c[0]], c[1])

    past_item = active_item
    passive_item = active_item

    def active_pair(self, c: list[Any]) -> Predicate:
        return Predicate([c[0], c[1]])

    def active_series(self, c: list[Any]) -> Predicate:
        return Predicate([c[0], *c[1]])

    past_pair = active_pair
    past_series = active_series
    passive_pair = active_pair
    passive_series = active_series
    active_series_more = _series
    active_series_end = _pair
    past_series_more = _series
    past_series_end = _pair
    passive_series_more = _series
    passive_series_end = _pair
    one_unit = _one
    unit_pair = _pair
    unit_series = _series
    unit_series_more = _series
    unit_series_end = _pair
    by_pair = _pair
    by_series = _series
    by_series_more = _series
    by_series_end = _pair
    participle_pair = _pair
    participle_series = _series
    participle_series_more = _series
    participle_series_end = _pair
    one_object = _one
    object_pair = _pair
    object_series = _series
    object_series_more = _series
    object_series_end = _pair
    one_verb = _one
    verb_pair = _pair
    verb_series = _series
    verb_series_more = _series
    verb_series_end = _pair


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
