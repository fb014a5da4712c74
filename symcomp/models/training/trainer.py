"""A trainer that knows nothing about models.

It drives any :class:`Objective`: a module, batches per epoch, a loss per batch and a dev
validation. It owns the optimiser (Adam, AdamW, SGD with optional Nesterov momentum), the
learning-rate schedule (constant, linear warm-up, or the Transformer's "noam" warm-up), gradient
clipping, mixed precision on CUDA, early stopping on a dev metric, a time budget, the weights
of every epoch (all kept: overgeneralisation profiles read them) and a resume state. Where
these go is the run folder's business (:class:`~symcomp.models.run_dir.RunDir`): the trainer
knows no file names.

Seeding: everything random (initialisation happens before, under :func:`seeded`; dropout; batch
order, from (seed, epoch)) comes from torch generators seeded inside :func:`seeded` and the
task's seed, so a run on CPU is deterministic, and a resumed run continues as the
uninterrupted one would have (the RNG state is saved with the resume file).
"""

from __future__ import annotations

import json
import logging
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal, Protocol

import torch
from torch import nn

from symcomp.errors import DataError, SymcompError
from symcomp.models.run_dir import RunDir
from symcomp.models.training.device import amp_dtype, autocast, seeded

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class TrainConfig:
    optimizer: Literal["adam", "adamw", "sgd"] = "adam"
    lr: float = 1e-3
    beta1: float = 0.9
    beta2: float = 0.999
    weight_decay: float = 0.0
    momentum: float = 0.0  # sgd
    nesterov: bool = False  # sgd
    schedule: Literal["constant", "warmup", "rsqrt", "noam", "polynomial"] = "constant"
    warmup: int = 0  # steps
    decay_steps: int = 0  # polynomial: steps to decay over (0: all steps of all epochs)
    noam_dim: int = 512  # noam: lr * dim^-0.5 * min(step^-0.5, step * warmup^-1.5)
    clip: float = 5.0  # max gradient norm (0: none)
    epochs: int = 20
    patience: int = 0  # stop after this many epochs without dev improvement (0: never)
    dev_metric: Literal["dev_accuracy", "dev_loss"] = "dev_accuracy"
    max_minutes: float = 0.0  # stop (after validating) when training took this long (0: no limit)
    budget_clock: Literal["wall", "cpu"] = "wall"  # cpu: this process's CPU time (contention-proof)
    seed: int = 0
    amp: Literal["auto", "on", "off"] = "auto"  # mixed precision, CUDA only
    threads: int = 0  # torch.set_num_threads (0: leave as is)
    compile: bool = False  # torch.compile the module's training forward (see benchmarks)


class Objective(Protocol):
    """What the trainer needs from a task."""

    module: nn.Module

    def train_batches(self, epoch: int) -> Sequence[Any]: ...

    def loss(self, batch: Any) -> tuple[torch.Tensor, dict[str, torch.Tensor | float]]:
        """The batch's mean loss and its ``correct`` (a tensor: no host sync) and ``count``."""
        ...

    def validate(self) -> dict[str, float]: ...


@dataclass(frozen=True)
class Progress:
    """Reported after every optimisation step."""

    epoch: int
    step: int  # within the epoch, 1-based
    steps: int  # in this epoch
    loss: float  # running mean over the epoch
    accuracy: float  # running share of correct predictions (the task's own notion)


def make_optimizer(config: TrainConfig, parameters: Any) -> torch.optim.Optimizer:
    betas = (config.beta1, config.beta2)
    if config.optimizer == "adam":
        return torch.optim.Adam(parameters, config.lr, betas, weight_decay=config.weight_decay)
    if config.optimizer == "adamw":
        return torch.optim.AdamW(parameters, config.lr, betas, weight_decay=config.weight_decay)
    if config.optimizer == "sgd":
        return torch.optim.SGD(
            parameters,
            config.lr,
            momentum=config.momentum,
            nesterov=config.nesterov,
            weight_decay=config.weight_decay,
        )
    raise SymcompError(f"unknown optimizer {config.optimizer!r}; use adam, adamw or sgd.")


def lr_factor(config: TrainConfig, step: int) -> float:
    """Multiplier of ``config.lr`` at optimisation step ``step`` (1-based).

    >>> lr_factor(TrainConfig(schedule="warmup", warmup=10), 5)
    0.5
    >>> lr_factor(TrainConfig(schedule="rsqrt", warmup=10), 40)
    0.5
    >>> round(lr_factor(TrainConfig(schedule="noam", warmup=4000, noam_dim=512), 4000), 6)
    0.000699
    >>> lr_factor(TrainConfig(schedule="polynomial", warmup=10, decay_steps=110), 60)
    0.5
    """
    step = max(step, 1)
    if config.schedule == "constant":
        return 1.0
    if config.schedule == "warmup":
        return min(1.0, step / config.warmup) if config.warmup else 1.0
    if config.schedule == "rsqrt":  # linear warm-up to lr, then lr * sqrt(warmup / step)
        warmup = max(config.warmup, 1)
        return min(step / warmup, float((warmup / step) ** 0.5))
    if config.schedule == "noam":
        warmup = max(config.warmup, 1)
        return float(config.noam_dim**-0.5 * min(step**-0.5, step * warmup**-1.5))
    if config.schedule == "polynomial":  # linear warm-up, then linear decay to 0 (power 1)
        if step <= config.warmup:
            return step / max(config.warmup, 1)
        left = max(config.decay_steps - config.warmup, 1)
        return max(0.0, 1.0 - (step - config.warmup) / left)
    raise SymcompError(
        f"unknown schedule {config.schedule!r}; use constant, warmup, rsqrt, noam or polynomial."
    )


