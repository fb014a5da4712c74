"""Worked steps of inputs (issue 50, part 1): the constituents of a parse that are inputs
themselves, each re-interpreting exactly, at small size (``benchmarks/steps.py`` checks all
20,910 SCAN commands and a PCFG SET suite's tests); the generic default on a language of
one's own; refusals."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import symcomp
from symcomp import Language, Semantics
from symcomp.core.steps import check_steps, languages_with_steps, steps_of
from symcomp.errors import DataError, ParseError

WITH_STEPS = ("scan", "pcfg-set", "pcfg-let", "pcfg-let-notebook", "arithmetic")


@pytest.mark.parametrize("name", WITH_STEPS)
def test_every_step_reinterprets_exactly(name: str) -> None:
    language = symcomp.get_language(name)
    counted = sub = 0
    for seed in range(150):
        example = language.sample(seed=seed)
        steps = language.steps(example.input)
        assert (steps[-1].input, steps[-1].output) == (example.input, example.output)
        for step in steps:
            assert language.interpret(step.input) == step.output, (example.input, step)
            assert step.input in example.input
            counted += 1
        sub += len(steps) - 1
    assert sub > 50, f"{name}: too few sub-steps ({sub}) for the check to mean anything"


def test_scan_steps_innermost_first() -> None:
    scan = symcomp.get_language("scan")
    steps = scan.steps("jump around left twice and walk")
    assert [step.input for step in steps] == [
        "jump",
        "jump around left",
        "jump around left twice",
        "walk",
        "jump around left twice and walk",
    ]
    assert steps[1].output == " ".join(["I_TURN_LEFT I_JUMP"] * 4)
    # `turn` is no command, `left` is no command: never a step
    assert [s.input for s in scan.steps("turn left twice")] == ["turn left", "turn left twice"]


def test_a_text_met_twice_is_one_step_and_numerals_state_nothing() -> None:
    scan = symcomp.get_language("scan")
    assert [s.input for s in scan.steps("walk and walk")] == ["walk", "walk and walk"]
    arithmetic = symcomp.get_language("arithmetic")
    assert [s.input for s in arithmetic.steps("+ × 2 3 × 2 3")] == ["× 2 3", "+ × 2 3 × 2 3"]
    assert [s.input for s in arithmetic.steps("7")] == ["7"]  # the whole is always the answer


def test_pcfg_steps_are_the_function_applications() -> None:
    pcfg = symcomp.get_language("pcfg-set")
    steps = pcfg.steps("append swap_first_last A1 B2 C3 , repeat D4 E5")
    assert [(s.input, s.output) for s in steps] == [
        ("swap_first_last A1 B2 C3", "C3 B2 A1"),
        ("repeat D4 E5", "D4 E5 D4 E5"),
        ("append swap_first_last A1 B2 C3 , repeat D4 E5", "C3 B2 A1 D4 E5 D4 E5"),
    ]


def test_steps_in_fresh_words_are_the_renamed_languages() -> None:
    scan = symcomp.get_language("scan")
    renamed = scan.with_fresh_words(0)
    assert renamed.fresh_words is not None
    jump, walk = (renamed.fresh_words.mapping[word] for word in ("jump", "walk"))
    steps = renamed.steps(f"{jump} twice and {walk}")
    assert [s.input for s in steps] == [jump, f"{jump} twice", walk, f"{jump} twice and {walk}"]
    assert steps[0].output == f"I_{jump.upper()}"
    assert all(renamed.interpret(step.input) == step.output for step in steps)


class _Wrapped(Semantics):
    """A toy whose start rule does something: a sub-expression's meaning as an input must go
    through it too."""

    def top(self, children: list[Any]) -> Any:
        return [f"<{children[0]}>"]

    def plus(self, children: list[Any]) -> Any:
        return children[0] + children[1]

    def number(self, children: list[Any]) -> Any:
        return int(children[0])

    def render(self, meaning: Any) -> str:
        return str(meaning[0]) if isinstance(meaning, list) else str(meaning)


def test_the_generic_default_wraps_a_constituent_in_the_start_rules() -> None:
    toy = Language.from_grammar(
        "toy-wrapped",
        'start: expr -> top\nexpr: term "plus" expr -> plus\n    | term -> single\n'
        'term: NUMBER -> number\nNUMBER: /[0-9]+/\n%ignore " "\n',
        semantics=_Wrapped,
        lexicon={"NUMBER": ["1", "2", "3"]},
    )
    steps = toy.steps("1 plus 2 plus 3")
    assert [(s.input, s.output) for s in steps] == [
        ("1", "<1>"),
        ("2", "<2>"),
        ("3", "<3>"),
        ("2 plus 3", "<5>"),
        ("1 plus 2 plus 3", "<6>"),
    ]
    assert all(toy.interpret(step.input) == step.output for step in steps)


def test_a_language_without_proper_sentences_is_refused_naming_those_with_steps() -> None:
    flat = Language.from_grammar(
        "toy-flat",
        'start: WORD "twice" -> twice\n     | WORD -> once\nWORD: /[a-z]+/\n%ignore " "\n',
        semantics=type("Flat", (Semantics,), {"twice": lambda self, c: [c[0], c[0]]}),
        lexicon={"WORD": ["a", "b"]},
    )
    assert not flat.has_steps()
    with pytest.raises(DataError, match="toy-flat has no worked steps") as refused:
        steps_of(flat, "a twice")
    for name in WITH_STEPS:
        assert name in str(refused.value)


@pytest.mark.parametrize("name", ["cogs", "slog", "cfq", "monotonicity"])
def test_languages_without_steps_are_refused(name: str) -> None:
    language = symcomp.get_language(name)
    assert not language.has_steps()
    with pytest.raises(DataError, match=f"{name} has no worked steps"):
        check_steps(language)
    assert name not in languages_with_steps()


def test_an_input_outside_the_language_is_a_parse_error() -> None:
    with pytest.raises(ParseError):
        symcomp.get_language("scan").steps("jump jump")


def test_the_steps_of_a_pcfg_set_suites_test_items_reinterpret_exactly(
    pcfg_set_suite: Path,
) -> None:
    from symcomp.suites.reading import Suite

    suite = Suite.read(pcfg_set_suite)
    language = suite.load_language()
    assert language is not None
    checked = 0
    for name in suite.tests:
        for record in suite.test(name).test[:60]:
            steps = language.steps(str(record["input"]))
            assert steps[-1].output == record["output"]
            assert all(language.interpret(step.input) == step.output for step in steps)
            checked += len(steps)
    assert checked > 1000
