"""A model's worked steps, checked against the grammar (``symcomp evaluate`` on the samples of a
worked export: ``symcomp export --format lm-eval --steps``).

A written answer is read in the layout of :mod:`symcomp.core.steps` (``Step: A = B`` lines,
then ``Answer: C``). Every non-blank line before the answer line is a *written step*, and is

``right``
    when it is in the layout, its sub-input ``A`` is a *part* of the input (a run of the
    input's consecutive words: every constituent is one, and so is ``A1 B1`` of ``copy A1 B1
    C1``, which is no constituent), ``A`` is a sentence of the language, and ``B`` is the
    language's interpretation of ``A`` given as an input (texts compared with their runs of
    whitespace joined), whatever decomposition the model chose;

else wrong, named by the first check it fails, in this order: ``unreadable`` (not in the
layout), ``not_a_part``, ``not_a_sentence`` (the parser or the semantics refuses ``A``),
``wrong_answer``. An answer without an ``Answer:`` line is counted as ``no_answer``. None of
these is an error: each is counted and named.

Per test (:func:`steps_report`): the share of items whose written steps are all in the layout
(``parsed``); step accuracy (right steps over written steps); the wrong steps by kind; the
items without an answer line; the share of the gold sub-inputs (symcomp's own steps but the
last) that the model wrote as steps; answer accuracy (exact match of the answer line, as the
harness scores it) split by the items whose written steps are all right (at least one), those
with a wrong step and those that wrote none; and, per item with a wrong step, the first one.

>>> from symcomp.core.registry import get_language
>>> grader = StepGrader(get_language("scan"))
>>> [grader.grade("walk twice", line).kind for line in
...  ["walk = I_WALK", "Step: walk = I_WALK", "Step: run = I_RUN", "Step: twice = x",
...   "Step: walk twice = I_WALK"]]
['unreadable', 'right', 'not_a_part', 'not_a_sentence', 'wrong_answer']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from symcomp._util import Record
from symcomp.core.constituents import one_line
from symcomp.core.language import Language
from symcomp.core.steps import Step, read_worked
from symcomp.errors import SymcompError
from symcomp.metrics.scores import matches

RIGHT = "right"
KINDS = ("unreadable", "not_a_part", "not_a_sentence", "wrong_answer")  # of wrong steps


@dataclass(frozen=True)
class StepGrade:
    """One written step: its line, what was wrong with it (or ``right``) and, where its
    sub-input is a sentence, the language's interpretation of it."""

    line: str
    kind: str
    expected: str | None = None


@dataclass
class StepGrader:
    """Grades written steps in one language; each sub-input is interpreted once."""

    language: Language
    _meanings: dict[str, str | None] = field(default_factory=dict)

    def meaning(self, text: str) -> str | None:
        """The interpretation of ``text`` as an input (one line), or None when it is none."""
        if text not in self._meanings:
            try:
                self._meanings[text] = one_line(self.language.interpret(text))
            except SymcompError:
                self._meanings[text] = None
        return self._meanings[text]

    def grade(self, source: str, line: str) -> StepGrade:
        """The grade of one written line ``line`` of an answer to ``source``."""
        [step] = read_worked(line).steps or (None,)
        if step is None:
            return StepGrade(line, "unreadable")
        return self.grade_step(source, step, line)

    def grade_step(self, source: str, step: Step, line: str) -> StepGrade:
        if not is_part(step.input, source):
            return StepGrade(line, "not_a_part")
        expected = self.meaning(step.input)
        if expected is None:
            return StepGrade(line, "not_a_sentence")
        kind = RIGHT if one_line(step.output) == expected else "wrong_answer"
        return StepGrade(line, kind, expected)


def is_part(text: str, source: str) -> bool:
    """True when the words of ``text`` are a run of consecutive words of ``source``.

    >>> is_part("A1 B1", "copy A1 B1 C1"), is_part("copy C1", "copy A1 B1 C1"), is_part("", "a")
    (True, False, False)
    """
    words, part = source.split(), text.split()
    size = len(part)
    return size > 0 and any(words[i : i + size] == part for i in range(len(words) - size + 1))


