"""COGS sentences to logical forms: one method per alias of ``grammars/cogs.lark``.

Clauses, verb phrases and noun phrases build :class:`~symcomp.languages.cogs.meaning.Phrase`
values; a verb phrase leaves its subject open (:data:`SUBJECT`, filled by the clause: the
infinitive's agent is the matrix subject) and the clause adds the subject's role first, so a
verb's roles come in the order its arguments appear. The output formats render the root
(:mod:`symcomp.languages.cogs.formats`).

>>> from symcomp.core.registry import get_language
>>> get_language("cogs").interpret("Emma wanted to walk .")
'want . agent ( x _ 1 , Emma ) AND want . xcomp ( x _ 1 , x _ 3 ) AND walk . agent ( x _ 3 , Emma )'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from symcomp.core.semantics import Semantics
from symcomp.languages.cogs.formats import render
from symcomp.languages.cogs.meaning import (
    Conjunct,
    Part,
    Parts,
    Phrase,
    combine,
    gather,
    modified,
    noun_phrase,
    verb,
)

SUBJECT = "\x00subject"  # the open subject of a verb phrase, filled by its clause
Method = Callable[[Any, list[Part]], Phrase]


def _word(part: Part) -> Phrase:
    assert isinstance(part, Phrase)
    return part


def _primitive(kind: str) -> Method:
    """A primitive row's meaning: the word and its class."""

    def method(self: Any, children: list[Part]) -> Phrase:
        word = str(children[0])
        return Phrase(1, word, lemma=word, kind=kind)

    return method


def _clause(role: str) -> Method:
    """A clause whose subject has ``role``."""

    def method(self: Any, children: list[Part]) -> Phrase:
        return combine(children, lambda parts: self.clause(role, parts))

    return method


def _verb(*roles: str) -> Method:
    """A verb phrase: the verb is the first word after any ``was``; the other phrases
    are its arguments in ``roles`` order (``by`` and ``to`` are skipped)."""

    def method(self: Any, children: list[Part]) -> Phrase:
        def build(parts: Parts) -> Phrase:
            words = [p for p in parts if isinstance(p, Phrase)]
            start = 1 if words[0].lemma == "was" else 0
            head = words[start]
            arguments = [p for p in words[start + 1 :] if p.kind in ("entity", "event")]
            pairs = list(zip(roles, arguments, strict=True))
            return verb(head, self.lemma(head), pairs)

        return combine(children, build)

    return method


class CogsSemantics(Semantics):
    """The meaning of a COGS tree; ``lemmas`` maps inflected verbs to lemmas, ``output`` names
    the format :meth:`render` writes (``cogs``, ``recogs_positional_index``, ``varfree``)."""

    def __init__(self, lemmas: Mapping[str, str], output: str = "cogs") -> None:
        super().__init__()
        self.lemmas = dict(lemmas)
        self.output = output

    def render(self, meaning: Any) -> str:
        """The meaning in this semantics' output format."""
        return render(meaning, self.output)

    def lemma(self, word: Phrase) -> str:
        return self.lemmas.get(word.lemma, word.lemma)

    # -- rows ------------------------------------------------------------------------------

    def declarative(self, children: list[Part]) -> Phrase:
        return combine(children, lambda parts: _word(parts[0]))

    primitive_animate = primitive_inanimate = _primitive("noun")
    primitive_proper = _primitive("name")
    primitive_omissible = primitive_transitive = _primitive("transitive")
    primitive_unaccusative = _primitive("unaccusative")
    primitive_unergative = _primitive("unergative")

    # -- clauses ---------------------------------------------------------------------------

    def clause(self, role: str, parts: Parts) -> Phrase:
        subject, predicate = _word(parts[0]), _word(parts[1])
        if predicate.kind != "event":  # a bare verb: the unaccusative clauses
            predicate = Phrase(1, predicate.head, lemma=self.lemma(predicate), kind="event")
        event = int(predicate.head)
        own = Conjunct(event, predicate.lemma, role, (event, subject.head))
        filled = tuple(_fill(conjunct, subject.head) for conjunct in predicate.conjuncts)
        return Phrase(
            0,
            event,
            (own, *subject.conjuncts, *filled),
            subject.mentions + predicate.mentions,
            predicate.lemma,
            "event",
        )

    agent_clause = _clause("agent")
    unaccusative_inanimate = unaccusative_animate = _clause("theme")
    passive_clause = _clause("theme")
    passive_dative_clause = _clause("recipient")

    # -- verb phrases ----------------------------------------------------------------------

    unergative = omitted_object = _verb()
    unaccusative_transitive = omissible_transitive = transitive = _verb("theme")
    pp_dative = _verb("theme", "recipient")
    double_object_dative = _verb("recipient", "theme")
    clausal_complement = _verb("ccomp")
    passive_transitive = passive_omissible = passive_unaccusative = _verb()
    passive_transitive_by = passive_omissible_by = passive_unaccusative_by = _verb("agent")
    passive_dative = _verb("recipient")
    passive_dative_by = _verb("recipient", "agent")
    passive_recipient = _verb("theme")
    passive_recipient_by = _verb("theme", "agent")

    def infinitival(self, children: list[Part]) -> Phrase:
        def build(parts: Parts) -> Phrase:
            head, infinitive = _word(parts[0]), _word(parts[2])
            lemma = self.lemma(infinitive)
            position = int(infinitive.head)
            inner = Phrase(
                1,
                position,
                (Conjunct(position, lemma, "agent", (position, SUBJECT)),),
                lemma=lemma,
                kind="event",
            )
            return verb(head, self.lemma(head), [("xcomp", inner)])

        return combine(children, build)

    # -- noun phrases ----------------------------------------------------------------------

    def _noun(self, children: list[Part]) -> Phrase:
        return combine(children, noun_phrase)

    def _noun_pp(self, children: list[Part]) -> Phrase:
        def build(parts: Parts) -> Phrase:
            pp = _word(parts[2])
            return modified(noun_phrase(parts[:2]), pp.lemma, pp)

        return combine(children, build)

    nsubj_common = nsubj_proper = nsubjpass_common = nsubjpass_proper = _noun
    nsubjpass_inanimate_common = unacc_subject_common = iobj_common = iobj_proper = _noun
    inanimate_common = animate_common = animate_proper = _noun
    theme_common = theme_proper = theme_animate = _noun
    on_np = in_np = beside_np = _noun
    nsubj_common_pp = nsubjpass_common_pp = nsubjpass_inanimate_common_pp = _noun_pp
    unacc_subject_common_pp = inanimate_common_pp = animate_common_pp = _noun_pp
    theme_common_pp = theme_animate_pp = _noun_pp
    on_np_pp = in_np_pp = beside_np_pp = _noun_pp

    def _preposition(self, children: list[Part]) -> Phrase:
        def build(parts: Parts) -> Phrase:
            np = _word(parts[1])
            conjuncts, mentions = gather([np])
            return Phrase(0, np.head, conjuncts, mentions, _word(parts[0]).lemma, "pp")

        return combine(children, build)

    pp_on = pp_in = pp_beside = _preposition

    def pp_iobj(self, children: list[Part]) -> Phrase:
        return combine(children, lambda parts: _word(parts[1]))


def _fill(conjunct: Conjunct, subject: int | str) -> Conjunct:
    if SUBJECT not in conjunct.args:
        return conjunct
    args = tuple(subject if arg == SUBJECT else arg for arg in conjunct.args)
    return Conjunct(conjunct.anchor, conjunct.lemma, conjunct.role, args)
