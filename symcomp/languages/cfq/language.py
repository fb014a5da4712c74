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
questions as asked for are drawn (at most one per pattern modulo entities), then those of
CFQ's complexity (:data:`COMPLEXITY`) are subsampled to a uniform distribution over complexity
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

from collections.abc import Callable, Hashable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lark import Tree

from symcomp.core.language import Language, PoolWriter
from symcomp.core.resources import load_grammar
from symcomp.languages.cfq.dag import cfq_node_link
from symcomp.languages.cfq.semantics import CfqSemantics

if TYPE_CHECKING:
    from symcomp.data.generate import PoolSpec
    from symcomp.data.parallel import Jobs

NAME = "cfq"
OVERSAMPLE = 2  # draw this many times the pool size, then subsample (Keysers et al. 2020, §4)
COMPLEXITY = (10, 50)  # CFQ's questions take 10 to 50 rule applications (DAG nodes)


class CfqLanguage(Language):
    """The cfq language: extended DAGs, CFQ-style subsampled pools, one question per pattern."""

    def node_link(self, tree: Tree[Any]) -> dict[str, Any]:
        """The extended DAG: grammar, knowledge, inference and resolution rules
        (:mod:`symcomp.languages.cfq.dag`)."""
        return cfq_node_link(tree)

    def uniqueness_keys(self, tree: Tree[Any], text: str) -> Iterable[Hashable]:
        """The question with its entities renamed in order of appearance: CFQ keeps at most
        one question per pattern modulo entities (Keysers et al. 2020, §4)."""
        return (renamed_entities(text),)

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
        complexity=COMPLEXITY,
        jobs=jobs,
        overwrite=overwrite,
        progress=progress,
    )


LIST_HEADS = frozenset(
    f"{kind}_{shape}{suffix}"
    for kind in ("role", "object", "verb", "unit", "participle", "by", "entity")
    for shape in ("pair", "series")
    for suffix in ("", "_c", "_v")
) | frozenset(
    f"{kind}_{shape}" for kind in ("active", "past", "passive") for shape in ("pair", "series")
)
MODIFIER_CHAINS = frozenset({"gender_then", "nationality_then_c", "nationality_then_v"})
GENDERS = frozenset({"male", "female"})


def well_formed(tree: Tree[Any], text: str) -> bool:
    """The pool filter of cfq: distinct entities, no item twice in one conjunction, adjectives
    without repeats and with at most one gender.

    >>> language = build()
    >>> well_formed(language.parse("Did M0 edit and edit M1"), "Did M0 edit and edit M1")
    False
    >>> well_formed(language.parse("Was M0 a male German female film"), "")
    False
    """
    if not distinct_entities(text):
        return False
    for node in tree.iter_subtrees():
        label = str(node.data)
        if label in LIST_HEADS:
            items = list(_list_items(node))
            if len(items) != len(set(items)):
                return False
        elif label in MODIFIER_CHAINS:
            words = _leaves(node)
            if len(words) != len(set(words)) or len(GENDERS.intersection(words)) > 1:
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
            yield tuple(_leaves(child))


def _leaves(node: Tree[Any]) -> list[str]:
    """The lexical choices under a node (its leaf rules and tokens), wrappers left out, so
    ``director`` as the first item of a role list equals ``director`` as a later one."""
    found: list[str] = []
    for sub in node.iter_subtrees():
        if not any(isinstance(child, Tree) for child in sub.children):
            found.append(str(sub.data))
            found.extend(str(child) for child in sub.children)
    return found


def renamed_entities(text: str) -> str:
    """``text`` with its entities renumbered M0, M1, ... in order of first appearance.

    >>> print(renamed_entities("Did M3 marry M1 's sibling"))
    Did M0 marry M1 's sibling
    """
    names: dict[str, str] = {}
    return " ".join(
        names.setdefault(token, f"M{len(names)}") if _is_entity(token) else token
        for token in text.split()
    )


def _is_entity(token: str) -> bool:
    return token[:1] == "M" and token[1:].isdigit()


def distinct_entities(text: str) -> bool:
    """True when no entity placeholder occurs twice (CFQ numbers distinct entities).

    >>> distinct_entities("Did M0 marry M1"), distinct_entities("Did M0 marry M0")
    (True, False)
    """
    entities = [token for token in text.split() if _is_entity(token)]
    return len(entities) == len(set(entities))


def build() -> Language:
    """The ``cfq`` language from the packaged grammar."""
    return CfqLanguage(NAME, load_grammar(NAME, NAME), CfqSemantics)
