"""COGS (Kim & Linzen 2020): English sentences to logical forms, from the grammar COGS was
generated with (SLOG's IRTG transcription, read by :mod:`symcomp.languages.cogs.make_grammar`).

The sentence starts with a capital (``The girl``, ``A cake``): the grammar has one determiner,
so :meth:`Cogs.parse` reads the first word in lower case and :meth:`Cogs.derive` writes it
capitalised, as COGS does.

>>> language = build()
>>> print(language.interpret("A rose was helped by a dog .").replace(" AND ", "\\n"))
rose ( x _ 1 )
help . theme ( x _ 3 , x _ 1 )
help . agent ( x _ 3 , x _ 6 )
dog ( x _ 6 )
>>> language.interpret("touch")
'LAMBDA a . LAMBDA b . LAMBDA e . touch . agent ( e , b ) AND touch . theme ( e , a )'
"""

from __future__ import annotations

import json
import random
from collections.abc import Hashable, Mapping
from collections.abc import Set as AbstractSet
from functools import cache
from typing import TYPE_CHECKING, Any

from lark import Tree

from symcomp.core.fresh_strings import FreshWords, Renamable
from symcomp.core.language import Language
from symcomp.core.resources import grammar_file, load_grammar
from symcomp.core.sampler import Derivation, Table
from symcomp.errors import DataError
from symcomp.languages.cogs.formats import FORMATS
from symcomp.languages.cogs.semantics import CogsSemantics

if TYPE_CHECKING:
    from symcomp.core.suite_builder import SuiteBuilder

NAME = "cogs"
CAPITALS = {"a": "A", "the": "The"}
# output tokens of the logical forms besides words (no fresh word may be one)
RESERVED = frozenset({"agent", "theme", "recipient", "xcomp", "ccomp", "nmod", "LAMBDA", "AND"})


@cache
def lemmas() -> dict[str, str]:
    """Inflected verb forms to lemmas (``grammars/cogs.lemmas.json``)."""
    text = grammar_file("cogs.lemmas.json").read_text(encoding="utf-8")
    return dict(json.loads(text))


class Cogs(Language):
    """COGS: capitalised sentence starts, the constraints of COGS's generator in the sidecar."""

    def parse(self, text: str) -> Tree[Any]:
        """Parse a sentence (its first word read in lower case when it is ``A``/``The``)."""
        first, _space, rest = text.partition(" ")
        if first in ("A", "The"):
            text = f"{first.lower()} {rest}" if rest else first.lower()
        return super().parse(text)

    def derive(
        self,
        rng: random.Random,
        *,
        tables: Mapping[str, Table] | None = None,
        used: AbstractSet[Hashable] = frozenset(),
        max_length: int | None = None,
    ) -> Derivation:
        """A derivation drawn from the grammar, its first word capitalised."""
        derivation = super().derive(rng, tables=tables, used=used, max_length=max_length)
        tokens = derivation.tokens
        if tokens and tokens[0] in CAPITALS:
            tokens[0] = CAPITALS[tokens[0]]
        return derivation

    def output_formats(self) -> tuple[str, ...]:
        """COGS's logical form, ReCOGS's positional form, the variable-free form."""
        return FORMATS

    def with_output(self, output: str) -> Language:
        """The language writing ``output`` (:func:`with_output`)."""
        return with_output(self, output)

    def renamable(self) -> Renamable:
        """Nouns, proper names and verbs (every ``N_`` and ``V_`` lexicon; not determiners,
        prepositions or function words); a verb's forms are renamed together, by lemma."""
        semantics = self.semantics
        assert isinstance(semantics, CogsSemantics)
        classes = tuple(c for c in self.grammar.sidecar.lexicon if c.startswith(("N_", "V_")))
        return Renamable(
            classes,
            names=frozenset({"N_PROPER"}),
            lemmas=semantics.lemmas,
            outputs=("{word}", "{lower}"),  # nouns are written in lower case (TV: tv)
            reserved=RESERVED,
        )

    def renamed_semantics(self, fresh: FreshWords) -> CogsSemantics:
        """The same semantics and format, its verb forms mapped to the fresh lemmas."""
        return renamed_semantics(self, fresh)

    def suite_builder(self) -> SuiteBuilder:
        """``symcomp suite cogs`` (:mod:`symcomp.languages.cogs.suite`)."""
        from symcomp.languages.cogs.suite import suite_builder

        return suite_builder()


def with_output(language: Language, output: str) -> Language:
    """The language writing ``output`` (one of :data:`~symcomp.languages.cogs.formats.FORMATS`)
    instead of COGS's logical form; the same language when ``output`` is ``cogs``.

    >>> with_output(build(), "varfree").interpret("Emma slept .")
    'sleep ( agent = Emma )'
    """
    if output not in FORMATS:
        raise DataError(f"unknown COGS output format {output!r}; choose from {', '.join(FORMATS)}.")
    semantics = language.semantics
    if isinstance(semantics, CogsSemantics) and semantics.output == output:
        return language
    known = semantics.lemmas if isinstance(semantics, CogsSemantics) else lemmas()
    formatted = Cogs(language.name, language.grammar, CogsSemantics(known, output))
    formatted.fresh_words = language.fresh_words  # a renamed language stays renamed
    return formatted


def renamed_semantics(language: Language, fresh: FreshWords) -> CogsSemantics:
    """``language``'s semantics (COGS's or SLOG's) with inflected forms mapped to the fresh
    lemmas of ``fresh``, in the same output format."""
    semantics = language.semantics
    assert isinstance(semantics, CogsSemantics)
    rename = fresh.mapping
    known = {
        rename.get(form, form): rename.get(lemma, lemma) for form, lemma in semantics.lemmas.items()
    }
    return type(semantics)(known, semantics.output)


def build() -> Language:
    """The ``cogs`` language from the packaged grammar."""
    return Cogs(NAME, load_grammar(NAME, NAME), CogsSemantics(lemmas()))
