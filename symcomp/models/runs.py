"""Run directories: train a model on one test of a suite, save it, load it back as a model.

Layout of ``RUN_DIR``::

    config.json        resolved configuration + the data it was trained on + environment
    vocab.json         vocabularies (source/target, or labels) and data-derived settings
    metrics.jsonl      one line per epoch (losses, accuracies, lr, examples/s, seconds)
    checkpoints/epoch-NNN.pt   the weights after every epoch (kept)
    resume.pt          optimiser, schedule and RNG state of the last epoch (for --resume)
    predictions/test.tsv       source<TAB>target<TAB>prediction for the test part (best epoch)
    summary.json       best epoch, test accuracy, wall time, throughput

A *run set* (``symcomp train SUITE`` without a test) is a folder with ``runs.json`` mapping each
test of the suite to the run trained on its split (tests with the same pool and split share a
run, e.g. PCFG SET's localism reuses the task run).
"""

from __future__ import annotations

import json
import logging
import platform
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import torch

from symcomp._util import Record
from symcomp.core.language import Language
from symcomp.data.artifacts import atomic_writer, read_json, write_json
from symcomp.data.parallel import Jobs, as_executor
from symcomp.data.safe_paths import check_name, confined
from symcomp.errors import DataError, OutputError
from symcomp.models.device import resolve_device, seeded
from symcomp.models.safe_load import load_torch_file
from symcomp.models.tasks import PAIR_SEPARATOR, Task, same, split_pair
from symcomp.models.trainer import CHECKPOINTS, RESUME, Progress, Trainer
from symcomp.models.trees import Node
from symcomp.models.vocab import Labels, Vocab, tokenize
from symcomp.models.zoo import RunConfig, build_task, on_device, same_weights, tree_parser
from symcomp.suites.format import TestEntry
from symcomp.suites.reading import Suite, SuiteTest
from symcomp.version import __version__

FORMAT = "symcomp-run"
log = logging.getLogger(__name__)
RUNSET = "runs.json"


def is_run(path: Path) -> bool:
    """True for a folder written by :func:`train_run`."""
    config = path / "config.json"
    if not config.is_file():
        return False
    try:
        return bool(json.loads(config.read_text(encoding="utf-8")).get("format") == FORMAT)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError, AttributeError):
        return False


def is_runset(path: Path) -> bool:
    return (path / RUNSET).is_file()


# -- training -----------------------------------------------------------------------------------


def vocabularies(
    config: RunConfig, train: Sequence[Record], parse: Callable[[str], Node] | None
) -> dict[str, Any]:
    """Vocabularies and data-derived settings from the training records."""
    if config.spec.kind == "seq2seq":
        targets = [tokenize(str(r["output"])) for r in train]
        longest = max((len(t) for t in targets), default=1)
        return {
            "source": Vocab.build(tokenize(str(r["input"])) for r in train).to_json(),
            "target": Vocab.build(targets).to_json(),
            "max_output": config.task.max_output or max(2 * longest, longest + 20) + 1,
        }
    pairs = bool(train) and all(
        ("premise" in r and "hypothesis" in r) or PAIR_SEPARATOR in str(r["input"]) for r in train
    )
    texts = [t for r in train for t in (split_pair(r) if pairs else (str(r["input"]),))]
    if parse is not None:
        source = Vocab.build(parse(text).labels() for text in texts)
    else:
        source = Vocab.build(tokenize(text) for text in texts)
    labels = Labels.build(str(r["output"]) for r in train)
    return {"source": source.to_json(), "labels": list(labels.names), "pairs": pairs}


def make_task(config: RunConfig, vocab: dict[str, Any], language: str | None) -> Task:
    """The task (model + vocabularies) of a configuration, initialised from its seed."""
    parse = None
    if config.spec.inputs == "trees":
        parse = tree_parser(_tree_language(language, config), config)
    with seeded(config.train.seed):
        task = build_task(config, vocab, parse)
    task.seed = config.train.seed
    return task


