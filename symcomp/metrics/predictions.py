"""Prediction files: the published TSV layout or JSON lines keyed by example id.

TSV
    ``source<TAB>target<TAB>prediction`` per line, with an optional header line
    ``source<TAB>target<TAB>prediction`` (the layout of the published model predictions).
    Rows are found by their source text.
JSONL
    ``{"id": ..., "prediction": ...}`` per line, the prediction a JSON string (anything else is
    an error: ``null`` is not the text ``None``). Rows are found by id. Optional: ``input``,
    which must then be the input of the item with that id (a file of another suite, or of an
    export in fresh words, is refused rather than scored against the wrong items), and
    ``fresh_words``, the seed of the export in fresh words the predictions answer (or null),
    the same on every line.

A folder of such files is read as their union. Errors name the file and the first offending
line (wrong column count, invalid JSON, an id or source given twice with different predictions).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from symcomp._util import split_lines
from symcomp.errors import DataError

HEADER = ("source", "target", "prediction")
SUFFIXES = (".tsv", ".txt", ".jsonl")


@dataclass(frozen=True)
class PredictionRow:
    """One prediction, with where it was read."""

    prediction: str
    id: str | None = None
    source: str | None = None
    target: str | None = None
    where: str = ""
    fresh_words: tuple[int | None, ...] = ()  # (seed,) when the row states it


@dataclass
class Predictions:
    """Predictions looked up by example id, or else by input text."""

    by_id: dict[str, str] = field(default_factory=dict)
    by_source: dict[str, str] = field(default_factory=dict)
    origin: str = ""
    inputs: dict[str, tuple[str, str]] = field(default_factory=dict)  # id -> (input, where)
    fresh_words: dict[int | None, str] = field(default_factory=dict)  # stated seed -> where

    def add(self, row: PredictionRow) -> None:
        if row.id is not None and row.source is not None:
            self.inputs[row.id] = (row.source, row.where)
        for seed in row.fresh_words:
            self.fresh_words.setdefault(seed, row.where)
        for table, key in ((self.by_id, row.id), (self.by_source, row.source)):
            if key is None:
                continue
            if key in table and table[key] != row.prediction:
                raise DataError(
                    f"{row.where}: a second, different prediction for {key!r}; give one "
                    f"prediction per input."
                )
            table[key] = row.prediction

    def lookup(self, record: Mapping[str, Any]) -> str | None:
        """The prediction for an example record, or None."""
        found = self.by_id.get(str(record.get("id")))
        if found is None:
            found = self.by_source.get(" ".join(str(record["input"]).split()))
        return found

    def stated_fresh_words(self) -> int | None:
        """The fresh-words seed the rows state (None: none, or null); rows stating two
        different ones are a :class:`DataError`."""
        if len(self.fresh_words) > 1:
            (a, first), (b, second) = list(self.fresh_words.items())[:2]
            raise DataError(
                f"{second}: fresh_words {b}, where {first} says {a}: predictions of two "
                f"exports; score one at a time."
            )
        return next(iter(self.fresh_words), None)

    def check_input(self, record: Mapping[str, Any]) -> None:
        """A row found by ``record``'s id that gives an input must give ``record``'s."""
        given = self.inputs.get(str(record.get("id")))
        if given is None:
            return
        text, where = given
        if text != " ".join(str(record["input"]).split()):
            raise DataError(
                f"{where}: the input of id {record.get('id')} is {text!r}, and the suite's is "
                f"{record['input']!r}: predictions of another suite, or of an export in fresh "
                f"words (then give its seed: `fresh_words`)."
            )

    def for_records(self, records: Sequence[Mapping[str, Any]], context: str) -> list[str]:
        """Predictions for every record, or a DataError naming the first one missing."""
        out = []
        for position, record in enumerate(records, start=1):
            self.check_input(record)
            prediction = self.lookup(record)
            if prediction is None:
                missing = sum(self.lookup(r) is None for r in records)
                raise DataError(
                    f"{self.origin}: no prediction for {missing:,} of the {len(records):,} inputs "
                    f"of {context}; the first is input {position} (id {record.get('id')}): "
                    f"{record['input']!r}. Predict every input (by id in JSONL, or by source "
                    f"text in TSV; predictions of an export in fresh words: give its seed, "
                    f"`fresh_words`)."
                )
            out.append(prediction)
        return out


def text_lines(path: Path, what: str) -> list[str]:
    """The lines of a UTF-8 text file of predictions; a DataError naming the file (and what
    it should hold: ``what``) when it cannot be read."""
    try:
        return split_lines(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise DataError(f"cannot read predictions {path}: {error.strerror or error}.") from None
    except UnicodeDecodeError:
        raise DataError(f"{path}: not UTF-8 text; {what}.") from None


def read_rows(path: Path) -> list[PredictionRow]:
    """The rows of one prediction file (TSV or JSONL by extension)."""
    lines = text_lines(path, "predictions are TSV or JSON lines")
    if path.suffix.lower() == ".jsonl":  # extensions in any case: .JSONL is JSON lines too
        return list(_jsonl_rows(path, lines))
    return list(_tsv_rows(path, lines))


def _tsv_rows(path: Path, lines: Iterable[str]) -> Iterable[PredictionRow]:
    for number, line in enumerate(lines, start=1):
        fields = line.split("\t")
        if number == 1 and tuple(field.strip() for field in fields) == HEADER:
            continue
        if len(fields) != 3:
            raise DataError(
                f"{path}:{number}: expected 3 TAB-separated columns (source, target, "
                f"prediction), got {len(fields)}."
            )
        source, target, prediction = (field.strip() for field in fields)
        yield PredictionRow(
            prediction, source=" ".join(source.split()), target=target, where=f"{path}:{number}"
        )


def _jsonl_rows(path: Path, lines: Iterable[str]) -> Iterable[PredictionRow]:
    for number, line in enumerate(lines, start=1):
        try:
            data = json.loads(line)
        except json.JSONDecodeError as error:
            raise DataError(f"{path}:{number}: not valid JSON ({error.msg}).") from None
        except RecursionError:
            raise DataError(
                f"{path}:{number}: JSON nested too deeply to read; a prediction line is a flat "
                f'object {{"id": ..., "prediction": ...}}.'
            ) from None
        if not isinstance(data, dict) or "prediction" not in data or "id" not in data:
            raise DataError(f'{path}:{number}: a prediction line needs "id" and "prediction".')
        prediction = data["prediction"]
        if not isinstance(prediction, str):  # str(None) would be scored as the text "None"
            shown = json.dumps(prediction)
            shown = shown if len(shown) <= 40 else shown[:37] + "..."
            raise DataError(
                f'{path}:{number}: "prediction" must be a string (the predicted text), got '
                f'{shown}; write it as a JSON string (an empty string "" is a prediction too).'
            )
        source = data.get("input")
        yield PredictionRow(
            prediction,
            id=str(data["id"]),
            source=" ".join(str(source).split()) if source is not None else None,
            where=f"{path}:{number}",
            fresh_words=_stated_seed(data, f"{path}:{number}"),
        )


def _stated_seed(data: Mapping[str, Any], where: str) -> tuple[int | None, ...]:
    """``(seed,)`` of a row that states ``fresh_words`` (null or a whole number 0 or more)."""
    if "fresh_words" not in data:
        return ()
    seed = data["fresh_words"]
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        raise DataError(
            f'{where}: "fresh_words" must be the seed of the export (a whole number 0 or '
            f"more) or null, got {json.dumps(seed)[:40]}."
        )
    return (seed,)


def natural_key(name: str) -> tuple[tuple[int, int | str], ...]:
    """A sort key that orders the numbers inside names by value.

    >>> sorted(["epoch10.tsv", "epoch2.tsv", "epoch1.tsv"], key=natural_key)
    ['epoch1.tsv', 'epoch2.tsv', 'epoch10.tsv']
    """
    return tuple(
        (0, int(piece)) if piece.isdigit() else (1, piece)
        for piece in re.split(r"(\d+)", name)
        if piece
    )


def prediction_files(location: Path) -> list[Path]:
    """The prediction files of a file or folder (folders: every .tsv/.txt/.jsonl, in natural
    order: ``epoch2`` before ``epoch10``)."""
    if location.is_dir():
        found = (p for p in location.rglob("*") if p.suffix.lower() in SUFFIXES and p.is_file())
        files = sorted(found, key=lambda path: natural_key(path.relative_to(location).as_posix()))
        if not files:
            raise DataError(f"{location} holds no prediction files (.tsv, .txt or .jsonl).")
        return files
    if not location.is_file():
        raise DataError(f"no predictions at {location}.")
    return [location]


def load_predictions(location: Path) -> Predictions:
    """All predictions of a file or folder."""
    predictions = Predictions(origin=str(location))
    for path in prediction_files(location):
        for row in read_rows(path):
            predictions.add(row)
    return predictions


BY_ORDER = "line order"
BY_SOURCE = "source text (the file's line order differs from the test set's)"


def aligned_predictions(
    path: Path, records: Sequence[Mapping[str, Any]], context: str
) -> tuple[list[str], str]:
    """The predictions of a TSV file with one row per input of a test set, and how rows were
    matched to inputs: by line order, or by source text when the order differs (e.g. fairseq
    writes its outputs sorted by length).

    Raises
    ------
    DataError
        When the file has another number of rows, or its rows are neither in the test set's
        order nor hold every input (the message names the first such line).
    """
    rows = read_rows(path)
    if len(rows) != len(records):
        first = min(len(rows), len(records)) + 1
        raise DataError(
            f"{path}: {len(rows):,} prediction rows but {context} has {len(records):,} inputs; "
            f"the first unmatched is line {first} of the test set. A file scores one test "
            f"line for line; a folder of files is matched by source text."
        )
    inputs = [" ".join(str(record["input"]).split()) for record in records]
    if all(
        row.source is None or row.source == text for row, text in zip(rows, inputs, strict=True)
    ):
        return [row.prediction for row in rows], BY_ORDER
    by_source = {row.source: row.prediction for row in rows}
    missing = next((i for i, text in enumerate(inputs) if text not in by_source), None)
    if missing is None:
        return [by_source[text] for text in inputs], BY_SOURCE
    position, row = next(
        (i, row)
        for i, (row, text) in enumerate(zip(rows, inputs, strict=True), start=1)
        if row.source != text
    )
    raise DataError(
        f"{row.where}: source {row.source!r} is not input {position} of {context} "
        f"({inputs[position - 1]!r}), and input {missing + 1} ({inputs[missing]!r}) is in no "
        f"row: the file neither follows the test set line by line nor holds every input "
        f"(predictions of an export in fresh words? give its seed, `fresh_words`)."
    )
