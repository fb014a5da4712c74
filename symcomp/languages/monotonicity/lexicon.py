"""Monotonicity inference (Yanaka et al. 2020): the lexicon, sentences, polarity, replacements.

This module is the *label side* of the monotonicity language: sentences as data, their
surface text, the polarity of every replaceable position, and the replacement functions
r1–r7. Gold labels follow from polarity and the direction of a replacement alone; the
first-order semantics (provers/monotonicity/lexicon.txt) is never consulted here, so the
prover's verdicts are an independent check of these labels.

Polarity is composed from each quantifier's monotonicity markers (Yanaka's LU/LD for the
restrictor, RU/RD for the scope): a position is downward iff an odd number of downward
markers lie on the path from the root to it.

>>> dogs = NounPhrase("no", "dog", plural=True)
>>> sentence = Sentence(subject=dogs, predicate=VerbPhrase("ran"))
>>> render(sentence)
'No dogs ran.'
>>> polarity(sentence, Position("subject", 0)), polarity(sentence, Position("scope"))
('down', 'down')
>>> render(apply_replacement(sentence, Position("subject", 0), "r2", "small"))
'No small dogs ran.'
>>> entailment_label("down", PHENOMENA["r2"].direction)
'entailment'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

from symcomp.errors import GenerationError

# -- the paper's lexicon (Table 6 and scripts/develop.py of verypluming/systematicity) -------

UPWARD_QUANTIFIERS = ("some", "several", "a few", "at least three", "more than three")
DOWNWARD_QUANTIFIERS = ("no", "few", "less than three", "at most three")
QUANTIFIERS = UPWARD_QUANTIFIERS + DOWNWARD_QUANTIFIERS
EITHER_NUMBER = frozenset({"no", "some"})  # the others take plural nouns only

# (restrictor, scope) monotonicity of each quantifier: the LU/LD and RU/RD markers
MONOTONICITY: dict[str, tuple[str, str]] = {
    **{quantifier: ("up", "up") for quantifier in UPWARD_QUANTIFIERS},
    **{quantifier: ("down", "down") for quantifier in DOWNWARD_QUANTIFIERS},
}

NOUNS = {
    "dog": "dogs",
    "rabbit": "rabbits",
    "lion": "lions",
    "cat": "cats",
    "bear": "bears",
    "tiger": "tigers",
    "elephant": "elephants",
    "fox": "foxes",
    "monkey": "monkeys",
    "wolf": "wolves",
}
HYPERNYMS = {"animal": "animals", "creature": "creatures", "mammal": "mammals", "beast": "beasts"}
MAIN_VERBS = (
    "ran", "walked", "came", "waltzed", "swam", "rushed", "danced", "dawdled", "escaped", "left",
)  # fmt: skip
SECOND_VERBS = ("laughed", "groaned", "roared", "screamed", "cried")  # r6 / r7
TRANSITIVE_VERBS = (
    "kissed", "kicked", "hit", "cleaned", "touched", "loved", "accepted", "hurt", "licked",
    "followed",
)  # fmt: skip
WH_WORDS = ("that", "which")
ADJECTIVES = ("small", "large", "crazy", "polite", "wild")
PLACES = ("in the area", "on the ground", "at the park", "near the shore", "around the island")
ADVERBS = ("slowly", "quickly", "seriously", "suddenly", "lazily")
RELATIVE_PHRASES = ("ate dinner", "liked flowers", "hated the sun", "stayed up late")
# The rest of the published scripts' vocabulary: cfg_simple_obj.pl's nouns and verbs,
# develop.py's verb hypernyms (r1 on the verb at depth 1), develop_obj.py's PPs, format.py's
# fronted PPs ("In the isrand" is its typo, read as "in the island"), cfg_complex.pl's verbs.
OBJECT_NOUNS = {"bird": "birds", "horse": "horses", "giraffe": "giraffes"}
OBJECT_TRANSITIVE_VERBS = ("comforted", "liked")
VERB_HYPERNYMS = ("moved", "worked", "existed")
OTHER_VERBS = ("slept", "waited", "changed")  # cfg_complex.pl, cfg_simple_obj.pl, the axioms
OBJECT_PLACES = ("in the park", "in the island")
FRONTED_PLACES = (
    "in the island",
    "on the shore",
    "at the shore",
    "near the island",
    "around the shore",
)
PUBLISHED_TYPOS = {"in the isrand": "in the island"}
EMBEDDINGS = ("subject", "object", "reduced")  # which kissed NP | which NP kissed | NP kissed

GENERAL, SPECIFIC = "general", "specific"
ENTAILMENT, NON_ENTAILMENT = "entailment", "non-entailment"


@dataclass(frozen=True)
class Phenomenon:
    """A replacement function: what it changes, where, and in which direction.

    ``direction`` says whether the hypothesis' phrase is more general (a superset: hypernym,
    disjunction) or more specific (a subset: added modifier, conjunct) than the premise's.
    """

    code: str
    name: str
    direction: str
    positions: tuple[str, ...]  # "restrictor" (a noun) and/or "scope" (the main verb phrase)


PHENOMENA = {
    "r1": Phenomenon("r1", "hypernym", GENERAL, ("restrictor",)),
    "r2": Phenomenon("r2", "adjective", SPECIFIC, ("restrictor",)),
    "r3": Phenomenon("r3", "pp", SPECIFIC, ("restrictor", "scope")),
    "r4": Phenomenon("r4", "relative_clause", SPECIFIC, ("restrictor",)),
    "r5": Phenomenon("r5", "adverb", SPECIFIC, ("scope",)),
    "r6": Phenomenon("r6", "disjunction", GENERAL, ("scope",)),
    "r7": Phenomenon("r7", "conjunction", SPECIFIC, ("scope",)),
}

# -- sentences as data --------------------------------------------------------------------


@dataclass(frozen=True)
class Embedding:
    """A relative clause that embeds a noun phrase: ``kind`` in :data:`EMBEDDINGS`."""

    kind: str
    verb: str
    np: NounPhrase
    wh: str = "which"


@dataclass(frozen=True)
class NounPhrase:
    """``quantifier [adjective] noun [place] [wh relative_phrase] [embedding]``."""

    quantifier: str
    noun: str  # singular lemma: a noun or a hypernym
    plural: bool
    adjective: str | None = None
    place: str | None = None
    relative: tuple[str, str] | None = None  # (wh word, phrase), e.g. ("which", "ate dinner")
    embedding: Embedding | None = None


@dataclass(frozen=True)
class VerbPhrase:
    """``verb [or|and second] [adverb] [place]``."""

    verb: str
    coordination: tuple[str, str] | None = None  # ("or", "laughed")
    adverb: str | None = None
    place: str | None = None


@dataclass(frozen=True)
class Sentence:
    """``[front,] subject predicate.`` or, in the object variant, ``subject verb object.``"""

    subject: NounPhrase
    predicate: VerbPhrase | None = None
    verb: str | None = None
    object: NounPhrase | None = None
    front: str | None = None  # a fronted adverb or place: "slowly", "near the shore"


@dataclass(frozen=True)
class Position:
    """Where a replacement applies.

    ``kind`` is ``subject`` (the noun of the subject's NP at embedding ``level``),
    ``object`` (the same in the object's chain) or ``scope`` (the main verb phrase).
    """

    kind: str
    level: int = 0


def chain(np: NounPhrase) -> list[NounPhrase]:
    """The noun phrases along the embedding chain, outermost first."""
    found = [np]
    while found[-1].embedding is not None:
        embedding = found[-1].embedding
        assert embedding is not None
        found.append(embedding.np)
    return found


def depth(sentence: Sentence) -> int:
    """The longest chain of nested noun phrases (1 = no relative clause)."""
    chains = [chain(sentence.subject)]
    if sentence.object is not None:
        chains.append(chain(sentence.object))
    return max(len(nps) for nps in chains)


# -- surface text -------------------------------------------------------------------------


def noun_form(np: NounPhrase) -> str:
    forms = NOUNS | HYPERNYMS
    if np.noun not in forms:
        raise GenerationError(f"unknown noun {np.noun!r}; nouns are {', '.join(forms)}.")
    return forms[np.noun] if np.plural else np.noun


def np_words(np: NounPhrase) -> list[str]:
    words = [np.quantifier]
    if np.adjective:
        words.append(np.adjective)
    words.append(noun_form(np))
    if np.place:
        words.append(np.place)
    if np.relative:
        words.extend(np.relative)
    if np.embedding:
        words.extend(embedding_words(np.embedding))
    return words


def embedding_words(embedding: Embedding) -> list[str]:
    if embedding.kind == "subject":
        return [embedding.wh, embedding.verb, *np_words(embedding.np)]
    if embedding.kind == "object":
        return [embedding.wh, *np_words(embedding.np), embedding.verb]
    return [*np_words(embedding.np), embedding.verb]


def vp_words(vp: VerbPhrase) -> list[str]:
    words = [vp.verb]
    if vp.coordination:
        words.extend(vp.coordination)
    if vp.adverb:
        words.append(vp.adverb)
    if vp.place:
        words.append(vp.place)
    return words


def render(sentence: Sentence) -> str:
    """The sentence as written in datasets: capitalised, with the final period attached."""
    words = np_words(sentence.subject)
    if sentence.predicate is not None:
        words += vp_words(sentence.predicate)
    elif sentence.verb is not None and sentence.object is not None:
        words += [sentence.verb, *np_words(sentence.object)]
    else:
        raise GenerationError("a sentence needs a predicate, or a verb and an object.")
    text = " ".join(words)
    if sentence.front:
        text = f"{sentence.front}, {text}"
    return text[0].upper() + text[1:] + "."


def content_words(sentence: Sentence) -> list[str]:
    """Content words and phrases (nouns, verbs, modifiers), each occurrence once."""
    found: list[str] = []
    if sentence.front:
        found.append(sentence.front)
    for np in _all_nps(sentence):
        found.append(np.noun)
        found += [item for item in (np.adjective, np.place) if item]
        if np.relative:
            found.append(np.relative[1])
        if np.embedding:
            found.append(np.embedding.verb)
    if sentence.verb:
        found.append(sentence.verb)
    if sentence.predicate:
        vp = sentence.predicate
        found.append(vp.verb)
        if vp.coordination:
            found.append(vp.coordination[1])
        found += [item for item in (vp.adverb, vp.place) if item]
    return found


def repeated_words(sentence: Sentence) -> list[str]:
    """Content words or phrases that occur more than once (none in generated pairs)."""
    counts = Counter(content_words(sentence))
    return sorted(word for word, count in counts.items() if count > 1)


def _all_nps(sentence: Sentence) -> Iterator[NounPhrase]:
    yield from chain(sentence.subject)
    if sentence.object is not None:
        yield from chain(sentence.object)


# -- polarity and labels --------------------------------------------------------------------


def path(sentence: Sentence, position: Position) -> list[tuple[str, str]]:
    """(quantifier, argument) pairs from the root to ``position``; argument is
    ``restrictor`` or ``scope``."""
    if position.kind == "scope":
        return [(sentence.subject.quantifier, "scope")]
    if position.kind == "subject":
        nps = chain(sentence.subject)
        prefix: list[tuple[str, str]] = []
    elif position.kind == "object" and sentence.object is not None:
        nps = chain(sentence.object)
        prefix = [(sentence.subject.quantifier, "scope")]
    else:
        raise GenerationError(f"no {position.kind} position in this sentence.")
    if not 0 <= position.level < len(nps):
        raise GenerationError(
            f"level {position.level} is outside the {position.kind} chain of {len(nps)} NPs."
        )
    return prefix + [(np.quantifier, "restrictor") for np in nps[: position.level + 1]]


def polarity(sentence: Sentence, position: Position) -> str:
    """``up`` or ``down``: the composed monotonicity of the quantifiers above ``position``."""
    downward = 0
    for quantifier, argument in path(sentence, position):
        restrictor, scope = MONOTONICITY[quantifier]
        downward += (restrictor if argument == "restrictor" else scope) == "down"
    return "down" if downward % 2 else "up"


def entailment_label(polarity_: str, direction: str) -> str:
    """Monotonicity's answer: generalising upward or specialising downward is entailed."""
    entailed = (polarity_ == "up") == (direction == GENERAL)
    return ENTAILMENT if entailed else NON_ENTAILMENT


def opposite(label: str) -> str:
    """The label of the reversed pair (hypothesis and premise swapped)."""
    return NON_ENTAILMENT if label == ENTAILMENT else ENTAILMENT


# -- replacement functions r1..r7 ----------------------------------------------------------


def apply_replacement(
    sentence: Sentence, position: Position, code: str, item: str | tuple[str, str]
) -> Sentence:
    """The sentence with replacement ``code`` applied at ``position`` using ``item``.

    ``item`` is the hypernym (r1), adjective (r2), place (r3), ``(wh, phrase)`` (r4), adverb
    (r5) or second verb (r6, r7).
    """
    phenomenon = PHENOMENA[code]
    wanted = "scope" if position.kind == "scope" else "restrictor"
    verb_hypernym = code == "r1" and item in VERB_HYPERNYMS
    if wanted not in phenomenon.positions and not (wanted == "scope" and verb_hypernym):
        raise GenerationError(f"{code} ({phenomenon.name}) does not apply in {wanted} position.")
    if position.kind == "scope":
        if sentence.predicate is None:
            raise GenerationError("the object variant has no intransitive verb phrase.")
        return replace(sentence, predicate=_change_vp(sentence.predicate, code, item))

    def change(target: NounPhrase) -> NounPhrase:
        return _change_np(target, code, item)

    if position.kind == "subject":
        return replace(sentence, subject=_at_level(sentence.subject, position.level, change))
    if sentence.object is None:
        raise GenerationError("this sentence has no object.")
    return replace(sentence, object=_at_level(sentence.object, position.level, change))


def _change_np(np: NounPhrase, code: str, item: str | tuple[str, str]) -> NounPhrase:
    if code == "r1" and isinstance(item, str):
        return replace(np, noun=item)
    if code == "r2" and isinstance(item, str):
        return replace(np, adjective=item)
    if code == "r3" and isinstance(item, str):
        return replace(np, place=item)
    if code == "r4" and isinstance(item, tuple):
        return replace(np, relative=item)
    raise GenerationError(f"{code} cannot change a noun phrase with {item!r}.")


def _change_vp(vp: VerbPhrase, code: str, item: str | tuple[str, str]) -> VerbPhrase:
    if code == "r1" and isinstance(item, str) and item in VERB_HYPERNYMS:
        return replace(vp, verb=item)  # the paper's depth-0 verb hypernyms (develop.py)
    if code == "r3" and isinstance(item, str):
        return replace(vp, place=item)
    if code == "r5" and isinstance(item, str):
        return replace(vp, adverb=item)
    if code in ("r6", "r7") and isinstance(item, str):
        return replace(vp, coordination=("or" if code == "r6" else "and", item))
    raise GenerationError(f"{code} cannot change a verb phrase with {item!r}.")


def _at_level(np: NounPhrase, level: int, change: Callable[[NounPhrase], NounPhrase]) -> NounPhrase:
    if level == 0:
        return change(np)
    if np.embedding is None:
        raise GenerationError(f"no noun phrase at embedding level {level}.")
    inner = _at_level(np.embedding.np, level - 1, change)
    return replace(np, embedding=replace(np.embedding, np=inner))