def _tree_language(language: str | None, config: RunConfig) -> Language:
    """The language whose parser gives a tree model its input trees."""
    from symcomp.core.registry import get_language

    if language is None:
        raise DataError(
            f"{config.model} reads parse trees of its inputs, and this suite is over an "
            f"imported pool with no language to parse them; train a sequence model (lstms2s, "
            f"transformer) or give the pool a language."
        )
    return get_language(language)


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
    config, note = on_device(config, where)
    if note:
        log.warning(note)
    _check_fits(config, data)
    _prepare(out, resume=resume, overwrite=overwrite)
    if resume:
        _check_resumable(out, config, data)
    parse = None
    if config.spec.inputs == "trees":
        parse = tree_parser(_tree_language(data.language, config), config)
    if resume:
        vocab = _read_json(out / "vocab.json")
    else:
        vocab = vocabularies(config, data.train, parse)
        write_json(out / "vocab.json", vocab)
        write_json(out / "config.json", _config_file(config, data, where, note))
    task = make_task(config, vocab, data.language)
    task.attach(data.train, data.dev)
    trainer = Trainer(config.train, task, out, where, progress, clock)
    if resume:
        trainer.load_resume()
    fitted = trainer.fit()
    started = time.perf_counter()
    answers = task.predict([str(r["input"]) for r in data.test])
    predict_seconds = time.perf_counter() - started
    write_predictions(out / "predictions" / "test.tsv", data.test, answers)
    rows = read_metrics(out)
    summary = {
        **fitted,
        "test": data.name,
        "test_examples": len(data.test),
        "test_accuracy": _accuracy(answers, data.test),
        "dev_accuracy": _best_row(rows, fitted["best_epoch"]).get("dev_accuracy"),
        "train_seconds": round(sum(r["train_seconds"] for r in rows), 1),
        "train_cpu_seconds": round(sum(r["train_cpu_seconds"] for r in rows), 1),
        "predict_seconds": round(predict_seconds, 1),
        "train_examples_per_second": _mean([r["examples_per_second"] for r in rows]),
        "train_examples_per_cpu_second": _mean([r["examples_per_cpu_second"] for r in rows]),
        "predict_examples_per_second": round(len(data.test) / max(predict_seconds, 1e-9), 1),
        "device": str(where),
        "threads": torch.get_num_threads(),
    }
    write_json(out / "summary.json", summary)
    return summary


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


def _check_resumable(out: Path, config: RunConfig, data: SuiteTest) -> None:
    """A run continues only with its own model, on its own data, from a saved epoch."""
    saved = run_config(out)
    if saved.get("model") != config.model or not same_weights(
        dict(saved.get("model_config") or {}), config.model_config
    ):
        raise DataError(
            f"{out} is a run of {saved.get('model')!r} with other model settings; `resume` "
            f"continues a run with the model it was started with ({config.model!r} given)."
        )
    if not _trained_on(saved, lambda: data.training_digest, lambda: data.digest):
        raise DataError(
            f"{out} was trained on other data (pool, train and dev sha256 differ from test "
            f"{data.name!r}); resume it on the test it was started on."
        )
    if not (out / RESUME).is_file():
        raise DataError(f"{out} has no saved epoch to resume from; train it anew (`overwrite`).")


def run_progress(out: Path) -> str:
    """``finished``, ``partial`` (an epoch saved), ``started`` (nothing saved) or ``new``."""
    if not is_run(out):
        return "new"
    if (out / "summary.json").is_file():
        return "finished"
    return "partial" if (out / RESUME).is_file() else "started"


def _prepare(out: Path, *, resume: bool, overwrite: bool) -> None:
    if resume:
        if not is_run(out):
            raise OutputError(f"`resume`: {out} is not a run directory.")
        return
    if out.exists() and not out.is_dir():
        raise OutputError(f"`out` {out} is a file; give a folder.")
    if out.exists() and any(out.iterdir()):
        ours = run_files(out) if is_run(out) else runset_files(out) if is_runset(out) else None
        foreign = sorted(
            p.relative_to(out).as_posix() for p in _entries(out) if ours is None or p not in ours
        )
        if foreign:
            raise OutputError(
                f"{out} holds files a symcomp run did not write ({', '.join(foreign[:5])}); "
                f"symcomp never replaces files it did not write. Choose another `out`."
            )
        if not overwrite:
            raise OutputError(f"{out} is not empty; use `overwrite`, `resume` or another `out`.")
        assert ours is not None
        _remove(ours)
    out.mkdir(parents=True, exist_ok=True)


# What a run writes: these names at its top level, and in checkpoints/ and predictions/ only
# files named like its own (temporary files of an interrupted write included).
_RUN_FILES = frozenset({"config.json", "vocab.json", "metrics.jsonl", "resume.pt", "summary.json"})
_RUN_FOLDERS = {
    CHECKPOINTS: re.compile(r"epoch-\d+\.pt(\.partial)?"),
    "predictions": re.compile(r"[\w.-]+\.tsv"),
}
_TEMPORARY = re.compile(r"\..+\.tmp|.+\.partial")


def _entries(folder: Path) -> list[Path]:
    """Every file, link and folder under ``folder`` (links not followed)."""
    return sorted(folder.rglob("*"))


