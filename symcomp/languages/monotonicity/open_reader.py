"""Open-vocabulary reading of NLI sentences outside the grammar (``symcomp verify`` only).

The monotonicity grammar has a closed lexicon, so real data such as MED (Yanaka et al. 2019)
does not parse. This reader covers the first-order monotonicity fragment of such data with
any open-class words: a word outside the closed lexicon becomes a fresh predicate named by its
category (from its position) and its lemma (plural ``-s``/``-es``/``-ies`` and past ``-ed``
removed), so the same word gets the same predicate in premise and hypothesis.

=================  ===========================================================================
subject, object    ``some``/``a``/``an``/``the``/bare noun (∃), ``no`` (¬∃), ``every``/``each``
                   /``all`` (∀), ``several`` (at least 2), a proper name or pronoun (constant)
noun phrase        adjectives/compound nouns before the head (intersective), a PP
                   (``in the park``: ∃y in(x, y)), ``without NP`` (¬∃y with(x, y)), a relative
                   clause (``that``/``which``/``who`` + verb phrase)
verb phrase        a verb with an optional object, PPs and ``-ly`` adverbs (intersective);
                   ``not``/``n't``/``never`` negate it; modals and ``to`` join the verb's name;
                   the copula with an adjective, a noun phrase or a PP
=================  ===========================================================================

There is no world knowledge for the new words (no hypernyms), so a pair whose gold label
needs it (``Italian food`` ⇒ ``Italian cuisine``) comes out NEUTRAL; the structure alone
(an added modifier, a dropped PP, negation, a quantifier's direction) is proved. ``the`` is
read as ``some`` (existence without uniqueness). Sentences with other words in function
positions (commas, ``but``, ``except``, comparatives, ``'s``, questions) are not read.

>>> from symcomp.logic.fol import to_text
>>> to_text(read_sentence("Tom doesn't play soccer in Europe."))
'-exists x1.(n_soccer(x1) & p_in(x1,europe) & v2_play(tom,x1))'
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable

from symcomp.errors import ParseError
from symcomp.logic.fol import Formula, canonical

Scope = Callable[[tuple[str, str]], Formula]
NounPhrase = Callable[[Scope], Formula]

EXISTENTIAL = frozenset({"some", "a", "an", "the", "any"})
NEGATIVE = frozenset({"no"})
UNIVERSAL = frozenset({"every", "each", "all"})
DETERMINERS = EXISTENTIAL | NEGATIVE | UNIVERSAL | {"several"}
PRONOUNS = frozenset({"i", "you", "he", "she", "we", "they", "it", "me", "him", "her", "us"})
PREPOSITIONS = frozenset(
    {"in", "on", "at", "near", "around", "with", "for", "from", "to", "of", "under", "into",
     "by", "about", "after", "before", "over", "behind", "during", "without", "inside",
     "outside", "through", "across", "along", "toward", "towards", "onto"}
)  # fmt: skip
WH = frozenset({"that", "which", "who"})
COPULAS = frozenset({"is", "are", "was", "were", "am", "be"})
NEGATIONS = frozenset({"not", "never", "n't"})
MODALS = frozenset({"can", "could", "will", "would", "should", "must", "may", "might", "shall"})
DO = frozenset({"do", "does", "did"})
HAVE = frozenset({"has", "have", "had"})
# words whose role the reader cannot give first-order monotone meaning: rows with them are
# left unread rather than guessed
UNREAD = frozenset(
    {"but", "except", "nor", "or", "and", "if", "then", "than", "more", "most", "less", "least",
     "fewer", "few", "only", "nothing", "nobody", "none", "anything", "something", "everyone",
     "everything", "someone", "anyone", "nowhere", "seldom", "rarely", "hardly", "because",
     "what", "when", "where", "why", "how", "whether", "so", "too", "as", "enough",
     "there", "this", "these", "those", "his", "her", "my", "your", "our", "their", "its",
     "one", "ever", "yet", "also", "even", "just", "very", "much", "many", "whose", "whom",
     "refused", "refuse", "refuses", "denied", "deny", "denies", "doubt", "doubts", "doubted",
     "failed", "fail", "fails", "forbid", "forbids", "forbade", "prevented", "prevent",
     "stopped", "quit", "avoid", "avoided", "without_"}
)  # fmt: skip
IRREGULAR_PAST = frozenset(
    {"ran", "ate", "went", "saw", "made", "took", "gave", "got", "came", "left", "bought",
     "wore", "said", "told", "found", "thought", "knew", "drank", "sang", "swam", "wrote",
     "read", "met", "sat", "stood", "won", "lost", "kept", "slept", "felt", "heard", "brought",
     "built", "caught", "taught", "sold", "spent", "paid", "put", "hit", "hurt", "broke",
     "chose", "drove", "flew", "forgot", "grew", "held", "rode", "rose", "shook", "spoke",
     "stole", "threw", "woke", "fell", "fought", "sent", "understood", "became", "began"}
)  # fmt: skip
TOKEN = re.compile(r"n't|[A-Za-z]+(?:-[A-Za-z]+)*|[.!]")
_fresh = itertools.count(1)


def tokens(sentence: str) -> list[tuple[str, bool]]:
    """(lower-case word, capitalised) pairs; the final ``.``/``!`` is dropped."""
    text = sentence.strip().replace("’", "'")
    text = re.sub(r"\b(can)'t\b", r"\1 n't", text, flags=re.IGNORECASE)
    text = re.sub(r"\bwon't\b", "will n't", text, flags=re.IGNORECASE)
    text = re.sub(r"(\w)n't\b", r"\1 n't", text)
    text = re.sub(r"\bcannot\b", "can n't", text, flags=re.IGNORECASE)
    words = TOKEN.findall(text)
    rest = TOKEN.sub(" ", text).split()
    if rest:
        raise ParseError(f"the open-vocabulary reader does not read {rest[0]!r}")
    if words and words[-1] in (".", "!"):
        words = words[:-1]
    if not words or any(word in (".", "!") for word in words):
        raise ParseError("the open-vocabulary reader reads one sentence ending in . or !")
    return [(word.lower(), word[0].isupper()) for word in words]


def read_sentence(sentence: str) -> Formula:
    """The first-order formula of ``sentence`` (a :class:`ParseError` outside the fragment)."""
    words = tokens(sentence)
    for word, _capital in words:
        if word in UNREAD:
            raise ParseError(f"the open-vocabulary reader does not read {word!r}")
    if words[0][0] in DO or words[0][0] in NEGATIONS or words[0][0] == "let":
        raise ParseError("the open-vocabulary reader does not read imperatives or questions")
    reader = _Reader(words)
    subject = reader.noun_phrase(subject=True)
    predicate = reader.verb_phrase()
    if reader.position != len(words):
        raise ParseError(f"the open-vocabulary reader stops at {words[reader.position][0]!r}")
    return canonical(subject(predicate))


def lemma(word: str, *, verb: bool = False) -> str:
    """``dogs`` → ``dog``, ``berries`` → ``berry``, ``played`` → ``play`` (crude, consistent)."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("ches", "shes", "sses", "xes", "zes")):
        return word[:-2]
    if verb and len(word) > 4 and word.endswith("ied"):
        return word[:-3] + "y"
    if verb and len(word) > 4 and word.endswith("ed"):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def _verb_like(word: str) -> bool:
    return (
        word in IRREGULAR_PAST
        or word in COPULAS
        or word in MODALS
        or word in DO
        or word in HAVE
        or word in NEGATIONS
        or (len(word) > 4 and word.endswith("ed"))
    )


