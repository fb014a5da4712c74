"""Runs: train a model on one test of a suite into a run folder, load it back as a model, and
train a run set (one run per distinct split of a suite).

What a run folder holds, and every name in it, is :class:`~symcomp.models.run_dir.RunDir`'s;
run sets and output folders are :mod:`symcomp.models.runsets`'; the configuration, the
vocabularies and the task are :mod:`symcomp.models.zoo`'s. This module puts them together.
"""

from __future__ import annotations

import logging
import platform
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import torch

from symcomp._util import Record
from symcomp.data.parallel import Jobs, as_executor
from symcomp.errors import DataError
from symcomp.models.run_dir import RunDir
from symcomp.models.runsets import is_runset, prepare, prepare_runset, read_runset, write_runset
from symcomp.models.training.device import resolve_device
from symcomp.models.training.tasks import Task, same
from symcomp.models.training.trainer import Progress, Trainer
from symcomp.models.zoo import (
    RunConfig,
    build_task,
    input_parser,
    on_device,
    same_weights,
    vocabularies,
)
from symcomp.suites.format import TestEntry
from symcomp.suites.reading import Suite, SuiteTest
from symcomp.version import __version__

log = logging.getLogger(__name__)

# -- training -----------------------------------------------------------------------------------


def train_run(
    data: SuiteTest,
    config: RunConfig,
    out: Path,
    *,
    device: str = "auto",
    resume: bool = False,
    overwrite: bool = False,
    progress: Callable[[Progress], None] | None = None,
    clock: Callable[[], float] | None = None,
) -> dict[str, Any]:
    """Train ``config`` on ``data`` (a test of a suite) into ``out``; return the summary.

    ``clock`` replaces the time budget's clock (seconds; tests pass a fake one)."""
    where = resolve_device(device)
    config, note = _usable_on(config, where)
    run = RunDir(out)
    _check_fits(config, data)
    prepare(out, resume=resume, overwrite=overwrite)
    if resume:
        _check_resumable(run, config, data)
    parse = input_parser(config, data.language_entry(), str(data.suite))
    if resume:
        vocab = run.vocab()
    else:
        vocab = vocabularies(config, data.train, parse)
        run.write_vocab(vocab)
        run.write_config(_saved_config(config, data, where, note))
    task = build_task(config, vocab, parse)
    task.attach(data.train, data.dev)
    trainer = Trainer(config.train, task, run, where, progress, clock)
    if resume:
        trainer.load_resume()
    fitted = trainer.fit()
    started = time.perf_counter()
    answers = task.predict([str(r["input"]) for r in data.test])
    predict_seconds = time.perf_counter() - started
    run.write_predictions("test", data.test, answers)
    summary = {
        **fitted,
        "test": data.name,
        "test_examples": len(data.test),
        "test_accuracy": _accuracy(answers, data.test),
        **_throughput(run.metrics(), fitted["best_epoch"], len(data.test), predict_seconds),
        "device": str(where),
        "threads": torch.get_num_threads(),
    }
    run.write_summary(summary)
    return summary


def _throughput(
    rows: Sequence[dict[str, Any]], best_epoch: int, tested: int, predict_seconds: float
) -> dict[str, Any]:
    """The summary's numbers from the epochs' metrics and the time predictions took."""
    best = next((r for r in rows if r["epoch"] == best_epoch), {})
    return {
        "dev_accuracy": best.get("dev_accuracy"),
        "train_seconds": round(sum(r["train_seconds"] for r in rows), 1),
        "train_cpu_seconds": round(sum(r["train_cpu_seconds"] for r in rows), 1),
        "predict_seconds": round(predict_seconds, 1),
        "train_examples_per_second": _mean([r["examples_per_second"] for r in rows]),
        "train_examples_per_cpu_second": _mean([r["examples_per_cpu_second"] for r in rows]),
        "predict_examples_per_second": round(tested / max(predict_seconds, 1e-9), 1),
    }


def _check_fits(config: RunConfig, data: SuiteTest) -> None:
    """An encoder classifies, so every output of its training data must be one label."""
    if not data.train:
        raise DataError(f"test {data.name!r} has no training examples to train on.")
    if config.spec.kind != "encoder":
        return
    sequence = next((r for r in data.train if len(str(r["output"]).split()) > 1), None)
    if sequence is not None:
        raise DataError(
            f"{config.model} is a classifier (one label per input), but test {data.name!r} "
            f"has sequence outputs (e.g. {str(sequence['output'])[:60]!r}); train a "
            f"sequence-to-sequence model (transformer, universal, lstms2s, convs2s)."
        )