def run_files(run: Path) -> set[Path]:
    """The files and folders under ``run`` that training wrote (nothing a user added)."""
    ours = set()
    for path in run.iterdir():
        name = path.name
        if path.is_symlink():
            continue
        if path.is_file() and (name in _RUN_FILES or _TEMPORARY.fullmatch(name)):
            ours.add(path)
        elif path.is_dir() and name in _RUN_FOLDERS:
            inside = [
                p for p in path.iterdir()
                if p.is_file() and not p.is_symlink()
                and (_RUN_FOLDERS[name].fullmatch(p.name) or _TEMPORARY.fullmatch(p.name))
            ]  # fmt: skip
            ours.update(inside)
            if len(inside) == len(list(path.iterdir())):
                ours.add(path)
    return ours


def runset_files(runset: Path) -> set[Path]:
    """The files of a run set: its index and the runs it names."""
    ours = {runset / RUNSET}
    for name in set(read_runset(runset).values()):
        run = runset / name
        if is_run(run):
            ours |= run_files(run)
            if all(p in ours for p in _entries(run)):
                ours.add(run)
    return ours


def _remove(paths: set[Path]) -> None:
    """Delete the given files, then the given folders (deepest first), nothing else."""
    for path in sorted(paths, key=lambda p: len(p.parts), reverse=True):
        if path.is_dir() and not path.is_symlink():
            path.rmdir()  # empty by now: everything in it was in ``paths``
        else:
            path.unlink(missing_ok=True)


