"""A language's pattern abstraction: the word classes merged in input and output patterns.

Keysers et al. (2020, §4) compare MCD splits with *pattern splits*, in which no test pattern
occurs in train. A pattern is an example with some words replaced by their class; which words
form a class is a choice about the language (for SCAN: the four primitives, the two directions,
``around``/``opposite`` and ``twice``/``thrice``), so a language declares it through the hook
:meth:`symcomp.core.language.Language.pattern_abstraction`. Languages that declare none get the
generic filler patterns of :mod:`symcomp.dbca.patterns`.

>>> abstraction = PatternAbstraction({"walk": "U", "jump": "U"}, {"I_WALK": "U"})
>>> abstraction.input_pattern("jump and walk")
'U and U'
>>> abstraction.output_pattern("I_WALK I_JUMP")
'U I_JUMP'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class PatternAbstraction:
    """Word classes of inputs and of outputs (words without a class stay as they are).

    Parameters
    ----------
    input_classes : mapping of str to str
        Input word → class name.
    output_classes : mapping of str to str
        Output token → class name.
    """

    input_classes: Mapping[str, str]
    output_classes: Mapping[str, str]

    def input_pattern(self, text: str) -> str:
        """The input with each word of a class replaced by the class."""
        return _abstract(text, self.input_classes)

    def output_pattern(self, output: str) -> str:
        """The output with each token of a class replaced by the class."""
        return _abstract(output, self.output_classes)

    def describe(self) -> dict[str, dict[str, list[str]]]:
        """Classes and their members (for split meta)."""
        return {
            "input": _members(self.input_classes),
            "output": _members(self.output_classes),
        }


def _abstract(text: str, classes: Mapping[str, str]) -> str:
    return " ".join(classes.get(word, word) for word in text.split())


def _members(classes: Mapping[str, str]) -> dict[str, list[str]]:
    members: dict[str, list[str]] = {}
    for word, name in classes.items():
        members.setdefault(name, []).append(word)
    return {name: sorted(words) for name, words in sorted(members.items())}