def _check_resumable(run: RunDir, config: RunConfig, data: SuiteTest) -> None:
    """A run continues only with its own model, on its own data, from a saved epoch."""
    saved = run.config()
    if saved.get("model") != config.model or not same_weights(
        dict(saved.get("model_config") or {}), config.model_config
    ):
        raise DataError(
            f"{run.path} is a run of {saved.get('model')!r} with other model settings; `resume` "
            f"continues a run with the model it was started with ({config.model!r} given)."
        )
    if not _trained_on(saved, lambda: data.training_digest, lambda: data.digest):
        raise DataError(
            f"{run.path} was trained on other data (pool, train and dev sha256 differ from test "
            f"{data.name!r}); resume it on the test it was started on."
        )
    if not run.can_resume():
        raise DataError(
            f"{run.path} has no saved epoch to resume from; train it anew (`overwrite`)."
        )
    run.check_resumable("Train it anew (`overwrite`).")  # before its metrics are rewritten


def _usable_on(config: RunConfig, where: torch.device) -> tuple[RunConfig, str | None]:
    """:func:`on_device`, with its note (a replaced setting) told as a warning."""
    config, note = on_device(config, where)
    if note:
        log.warning(note)
    return config, note


def _saved_config(
    config: RunConfig, data: SuiteTest, device: torch.device, note: str | None
) -> dict[str, Any]:
    """What a run records of itself: its configuration, its data and its environment."""
    return {
        **config.to_json(),
        "data": {
            "suite": str(data.suite),
            "test": data.name,
            "kind": data.kind,
            "language": data.language,
            "fresh_words": data.fresh_words,
            "sizes": {"train": len(data.train), "dev": len(data.dev), "test": len(data.test)},
            "split_sha256": data.digest,
            "training_sha256": data.training_digest,
        },
        "environment": {
            "symcomp": __version__,
            "torch": torch.__version__,
            "python": platform.python_version(),
            "device": str(device),
            "notes": [note] if note else [],
        },
    }


def _accuracy(answers: Sequence[str], records: Sequence[Record]) -> float | None:
    if not records:
        return None
    right = sum(same(a, str(r["output"])) for a, r in zip(answers, records, strict=True))
    return right / len(records)


def _mean(values: Sequence[float]) -> float | None:
    return round(sum(values) / len(values), 1) if values else None


def run_progress(path: Path) -> str:
    """``finished``, ``partial`` (an epoch saved), ``started`` (nothing saved) or ``new``."""
    return RunDir(path).progress()


def read_metrics(path: Path) -> list[dict[str, Any]]:
    """The metrics of a run, one row per finished epoch."""
    return RunDir(path).metrics()


# -- loading ------------------------------------------------------------------------------------


@dataclass
class RunModel:
    """A trained run as a symcomp model: ``predict(list[str]) -> list[str]``."""

    path: Path
    epoch: int
    task: Task

    def predict(self, inputs: list[str]) -> list[str]:
        return self.task.predict(list(inputs))

    def __call__(self, inputs: list[str]) -> list[str]:
        return self.predict(inputs)


def load_run(path: Path, epoch: int | None = None, device: str = "auto") -> RunModel:
    """The model of a run at ``epoch`` (default: the best epoch), on ``device`` (auto: CUDA
    when present).

    One pass: the run folder's files, then the configuration and the task they describe,
    then the saved weights put into the task's network."""
    run = RunDir(path)
    saved, vocab = run.config(), run.vocab()
    chosen = run.best_epoch() if epoch is None else epoch
    where = resolve_device(device)
    weights = run.weights(chosen, "cpu")  # the module moves to `where` below
    try:
        config = RunConfig.from_json(saved)
        language = {key: saved["data"].get(key) for key in ("language", "fresh_words")}
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise DataError(
            f"{run.config_file}: not a run configuration symcomp can read ({error}); "
            f"train the run again."
        ) from None
    config, _note = _usable_on(config, where)
    try:
        task = build_task(config, vocab, input_parser(config, language, str(run.config_file)))
    except (KeyError, TypeError, ValueError) as error:
        raise DataError(
            f"{run.vocab_file}: does not fit the run's configuration ({type(error).__name__}: "
            f"{error}); train the run again."
        ) from None
    try:
        task.module.load_state_dict(weights)
    except (RuntimeError, TypeError, AttributeError) as error:
        raise DataError(
            f"{run.weights_file(chosen)}: the weights do not fit the model of "
            f"{run.config_file} ({str(error).splitlines()[0]}); train the run again."
        ) from None
    task.module.to(where).eval()
    return RunModel(path, chosen, task)


