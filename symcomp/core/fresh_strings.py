"""Fresh words: the open-class words of a language renamed to pronounceable new strings.

Pretraining exposure to a benchmark's words inflates compositional-generalisation scores;
replacing them with novel strings lowers them (Kim, Linzen & Smolensky 2022, arXiv
2212.10769). A language declares which of its word classes may be renamed
(:class:`Renamable`, from :meth:`symcomp.core.language.Language.renamable`); :func:`draw`
gives every word of those classes a fresh string, the same for the same seed, and
:func:`renamed_grammar` writes the grammar whose lexicon (and literals) are the fresh words,
so that the language's own parser and semantics run on them
(:meth:`symcomp.core.language.Language.with_fresh_words`).

Fresh strings are consonant-vowel syllables (``kipet``, ``domu``), capitalised for the
classes of proper names; never a word or literal of the language (of any class), never a
reserved output token, all distinct (compared without case). A verb keeps its paradigm's
shape: its lemma becomes the fresh stem, each other form the stem with ``-ed``, then ``-en``
(a past and a distinct participle: ``ate``/``eaten`` become ``kipeted``/``kipeten``), and forms
that coincide stay one (``split`` is its own past: one fresh string for both).

>>> spec = Renamable(("NOUN",))
>>> fresh = draw({"NOUN": ("box", "cat")}, spec, reserved={"in"}, seed=0)
>>> sorted(fresh.mapping) == ["box", "cat"] and fresh == draw(
...     {"NOUN": ("box", "cat")}, spec, reserved={"in"}, seed=0)
True
>>> fresh.rename_text("box in cat") == f"{fresh.mapping['box']} in {fresh.mapping['cat']}"
True
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from symcomp.core.grammar import Grammar
from symcomp.core.grammar_source import _TOKEN
from symcomp.errors import DataError

CONSONANTS = "bdfgklmnprstvz"
VOWELS = "aeiou"
SUFFIXES = ("ed", "en")  # a verb's non-lemma forms, in the order the lexicon lists them
MAX_DRAWS = 100_000


@dataclass(frozen=True)
class Renamable:
    """What a language lets fresh words replace.

    Parameters
    ----------
    classes : tuple of str
        Word classes: lexicon terminals of the sidecar, or rules whose alternatives are each
        one literal (SCAN's ``primitive``).
    names : frozenset of str
        The classes of proper names: their fresh words are capitalised.
    lemmas : mapping
        Inflected forms to lemmas: the forms of one lemma are one verb, renamed together.
    outputs : tuple of str
        How a word shows in outputs, as ``str.format`` templates over ``word``, ``lower`` and
        ``upper`` (COGS: the word, and its lower case in a logical form; SCAN: ``I_{upper}``);
        the renamed output must be the original with these tokens renamed.
    reserved : frozenset of str
        Output tokens no fresh word may be (besides every word and literal of the language).
    """

    classes: tuple[str, ...]
    names: frozenset[str] = frozenset()
    lemmas: Mapping[str, str] = field(default_factory=dict)
    outputs: tuple[str, ...] = ("{word}",)
    reserved: frozenset[str] = frozenset()


@dataclass(frozen=True)
class FreshWords:
    """A renaming: the seed it was drawn with, the classes it renames, and old -> new word
    (a verb's lemma included where the lexicon lists only its forms)."""

    seed: int
    classes: tuple[str, ...]
    mapping: Mapping[str, str]

    def rename_text(self, text: str) -> str:
        """``text`` with every renamed word (a token between spaces) replaced."""
        return " ".join(self.mapping.get(token, token) for token in text.split(" "))

    def output_mapping(self, outputs: Iterable[str]) -> dict[str, str]:
        """Output token -> renamed output token, for the templates ``outputs``
        (:attr:`Renamable.outputs`).

        >>> FreshWords(0, ("P",), {"jump": "dax"}).output_mapping(["I_{upper}"])
        {'I_JUMP': 'I_DAX'}
        """
        found: dict[str, str] = {}
        for template in outputs:
            for old, new in self.mapping.items():
                found[_render(template, old)] = _render(template, new)
        return found

    def to_json(self) -> dict[str, Any]:
        """The manifest entry: ``{"seed", "classes", "mapping"}``."""
        return {"seed": self.seed, "classes": list(self.classes), "mapping": dict(self.mapping)}

    @classmethod
    def from_json(cls, data: Any, source: str) -> FreshWords:
        """Read a manifest entry written by :meth:`to_json` (its shape checked)."""
        where = f"{source}: 'fresh_words'"
        if not isinstance(data, Mapping):
            raise DataError(f"{where} must be a JSON object with seed, classes and mapping.")
        seed, classes, mapping = data.get("seed"), data.get("classes"), data.get("mapping")
        if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
            raise DataError(f"{where}: 'seed' must be a whole number 0 or more, got {seed!r}.")
        if not isinstance(classes, list) or not all(isinstance(c, str) for c in classes):
            raise DataError(f"{where}: 'classes' must be a list of class names.")
        if not isinstance(mapping, Mapping) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in mapping.items()
        ):
            raise DataError(f"{where}: 'mapping' must map words to words.")
        return cls(seed, tuple(classes), dict(mapping))


def _render(template: str, word: str) -> str:
    return template.format(word=word, lower=word.lower(), upper=word.upper())


def families(words: Iterable[str], lemmas: Mapping[str, str]) -> dict[str, list[str]]:
    """Words grouped by lemma (a word without one is its own), in first-listed order; each
    family lists its lemma first, then its other forms in the order they came.

    >>> families(["ate", "eaten", "box", "eat"], {"ate": "eat", "eaten": "eat"})
    {'eat': ['eat', 'ate', 'eaten'], 'box': ['box']}
    """
    grouped: dict[str, list[str]] = {}
    for word in words:
        lemma = lemmas.get(word, word)
        forms = grouped.setdefault(lemma, [lemma])
        if word not in forms:
            forms.append(word)
    return grouped


def fresh_seed(seed: Any) -> int:
    """``seed`` checked as the seed of fresh words: a whole number, 0 or more (a negative one
    would draw as its absolute value does: :class:`random.Random` seeds with ``abs``).

    >>> fresh_seed(-1)
    Traceback (most recent call last):
    ...
    symcomp.errors.DataError: `fresh_words` must be a whole number 0 or more (a seed), got -1.
    """
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise DataError(f"`fresh_words` must be a whole number 0 or more (a seed), got {seed!r}.")
    return seed


def draw(
    words: Mapping[str, Iterable[str]],
    spec: Renamable,
    *,
    reserved: Iterable[str],
    seed: int,
) -> FreshWords:
    """A fresh word for every word of ``words`` (class -> its words), seeded.

    ``reserved`` holds every string a fresh word must not be (the language's words and
    literals of every class, its output tokens); compared without case. The draw depends only
    on the seed and the order of ``words``, not on Python's hash seed.
    """
    rng = random.Random(fresh_seed(seed))
    taken = {word.lower() for word in reserved} | {word.lower() for word in spec.reserved}
    names = {word for name in spec.names for word in words.get(name, ())}
    ordered = [word for name in spec.classes for word in words[name]]
    taken |= {word.lower() for word in (*ordered, *spec.lemmas, *spec.lemmas.values())}
    mapping: dict[str, str] = {}
    for lemma, forms in families(dict.fromkeys(ordered), spec.lemmas).items():
        fresh = _fresh_family(rng, len(forms), taken)
        if lemma in names:
            fresh = [word.capitalize() for word in fresh]
        mapping.update(zip(forms, fresh, strict=True))
    return FreshWords(seed, spec.classes, mapping)


def _fresh_family(rng: random.Random, size: int, taken: set[str]) -> list[str]:
    """A stem and its forms (``-ed``, ``-en``), none taken; all marked taken."""
    if size > len(SUFFIXES) + 1:
        raise DataError(f"a verb with {size} forms has more than fresh words can tell apart.")
    for _ in range(MAX_DRAWS):
        stem = _syllables(rng, verb=size > 1)
        if size > 1 and stem.endswith(SUFFIXES):  # `mited` would read as a past already
            continue
        forms = [stem, *(stem + suffix for suffix in SUFFIXES[: size - 1])]
        if not any(form in taken for form in forms):
            taken.update(forms)
            return forms
    raise DataError(f"no fresh word left after {MAX_DRAWS} draws; the lexicon is too large.")


def _syllables(rng: random.Random, *, verb: bool) -> str:
    """Two consonant-vowel syllables, then a consonant (always for a verb's stem, so that
    ``-ed`` reads well; half the time otherwise)."""
    word = "".join(rng.choice(CONSONANTS) + rng.choice(VOWELS) for _ in range(2))
    if verb or rng.random() < 0.5:
        word += rng.choice(CONSONANTS)
    return word


# -- the renamed grammar --------------------------------------------------------------------


def class_words(grammar: Grammar, name: str) -> tuple[str, ...]:
    """The words of class ``name``: its lexicon, or the literals of a rule whose alternatives
    are each one literal (:class:`DataError` for anything else)."""
    lexicon = grammar.sidecar.lexicon
    if name in lexicon:
        return tuple(lexicon[name])
    words = []
    for rule in grammar.rules_of(name):
        symbols = list(rule.expansion)
        literal = grammar.literal(symbols[0].name) if len(symbols) == 1 else None
        if literal is None or not symbols[0].is_term:
            raise DataError(f"class {name!r} of {grammar.name}: alternative {rule} is no word.")
        words.append(literal)
    if not words:
        raise DataError(f"{grammar.name} has no word class {name!r} (a lexicon or a rule).")
    return tuple(words)


def literals(grammar: Grammar) -> set[str]:
    """Every fixed string the grammar's terminals match (``"and"``, ``"."``)."""
    return {literal for name in grammar.terminals if (literal := grammar.literal(name)) is not None}


def renamed_grammar(grammar: Grammar, mapping: Mapping[str, str]) -> Grammar:
    """``grammar`` with renamed words: in its sidecar's lexicons and in its string literals.

    >>> g = Grammar.from_text('start: "walk" -> walk | W -> word\\nW: /[a-z]+/\\n%ignore " "\\n',
    ...     {"language": {"version": "1"}, "lexicon": {"W": ["cat"]}}, name="toy")
    >>> r = renamed_grammar(g, {"walk": "dax", "cat": "wug"})
    >>> r.parse("dax").data, r.parse("wug").children[0].value
    ('walk', 'wug')
    """
    sidecar = grammar.sidecar
    lexicon = {
        key: tuple(mapping.get(w, w) for w in words) for key, words in sidecar.lexicon.items()
    }
    sidecar = dataclasses.replace(sidecar, lexicon=lexicon)
    return Grammar(_renamed_literals(grammar.text, mapping), sidecar, name=grammar.name,
                   source=grammar.source)  # fmt: skip


def _renamed_literals(text: str, mapping: Mapping[str, str]) -> str:
    pieces = []
    for match in _TOKEN.finditer(text):
        piece = match.group()
        if match.lastgroup == "string" and piece.endswith('"') and piece[1:-1] in mapping:
            piece = f'"{mapping[piece[1:-1]]}"'
        pieces.append(piece)
    return "".join(pieces)
