"""The run folder: the one module that knows its file names, and reads and writes its files.

Layout of a run folder::

    config.json        resolved configuration + the data it was trained on + environment
    vocab.json         vocabularies (source/target, or labels) and data-derived settings
    metrics.jsonl      one line per epoch (losses, accuracies, lr, examples/s, seconds)
    checkpoints/epoch-NNN.pt   the weights after every epoch (kept)
    resume.pt          optimiser, schedule and RNG state of the last epoch (to resume)
    predictions/test.tsv       source<TAB>target<TAB>prediction for the test part (best epoch)
    summary.json       best epoch, test accuracy, wall time, throughput

Torch files are loaded without running code from them: ``torch.load`` unpickles, and a pickle
can run any code, so a crafted ``resume.pt`` or checkpoint in a run folder someone sent you
would run it. Every torch file symcomp reads goes through :func:`load_torch_file`, which allows
only tensors and plain data (``weights_only=True``); symcomp's own checkpoints and resume files
hold nothing else.
"""

from __future__ import annotations

import json
import os
import pickle
import re
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import torch

from symcomp._util import Record, split_lines
from symcomp.data.artifacts import atomic_writer, read_json, remove_temporary, write_json
from symcomp.data.signals import committing
from symcomp.errors import DataError, OutputError

FORMAT = "symcomp-run"
CONFIG = "config.json"
VOCAB = "vocab.json"
METRICS = "metrics.jsonl"
CHECKPOINTS = "checkpoints"
RESUME = "resume.pt"
PREDICTIONS = "predictions"
SUMMARY = "summary.json"
_WEIGHTS = ("epoch-", ".pt")  # checkpoints/epoch-007.pt: the weights after epoch 7
_PARTIAL = ".partial"  # a torch file being written (renamed into place when complete)

# What a run writes: these names at its top level, and in its folders only files named like
# its own (temporary files of an interrupted write included).
_FILES = frozenset({CONFIG, VOCAB, METRICS, RESUME, SUMMARY})
_EPOCH = re.compile(rf"{re.escape(_WEIGHTS[0])}(\d+){re.escape(_WEIGHTS[1])}")
_FOLDERS = {
    CHECKPOINTS: re.compile(rf"{_EPOCH.pattern}({re.escape(_PARTIAL)})?"),
    PREDICTIONS: re.compile(r"[\w.-]+\.tsv"),
}
_TEMPORARY = re.compile(rf"\..+\.tmp|.+{re.escape(_PARTIAL)}")

Progress = Literal["finished", "partial", "started", "new"]


