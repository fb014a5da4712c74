"""Models as symcomp sees them: anything that maps a batch of inputs to predictions.

A model is a callable ``list[str] -> list[str]`` or an object with such a ``predict`` method;
users plug in their own (``my_module:predict`` or ``path/to/file.py:model``; resolving such a
name, or a trained run, is :mod:`symcomp.models.loading`).
Built-in reference points:

``oracle``
    the gold output of every suite example (exception targets included), else the language's
    interpretation: scores 1.0 on every accuracy and consistency.
``copy-strings``
    a deliberately weak baseline: the input without its function words and commas.
``copy-input``
    the input unchanged.
``random-guess``
    a value drawn uniformly from 1..100, the same for the same input (CobA's baseline).
``constant-mean``
    the mean value of the test's training examples (CobA's baseline).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from symcomp.core.language import Language
from symcomp.errors import SymcompError

Model = Callable[[list[str]], list[str]]
BUILTIN = ("oracle", "copy-strings", "copy-input", "random-guess", "constant-mean")


@dataclass(frozen=True)
class ModelContext:
    """What a model factory may use for one test: the language, the test's gold outputs by
    input (for the oracle) and its training records (for baselines fit on training data)."""

    language: Language | None  # None: a suite over an imported pool
    gold: Mapping[str, str] = field(default_factory=dict)
    train: Sequence[Mapping[str, Any]] = ()


def as_model(candidate: Any, name: str = "model") -> Model:
    """A callable model from a callable or an object with ``predict``."""
    if hasattr(candidate, "predict") and callable(candidate.predict):
        predict: Model = candidate.predict
        return predict
    if callable(candidate):
        function: Model = candidate
        return function
    raise SymcompError(f"{name} is neither callable nor has a predict method.")


def checked(model: Model, name: str) -> Model:
    """Wrap a model so its failures, and a wrong number or type of predictions, are clear
    errors that name the model (not symcomp's)."""

    def predict(inputs: list[str]) -> list[str]:
        try:
            outputs = list(model(list(inputs)))
        except SymcompError:
            raise
        except Exception as error:  # the model's own code failed
            raise SymcompError(
                f"model {name} raised {type(error).__name__}: {error} (on a batch of "
                f"{len(inputs)} inputs, the first {inputs[0][:80]!r}); fix the model."
            ) from None
        if len(outputs) != len(inputs):
            raise SymcompError(
                f"{name} returned {len(outputs)} predictions for {len(inputs)} "
                f"inputs; return one per input."
            )
        if not all(isinstance(output, str) for output in outputs):
            raise SymcompError(f"{name} must return strings.")
        return outputs

    return predict


def oracle(language: Language | None, gold: Mapping[str, str]) -> Model:
    """Gold outputs by input text, else the interpretation of the input (imported data, with
    no language: the gold output, or nothing)."""

    def answer(text: str) -> str:
        found = gold.get(" ".join(text.split()))
        if found is not None:
            return found
        return language.interpret(text) if language is not None else ""

    def predict(inputs: list[str]) -> list[str]:
        return [answer(text) for text in inputs]

    return predict


def copy_strings(language: Language | None) -> Model:
    """The input's non-function tokens (PCFG SET: its symbols in order)."""
    functions = set(language.functions or ()) if language is not None else set()

    def predict(inputs: list[str]) -> list[str]:
        return [
            " ".join(t for t in text.split() if t not in functions and t != ",") for text in inputs
        ]

    return predict


def copy_input(inputs: list[str]) -> list[str]:
    return list(inputs)


def random_guess(inputs: list[str]) -> list[str]:
    """A uniform value in 1..100 per input, reproducible (seeded by the input text)."""
    import random

    return [str(random.Random(f"symcomp-random-guess:{text}").randint(1, 100)) for text in inputs]


def constant_mean(train: Sequence[Mapping[str, Any]]) -> Model:
    """Always the mean training value."""
    values = [float(record["output"]) for record in train]
    if not values:
        raise SymcompError("constant-mean needs training examples with numeric outputs.")
    mean = f"{sum(values) / len(values):.4f}"

    def predict(inputs: list[str]) -> list[str]:
        return [mean] * len(inputs)

    return predict


def batched(model: Model, inputs: Sequence[str], batch_size: int = 256) -> list[str]:
    """Predictions for many inputs, in batches (each distinct input asked once)."""
    unique = list(dict.fromkeys(inputs))
    answers: dict[str, str] = {}
    for start in range(0, len(unique), batch_size):
        batch = unique[start : start + batch_size]
        answers.update(zip(batch, model(batch), strict=True))
    return [answers[text] for text in inputs]


def gold_table(records: Iterable[Mapping[str, Any]]) -> dict[str, str]:
    """input text -> gold output, from example records."""
    return {" ".join(str(r["input"]).split()): str(r["output"]) for r in records}
