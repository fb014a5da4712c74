"""Resolving a model name (``symcomp evaluate --model SPEC``) to a model.

A name is a built-in model of :mod:`symcomp.metrics.model_interface`, a run directory written by
``symcomp train`` (loaded with torch, imported only then), ``module:attribute`` or
``path/to/file.py:attribute`` (a callable ``list[str] -> list[str]`` or an object with
``predict``). Loading a file runs its code: name only files you trust.

>>> from symcomp.core.registry import get_language
>>> from symcomp.metrics.model_interface import ModelContext
>>> model = load_model("copy-input", ModelContext(get_language("scan")))
>>> model(["walk twice"])
['walk twice']
"""

from __future__ import annotations

import importlib
import importlib.util
from pathlib import Path
from typing import Any

from symcomp.errors import SymcompError
from symcomp.metrics.model_interface import (
    BUILTIN,
    Model,
    ModelContext,
    as_model,
    checked,
    constant_mean,
    copy_input,
    copy_strings,
    oracle,
    random_guess,
)


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
        raise SymcompError(f"{location} has no attribute {attribute!r} (from model {spec!r}).")
    return checked(as_model(getattr(module, attribute), spec), spec)


def load_run_model(path: Path, epoch: int | None = None, device: str = "auto") -> Model:
    """The model of a run directory written by ``symcomp train`` (best epoch by default), on
    ``device`` (auto: CUDA when present)."""
    try:
        from symcomp.models.run_dir import RunDir
        from symcomp.models.runs import load_run
    except ImportError as error:
        raise SymcompError(
            f"{path} is a folder: a trained run needs the models extra "
            f"(pip install 'symcomp[models]'); {error}."
        ) from None
    if not RunDir(path).is_run():
        raise SymcompError(f"{path} is a folder but not a run written by symcomp train.")
    return checked(as_model(load_run(path, epoch, device)), str(path))


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
