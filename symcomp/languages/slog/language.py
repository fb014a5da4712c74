"""SLOG (Li et al. 2023): English sentences and questions to logical forms, from SLOG's IRTG
grammars (read by :mod:`symcomp.languages.slog.make_grammar`), with the meanings and output
formats of :mod:`symcomp.languages.cogs`.

>>> language = build()
>>> language.interpret("What did Liam give Owen ?")
'give . agent ( x _ 3 , Liam ) AND give . theme ( x _ 3 , ? ) AND give . recipient ( x _ 3 , Owen )'
>>> with_output(language, "varfree").interpret("Emma saw a cat that slept .")
'see ( agent = Emma , theme = cat ( nmod = sleep ( agent = cat ) ) )'
"""

from __future__ import annotations

import json
from functools import cache

from symcomp.core.language import Language
from symcomp.core.resources import grammar_file, load_grammar
from symcomp.core.suite_builder import SuiteBuilder, SuiteImporter
from symcomp.errors import DataError
from symcomp.languages.cogs.formats import FORMATS
from symcomp.languages.cogs.language import Cogs
from symcomp.languages.slog.semantics import SlogSemantics

NAME = "slog"


@cache
def lemmas() -> dict[str, str]:
    """Inflected verb forms to lemmas (``grammars/slog.lemmas.json``)."""
    text = grammar_file("slog.lemmas.json").read_text(encoding="utf-8")
    return dict(json.loads(text))


class Slog(Cogs):
    """SLOG: COGS's sentence starts and formats, SLOG's grammar and semantics."""

    def with_output(self, output: str) -> Language:
        """The language writing ``output`` (:func:`with_output`)."""
        return with_output(self, output)

    def suite_builder(self) -> SuiteBuilder:
        """``symcomp suite slog`` (:mod:`symcomp.languages.slog.suite`)."""
        from symcomp.languages.slog.suite import suite_builder

        return suite_builder()

    def suite_importer(self) -> SuiteImporter:
        """``symcomp suite import slog`` (:mod:`symcomp.languages.slog.published`)."""
        from symcomp.languages.slog.published import importer

        return importer()


def with_output(language: Language, output: str) -> Language:
    """The language writing ``output`` (one of :data:`~symcomp.languages.cogs.formats.FORMATS`).

    >>> with_output(build(), "varfree").interpret("Who did Emma give the cake to ?")
    'give ( agent = Emma , theme = * cake , recipient = ? )'
    """
    if output not in FORMATS:
        raise DataError(f"unknown SLOG output format {output!r}; choose from {', '.join(FORMATS)}.")
    semantics = language.semantics
    if isinstance(semantics, SlogSemantics) and semantics.output == output:
        return language
    known = semantics.lemmas if isinstance(semantics, SlogSemantics) else lemmas()
    formatted = Slog(language.name, language.grammar, SlogSemantics(known, output))
    formatted.fresh_words = language.fresh_words  # a renamed language stays renamed
    return formatted


def build() -> Language:
    """The ``slog`` language from the packaged grammar."""
    return Slog(NAME, load_grammar(NAME, NAME), SlogSemantics(lemmas()))