@dataclass(frozen=True)
class RunDir:
    """A run folder at ``path`` (it need not exist yet: training creates it).

    >>> RunDir(Path("no-such-run")).progress()
    'new'
    """

    path: Path

    # -- what the folder is ---------------------------------------------------------------------

    def is_run(self) -> bool:
        """True for a folder a run was trained into (its configuration says so)."""
        config = self.path / CONFIG
        if not config.is_file():
            return False
        try:
            data = json.loads(config.read_text(encoding="utf-8"))
            return bool(data.get("format") == FORMAT)
        except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError, AttributeError):
            return False

    def progress(self) -> Progress:
        """``finished``, ``partial`` (an epoch saved), ``started`` (nothing saved) or ``new``."""
        if not self.is_run():
            return "new"
        if (self.path / SUMMARY).is_file():
            return "finished"
        return "partial" if self.can_resume() else "started"

    def checked_progress(self, fix: str = "Train the run again.") -> Progress:
        """:meth:`progress`, once every file that continuing the run reads has been checked,
        so that a command finds a damaged run before it writes anything: the configuration,
        a finished run's summary, an unfinished run's resume state, metrics and best weights
        (:meth:`check_resumable`). ``fix`` is what a :class:`DataError` tells the user to do.

        >>> RunDir(Path("no-such-run")).checked_progress()
        'new'
        """
        if self.config_file.is_file():
            config = read_json(self.config_file, what="a run's configuration", fix=fix)
            if config.get("format") != FORMAT:
                raise DataError(
                    f"{self.config_file} is not a symcomp run's configuration (its format is "
                    f"{config.get('format')!r}, not {FORMAT!r}). {fix}"
                )
        elif self.path.is_dir() and any(self.path.iterdir()):
            raise DataError(f"{self.path} holds files but no {CONFIG} of a symcomp run. {fix}")
        progress = self.progress()
        if progress == "finished":
            self.summary(fix=fix)
        elif progress == "partial":
            self.check_resumable(fix)
        return progress

    def files(self) -> set[Path]:
        """The files and folders under the run that training wrote (nothing a user added)."""
        ours = set()
        for path in self.path.iterdir():
            name = path.name
            if path.is_symlink():
                continue
            if path.is_file() and (name in _FILES or _TEMPORARY.fullmatch(name)):
                ours.add(path)
            elif path.is_dir() and name in _FOLDERS:
                inside = [
                    p for p in path.iterdir()
                    if p.is_file() and not p.is_symlink()
                    and (_FOLDERS[name].fullmatch(p.name) or _TEMPORARY.fullmatch(p.name))
                ]  # fmt: skip
                ours.update(inside)
                if len(inside) == len(list(path.iterdir())):
                    ours.add(path)
        return ours

    # -- configuration and vocabularies ---------------------------------------------------------

    @property
    def config_file(self) -> Path:
        """Where the configuration is (messages about it name this file)."""
        return self.path / CONFIG

    def config(self) -> dict[str, Any]:
        """The saved configuration, with the data it was trained on and the environment."""
        if not self.is_run():
            raise DataError(
                f"{self.path} is not a symcomp run directory (no {CONFIG} from training)."
            )
        return _read(self.config_file)

    def write_config(self, config: dict[str, Any]) -> None:
        """Save the configuration, marked as a run's (what :meth:`is_run` looks for)."""
        write_json(self.config_file, {"format": FORMAT, **config})

    @property
    def vocab_file(self) -> Path:
        """Where the vocabularies are (messages about them name this file)."""
        return self.path / VOCAB

    def vocab(self) -> dict[str, Any]:
        """The vocabularies and data-derived settings saved before training."""
        if not self.vocab_file.is_file():
            raise DataError(
                f"{self.path}: {VOCAB} is missing; the run is incomplete: train it again."
            )
        return _read(self.vocab_file)

    def write_vocab(self, vocab: dict[str, Any]) -> None:
        """Save the vocabularies (before the first epoch: a resumed run reads them back)."""
        write_json(self.vocab_file, vocab)

    # -- epochs: metrics, weights, the resume state -----------------------------------------------

    def metrics(self) -> list[dict[str, Any]]:
        """One row per finished epoch (a damaged line is a :class:`DataError` naming it)."""
        path = self.path / METRICS
        if not path.is_file():
            return []
        try:
            lines = split_lines(path.read_text(encoding="utf-8"))
        except UnicodeDecodeError:
            damaged = f"{path}: not UTF-8 text; the run is damaged: train it again."
            raise DataError(damaged) from None
        rows = []
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except (json.JSONDecodeError, RecursionError):
                row = None
            if not isinstance(row, dict):
                raise DataError(
                    f"{path}:{number}: not the JSON object of an epoch; the run is damaged: "
                    f"train it again."
                )
            rows.append(row)
        return rows

    def add_metrics(self, row: dict[str, Any]) -> None:
        """Append the row of an epoch that just finished."""
        with (self.path / METRICS).open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(row) + "\n")

    def keep_metrics(self, epochs: int) -> None:
        """Drop the rows after ``epochs`` (an interrupted epoch logged before its resume file)."""
        path = self.path / METRICS
        if not path.is_file():
            return
        rows = [line for line in split_lines(path.read_text(encoding="utf-8")) if line.strip()]
        path.write_text("".join(line + "\n" for line in rows[:epochs]), encoding="utf-8")

    def epochs(self) -> list[int]:
        """The epochs with saved weights, in order."""
        folder = self.path / CHECKPOINTS
        found = (_EPOCH.fullmatch(f.name) for f in folder.iterdir()) if folder.is_dir() else ()
        return sorted(int(match.group(1)) for match in found if match)

    def weights_file(self, epoch: int) -> Path:
        """Where the weights after ``epoch`` are (or will be) saved."""
        prefix, suffix = _WEIGHTS
        return self.path / CHECKPOINTS / f"{prefix}{epoch:03d}{suffix}"

    def save_weights(self, epoch: int, state: dict[str, torch.Tensor]) -> None:
        """Save the weights after ``epoch`` (whole or not at all)."""
        _save(state, self.weights_file(epoch))

    def weights(self, epoch: int, device: torch.device | str = "cpu") -> dict[str, torch.Tensor]:
        """The weights after ``epoch``, on ``device`` (loaded safely: tensors only)."""
        path = self.weights_file(epoch)
        if not path.is_file():
            raise DataError(f"{self.path}: no checkpoint for epoch {epoch} ({path}).")
        weights: dict[str, torch.Tensor] = load_torch_file(path, device)
        return weights

    def best_epoch(self) -> int:
        """The epoch the summary names best; the last saved one while the run is unfinished."""
        if (self.path / SUMMARY).is_file():
            best = self.summary().get("best_epoch")
            if not isinstance(best, int) or isinstance(best, bool):
                raise DataError(
                    f"{self.path / SUMMARY}: best_epoch must be an integer; train the run again."
                )
            return best
        saved = self.epochs()
        if not saved:
            raise DataError(f"{self.path} has no checkpoints yet.")
        return saved[-1]

    def can_resume(self) -> bool:
        """Whether an epoch finished and left the state to continue from."""
        return (self.path / RESUME).is_file()

    def check_resumable(self, fix: str = "Train the run again.") -> None:
        """Raise :class:`DataError` (saying ``fix``) unless the run can be continued and
        finished: its resume state loads (tensors and plain data) and names its epoch, its
        metrics read, and the weights of its best epoch so far, which training ends by loading
        unless a later epoch is better, are saved. Nothing is written."""
        path = self.path / RESUME
        state = self.resume_state("cpu")
        epoch = state.get("epoch") if isinstance(state, dict) else None
        if not isinstance(epoch, int) or isinstance(epoch, bool) or epoch < 1:
            raise DataError(f"{path} names no finished epoch; it is not a resume state. {fix}")
        best = state.get("best")
        best_epoch = best[1] if isinstance(best, tuple | list) and len(best) == 2 else epoch
        weights = self.weights_file(best_epoch) if isinstance(best_epoch, int) else None
        if weights is None or not weights.is_file():
            shown = weights.relative_to(self.path).as_posix() if weights else "its weights"
            raise DataError(
                f"{self.path} stopped after epoch {epoch}, but {shown}, the weights of its best "
                f"epoch so far, is missing: the run cannot be finished. {fix}"
            )
        self.metrics()

    def save_resume(self, state: dict[str, Any]) -> None:
        """Save the training state after an epoch (replacing the previous epoch's)."""
        _save(state, self.path / RESUME)

    def resume_state(self, device: torch.device | str = "cpu") -> dict[str, Any]:
        """The training state saved after the last finished epoch."""
        path = self.path / RESUME
        if not path.is_file():
            raise DataError(f"nothing to resume: {path} does not exist.")
        state: dict[str, Any] = load_torch_file(path, device)
        return state

    # -- results ----------------------------------------------------------------------------------

    def write_predictions(
        self, part: str, records: Sequence[Record], answers: Sequence[str]
    ) -> None:
        """Predictions for the ``part`` of the data (``test``) in the metrics module's TSV
        layout: a header, then source, target, prediction."""
        path = self.path / PREDICTIONS / f"{part}.tsv"
        path.parent.mkdir(parents=True, exist_ok=True)
        with atomic_writer(path) as handle:
            handle.write("source\ttarget\tprediction\n")
            for record, answer in zip(records, answers, strict=True):
                source = " ".join(str(record["input"]).split())
                handle.write(f"{source}\t{record['output']}\t{answer}\n")

    def summary(self, fix: str = "Train the run again.") -> dict[str, Any]:
        """The summary of a finished run (best epoch, test accuracy, times); ``fix`` is what a
        damaged one's error tells the user to do."""
        return read_json(self.path / SUMMARY, what="a run's summary", fix=fix)

    def write_summary(self, summary: dict[str, Any]) -> None:
        """Save the summary: the run is finished (the run folder is complete)."""
        write_json(self.path / SUMMARY, summary, completes=self.path)


