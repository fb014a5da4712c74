"""PCFG SET (Hupkes, Dankers, Mul & Bruni 2020): string-edit programs.

The ten functions follow the published task definition (``tasks/default.py`` of
MathijsMul/pcfg-set), edge cases included: ``swap_first_last`` of a one-symbol string yields
that symbol twice. The ``_twin`` synonyms of the substitutivity test mean what their originals
mean.

>>> language = build()
>>> language.interpret("append swap_first_last A1 B2 C3 , repeat D4 E5")
'C3 B2 A1 D4 E5 D4 E5'
>>> language.interpret("remove_second_twin echo A1 B1 , C1")
'A1 B1 B1'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from symcomp.core.language import Language
from symcomp.core.resources import load_grammar
from symcomp.core.semantics import Semantics

if TYPE_CHECKING:
    from symcomp.core.suite_builder import SuiteBuilder

Seq = list[str]


NAME = "pcfg-set"


class PcfgSetSemantics(Semantics):
    """Meaning of a PCFG SET program: the list of output symbols."""

    def string(self, children: list[str]) -> Seq:
        return [str(symbol) for symbol in children]

    def copy(self, children: list[Seq]) -> Seq:
        return children[0]

    def reverse(self, children: list[Seq]) -> Seq:
        return children[0][::-1]

    def shift(self, children: list[Seq]) -> Seq:
        x = children[0]
        return x[1:] + x[:1]

    def echo(self, children: list[Seq]) -> Seq:
        x = children[0]
        return x + x[-1:]

    def swap_first_last(self, children: list[Seq]) -> Seq:
        x = children[0]
        return x[-1:] + x[1:-1] + x[:1]

    def repeat(self, children: list[Seq]) -> Seq:
        return children[0] + children[0]

    def append(self, children: list[Seq]) -> Seq:
        return children[0] + children[1]

    def prepend(self, children: list[Seq]) -> Seq:
        return children[1] + children[0]

    def remove_first(self, children: list[Seq]) -> Seq:
        return children[1]

    def remove_second(self, children: list[Seq]) -> Seq:
        return children[0]

    # Synonyms for the substitutivity test.
    swap_first_last_twin = swap_first_last
    repeat_twin = repeat
    append_twin = append
    remove_second_twin = remove_second


class PcfgSet(Language):
    """PCFG SET, with its five compositionality tests as its suite."""

    def suite_builder(self) -> SuiteBuilder:
        """``symcomp suite pcfg-set`` (:mod:`symcomp.languages.pcfg_set.suite`), and ``symcomp
        suite import pcfg-set`` (:mod:`symcomp.languages.pcfg_set.published`)."""
        import dataclasses

        from symcomp.languages.pcfg_set.published import importer
        from symcomp.languages.pcfg_set.suite import suite_builder

        return dataclasses.replace(suite_builder(), importer=importer())


def build() -> Language:
    """The ``pcfg-set`` language from the packaged grammar."""
    return PcfgSet("pcfg-set", load_grammar("pcfg-set", "pcfg_set"), PcfgSetSemantics)
