"""The worked steps of inputs, asked of any registered language: the steps themselves
(:meth:`symcomp.core.language.Language.steps`, found by :mod:`symcomp.core.constituents`), a
refusal naming the languages that have them, and their JSON form (a record's ``steps``).

>>> from symcomp.core.registry import get_language
>>> [step.input for step in steps_of(get_language("pcfg-set"), "reverse echo A1 B1")]
['echo A1 B1', 'reverse echo A1 B1']
>>> steps_of(get_language("cfq"), "Did M0 direct M1")
Traceback (most recent call last):
...
symcomp.errors.DataError: cfq has no worked steps: no constituent of a cfq input is itself ...
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from symcomp.core.constituents import Step
from symcomp.core.language import Language
from symcomp.core.registry import available, get_language
from symcomp.errors import DataError

__all__ = ["Step", "check_steps", "languages_with_steps", "steps_json", "steps_of"]

FIELD = "steps"  # the field of a record or document holding its gold steps


def languages_with_steps() -> list[str]:
    """The registered languages whose inputs have worked steps."""
    return [name for name in available() if get_language(name).has_steps()]


def check_steps(language: Language) -> None:
    """Nothing when ``language`` has worked steps; else a :class:`DataError` naming those
    that do."""
    if language.has_steps():
        return
    raise DataError(
        f"{language.name} has no worked steps: no constituent of a {language.name} input is "
        f"itself a {language.name} input, so no part of an input has a meaning written in its "
        f"output format (steps are written for: "
        f"{', '.join(languages_with_steps()) or 'no language'}; docs/llm.md, Worked steps)."
    )


def steps_of(language: Language, text: str) -> list[Step]:
    """The worked steps of ``text`` (the last is ``text`` and its output), or a
    :class:`DataError` for a language without steps (naming those with steps)."""
    check_steps(language)
    return language.steps(text)


def steps_json(steps: Sequence[Step]) -> list[dict[str, Any]]:
    """The JSON form of steps: ``[{"input": ..., "output": ...}, ...]``."""
    return [step.to_json() for step in steps]
