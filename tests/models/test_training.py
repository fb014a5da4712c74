"""The trainer and run directories: determinism, resume, schedules, early stopping, budgets,
save/load round trips."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest
import torch

from symcomp.models.run_dir import RunDir
from symcomp.models.runs import checkpoint_models, load_run, train_run
from symcomp.models.training.trainer import TrainConfig, lr_factor
from symcomp.models.zoo import resolve
from symcomp.suites.reading import read_test

TIMING = {
    "train_seconds",
    "train_cpu_seconds",
    "examples_per_second",
    "examples_per_cpu_second",
    "seconds",
}


def metrics(run: Path) -> list[dict[str, Any]]:
    rows = [json.loads(line) for line in (run / "metrics.jsonl").read_text().splitlines()]
    return [{k: v for k, v in row.items() if k not in TIMING} for row in rows]


def weights(run: Path, epoch: int) -> dict[str, torch.Tensor]:
    return torch.load(run / "checkpoints" / f"epoch-{epoch:03d}.pt")  # type: ignore[no-any-return]


def same_weights(a: dict[str, torch.Tensor], b: dict[str, torch.Tensor]) -> bool:
    return a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)


def train(suite: Path, out: Path, model: str, *sets: str, **kw: Any) -> dict[str, Any]:
    config = resolve(model, "tiny", ["dropout=0.1", "dev_limit=5", *sets])
    return train_run(read_test(suite / "task"), config, out, device="cpu", **kw)


def test_short_run_is_deterministic_under_a_seed(tiny_pcfg_suite: Path, tmp_path: Path) -> None:
    a = train(tiny_pcfg_suite, tmp_path / "a", "transformer", "epochs=2")
    b = train(tiny_pcfg_suite, tmp_path / "b", "transformer", "epochs=2")
    c = train(tiny_pcfg_suite, tmp_path / "c", "transformer", "epochs=2", "seed=1")
    assert metrics(tmp_path / "a") == metrics(tmp_path / "b")
    assert same_weights(weights(tmp_path / "a", 2), weights(tmp_path / "b", 2))
    assert not same_weights(weights(tmp_path / "a", 2), weights(tmp_path / "c", 2))
    assert a["test_accuracy"] == b["test_accuracy"] and c["epochs"] == 2
    assert (tmp_path / "a" / "predictions" / "test.tsv").read_text() == (
        tmp_path / "b" / "predictions" / "test.tsv"
    ).read_text()


def test_resume_continues_like_an_uninterrupted_run(tiny_pcfg_suite: Path, tmp_path: Path) -> None:
    train(tiny_pcfg_suite, tmp_path / "straight", "lstms2s", "epochs=3")
    train(tiny_pcfg_suite, tmp_path / "resumed", "lstms2s", "epochs=1")
    config = resolve("lstms2s", "tiny", ["dropout=0.1", "dev_limit=5", "epochs=3"])
    data = read_test(tiny_pcfg_suite / "task")
    train_run(data, config, tmp_path / "resumed", device="cpu", resume=True)
    assert RunDir(tmp_path / "resumed").epochs() == [1, 2, 3]
    assert metrics(tmp_path / "straight") == metrics(tmp_path / "resumed")
    assert same_weights(weights(tmp_path / "straight", 3), weights(tmp_path / "resumed", 3))


def test_saved_run_predicts_what_it_wrote(tiny_pcfg_suite: Path, tmp_path: Path) -> None:
    summary = train(tiny_pcfg_suite, tmp_path / "run", "convs2s", "epochs=2", "beam=3")
    rows = (tmp_path / "run" / "predictions" / "test.tsv").read_text().splitlines()
    assert rows[0] == "source\ttarget\tprediction"
    sources = [row.split("\t")[0] for row in rows[1:]]
    written = [row.split("\t")[2] for row in rows[1:]]
    model = load_run(tmp_path / "run")
    assert model.epoch == summary["best_epoch"]
    assert model.predict(sources) == written
    assert model.task.config.beam == 3
    profile = checkpoint_models(tmp_path / "run")
    assert len(profile) == 2
    assert profile[summary["best_epoch"] - 1](sources[:4]) == written[:4]


def test_early_stopping_and_time_budget(tiny_pcfg_suite: Path, tmp_path: Path) -> None:
    stopped = train(tiny_pcfg_suite, tmp_path / "a", "lstms2s", "epochs=6", "lr=0", "patience=2")
    assert stopped["epochs"] == 3 and stopped["best_epoch"] == 1  # nothing can improve with lr=0
    ticks = itertools.count()  # a clock that advances one second per reading, whatever the load
    out = tmp_path / "budget"
    summary = train(
        tiny_pcfg_suite, out, "lstms2s", "epochs=50", "max_minutes=0.05", clock=lambda: next(ticks)
    )
    # 3 s of budget: the epoch's start reading, then one reading per batch stops after batch 3
    assert summary["epochs"] == 1 and metrics(out)[0]["steps"] == 3


def test_accuracy_ties_go_to_the_lower_dev_loss(tiny_pcfg_suite: Path, tmp_path: Path) -> None:
    summary = train(tiny_pcfg_suite, tmp_path / "a", "lstms2s", "epochs=8", "patience=1")
    rows = metrics(tmp_path / "a")
    assert {r["dev_accuracy"] for r in rows} == {0.0}  # every epoch ties on accuracy
    losses = [r["dev_loss"] for r in rows]
    # patience 1: the run stops at the first epoch whose dev loss is not lower (not at epoch 2,
    # as a rule that only looked at accuracy would), and keeps the epoch before it
    assert all(a > b for a, b in itertools.pairwise(losses[:-1])) and losses[-1] >= losses[-2]
    assert summary["epochs"] == len(rows) > 2 and summary["best_epoch"] == len(rows) - 1


def test_schedules() -> None:
    noam = TrainConfig(schedule="noam", warmup=100, noam_dim=64)
    factors = [lr_factor(noam, step) for step in range(1, 400)]
    assert max(range(len(factors)), key=factors.__getitem__) == 99  # peak at the warm-up step
    assert factors[99] == pytest.approx(64**-0.5 * 100**-0.5)
    assert lr_factor(TrainConfig(schedule="warmup", warmup=4), 2) == 0.5
    assert lr_factor(TrainConfig(), 7) == 1.0
