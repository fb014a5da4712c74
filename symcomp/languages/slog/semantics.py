"""SLOG sentences and questions to logical forms: :class:`SlogSemantics` adds relative clauses
and questions to :class:`~symcomp.languages.cogs.semantics.CogsSemantics`.

A relative clause is a clause with a gap: its gap is the placeholder :data:`GAP`, which the
modified noun fills (``girl . nmod ( x _ 3 , x _ 7 )`` and the gap's role takes ``x _ 3``). A
wh-word is the argument ``?``. Each alternative lists its verb's roles in the order SLOG's
IRTG rule composes them (the underlying position: ``What did Liam give Owen ?`` is agent,
theme, recipient), not in the order the fillers surface.

>>> from symcomp.core.registry import get_language
>>> slog = get_language("slog")
>>> print(slog.interpret("Who did Emma give the cake to ?").replace(" AND ", "\\n"))
* cake ( x _ 5 ) ; give . agent ( x _ 3 , Emma )
give . theme ( x _ 3 , x _ 5 )
give . recipient ( x _ 3 , ? )
>>> print(slog.interpret("A cake that Liam found was held by Emma .").replace(" AND ", "\\n"))
cake ( x _ 1 )
cake . nmod ( x _ 1 , x _ 4 )
find . agent ( x _ 4 , Liam )
find . theme ( x _ 4 , x _ 1 )
hold . theme ( x _ 6 , x _ 1 )
hold . agent ( x _ 6 , Emma )
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from symcomp.languages.cogs.meaning import (
    Conjunct,
    Part,
    Parts,
    Phrase,
    Ref,
    combine,
    modified,
    noun_phrase,
    verb,
)
from symcomp.languages.cogs.semantics import CogsSemantics
from symcomp.languages.slog.make_grammar import TWIN_RULES

GAP = "\x00gap"  # the argument a relative clause or an embedded question leaves open
WH = "?"  # a wh-word's referent in both output formats
Method = Callable[[Any, list[Part]], Phrase]
Source = int | str  # a child's index, or GAP


def _phrase(part: Part) -> Phrase:
    assert isinstance(part, Phrase)
    return part


def _gap() -> Phrase:
    """The gap as a zero-length argument (it occupies no token)."""
    return Phrase(0, GAP, kind="entity")


def filled(phrase: Phrase, ref: Ref) -> Phrase:
    """The phrase with its gap filled by ``ref`` (a noun's position or ``?``).

    >>> filled(Phrase(0, 2, (Conjunct(2, "find", "theme", (2, GAP)),)), 1).conjuncts[0].args
    (2, 1)
    """
    conjuncts = tuple(
        Conjunct(c.anchor, c.lemma, c.role, tuple(ref if a == GAP else a for a in c.args))
        for c in phrase.conjuncts
    )
    return Phrase(phrase.length, phrase.head, conjuncts, phrase.mentions, phrase.lemma, phrase.kind)


def _frame(verb_at: int, *roles: tuple[str, Source]) -> Method:
    """A clause whose verb is child ``verb_at`` and whose roles, in this order, are filled by
    the children at the given indices or by the gap."""

    def method(self: Any, children: list[Part]) -> Phrase:
        def build(parts: Parts) -> Phrase:
            head = _phrase(parts[verb_at])
            pairs = [
                (role, _gap() if source == GAP else _phrase(parts[int(source)]))
                for role, source in roles
            ]
            return verb(head, self.lemma(head), pairs)

        return combine(children, build)

    return method


def _gapped_clause(role: str) -> Method:
    """``that`` + a verb phrase whose subject (with ``role``) is the gap."""

    def method(self: Any, children: list[Part]) -> Phrase:
        return combine(children, lambda parts: self.clause(role, [_gap(), parts[1]]))

    return method


def _wh_clause(role: str) -> Method:
    """A question whose subject (with ``role``) is the wh-word."""

    def method(self: Any, children: list[Part]) -> Phrase:
        return combine(children, lambda parts: self.clause(role, parts))

    return method


def _with_question(method: Method) -> Method:
    """The method's meaning with the gap filled by the wh-word (long movement)."""

    def wrapped(self: Any, children: list[Part]) -> Phrase:
        return filled(method(self, children), WH)

    return wrapped


def _noun_rc(start: int) -> Method:
    """``DET N rc`` from child ``start``: the noun, its ``nmod`` to the clause's verb, the
    clause with its gap filled by the noun."""

    def method(self: Any, children: list[Part]) -> Phrase:
        def build(parts: Parts) -> Phrase:
            noun = noun_phrase(parts[start : start + 2])
            clause = filled(_phrase(parts[start + 2]), noun.head)
            nmod = Conjunct(int(noun.head), noun.lemma, "nmod", (noun.head, clause.head))
            conjuncts = (*noun.conjuncts, nmod, *clause.conjuncts)
            mentions = noun.mentions + clause.mentions
            return Phrase(0, noun.head, conjuncts, mentions, noun.lemma, "entity")

        return combine(children, build)

    return method


@dataclass(frozen=True)
class Trailing:
    """A ``_t`` rule's meaning: the phrase of the rule without ``_t`` and the theme that
    follows it (each counted from its own first token)."""

    phrase: Phrase
    theme: Phrase


def _then_theme(base: str) -> Callable[[Any, list[Any]], Trailing]:
    """The ``_t`` twin of the method ``base``: its last child is the theme or a nested
    ``_t`` meaning, whose theme is passed up."""

    def method(self: Any, children: list[Any]) -> Trailing:
        *init, last = children
        if isinstance(last, Trailing):
            return Trailing(getattr(self, base)([*init, last.phrase]), last.theme)
        return Trailing(getattr(self, base)(init), last)

    return method


class SlogSemantics(CogsSemantics):
    """The meaning of a SLOG tree (COGS's, with relative clauses, questions and rows of one
    noun phrase)."""

    def render(self, meaning: Any) -> str:
        """The meaning in this semantics' output format, nouns as written (SLOG keeps ``TV``
        where COGS writes ``tv``); a row of one noun phrase as a clause's conjuncts (what
        SLOG's converter writes: ``cat ( x _ 1 ) AND cat . nmod . beside ( x _ 1 , x _ 4 )``).
        """
        if meaning.kind == "np" and self.output != "varfree":
            meaning = replace(meaning, kind="event")
        text = super().render(meaning)
        cased = {word.lower(): word for _, word, _ in meaning.mentions if word != word.lower()}
        if not cased or self.output != "cogs":
            return text
        return " ".join(cased.get(token, token) for token in text.split(" "))

    def interrogative(self, children: list[Part]) -> Phrase:
        return combine(children, lambda parts: _phrase(parts[0]))

    def standalone_row(self, children: list[Part]) -> Phrase:
        phrase = _phrase(children[0])
        return Phrase(
            phrase.length, phrase.head, phrase.conjuncts, phrase.mentions, phrase.lemma, "np"
        )

    def who(self, children: list[Part]) -> Phrase:
        return Phrase(1, WH, lemma=WH, kind="entity")

    what = who

    primitive_dative = CogsSemantics.primitive_omissible
    primitive_cp_taking = CogsSemantics.primitive_unergative

    # -- relative clauses --------------------------------------------------------------------

    rc_agent = _gapped_clause("agent")
    rc_unaccusative = _gapped_clause("theme")
    rc_passive = _gapped_clause("theme")
    rc_passive_recipient = _gapped_clause("recipient")
    rc_theme_transitive = rc_theme_omissible = rc_theme_unaccusative = _frame(
        2, ("agent", 1), ("theme", GAP)
    )
    rc_theme_pp_dative = _frame(2, ("agent", 1), ("theme", GAP), ("recipient", 3))
    rc_theme_double_object = _frame(2, ("agent", 1), ("recipient", 3), ("theme", GAP))
    rc_recipient = _frame(2, ("agent", 1), ("theme", 3), ("recipient", GAP))

    nsubj_common_rc = nsubjpass_common_rc = nsubjpass_inanimate_common_rc = _noun_rc(0)
    unacc_subject_common_rc = _noun_rc(0)
    iobj_common_rc = inanimate_common_rc = animate_common_rc = theme_common_rc = _noun_rc(0)
    row_animate_rc = row_inanimate_rc = _noun_rc(0)
    row_animate_pp = row_inanimate_pp = CogsSemantics._noun_pp
    agent_common = agent_proper = CogsSemantics._noun
    agent_common_pp = CogsSemantics._noun_pp

    def iobj_common_pp(self, children: list[Part]) -> Phrase:
        return self._noun_pp(children)

    pp_iobj_plain_np = CogsSemantics.pp_iobj

    def pp_iobj_common_pp(self, children: list[Part]) -> Phrase:
        def build(parts: Parts) -> Phrase:
            pp = _phrase(parts[3])
            # noun_phrase counts from its first word: shift it past `to`
            return modified(noun_phrase(parts[1:3]).shifted(1), pp.lemma, pp)

        return combine(children, build)

    def double_object_iobj_pp(self, children: list[Part]) -> Phrase:
        """``gave a girl in a room a cake``: the recipient with its PP, then the theme."""
        recipient = self._noun_pp(children[1:4])
        return self.double_object_dative([children[0], recipient, children[4]])

    def double_object_iobj_rc(self, children: list[Any]) -> Phrase:
        """``gave a girl that slept the cake``: the recipient with its relative clause, then
        the theme the clause's ``_t`` rules carried to the right edge."""
        trailing = children[3]
        assert isinstance(trailing, Trailing)
        recipient = self.iobj_common_rc([children[1], children[2], trailing.phrase])
        return self.double_object_dative([children[0], recipient, trailing.theme])

    def passive_dative_iobj_rc_by(self, children: list[Any]) -> Phrase:
        """``was given to a girl that slept by Emma``: the by-phrase is the outer verb's."""
        trailing = children[5]
        assert isinstance(trailing, Trailing)
        recipient = self.iobj_common_rc([children[3], children[4], trailing.phrase])
        to_recipient = self.pp_iobj([children[2], recipient])
        return self.passive_dative_by([children[0], children[1], to_recipient, trailing.theme])

    def passive_recipient_theme_rc_by(self, children: list[Any]) -> Phrase:
        """``was lent a cake that Liam held by Emma``: the by-phrase is the outer verb's."""
        trailing = children[4]
        assert isinstance(trailing, Trailing)
        theme = self.theme_common_rc([children[2], children[3], trailing.phrase])
        return self.passive_recipient_by([children[0], children[1], theme, trailing.theme])

    def by_agent(self, children: list[Part]) -> Phrase:
        """``by`` and the agent (its length counts ``by``)."""
        return combine(children, lambda parts: _phrase(parts[1]))

    theme_last_common = CogsSemantics._noun
    theme_last_common_pp = CogsSemantics._noun_pp

    # -- questions ---------------------------------------------------------------------------

    wh_agent = _wh_clause("agent")
    wh_unaccusative = wh_passive = _wh_clause("theme")
    wh_passive_recipient = _wh_clause("recipient")
    wh_theme = _frame(3, ("agent", 2), ("theme", 0))
    wh_theme_double_object = wh_theme_pp_dative = _frame(
        3, ("agent", 2), ("theme", 0), ("recipient", 4)
    )
    wh_recipient = _frame(3, ("agent", 2), ("theme", 4), ("recipient", 0))
    wh_long = _with_question(_frame(3, ("agent", 2), ("ccomp", 5)))
    wh_clause_theme = _frame(1, ("agent", 0), ("theme", GAP))
    wh_clause_complement = _frame(1, ("agent", 0), ("ccomp", 3))


# the rules with a theme (`_t`) or a by-phrase (`_b`) at their right edge, one per rule they
# extend
THEN_THEME = [alias for _rule, alternatives in TWIN_RULES for _rhs, alias in alternatives]
for _base in THEN_THEME:
    setattr(SlogSemantics, f"{_base}_t", _then_theme(_base))
    setattr(SlogSemantics, f"{_base}_b", _then_theme(_base))  # a by-phrase, not a theme
