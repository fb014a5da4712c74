"""Knowledge rules of the ``cfq`` language: lexical items to Freebase properties and values.

Each entry maps a grammar alias (a lexical alternative of ``grammars/cfq.lark``) to what it
means in the knowledge base, with the property names CFQ's queries use (``ns:`` prefixed, with
CFQ's ``|`` alternations and ``/`` paths). A role word and a verb that mean the same relation
(``director`` / ``directed``) share one :class:`Relation`, and so one knowledge atom in the
derivation DAG.

>>> ROLES["director_role"].clause("?x0", "M1")
[('?x0', 'ns:film.director.film', 'M1')]
>>> VERBS["marry_verb"].filters("?x0", "M2")
[('?x0', 'M2')]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

DIRECTOR = "ns:film.director.film"
PRODUCER = "ns:film.producer.film|ns:film.production_company.films"
EXECUTIVE_PRODUCER = "ns:film.producer.films_executive_produced"
EDITOR = "ns:film.editor.film"
WRITER = "ns:film.writer.film"
CINEMATOGRAPHER = "ns:film.cinematographer.film"
COSTUME_DESIGNER = "ns:film.film_costumer_designer.costume_design_for_film"
ART_DIRECTOR = "ns:film.film_art_director.films_art_directed"
STAR = "ns:film.actor.film/ns:film.performance.film"
ACTOR = "ns:film.actor.film/ns:film.performance.character"
FOUNDER = "ns:organization.organization_founder.organizations_founded"
EMPLOYS = "ns:business.employer.employees/ns:business.employment_tenure.person"
SPOUSE = (
    "ns:people.person.spouse_s/ns:people.marriage.spouse|"
    "ns:fictional_universe.fictional_character.married_to/"
    "ns:fictional_universe.marriage_of_fictional_characters.spouses"
)
PARENT_OF = (
    "ns:people.person.children|ns:fictional_universe.fictional_character.children|"
    "ns:organization.organization.child/ns:organization.organization_relationship.child"
)
CHILD_OF = (
    "ns:people.person.parents|ns:fictional_universe.fictional_character.parents|"
    "ns:organization.organization.parent/ns:organization.organization_relationship.parent"
)
SIBLING = (
    "ns:people.person.sibling_s/ns:people.sibling_relationship.sibling|"
    "ns:fictional_universe.fictional_character.siblings/"
    "ns:fictional_universe.sibling_relationship_of_fictional_characters.siblings"
)
PREQUEL = "ns:film.film.prequel"
SEQUEL = "ns:film.film.sequel"
INFLUENCED = "ns:influence.influence_node.influenced"
INFLUENCED_BY = "ns:influence.influence_node.influenced_by"
PLAYED = ACTOR  # "M0 played M1": M0 is the actor of the character M1
ACQUIRED = (
    "ns:organization.organization.companies_acquired/ns:business.acquisition.company_acquired"
)
DISTRIBUTED = "ns:film.film.distributors/ns:film.film_film_distributor_relationship.distributor"
GENDER = "ns:people.person.gender"
NATIONALITY = "ns:people.person.nationality"

Triple = tuple[Any, str, Any]


@dataclass(frozen=True)
class Relation:
    """A binary relation R(a, b) written as one SPARQL triple.

    ``reverse``: the triple is ``b prop a``. ``distinct``: also ``FILTER ( a != b )`` (a
    person is not their own spouse or sibling, as in CFQ's queries).
    """

    prop: str
    reverse: bool = False
    distinct: bool = False

    def clause(self, a: Any, b: Any) -> list[Triple]:
        return [(b, self.prop, a) if self.reverse else (a, self.prop, b)]

    def filters(self, a: Any, b: Any) -> list[tuple[Any, Any]]:
        return [(a, b)] if self.distinct else []

    def passive(self) -> Relation:
        """R'(a, b) = R(b, a): what "a was <verb>ed by b" means."""
        return Relation(self.prop, not self.reverse, self.distinct)

    def label(self) -> str:
        """The knowledge atom: the property without namespace prefixes."""
        return "kb:" + self.prop.replace("ns:", "")


# "X 's <role>" is the v with ROLE(v, X)
ROLES: Mapping[str, Relation] = {
    "director_role": Relation(DIRECTOR),
    "producer_role": Relation(PRODUCER),
    "writer_role": Relation(WRITER),
    "cinematographer_role": Relation(CINEMATOGRAPHER),
    "costume_designer_role": Relation(COSTUME_DESIGNER),
    "star_role": Relation(STAR),
    "founder_role": Relation(FOUNDER),
    "spouse_role": Relation(SPOUSE, distinct=True),
    "parent_role": Relation(PARENT_OF),
    "child_role": Relation(CHILD_OF),
    "sibling_role": Relation(SIBLING, distinct=True),
    "sequel_role": Relation(PREQUEL),
    "prequel_role": Relation(SEQUEL),
    "editor_role": Relation(EDITOR),
    "executive_producer_role": Relation(EXECUTIVE_PRODUCER),
    "art_director_role": Relation(ART_DIRECTOR),
    "actor_role": Relation(ACTOR),
    "employer_role": Relation(EMPLOYS),
    "employee_role": Relation(EMPLOYS, reverse=True),
    "distributor_role": Relation(DISTRIBUTED, reverse=True),
    "nationality_role": Relation(NATIONALITY, reverse=True),
}

# "S <verb> O" is VERB(S, O)
_ACTIVE: Mapping[str, Relation] = {
    "direct": Relation(DIRECTOR),
    "produce": Relation(PRODUCER),
    "executive_produce": Relation(EXECUTIVE_PRODUCER),
    "edit": Relation(EDITOR),
    "write": Relation(WRITER),
    "found": Relation(FOUNDER),
    "employ": Relation(EMPLOYS),
    "marry": Relation(SPOUSE, distinct=True),
    "influence": Relation(INFLUENCED),
    "star": Relation(STAR),  # "Did M0 star M1": M0 acted in the film M1
    "play": Relation(PLAYED),
    "acquire": Relation(ACQUIRED),
    "distribute": Relation(DISTRIBUTED, reverse=True),
}
_PAST = {
    "directed": "direct",
    "produced": "produce",
    "executive_produced": "executive_produce",
    "edited": "edit",
    "wrote": "write",
    "founded": "found",
    "employed": "employ",
    "married": "marry",
    "influenced": "influence",
    "starred": "star",
    "played": "play",
    "acquired": "acquire",
    "distributed": "distribute",
}
_PARTICIPLE = {
    "directed": "direct",
    "produced": "produce",
    "executive_produced": "executive_produce",
    "edited": "edit",
    "written": "write",
    "founded": "found",
    "employed": "employ",
    "played": "play",
    "acquired": "acquire",
    "distributed": "distribute",
}

VERBS: Mapping[str, Relation] = {
    **{f"{verb}_verb": relation for verb, relation in _ACTIVE.items()},
    **{f"{form}_verb": _ACTIVE[verb] for form, verb in _PAST.items()},
}
# "S was <participle> by O"; CFQ writes "influenced by" with its own property
PASSIVES: Mapping[str, Relation] = {
    **{f"{form}_by": _ACTIVE[verb].passive() for form, verb in _PARTICIPLE.items()},
    "influenced_by": Relation(INFLUENCED_BY),
}

TYPES: Mapping[str, str] = {
    "film_type": "ns:film.film",
    "person_type": "ns:people.person",
    "character_type": "ns:fictional_universe.fictional_character",
    "company_type": "ns:business.employer",
    "production_company_type": "ns:film.production_company",
    "film_director_type": "ns:film.director",
    "film_producer_type": "ns:film.producer",
    "film_editor_type": "ns:film.editor",
    "screenwriter_type": "ns:film.writer",
    "cinematographer_type": "ns:film.cinematographer",
    "costume_designer_type": "ns:film.film_costumer_designer",
    "film_distributor_type": "ns:film.film_distributor",
    "country_type": "ns:location.country",
    "art_director_type": "ns:film.film_art_director",
    "actor_type": "ns:film.actor",
    "editor_type": "ns:film.editor",
}

# adjectives: (property, Freebase id of the value)
ATTRIBUTES: Mapping[str, tuple[str, str]] = {
    "male": (GENDER, "ns:m.05zppz"),
    "female": (GENDER, "ns:m.02zsn"),
    "british": (NATIONALITY, "ns:m.07ssc"),
    "canadian": (NATIONALITY, "ns:m.0d060g"),
    "chinese": (NATIONALITY, "ns:m.0d05w3"),
    "dutch": (NATIONALITY, "ns:m.059j2"),
    "french": (NATIONALITY, "ns:m.0f8l9c"),
    "german": (NATIONALITY, "ns:m.0345h"),
    "japanese": (NATIONALITY, "ns:m.03_3d"),
    "mexican": (NATIONALITY, "ns:m.0b90_r"),
    "spanish": (NATIONALITY, "ns:m.06mkj"),
    "swedish": (NATIONALITY, "ns:m.0d0vqn"),
    # nationalities beyond CFQ's sample: Freebase ids of the countries as symcomp records them
    # (from memory of Freebase, not checked against a dump)
    "american": (NATIONALITY, "ns:m.09c7w0"),
    "italian": (NATIONALITY, "ns:m.03rjj"),
    "indian": (NATIONALITY, "ns:m.03rk0"),
    "irish": (NATIONALITY, "ns:m.03rt9"),
    "australian": (NATIONALITY, "ns:m.0chghy"),
    "austrian": (NATIONALITY, "ns:m.0h7x"),
    "russian": (NATIONALITY, "ns:m.06bnz"),
    "danish": (NATIONALITY, "ns:m.0k6nt"),
    "korean": (NATIONALITY, "ns:m.06qd3"),
    "polish": (NATIONALITY, "ns:m.05qhw"),
    "argentine": (NATIONALITY, "ns:m.0jgd"),
    "belgian": (NATIONALITY, "ns:m.0154j"),
    "brazilian": (NATIONALITY, "ns:m.015fr"),
    "czech": (NATIONALITY, "ns:m.01mjq"),
    "finnish": (NATIONALITY, "ns:m.02vzc"),
    "greek": (NATIONALITY, "ns:m.035qy"),
    "hungarian": (NATIONALITY, "ns:m.03gj2"),
    "norwegian": (NATIONALITY, "ns:m.05b4w"),
    "portuguese": (NATIONALITY, "ns:m.05r4w"),
    "swiss": (NATIONALITY, "ns:m.06mzp"),
    "israeli": (NATIONALITY, "ns:m.03spz"),
    "egyptian": (NATIONALITY, "ns:m.02k54"),
    "iranian": (NATIONALITY, "ns:m.03shp"),
}


def knowledge_label(alias: str) -> str | None:
    """The knowledge atom a lexical alias uses, or None for a non-lexical rule.

    >>> knowledge_label("directed_verb") == knowledge_label("director_role")
    True
    >>> knowledge_label("male"), knowledge_label("possessive")
    ('kb:people.person.gender=m.05zppz', None)
    """
    relation = ROLES.get(alias) or VERBS.get(alias) or PASSIVES.get(alias)
    if relation is not None:
        return relation.label()
    if alias in TYPES:
        return "kb:type=" + TYPES[alias].replace("ns:", "")
    if alias in ATTRIBUTES:
        prop, value = ATTRIBUTES[alias]
        return f"kb:{prop.replace('ns:', '')}={value.replace('ns:', '')}"
    return None


def relation_of(alias: str) -> Relation | None:
    """The relation of a role, verb or passive alias."""
    return ROLES.get(alias) or VERBS.get(alias) or PASSIVES.get(alias)
