"""Reading a published overgeneralisation log: accuracies on the exceptions after each epoch.

The layout (the published overgeneralisation predictions of Hupkes et al. 2020) logs, after
every epoch, the sequence accuracy on the exception inputs twice: against their exception
targets (``Adapted``, memorisation) and against their rule targets (``Original``,
overgeneralisation)::

    Epoch 3
    Adapted - Sequence Accuracy: 0.0
    Original - Sequence Accuracy: 0.5909090909090909

(the colon is optional; other lines are ignored). Only the accuracies are published, not the
predictions, and they are over the exceptions that are the pair alone (every value is k/5,
k/32, k/66 or k/253 for the four ratios: the counts of pair-only exceptions).

>>> profile = epoch_profile(EpochLog(adapted=(0.0, 0.5), original=(0.9, 0.25)))
>>> profile["peak"], profile["peak_checkpoint"], profile["final_exception"]
(0.9, 0, 0.5)
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from symcomp._util import split_lines
from symcomp.errors import DataError

MARK = "Sequence Accuracy"
LABELS = {"Adapted": "adapted", "Original": "original"}


@dataclass(frozen=True)
class EpochLog:
    """Accuracy per epoch against the exception (``adapted``) and rule (``original``) targets."""

    adapted: tuple[float, ...]
    original: tuple[float, ...]


def read_epoch_log(path: Path) -> EpochLog:
    """The per-epoch accuracies of one log file (errors name the file and line)."""
    try:
        lines = split_lines(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise DataError(f"cannot read log {path}: {error.strerror or error}.") from None
    except UnicodeDecodeError:
        raise DataError(f"{path}: not UTF-8 text.") from None
    values: dict[str, list[float]] = {"adapted": [], "original": []}
    for number, line in enumerate(lines, start=1):
        if MARK not in line or "ERROR" in line:
            continue
        label = LABELS.get(line.split()[0])
        if label is None:
            raise DataError(
                f"{path}:{number}: a `{MARK}` line starts with {line.split()[0]!r}; expected "
                f"`Adapted` (exception targets) or `Original` (rule targets)."
            )
        values[label].append(_number(path, number, line))
    if not values["original"] or len(values["adapted"]) != len(values["original"]):
        raise DataError(
            f"{path}: {len(values['adapted'])} `Adapted` and {len(values['original'])} "
            f"`Original` accuracies; a log has one of each per epoch (and at least one epoch)."
        )
    return EpochLog(tuple(values["adapted"]), tuple(values["original"]))


def _number(path: Path, number: int, line: str) -> float:
    text = line.rsplit(None, 1)[-1]
    try:
        value = float(text)
    except ValueError:
        raise DataError(f"{path}:{number}: {text!r} is not an accuracy.") from None
    if not 0.0 <= value <= 1.0:
        raise DataError(f"{path}:{number}: accuracy {value} is outside 0..1.")
    return value


def epoch_profile(log: EpochLog) -> dict[str, Any]:
    """The overgeneralisation profile of a log: per epoch the share predicted by the rule and
    as the exception, the peak of the rule share (the paper's overgeneralisation) and the
    final memorisation."""
    profile = [
        {"rule": rule, "exception": exception, "neither": max(0.0, 1.0 - rule - exception)}
        for rule, exception in zip(log.original, log.adapted, strict=True)
    ]
    peak_checkpoint = max(range(len(profile)), key=lambda i: (profile[i]["rule"], -i))
    return {
        "profile": profile,
        "peak": profile[peak_checkpoint]["rule"],
        "peak_checkpoint": peak_checkpoint,
        "final_exception": profile[-1]["exception"],
    }
