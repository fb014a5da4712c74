"""Models as symcomp sees them: anything that maps a batch of inputs to predictions.

A model is a callable ``list[str] -> list[str]`` or an object with such a ``predict`` method;
users plug in their own (``--model my_module:predict`` or ``--model path/to/file.py:model``).
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

import importlib
import importlib.util
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from symcomp.core.language import Language
from symcomp.errors import DataError, SymcompError
from symcomp.metrics.predictions import Predictions

Model = Callable[[list[str]], list[str]]
BUILTIN = ("oracle", "copy-strings", "copy-input", "random-guess", "constant-mean")


@dataclass(frozen=True)
class ModelContext:
    """What a model factory may use for one test: the language, the test's gold outputs by
    input (for the oracle) and its training records (for baselines fit on training data)."""

    language: Language
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
    """Wrap a model so a wrong number or type of predictions is a clear error."""

    def predict(inputs: list[str]) -> list[str]:
        outputs = list(model(list(inputs)))
        if len(outputs) != len(inputs):
            raise SymcompError(
                f"{name} returned {len(outputs)} predictions for {len(inputs)} "
                f"inputs; return one per input."
            )
        if not all(isinstance(output, str) for output in outputs):
            raise SymcompError(f"{name} must return strings.")
        return outputs

    return predict


def oracle(language: Language, gold: Mapping[str, str]) -> Model:
    """Gold outputs by input text, else the interpretation of the input."""

    def predict(inputs: list[str]) -> list[str]:
        return [gold.get(" ".join(text.split())) or language.interpret(text) for text in inputs]

    return predict


def copy_strings(language: Language) -> Model:
    """The input's non-function tokens (PCFG SET: its symbols in order)."""
    functions = set(language.functions or ())

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


def from_predictions(predictions: Predictions) -> Model:
    """A model that looks its answers up in prediction files (None when missing)."""

    def predict(inputs: list[str]) -> list[str]:
        found = []
        for text in inputs:
            prediction = predictions.by_source.get(" ".join(text.split()))
            if prediction is None:
                raise DataError(f"{predictions.origin}: no prediction for input {text!r}.")
            found.append(prediction)
        return found

    return predict


def load_model(spec: str, context: ModelContext) -> Model:
    """Resolve ``--model``: a built-in name, a run directory (``symcomp train --out``),
    ``module:attribute`` or ``file.py:attribute``."""
    if spec == "oracle":
        return oracle(context.language, context.gold)
    if spec == "copy-strings":
        return copy_strings(context.language)
    if spec == "copy-input":
        return copy_input
    if spec == "random-guess":
        return random_guess
    if spec == "constant-mean":
        return constant_mean(context.train)
    if Path(spec).is_dir():
        return load_run_model(Path(spec))
    location, _, attribute = spec.rpartition(":")
    if not location or not attribute:
        raise SymcompError(
            f"unknown model {spec!r}; use one of {', '.join(BUILTIN)}, module:attribute or "
            f"path/to/file.py:attribute (a callable list[str] -> list[str] or an object with "
            f"predict)."
        )
    module = _import(location)
    if not hasattr(module, attribute):
        raise SymcompError(f"{location} has no attribute {attribute!r} (from --model {spec}).")
    return checked(as_model(getattr(module, attribute), spec), spec)


def load_run_model(path: Path, epoch: int | None = None) -> Model:
    """The model of a run directory written by ``symcomp train`` (best epoch by default)."""
    try:
        from symcomp.models.runs import is_run, load_run
    except ImportError as error:
        raise SymcompError(
            f"{path} is a folder: a trained run needs the models extra "
            f"(pip install 'symcomp[models]'); {error}."
        ) from None
    if not is_run(path):
        raise SymcompError(f"{path} is a folder but not a run written by symcomp train.")
    return checked(as_model(load_run(path, epoch)), str(path))


def _import(location: str) -> Any:
    try:
        if location.endswith(".py"):
            path = Path(location)
            module_spec = importlib.util.spec_from_file_location(f"symcomp_model_{path.stem}", path)
            if module_spec is None or module_spec.loader is None or not path.is_file():
                raise ImportError(f"no such file {location}")
            module = importlib.util.module_from_spec(module_spec)
            module_spec.loader.exec_module(module)
            return module
        return importlib.import_module(location)
    except (ImportError, OSError, SyntaxError) as error:
        raise SymcompError(f"cannot load model from {location!r}: {error}.") from None


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