def _read(path: Path) -> dict[str, Any]:
    """A JSON object from a run folder (a clear error when it is not one)."""
    return read_json(path, fix="Train the run again.")


def _save(data: Any, path: Path) -> None:
    """Write a torch file whole or not at all (a partial file is renamed into place)."""
    partial = path.with_name(path.name + _PARTIAL)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        torch.save(data, partial)
        with committing():
            os.replace(partial, path)
    except (OSError, RuntimeError) as error:  # torch reports a full disk as RuntimeError
        remove_temporary(partial)
        reason = getattr(error, "strerror", None) or str(error).splitlines()[0]
        raise OutputError(
            f"cannot write {path}: {reason}. Free space (or choose another `out`) and "
            f"continue the run with `resume`: every finished epoch is saved."
        ) from None
    except BaseException:
        remove_temporary(partial)
        raise


def load_torch_file(path: Path, device: torch.device | str = "cpu") -> Any:
    """The contents of a checkpoint or resume file: tensors and plain data only.

    Raises
    ------
    DataError
        When the file holds anything else (refused, never run) or is not a torch file.
    """
    try:
        with warnings.catch_warnings():
            # torch warns about a pickle protocol other than its own before refusing a crafted
            # file: the refusal below is all a user should read
            warnings.filterwarnings("ignore", "Detected pickle protocol", UserWarning)
            return torch.load(path, map_location=device, weights_only=True)
    except pickle.UnpicklingError:
        # torch cannot tell a damaged file from one holding objects: both are refused alike
        raise DataError(
            f"{path}: refused to load: it is not a file of tensors and plain data as symcomp "
            f"writes (it is damaged, or it holds Python objects, and loading those could run "
            f"code). Delete it and train again unless you know where it came from."
        ) from None
    except (RuntimeError, EOFError, ValueError, AttributeError, IndexError) as error:
        first = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise DataError(
            f"{path}: not a readable PyTorch checkpoint ({first}); the file is damaged or was "
            f"not written by symcomp: train the run again."
        ) from None
    except OSError as error:
        raise DataError(f"cannot read {path}: {error.strerror or error}.") from None
