"""Logical forms of ``cfq`` questions and their SPARQL in CFQ's normalised form.

A noun phrase denotes a :class:`Phrase`: its head (an entity ``M3`` or a fresh :class:`Var`),
the triples and filters that constrain the head, and the phrases it mentions. A question is a
:class:`Query`. :func:`to_sparql` writes it as CFQ does: ``SELECT count(*)`` for yes/no
questions, ``SELECT DISTINCT ?x0`` for the others; variables are numbered in order of
introduction (the question's focus first, then each phrase's head before the phrases it
mentions, left to right); ``FILTER ( a != b )`` puts a variable before an entity and the lower
variable first; clauses are distinct, sorted, and joined by `` .`` and new lines.

>>> x = Var()
>>> query = Query(True, [Phrase(x, [(x, "ns:film.director.film", "M0")], [])])
>>> print(to_sparql(query))
SELECT count(*) WHERE {
?x0 ns:film.director.film M0
}
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from symcomp.languages.cfq.knowledge import Relation

Term = Any  # an entity placeholder (str) or a Var


class Var:
    """A query variable; its number is fixed only when the query is written."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"<Var {id(self):x}>"


Triple = tuple[Term, str, Term]
Filter = tuple[Term, Term]


@dataclass
class Phrase:
    """What a noun phrase denotes: a head, its constraints, and the phrases it mentions."""

    head: Term
    triples: list[Triple] = field(default_factory=list)
    parts: list[Phrase] = field(default_factory=list)
    filters: list[Filter] = field(default_factory=list)


@dataclass(frozen=True)
class Description:
    """A head-noun description not yet given a head: ``a <nominal>``, roles, ``which ...``."""

    build: Callable[[Term], tuple[list[Triple], list[Filter], list[Phrase]]]

    def phrase(self, head: Term) -> Phrase:
        triples, filters, parts = self.build(head)
        return Phrase(head, triples, parts, filters)


@dataclass(frozen=True)
class VerbPhrase:
    """Verbs applied to objects: every verb to every object (CFQ's conjunction reading)."""

    relations: list[Relation]
    objects: list[Phrase]

    def about(self, subject: Term) -> Phrase:
        """The constraints this verb phrase puts on ``subject``, as a phrase headed by it."""
        triples: list[Triple] = []
        filters: list[Filter] = []
        for relation in self.relations:
            for obj in self.objects:
                triples.extend(relation.clause(subject, obj.head))
                filters.extend(relation.filters(subject, obj.head))
        return Phrase(subject, triples, list(self.objects), filters)


@dataclass
class Query:
    """A question: yes/no (``count``) or asking for the head of the first phrase."""

    count: bool
    phrases: list[Phrase]
    same: dict[Var, Term] = field(default_factory=dict)  # variables identified with terms


def merge(head: Term, phrases: Iterable[Phrase]) -> Phrase:
    """One phrase headed by ``head`` with the constraints and parts of all ``phrases``."""
    merged = Phrase(head)
    for phrase in phrases:
        merged.triples.extend(phrase.triples)
        merged.filters.extend(phrase.filters)
        merged.parts.extend(phrase.parts)
    return merged


def to_sparql(query: Query) -> str:
    """The query in CFQ's normalised SPARQL form (see the module docstring)."""
    names: dict[Var, str] = {}

    def resolve(term: Term) -> Term:
        while isinstance(term, Var) and term in query.same:
            term = query.same[term]
        return term

    def visit(phrase: Phrase) -> None:
        head = resolve(phrase.head)
        if isinstance(head, Var) and head not in names:
            names[head] = f"?x{len(names)}"
        for part in phrase.parts:
            visit(part)

    for phrase in query.phrases:
        visit(phrase)

    def text(term: Term) -> str:
        term = resolve(term)
        return names[term] if isinstance(term, Var) else str(term)

    clauses: set[str] = set()
    for phrase in _all_phrases(query.phrases):
        for subject, prop, obj in phrase.triples:
            clauses.add(f"{text(subject)} {prop} {text(obj)}")
        for left, right in phrase.filters:
            a, b = sorted((text(left), text(right)), key=_filter_order)
            clauses.add(f"FILTER ( {a} != {b} )")
    head = "count(*)" if query.count else "DISTINCT ?x0"
    return f"SELECT {head} WHERE {{\n" + " .\n".join(sorted(clauses)) + "\n}"


def _filter_order(term: str) -> tuple[int, int, str]:
    if term.startswith("?x"):
        return (0, int(term[2:]), term)
    return (1, 0, term)


def _all_phrases(phrases: Iterable[Phrase]) -> list[Phrase]:
    """Every phrase reachable from ``phrases``, each once."""
    seen: set[int] = set()
    found: list[Phrase] = []
    stack = list(phrases)[::-1]
    while stack:
        phrase = stack.pop()
        if id(phrase) in seen:
            continue
        seen.add(id(phrase))
        found.append(phrase)
        stack.extend(reversed(phrase.parts))
    return found
