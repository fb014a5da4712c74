r"""The worked steps of inputs, asked of any registered language: the steps themselves
(:meth:`symcomp.core.language.Language.steps`, found by :mod:`symcomp.core.constituents`), a
refusal naming the languages that have them, their JSON form (a record's ``steps``) and their
written layout, which worked demonstrations show and a model's answer is read in::

    Step: <sub-input> = <sub-answer>      one line per step but the last, innermost first
    Answer: <answer>                      the last step: the whole input's output

A line is read with its ends stripped of spaces and tabs; lines are split at ``\n`` only; the
first ``Answer:`` line is the answer and what follows it is not read (the harness's ``regex``
filter, :data:`ANSWER_PATTERN`, takes the same text).

>>> from symcomp.core.registry import get_language
>>> [step.input for step in steps_of(get_language("pcfg-set"), "reverse echo A1 B1")]
['echo A1 B1', 'reverse echo A1 B1']
>>> steps_of(get_language("cfq"), "Did M0 direct M1")
Traceback (most recent call last):
...
symcomp.errors.DataError: cfq has no worked steps: no constituent of a cfq input is itself ...
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from symcomp._util import Record
from symcomp.core.constituents import Step, one_line
from symcomp.core.language import Language
from symcomp.core.registry import available, get_language
from symcomp.errors import DataError

__all__ = [
    "ANSWER_PATTERN",
    "RecordSteps",
    "Step",
    "WrittenSteps",
    "check_steps",
    "languages_with_steps",
    "read_worked",
    "steps_json",
    "steps_of",
    "worked_text",
]

FIELD = "steps"  # the field of a record or document holding its gold steps
STEP, ANSWER, EQUALS = "Step:", "Answer:", " = "
# the answer as the harness's `regex` filter takes it (the first match, stripped): the rest of
# the first line that starts with `Answer:` (after spaces or tabs); `.` stops at `\n` only
ANSWER_PATTERN = r"(?m)^[ \t]*Answer:(.*)$"
_STEP_LINE = re.compile(r"Step:[ \t]*(?P<input>.*?) =(?: (?P<output>.*))?")


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


class RecordSteps:
    """The steps of records in one language (:meth:`Language.steps` of their input), each
    distinct input computed once: the tests of a suite share their pool."""

    def __init__(self, language: Language) -> None:
        check_steps(language)
        self.language = language
        self._found: dict[str, list[Step]] = {}

    def __call__(self, record: Record) -> list[Step] | None:
        """The steps of ``record``'s input, or None where its output is not the language's
        interpretation of its input (one-line texts compared; the exceptions of PCFG SET's
        overgeneralisation tests): steps would not lead to it."""
        text = str(record["input"])
        if text not in self._found:
            self._found[text] = self.language.steps(text)
        steps = self._found[text]
        return steps if steps[-1].output == one_line(str(record["output"])) else None


def steps_json(steps: Sequence[Step] | None) -> list[dict[str, Any]] | None:
    """The JSON form of steps: ``[{"input": ..., "output": ...}, ...]`` (None: none)."""
    return None if steps is None else [step.to_json() for step in steps]


def worked_text(steps: Sequence[Step]) -> str:
    """The written layout of steps (see the module): a ``Step:`` line for each but the last,
    then the ``Answer:`` line.

    >>> from symcomp.core.registry import get_language
    >>> print(worked_text(get_language("arithmetic").steps("× 2 + 14 3")))
    Step: + 14 3 = 17
    Answer: 34
    """
    lines = [f"{STEP} {step.input}{EQUALS}{step.output}" for step in steps[:-1]]
    return "\n".join([*lines, f"{ANSWER} {steps[-1].output}"])


@dataclass(frozen=True)
class WrittenSteps:
    """What a written answer holds: its lines before the answer line, each a :class:`Step` or
    None where the line is not in the layout (``lines`` keeps the text of each), and the
    answer (None: no ``Answer:`` line)."""

    steps: tuple[Step | None, ...]
    lines: tuple[str, ...]
    answer: str | None

    @property
    def readable(self) -> bool:
        """True when every line before the answer is a step in the layout."""
        return all(step is not None for step in self.steps)


def read_worked(text: str) -> WrittenSteps:
    r"""The steps and the answer of a written answer (see the module); blank lines are passed
    over, never an error.

    >>> written = read_worked("Step: jump = I_JUMP\nI think\nAnswer: I_JUMP I_JUMP\nStep: x = y")
    >>> written.steps[0], written.steps[1], written.answer
    (Step(input='jump', output='I_JUMP'), None, 'I_JUMP I_JUMP')
    """
    steps: list[Step | None] = []
    lines: list[str] = []
    for raw in text.split("\n"):
        line = raw.strip(" \t")
        if line.startswith(ANSWER):
            return WrittenSteps(tuple(steps), tuple(lines), line[len(ANSWER) :].strip())
        if not line.strip():
            continue
        lines.append(line)
        found = _STEP_LINE.fullmatch(line.strip())
        steps.append(
            None if found is None else Step(found["input"].strip(), (found["output"] or "").strip())
        )
    return WrittenSteps(tuple(steps), tuple(lines), None)
