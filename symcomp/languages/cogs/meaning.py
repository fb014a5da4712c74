"""The meaning of a COGS phrase: conjuncts over token positions relative to the phrase's start.

COGS names every entity and event by the position of its head word (``x _ 3``: the fourth
token). A Lark transformer builds meanings bottom-up and a child does not know where it stands,
so a :class:`Phrase` counts positions from its own first token and a parent shifts each child
by the tokens before it (:func:`combine`). The conjuncts keep the head they are anchored at, so
every output format (:mod:`symcomp.languages.cogs.formats`) reads one structure.

>>> girl = noun_phrase(["the", "girl"])
>>> girl.head, girl.mentions
(1, ((1, 'girl', 'definite'),))
>>> clause = combine([girl, "slept"], lambda parts: verb(parts[1], "sleep", [("agent", parts[0])]))
>>> clause.head, [c.render_args() for c in clause.conjuncts]
(2, ['x _ 2 , x _ 1'])
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

Ref = int | str  # a token position (relative to the phrase's start) or a proper name
Mention = tuple[int, str, str]  # (position, noun or name, "definite" | "indefinite" | "name")


def ref_text(ref: Ref) -> str:
    """``x _ 3`` for a position, the name itself for a proper name."""
    return f"x _ {ref}" if isinstance(ref, int) else ref


@dataclass(frozen=True)
class Conjunct:
    """``predicate ( args )`` anchored at a head token; ``role`` is the event role or
    ``nmod . on``, empty for a noun's own predicate."""

    anchor: int
    lemma: str
    role: str
    args: tuple[Ref, ...]

    def shifted(self, offset: int) -> Conjunct:
        args = tuple(a + offset if isinstance(a, int) else a for a in self.args)
        return Conjunct(self.anchor + offset, self.lemma, self.role, args)

    def render_args(self) -> str:
        return " , ".join(ref_text(arg) for arg in self.args)


@dataclass(frozen=True)
class Phrase:
    """A phrase's meaning: its length in tokens, its head (entity or event), its conjuncts and
    its noun and name mentions (definites: ``* girl ( x _ 1 )``), all relative to its first
    token. ``lemma`` is the head verb's lemma (or the noun's); ``kind`` says what the phrase is
    (``entity``, ``event``, ``pp``, or a primitive row's class)."""

    length: int
    head: Ref
    conjuncts: tuple[Conjunct, ...] = ()
    mentions: tuple[Mention, ...] = ()
    lemma: str = ""
    kind: str = ""  # "entity", "event", or a primitive's class

    def shifted(self, offset: int) -> Phrase:
        if offset == 0:
            return self
        head = self.head + offset if isinstance(self.head, int) else self.head
        return Phrase(
            self.length,
            head,
            tuple(c.shifted(offset) for c in self.conjuncts),
            tuple((position + offset, word, how) for position, word, how in self.mentions),
            self.lemma,
            self.kind,
        )


Part = Phrase | str  # a child: a phrase, or a word (one token)
Parts = list[Part]


def combine(children: Sequence[Part], build: Callable[[Parts], Phrase]) -> Phrase:
    """Place the children one after another and build the parent from them: ``build`` gets
    every child with its positions counted from the parent's start (a word becomes its
    position as a one-token :class:`Phrase` with ``lemma`` the word)."""
    placed: Parts = []
    offset = 0
    for child in children:
        if isinstance(child, Phrase):
            placed.append(child.shifted(offset))
            offset += child.length
        else:
            placed.append(Phrase(1, offset, lemma=str(child)))
            offset += 1
    phrase = build(placed)
    head, conjuncts, mentions = phrase.head, phrase.conjuncts, phrase.mentions
    return Phrase(offset, head, conjuncts, mentions, phrase.lemma, phrase.kind)


def gather(parts: Sequence[Part]) -> tuple[tuple[Conjunct, ...], tuple[Mention, ...]]:
    """All conjuncts and mentions of the placed children."""
    conjuncts: list[Conjunct] = []
    mentions: list[Mention] = []
    for part in parts:
        if isinstance(part, Phrase):
            conjuncts.extend(part.conjuncts)
            mentions.extend(part.mentions)
    return tuple(conjuncts), tuple(mentions)


def noun_phrase(children: Sequence[Part]) -> Phrase:
    """``DET N`` (``the girl``: definite; ``a girl``: the conjunct ``girl ( x _ 1 )``) or a
    proper name (its name is its referent); the children as words or placed words."""
    words = [child.lemma if isinstance(child, Phrase) else str(child) for child in children]
    if len(words) == 1:
        return Phrase(1, words[0], (), ((0, words[0], "name"),), words[0], "entity")
    # COGS and ReCOGS write `tv` for `TV`; the variable-free form keeps the word (mentions)
    determiner, word = words[0].lower(), words[1]
    noun = word.lower()
    if determiner == "the":
        return Phrase(2, 1, mentions=((1, word, "definite"),), lemma=noun, kind="entity")
    mention = ((1, word, "indefinite"),)
    return Phrase(2, 1, (Conjunct(1, noun, "", (1,)),), mention, noun, "entity")


def modified(noun: Phrase, preposition: str, pp: Phrase) -> Phrase:
    """A noun phrase with a PP: ``cake . nmod . on ( x _ 1 , x _ 4 )`` at the noun."""
    nmod = Conjunct(int(noun.head), noun.lemma, f"nmod . {preposition}", (noun.head, pp.head))
    conjuncts = (*noun.conjuncts, nmod, *pp.conjuncts)
    return Phrase(0, noun.head, conjuncts, noun.mentions + pp.mentions, noun.lemma, "entity")


def verb(word: Phrase, lemma: str, roles: Sequence[tuple[str, Phrase]], *rest: Part) -> Phrase:
    """An event at ``word``: one conjunct per role, in the order given (the order the
    arguments appear), then the arguments' own conjuncts."""
    event = int(word.head)
    own = tuple(Conjunct(event, lemma, role, (event, arg.head)) for role, arg in roles)
    conjuncts, mentions = gather([arg for _role, arg in roles] + list(rest))
    return Phrase(0, event, own + conjuncts, mentions, lemma, "event")


def ordered_conjuncts(phrase: Phrase) -> list[Conjunct]:
    """The conjuncts in COGS order: by anchor token, in building order at one anchor."""
    return sorted(phrase.conjuncts, key=lambda conjunct: conjunct.anchor)