def checkpoint_models(path: Path, device: str = "auto") -> list[Callable[[list[str]], list[str]]]:
    """One model per saved epoch, loaded when first asked (overgeneralisation profiles)."""

    def lazy(epoch: int) -> Callable[[list[str]], list[str]]:
        loaded: list[RunModel] = []

        def predict(inputs: list[str]) -> list[str]:
            if not loaded:
                loaded.append(load_run(path, epoch, device))
            return loaded[0].predict(inputs)

        return predict

    return [lazy(epoch) for epoch in RunDir(path).epochs()]


# -- run sets (one run per test of a suite) ------------------------------------------------


def suite_plan(suite: Suite) -> dict[str, str]:
    """test -> the test whose run serves it (itself, or an earlier one with the same data)."""
    first = next(iter(suite.tests), "")
    seen: dict[str, str] = {}
    plan = {}
    for name, entry in suite.tests.items():
        if _test_only(entry):  # e.g. PCFG SET per_function: scored with the first test's model
            plan[name] = first
        else:
            plan[name] = seen.setdefault(suite.training_digest(name), name)
    return plan


def _test_only(entry: TestEntry) -> bool:
    return entry.sizes.get("train", 1) == 0


def train_suite(
    suite: Path,
    config: RunConfig,
    out: Path,
    *,
    device: str = "auto",
    overwrite: bool = False,
    resume: bool = False,
    jobs: Jobs = 1,
    progress: Callable[[str], Callable[[Progress], None] | None] | None = None,
) -> dict[str, dict[str, Any]]:
    """One run per distinct split of ``suite`` into ``out/<test>``, indexed by a run set.

    The index is written first, so an interrupted run set is a run set: ``resume`` keeps the
    finished runs, continues a partial one from its last epoch and trains the rest;
    ``overwrite`` replaces a run set symcomp wrote. ``jobs`` runs the runs (local: one after
    the other; a Ray executor: in parallel, on GPUs when the cluster has them).
    ``progress(test)`` may return a per-step callback for that test's run (local only)."""
    folder = Suite.read(suite)
    plan = suite_plan(folder)
    prepare_runset(out, overwrite=overwrite, resume=resume)
    write_runset(out, folder.root, plan)
    units = [
        _Unit(str(folder.root), test, config.to_json(), str(out / test), device)
        for test, source in plan.items()
        if source == test
    ]
    executor = as_executor(jobs)
    if executor.in_process:
        return {u.test: _train_unit(u, progress(u.test) if progress else None) for u in units}
    gpus = 0.0 if device == "cpu" else 1.0
    return dict(
        zip((u.test for u in units), executor.run(_train_unit, units, gpus=gpus), strict=True)
    )


@dataclass(frozen=True)
class _Unit:
    """One run of a run set: a pure function of these (plus the files it reads)."""

    suite: str
    test: str
    config: dict[str, Any]
    out: str
    device: str


def _train_unit(unit: _Unit, progress: Callable[[Progress], None] | None = None) -> dict[str, Any]:
    """Train (or finish, or keep) one run of a run set; return its summary."""
    run = RunDir(Path(unit.out))
    state = run.progress()
    if state == "finished":
        return run.summary()
    data = Suite.read(Path(unit.suite)).test(unit.test)
    config = RunConfig.from_json(unit.config)
    return train_run(
        data,
        config,
        run.path,
        device=unit.device,
        resume=state == "partial",
        overwrite=state == "started",  # a run that saved nothing starts again
        progress=progress,
    )


def runs_for_tests(path: Path, suite: Suite) -> dict[str, Path | None]:
    """For every test of ``suite``: the run to score it with, or None.

    A run set maps tests to runs; a single run serves the tests whose pool and split are the
    ones it was trained on (e.g. a PCFG SET task run also serves localism), and, when trained on
    the suite's first test, the tests without a training part (PCFG SET's per_function)."""
    if is_runset(path):
        runs = read_runset(path)
        found = {test: path / runs[test] if test in runs else None for test in suite.tests}
        return {
            t: p if p is not None and RunDir(p).progress() == "finished" else None
            for t, p in found.items()
        }
    saved = RunDir(path).config()
    served = {
        t: _trained_on(saved, partial(suite.training_digest, t), partial(suite.digest, t))
        for t in suite.tests
    }
    first = next(iter(suite.tests), "")
    serves_first = served.get(first, False)
    return {
        t: path if served[t] or (_test_only(e) and serves_first) else None
        for t, e in suite.tests.items()
    }


def _trained_on(
    saved: dict[str, Any], training_digest: Callable[[], str], digest: Callable[[], str]
) -> bool:
    """Whether a run's saved configuration says it was trained on this pool, train and dev
    (the digests are computed only when needed).

    Runs written before ``training_sha256`` existed are matched on the whole split file."""
    data = saved.get("data", {})
    if "training_sha256" in data:
        return bool(data["training_sha256"] == training_digest())
    return bool(data.get("split_sha256") == digest())