def _config_file(
    config: RunConfig, data: SuiteTest, device: torch.device, note: str | None
) -> dict[str, Any]:
    return {
        "format": FORMAT,
        **config.to_json(),
        "data": {
            "suite": str(data.suite),
            "test": data.name,
            "kind": data.kind,
            "language": data.language,
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


def write_predictions(path: Path, records: Sequence[Record], answers: Sequence[str]) -> None:
    """The metrics module's TSV layout: a header, then source, target, prediction."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_writer(path) as handle:
        handle.write("source\ttarget\tprediction\n")
        for record, answer in zip(records, answers, strict=True):
            source = " ".join(str(record["input"]).split())
            handle.write(f"{source}\t{record['output']}\t{answer}\n")


def read_metrics(run: Path) -> list[dict[str, Any]]:
    path = run / "metrics.jsonl"
    if not path.is_file():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def _best_row(rows: Sequence[dict[str, Any]], epoch: int) -> dict[str, Any]:
    return next((r for r in rows if r["epoch"] == epoch), {})


def _accuracy(answers: Sequence[str], records: Sequence[Record]) -> float | None:
    if not records:
        return None
    return sum(same(a, str(r["output"])) for a, r in zip(answers, records, strict=True)) / len(
        records
    )


def _mean(values: Sequence[float]) -> float | None:
    return round(sum(values) / len(values), 1) if values else None


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


def run_config(path: Path) -> dict[str, Any]:
    if not is_run(path):
        raise DataError(f"{path} is not a symcomp run directory (no config.json from train).")
    return _read_json(path / "config.json")


def epochs(path: Path) -> list[int]:
    """The epochs with saved weights, in order."""
    found = (_EPOCH.fullmatch(f.name) for f in (path / CHECKPOINTS).glob("epoch-*.pt"))
    return sorted(int(match.group(1)) for match in found if match)


_EPOCH = re.compile(r"epoch-(\d+)\.pt")


def best_epoch(path: Path) -> int:
    summary = path / "summary.json"
    if summary.is_file():
        best = _read_json(summary).get("best_epoch")
        if not isinstance(best, int) or isinstance(best, bool):
            raise DataError(f"{summary}: best_epoch must be an integer; train the run again.")
        return best
    saved = epochs(path)
    if not saved:
        raise DataError(f"{path} has no checkpoints yet.")
    return saved[-1]


def load_run(path: Path, epoch: int | None = None, device: str = "auto") -> RunModel:
    """The model of a run at ``epoch`` (default: the best epoch), on ``device`` (auto: CUDA
    when present)."""
    data = run_config(path)
    try:
        config = RunConfig.from_json(data)
        named = data["data"]["language"]
        language = None if named is None else str(named)
    except (KeyError, TypeError, ValueError) as error:
        raise DataError(
            f"{path / 'config.json'}: not a run configuration symcomp can read ({error}); "
            f"train the run again."
        ) from None
    vocab_file = path / "vocab.json"
    if not vocab_file.is_file():
        raise DataError(f"{path}: vocab.json is missing; the run is incomplete: train it again.")
    vocab = _read_json(vocab_file)
    where = resolve_device(device)
    config, note = on_device(config, where)
    if note:
        log.warning(note)
    try:
        task = make_task(config, vocab, language)
    except (KeyError, TypeError, ValueError) as error:
        raise DataError(
            f"{vocab_file}: does not fit the run's configuration ({type(error).__name__}: "
            f"{error}); train the run again."
        ) from None
    chosen = best_epoch(path) if epoch is None else epoch
    weights = path / CHECKPOINTS / f"epoch-{chosen:03d}.pt"
    if not weights.is_file():
        raise DataError(f"{path}: no checkpoint for epoch {chosen} ({weights}).")
    state = load_torch_file(weights, "cpu")  # the module is moved to `where` below
    try:
        task.module.load_state_dict(state)
    except (RuntimeError, TypeError, AttributeError) as error:
        first = str(error).splitlines()[0]
        raise DataError(
            f"{weights}: the weights do not fit the model in config.json ({first}); train the "
            f"run again."
        ) from None
    task.module.to(where).eval()
    return RunModel(path, chosen, task)


def _read_json(path: Path) -> dict[str, Any]:
    """A JSON object from a run folder (a clear error when it is not one)."""
    return read_json(path, fix="Train the run again.")


def checkpoint_models(path: Path, device: str = "auto") -> list[Callable[[list[str]], list[str]]]:
    """One model per saved epoch, loaded when first asked (overgeneralisation profiles)."""

    def lazy(epoch: int) -> Callable[[list[str]], list[str]]:
        loaded: list[RunModel] = []

        def predict(inputs: list[str]) -> list[str]:
            if not loaded:
                loaded.append(load_run(path, epoch, device))
            return loaded[0].predict(inputs)

        return predict

    return [lazy(epoch) for epoch in epochs(path)]


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


def write_runset(out: Path, suite: Path, plan: dict[str, str]) -> None:
    write_json(
        out / RUNSET,
        {"format": "symcomp-runs", "suite": str(suite), "runs": plan},
    )


def read_runset(path: Path) -> dict[str, str]:
    """test -> run folder name, from a run set's index (every name checked)."""
    source = str(path / RUNSET)
    runs = _read_json(path / RUNSET).get("runs")
    if not isinstance(runs, dict):
        raise DataError(f"{source}: 'runs' must map tests to run folders.")
    found = {}
    for test, run in runs.items():
        check_name(test, what="test name", source=source, nested=True)
        check_name(run, what="run folder name", source=source, nested=True)
        confined(path, run, what="run folder name", source=source)  # no link out of the set
        found[test] = run
    return found


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
    """One run per distinct split of ``suite`` into ``out/<test>``, indexed by ``out/runs.json``.

    The index is written first, so an interrupted run set is a run set: ``resume`` keeps the
    finished runs, continues a partial one from its last epoch and trains the rest;
    ``overwrite`` replaces a run set symcomp wrote. ``jobs`` runs the runs (local: one after
    the other; a Ray executor: in parallel, on GPUs when the cluster has them).
    ``progress(test)`` may return a per-step callback for that test's run (local only)."""
    folder = Suite.read(suite)
    plan = suite_plan(folder)
    _prepare_runset(out, overwrite=overwrite, resume=resume)
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
    out = Path(unit.out)
    state = run_progress(out)
    if state == "finished":
        return _read_json(out / "summary.json")
    data = Suite.read(Path(unit.suite)).test(unit.test)
    config = RunConfig.from_json(unit.config)
    return train_run(
        data,
        config,
        out,
        device=unit.device,
        resume=state == "partial",
        overwrite=state == "started",  # a run that saved nothing starts again
        progress=progress,
    )


def _prepare_runset(out: Path, *, overwrite: bool, resume: bool) -> None:
    if out.exists() and any(out.iterdir()) and not resume:
        if not is_runset(out):
            _prepare(out, resume=False, overwrite=overwrite)  # names foreign files, if any
            return
        if not overwrite:
            raise OutputError(
                f"{out} holds a run set; pass `resume` to continue it (finished runs are kept) "
                f"or `overwrite` to train it anew, or choose another `out`."
            )
        _prepare(out, resume=False, overwrite=True)
    if resume and out.exists() and any(out.iterdir()) and not is_runset(out):
        raise OutputError(f"`resume`: {out} is not a run set.")
    out.mkdir(parents=True, exist_ok=True)


def runs_for_tests(path: Path, suite: Suite) -> dict[str, Path | None]:
    """For every test of ``suite``: the run to score it with, or None.

    A run set maps tests to runs; a single run serves the tests whose pool and split are the
    ones it was trained on (e.g. a PCFG SET task run also serves localism), and, when trained on
    the suite's first test, the tests without a training part (PCFG SET's per_function)."""
    if is_runset(path):
        runs = read_runset(path)
        found = {test: path / runs[test] if test in runs else None for test in suite.tests}
        return {
            t: p if p is not None and run_progress(p) == "finished" else None
            for t, p in found.items()
        }
    saved = run_config(path)
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