@dataclass(frozen=True)
class ItemGrade:
    """The written steps of one answer graded, whether it has an answer line, and how many of
    the gold sub-inputs it wrote as steps."""

    steps: tuple[StepGrade, ...]
    answered: bool
    gold_written: int
    gold: int

    @property
    def first_wrong(self) -> tuple[int, StepGrade] | None:
        """(1-based position, grade) of the first wrong step, or None."""
        return next(((i, s) for i, s in enumerate(self.steps, 1) if s.kind != RIGHT), None)


def grade_item(grader: StepGrader, source: str, text: str) -> ItemGrade:
    """Grade the written answer ``text`` to the input ``source``."""
    written = read_worked(text)
    grades = tuple(
        StepGrade(line, "unreadable")
        if step is None
        else grader.grade_step(one_line(source), step, line)
        for step, line in zip(written.steps, written.lines, strict=True)
    )
    gold = {step.input for step in grader.language.steps(source)[:-1]}
    inputs = {one_line(step.input) for step in written.steps if step is not None}
    return ItemGrade(grades, written.answer is not None, len(gold & inputs), len(gold))


def steps_report(
    language: Language,
    records: Sequence[Record],
    predictions: Sequence[str],
    written: Mapping[str, str],
) -> dict[str, Any]:
    """The report of a model's written steps on ``records`` (see the module): ``predictions``
    are its answers as scored (the harness's filtered answers), ``written`` its whole written
    answers by item id."""
    grader = StepGrader(language)
    graded = [grade_item(grader, str(r["input"]), written.get(str(r["id"]), "")) for r in records]
    correct = [matches(p, str(r["output"])) for r, p in zip(records, predictions, strict=True)]
    steps = [step for item in graded for step in item.steps]
    right = sum(step.kind == RIGHT for step in steps)
    gold = sum(item.gold for item in graded)
    groups: dict[str, list[bool]] = {"all_steps_right": [], "a_step_wrong": [], "no_steps": []}
    for item, ok in zip(graded, correct, strict=True):
        group = "no_steps" if not item.steps else "a_step_wrong" if item.first_wrong else None
        groups[group or "all_steps_right"].append(ok)
    return {
        "items": len(records),
        "parsed": _share(sum(all(s.kind != "unreadable" for s in i.steps) for i in graded), graded),
        "steps": len(steps),
        "right": right,
        "step_accuracy": right / len(steps) if steps else None,
        "wrong": {kind: sum(step.kind == kind for step in steps) for kind in KINDS},
        "no_answer": sum(not item.answered for item in graded),
        "gold_steps_written": sum(i.gold_written for i in graded) / gold if gold else None,
        "accuracy_by_steps": {
            name: {"n": len(found), "accuracy": _share(sum(found), found)}
            for name, found in groups.items()
        },
        "first_wrong": _first_wrong(records, graded),
    }


def _share(count: int, of: Sequence[Any]) -> float | None:
    return count / len(of) if of else None


def _first_wrong(records: Sequence[Record], graded: Sequence[ItemGrade]) -> list[dict[str, Any]]:
    found = []
    for position, (record, item) in enumerate(zip(records, graded, strict=True)):
        first = item.first_wrong
        if first is not None:
            number, step = first
            found.append(
                {
                    "id": str(record["id"]),
                    "item": position,
                    "step": number,
                    "line": step.line,
                    "kind": step.kind,
                    "expected": step.expected,
                }
            )
    return found


def steps_rows(report: Mapping[str, Any]) -> list[tuple[str, float | None]]:
    """The report card's rows of a steps report (label naming its definition, value)."""
    groups = report["accuracy_by_steps"]
    items = report["items"] or 1
    return [
        ("steps: items whose steps parse", report["parsed"]),
        ("steps: step accuracy (right / written)", report["step_accuracy"]),
        ("steps: gold sub-inputs written", report["gold_steps_written"]),
        ("steps: items without an answer line", report["no_answer"] / items),
        ("accuracy, all written steps right", groups["all_steps_right"]["accuracy"]),
        ("accuracy, a written step wrong", groups["a_step_wrong"]["accuracy"]),
        ("accuracy, no step written", groups["no_steps"]["accuracy"]),
    ]