def _pred(name: str, *terms: tuple[str, str]) -> Formula:
    return ("pred", name, terms)


def _unary(name: str) -> Scope:
    return lambda x: _pred(name, x)


def _var() -> tuple[str, str]:
    return ("var", f"o{next(_fresh)}")


def _conj(parts: list[Formula]) -> Formula:
    flat: list[Formula] = []
    for part in parts:
        flat.extend(part[1] if part[0] == "and" else (part,))
    return flat[0] if len(flat) == 1 else ("and", tuple(flat))


class _Reader:
    def __init__(self, words: list[tuple[str, bool]]) -> None:
        self.words = words
        self.position = 0

    def peek(self, offset: int = 0) -> str | None:
        index = self.position + offset
        return self.words[index][0] if index < len(self.words) else None

    def take(self) -> str:
        word = self.peek()
        if word is None:
            raise ParseError("the open-vocabulary reader ran out of words")
        self.position += 1
        return word

    def content(self, word: str | None) -> bool:
        return (
            word is not None
            and word not in DETERMINERS
            and word not in PREPOSITIONS
            and word not in WH
            and word not in PRONOUNS
            and not _verb_like(word)
            and not word.endswith("ly")
        )

    # -- noun phrases ---------------------------------------------------------------------

    def noun_phrase(self, *, subject: bool = False) -> NounPhrase:
        word = self.peek()
        if word is None:
            raise ParseError("a noun phrase is missing")
        capital = self.words[self.position][1] and (self.position > 0 or not subject)
        if word in PRONOUNS:
            self.take()
            name = "i" if word == "me" else "he" if word == "him" else word
            name = {"us": "we", "her": "she"}.get(name, name)
            return lambda scope: scope(("const", name))
        if (capital and word not in DETERMINERS) or (
            subject and self.position == 0 and word not in DETERMINERS and self._name_first()
        ):
            self.take()
            return lambda scope: scope(("const", word))
        determiner = self.take() if word in DETERMINERS else "a"
        if determiner in UNIVERSAL and self.peek() == "the":
            self.take()  # "all the players"
        restrictor = self.nominal(subject=subject)
        return _quantify(determiner, restrictor)

    def _name_first(self) -> bool:
        """A capitalised first word followed by a verb reads as a proper name."""
        following = self.peek(1)
        return following is not None and (_verb_like(following) or following.endswith("s"))

    def nominal(self, *, subject: bool) -> Scope:
        """Modifiers and head noun, then a PP or a relative clause."""
        run: list[str] = []
        while self.content(self.peek()):
            run.append(self.take())
        if (
            subject
            and len(run) >= 2
            and not _verb_like(self.peek() or "")
            and (
                self.peek() is None
                or self.peek() in PREPOSITIONS
                or self.content(self.peek())
                or (self.peek() or "").endswith("ly")
            )
        ):
            self.position -= 1  # "some dogs bark": the last word of the run is the verb
            run.pop()
        if not run:
            raise ParseError("a noun is missing")
        head, modifiers = run[-1], run[:-1]
        parts: list[Scope] = [_unary(f"n_{lemma(head)}")]
        parts += [_unary(f"a_{lemma(word)}") for word in modifiers]
        while self.peek() in PREPOSITIONS or self.peek() in WH:
            if self.peek() in WH:
                self.take()
                relative = self.verb_phrase()
                parts.append(relative)
                break
            parts.append(self.prepositional())

        def meaning(x: tuple[str, str]) -> Formula:
            return _conj([part(x) for part in parts])

        return meaning

    def prepositional(self) -> Scope:
        preposition = self.take()
        object_ = self.noun_phrase()
        if preposition == "without":
            return lambda x: ("not", object_(lambda y: _pred("p_with", x, y)))
        return lambda x: object_(lambda y: _pred(f"p_{preposition}", x, y))

    # -- verb phrases ---------------------------------------------------------------------

    def verb_phrase(self) -> Scope:
        negated = False
        name: list[str] = []
        word = self.peek()
        if word in DO or word in MODALS or (word in HAVE and self.peek(1) in NEGATIONS):
            auxiliary = self.take()
            if auxiliary in MODALS:
                name.append(auxiliary)
        if self.peek() in NEGATIONS:
            self.take()
            negated = True
        if not name and self.peek() in HAVE and negated:
            name.append("have")
        if self.peek() in COPULAS or (self.peek() == "be" and name):
            self.take()
            if self.peek() in NEGATIONS:
                self.take()
                negated = not negated
            body = self.complement()
        else:
            body = self.verb(name)
        if negated:
            return lambda x: ("not", body(x))
        return body

    def verb(self, prefix: list[str]) -> Scope:
        word = self.take()
        if not (self.content(word) or _verb_like(word)) or word in NEGATIONS:
            raise ParseError(f"the open-vocabulary reader expected a verb, not {word!r}")
        name = "_".join([*prefix, lemma(word, verb=True)])
        while self.peek() == "to" and self.content(self.peek(1)):
            self.take()
            name += "_to_" + lemma(self.take(), verb=True)
        parts: list[Scope] = []
        following = self.peek()
        if following is not None and (
            following in DETERMINERS
            or following in PRONOUNS
            or self.content(following)
            or self.words[self.position][1]
        ):
            object_ = self.noun_phrase()
            parts.append(lambda x: object_(lambda y: _pred(f"v2_{name}", x, y)))
        else:
            parts.append(lambda x: _pred(f"v_{name}", x))
        parts += self.modifiers()
        return lambda x: _conj([part(x) for part in parts])

    def modifiers(self) -> list[Scope]:
        parts: list[Scope] = []
        while self.peek() is not None:
            word = self.peek()
            assert word is not None
            if word in PREPOSITIONS:
                parts.append(self.prepositional())
            elif word.endswith("ly") and len(word) > 3:
                self.take()
                parts.append(_unary(f"r_{word}"))
            else:
                break
        return parts

    def complement(self) -> Scope:
        word = self.peek()
        if word in PREPOSITIONS:
            parts = [self.prepositional(), *self.modifiers()]
            return lambda x: _conj([part(x) for part in parts])
        if word in DETERMINERS and word not in NEGATIVE and word not in UNIVERSAL:
            self.take()
            nominal = self.nominal(subject=False)
        elif self.content(word) and not self.content(self.peek(1)):
            adjective = lemma(self.take())  # "is small": an adjective, as in "a small dog"
            nominal = lambda x: _pred(f"a_{adjective}", x)  # noqa: E731
        else:
            nominal = self.nominal(subject=False)
        parts = [nominal, *self.modifiers()]
        return lambda x: _conj([part(x) for part in parts])


def _quantify(determiner: str, restrictor: Scope) -> NounPhrase:
    def meaning(scope: Scope) -> Formula:
        x = _var()
        if determiner in UNIVERSAL:
            return ("all", x[1], ("imp", restrictor(x), scope(x)))
        body = _conj([restrictor(x), scope(x)])
        if determiner == "several":
            return ("count", 2, x[1], body)
        found: Formula = ("exists", x[1], body)
        return ("not", found) if determiner in NEGATIVE else found

    return meaning
