"""Input and output patterns: examples with entities and lexical fillers anonymised.

A *lexical filler* is a word a rule chooses among interchangeable words: the alternatives of a
rule that consist only of literals, when the rule has at least two of them (SCAN's ``walk``,
``look``, ``run``, ``jump`` of ``primitive``; cfq's roles, verbs, types and adjectives), and
the words of a lexicon terminal (cfq's entities ``M0 .. M9``). The *input pattern* replaces
each filler by its rule's name. The *output pattern* is the output of the input with every
filler replaced by the first word of its rule, so two examples share an output pattern when
their meanings have the same shape (SCAN: ``jump around left`` and ``run around right``).

For pools whose language is not registered, both patterns replace digits (``M3`` → ``M#``).

A language may declare its own word classes instead
(:meth:`symcomp.core.language.Language.pattern_abstraction`, the paper's SCAN patterns); the
``pattern_abstraction`` of :meth:`Patterns.of` chooses: ``auto`` (the declared classes when
there are any, else the fillers), ``language`` (the declared classes; an error when there are
none) or ``fillers``.

>>> import symcomp
>>> Patterns.of(symcomp.get_language("scan")).input_pattern("jump around right twice")
'U A D T'
>>> patterns = Patterns.of(symcomp.get_language("scan"), "fillers")
>>> patterns.input_pattern("jump around right twice")
'primitive around direction twice'
>>> patterns.output_pattern("jump right")
'I_TURN_LEFT I_WALK'
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from lark import Token, Tree

from symcomp.core.abstraction import PatternAbstraction
from symcomp.core.sampler import LITERAL, SLOT, WORD
from symcomp.errors import DataError

if TYPE_CHECKING:
    from symcomp.core.language import Language

_DIGITS = re.compile(r"\d+")
ABSTRACTIONS = ("auto", "language", "fillers")


@dataclass(frozen=True)
class Patterns:
    """Pattern functions of one language (or the digit fallback when ``language`` is None)."""

    language: Language | None
    categories: dict[tuple[str, ...], str]  # filler words -> rule name(s), "|"-joined
    canonical: dict[str, str]  # filler alias -> the first filler alias of its rule
    first_words: dict[str, str]  # lexicon word -> the first word of its lexicon
    longest: int
    declared: PatternAbstraction | None = None  # the language's own classes, when used

    @classmethod
    def of(cls, language: Language | None, pattern_abstraction: str = "auto") -> Patterns:
        """The patterns of ``language``: its declared classes or its fillers (see the module
        docstring for ``pattern_abstraction``)."""
        abstraction = pattern_abstraction
        if abstraction not in ABSTRACTIONS:
            raise DataError(
                f"unknown `pattern_abstraction` {abstraction!r}; choose one of "
                f"{', '.join(ABSTRACTIONS)}."
            )
        declared = language.pattern_abstraction() if language is not None else None
        if abstraction == "language" and declared is None:
            name = "the pool's language" if language is None else f"language {language.name!r}"
            raise DataError(
                f"{name} declares no pattern abstraction of its own; use "
                f"`pattern_abstraction` fillers (or auto), or declare the word classes in the "
                f"language's pattern_abstraction() hook."
            )
        if declared is not None and abstraction != "fillers":
            return cls(language, {}, {}, {}, 0, declared)
        return cls._fillers(language)

    @property
    def kind(self) -> str:
        """Which abstraction these patterns use: ``language``, ``fillers`` or ``digits``."""
        if self.declared is not None:
            return "language"
        return "fillers" if self.language is not None else "digits"

    @classmethod
    def _fillers(cls, language: Language | None) -> Patterns:
        """Find the fillers of ``language`` from its compiled rules."""
        if language is None:
            return cls(None, {}, {}, {}, 0)
        found: dict[tuple[str, ...], set[str]] = {}
        canonical: dict[str, str] = {}
        first_words: dict[str, str] = {}
        for origin, plans in language.sampler.plans.items():
            lexical = [
                plan
                for plan in plans
                if plan.symbols and all(kind == LITERAL for kind, _p, _k in plan.symbols)
            ]
            if len(lexical) >= 2:
                for plan in lexical:
                    words = tuple(str(payload) for _kind, payload, _keep in plan.symbols)
                    found.setdefault(words, set()).add(origin)
                    if plan.label is not None and lexical[0].label is not None:
                        canonical[plan.label] = lexical[0].label
            for plan in plans:
                for kind, payload, _keep in plan.symbols:
                    # a weighted or constrained lexicon (WORD) is a word class like a SLOT
                    words = payload.words if kind == WORD else payload
                    if kind in (SLOT, WORD) and len(words) >= 2:
                        category = _slot_name(language, words)
                        for word in words:
                            found.setdefault((str(word),), set()).add(category)
                            first_words[str(word)] = str(words[0])
        categories = {words: "|".join(sorted(names)) for words, names in found.items()}
        longest = max((len(words) for words in categories), default=0)
        return cls(language, categories, canonical, first_words, longest)

    def input_pattern(self, text: str) -> str:
        """The input with each filler replaced by its rule's name (longest match first)."""
        if self.declared is not None:
            return self.declared.input_pattern(text)
        if self.language is None:
            return _DIGITS.sub("#", text)
        tokens = text.split()
        result: list[str] = []
        position = 0
        while position < len(tokens):
            for size in range(min(self.longest, len(tokens) - position), 0, -1):
                category = self.categories.get(tuple(tokens[position : position + size]))
                if category is not None:
                    result.append(category)
                    position += size
                    break
            else:
                result.append(tokens[position])
                position += 1
        return " ".join(result)

    def output_pattern(self, text: str, output: str | None = None) -> str:
        """The output of the input's derivation with every filler made its rule's first."""
        if self.declared is not None:
            return self.declared.output_pattern(
                output if output is not None else self.language_output(text)
            )
        if self.language is None:
            return _DIGITS.sub("#", output if output is not None else text)
        tree = self.language.parse(text)
        return self.language.render(self.language.evaluate(self._canonical(tree)))

    def language_output(self, text: str) -> str:
        if self.language is None:
            raise DataError("an output pattern without the output needs the pool's language.")
        return self.language.interpret(text)

    def _canonical(self, tree: Tree[Any]) -> Tree[Any]:
        label = str(tree.data)
        children = [
            self._canonical(child)
            if isinstance(child, Tree)
            else Token(child.type, self.first_words.get(str(child), str(child)))
            if isinstance(child, Token)
            else child
            for child in tree.children
        ]
        return Tree(self.canonical.get(label, label), children)


def _slot_name(language: Language, words: Sequence[str]) -> str:
    """The name of the lexicon terminal whose word list is ``words``."""
    for terminal, lexicon in language.grammar.sidecar.lexicon.items():
        if list(lexicon) == list(words):
            return terminal
    return "SLOT"