class Trainer:
    """Train ``objective`` for ``config``; save weights, metrics and the resume state in
    ``run``."""

    def __init__(
        self,
        config: TrainConfig,
        objective: Objective,
        run: RunDir,
        device: torch.device,
        progress: Callable[[Progress], None] | None = None,
        clock: Callable[[], float] | None = None,
    ) -> None:
        self.config, self.objective, self.run, self.device = config, objective, run, device
        self.progress = progress
        # the budget clock, in seconds; injectable so a budget can be tested without real time
        self.clock = clock or (
            time.process_time if config.budget_clock == "cpu" else time.perf_counter
        )
        self.module = objective.module.to(device)
        if config.compile:  # the task keeps calling its module; compiling it in place
            self.module.compile()
        if config.schedule == "polynomial" and not config.decay_steps:  # decay over the run
            steps = config.epochs * len(objective.train_batches(1))
            config = self.config = replace(config, decay_steps=max(steps, 1))
        self.optimizer = make_optimizer(config, self.module.parameters())
        self.scheduler = torch.optim.lr_scheduler.LambdaLR(
            self.optimizer, lambda step: lr_factor(config, step + 1)
        )
        self.dtype = amp_dtype(device, config.amp)
        self.scaler = torch.amp.GradScaler(
            device.type, enabled=self.dtype == torch.float16 and device.type == "cuda"
        )
        self.epoch = 0
        self.best: tuple[tuple[float, float], int] | None = None  # (score, epoch); see _score
        self.stale = 0
        self.seconds = 0.0  # training + validation, by the budget clock
        self.done = False

    # -- the resume state ---------------------------------------------------------------------

    def _state(self) -> dict[str, Any]:
        rng = {"cpu": torch.get_rng_state()}
        if self.device.type == "cuda":
            rng["cuda"] = torch.cuda.get_rng_state(self.device)
        return {
            "module": self.module.state_dict(),
            "optimizer": self.optimizer.state_dict(),
            "scheduler": self.scheduler.state_dict(),
            "scaler": self.scaler.state_dict(),
            "epoch": self.epoch,
            "best": self.best,
            "stale": self.stale,
            "seconds": self.seconds,
            "done": self.done,
            "rng": rng,
        }

    def load_resume(self) -> None:
        """Continue from the state saved after the run's last finished epoch."""
        # on the CPU: the RNG states must stay CPU byte tensors, and load_state_dict moves
        # weights and optimiser state to the parameters' device itself
        state = self.run.resume_state("cpu")
        try:
            self.module.load_state_dict(state["module"])
            self.optimizer.load_state_dict(state["optimizer"])
            self.scheduler.load_state_dict(state["scheduler"])
            if state["scaler"]:  # empty when saved without fp16 (CPU, bf16): start it afresh
                self.scaler.load_state_dict(state["scaler"])
            self.epoch, self.best, self.stale = state["epoch"], state["best"], state["stale"]
            self.seconds = state["seconds"]  # resuming continues even after an early stop
            self._rng = state["rng"]
        except (KeyError, TypeError, ValueError, RuntimeError) as error:
            raise DataError(
                f"{self.run.path}: the resume state does not fit this run's model and optimiser "
                f"({type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}); "
                f"resume a run of the same model and settings, or train anew."
            ) from None
        self.run.keep_metrics(self.epoch)

    # -- training --------------------------------------------------------------------------------

    def fit(self) -> dict[str, Any]:
        """Train until the epochs, the patience or the time budget run out; then load the
        best epoch's weights (by the dev metric; the last epoch without dev data)."""
        if self.config.threads:
            torch.set_num_threads(self.config.threads)
        with seeded(self.config.seed, self.device):
            rng = getattr(self, "_rng", None)
            if rng is not None:
                torch.set_rng_state(rng["cpu"])
                if "cuda" in rng and self.device.type == "cuda":
                    torch.cuda.set_rng_state(rng["cuda"], self.device)
            while not self.done and self.epoch < self.config.epochs:
                self._epoch()
        best_epoch = self.best[1] if self.best else self.epoch
        if best_epoch:
            self.module.load_state_dict(self.run.weights(best_epoch, self.device))
        return {"epochs": self.epoch, "best_epoch": best_epoch, "seconds": self.seconds}

    def _clock(self) -> float:
        return self.clock()

    def _epoch(self) -> None:
        """Train one epoch, validate, save its weights, log its metrics and the resume file."""
        self.epoch += 1
        started = self._clock()
        wall, cpu = time.perf_counter(), time.process_time()
        totals = self._train_epoch(started)
        totals["train_seconds"] = time.perf_counter() - wall
        totals["train_cpu_seconds"] = time.process_time() - cpu
        self.module.eval()
        dev = self.objective.validate()
        self.seconds += self._clock() - started
        self.run.save_weights(self.epoch, self.module.state_dict())
        self._track(dev)
        # a diverged loss is NaN: JSON has no NaN, and null says "no number" to every reader
        row = {
            k: None if isinstance(v, float) and not math.isfinite(v) else v
            for k, v in self._row(totals, dev).items()
        }
        log.info("epoch %d: %s", self.epoch, json.dumps(row))
        self.run.add_metrics(row)
        self.run.save_resume(self._state())

    def _train_epoch(self, started: float) -> dict[str, float]:
        """Optimisation steps over the epoch's batches (until the budget runs out)."""
        batches = self.objective.train_batches(self.epoch)
        self.module.train()
        # sums stay on the device: reading a number back each step would stall a GPU
        loss_sum = torch.zeros((), device=self.device)
        correct = torch.zeros((), device=self.device)
        totals = {"count": 0.0, "examples": 0.0, "steps": 0.0}
        for step, batch in enumerate(batches, start=1):
            loss, stats = self._step(batch)
            totals["steps"] = step
            loss_sum += loss * stats["count"]
            correct += stats["correct"]
            totals["count"] += float(stats["count"])
            totals["examples"] += len(batch)
            if self.progress is not None:  # a progress bar reads the numbers (a terminal only)
                count = totals["count"]
                share = float(correct) / count
                self.progress(
                    Progress(self.epoch, step, len(batches), float(loss_sum) / count, share)
                )
            if self._over_budget(started):
                log.info("time budget reached in epoch %d", self.epoch)
                self.done = True
                break
        totals["loss"], totals["correct"] = float(loss_sum), float(correct)
        if not math.isfinite(totals["loss"]):
            raise SymcompError(
                f"the training loss became {totals['loss']} in epoch {self.epoch}; lower the "
                "learning rate (setting lr=...) or clip gradients (setting clip=...)."
            )
        return totals

    def _row(self, totals: dict[str, float], dev: dict[str, float]) -> dict[str, Any]:
        """The metrics line of the epoch."""
        count, examples = max(totals["count"], 1.0), int(totals["examples"])
        wall, cpu = max(totals["train_seconds"], 1e-9), max(totals["train_cpu_seconds"], 1e-9)
        return {
            "epoch": self.epoch,
            "train_loss": totals["loss"] / count,
            "train_accuracy": totals["correct"] / count,
            **dev,
            "lr": self.optimizer.param_groups[0]["lr"],
            "examples": examples,
            "steps": int(totals["steps"]),
            "train_seconds": round(wall, 3),
            "train_cpu_seconds": round(cpu, 3),
            "examples_per_second": round(examples / wall, 1),
            "examples_per_cpu_second": round(examples / cpu, 1),
            "seconds": round(self.seconds, 3),
            "best_epoch": self.best[1] if self.best else None,
        }

    def _step(self, batch: Any) -> tuple[torch.Tensor, dict[str, torch.Tensor | float]]:
        with autocast(self.device, self.dtype):
            loss, stats = self.objective.loss(batch)
        self.optimizer.zero_grad(set_to_none=True)
        scaled: torch.Tensor = self.scaler.scale(loss)
        scaled.backward()  # type: ignore[no-untyped-call]
        if self.config.clip:
            self.scaler.unscale_(self.optimizer)
            nn.utils.clip_grad_norm_(self.module.parameters(), self.config.clip)
        self.scaler.step(self.optimizer)
        self.scaler.update()
        self.scheduler.step()
        return loss.detach().float(), stats

    def _over_budget(self, started: float) -> bool:
        limit = self.config.max_minutes * 60
        return bool(limit) and self.seconds + self._clock() - started >= limit

    def _score(self, dev: dict[str, float]) -> tuple[float, float] | None:
        """Higher is better. Accuracy ties (all zero early in training, say) go to the lower dev
        loss, so a model that is still learning is neither stopped early nor rolled back."""
        metric = self.config.dev_metric
        if metric not in dev:
            return None
        if metric == "dev_accuracy":
            return dev[metric], -dev.get("dev_loss", 0.0)
        return -dev[metric], 0.0

    def _track(self, dev: dict[str, float]) -> None:
        value = self._score(dev)
        if value is None:
            return
        metric = self.config.dev_metric
        if self.best is None or value > self.best[0]:
            self.best, self.stale = (value, self.epoch), 0
            return
        self.stale += 1
        if self.config.patience and self.stale >= self.config.patience:
            log.info("early stop: %d epochs without a better %s", self.stale, metric)
            self.done = True
