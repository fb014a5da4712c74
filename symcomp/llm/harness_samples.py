"""The harness's answers read back: ``lm-eval run --log_samples`` files as predictions.

``lm-eval run ... --log_samples --output_path OUT`` writes ``samples_<task>_<date>.jsonl``
per task, a line per document: ``doc_id``, ``doc`` (the exported document, with symcomp's
``id``, ``test``, ``suite``, ``fresh_words`` and ``export``), ``target``, ``resps`` and
``filtered_resps``. A generated answer is the filtered response (after ``remove_whitespace``,
or, worked, the answer line the ``regex`` filter takes); a multiple-choice answer is the choice
of highest log-likelihood (the first of equals, as the harness's ``acc`` takes ``argmax``). The
documents of a worked export (``--steps``) carry their gold ``steps``: there the whole
generation (``resps``) is kept too, read once with the rest of the sample, for the grading of
the model's written steps (:mod:`symcomp.metrics.steps`).

Each sample is checked before anything is scored, field by field (what is wrong, where, how to
fix it): every document must name a test of this suite with this suite's sha256 for it, sit at
its ``doc_id`` in the test part, and be the document the export wrote, every field of it made
again from the suite and the options the document records (:class:`ExportedDocuments`); the
documents of a test must be its first items, and all the samples one export's. A run with
``--limit N`` holds only the first N, which is scored only when ``limit`` says N (the report
card of a part of a test is not the test's).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from symcomp.errors import DataError
from symcomp.llm.harness_tasks import (
    ENTRY_FIELDS,
    EXPORT,
    SELECTIONS,
    ExportedDocuments,
    HarnessOptions,
)
from symcomp.metrics.predictions import Predictions, natural_key, text_lines
from symcomp.metrics.report import PredictionSource
from symcomp.suites.reading import Suite

PATTERN = "samples_*.jsonl"
_FIX = "export the suite in the lm-eval format and run the harness on it, logging its samples"
_EDITED = (
    "an edited document, or a sample of another export; score the sample files the harness "
    "wrote for an export of this suite"
)


@dataclass(frozen=True)
class _Sample:
    """One logged sample of this suite, its shape checked."""

    where: str  # file:line
    doc_id: int
    doc: Mapping[str, Any]
    test: str
    export: HarnessOptions  # the options the document records (and its fresh words)
    filtered: Any
    generated: str  # the whole generation (``resps``): a worked answer's steps


@dataclass
class _Answers:
    """The samples of one test: by doc_id, the first sample read for each."""

    by_doc: dict[int, _Sample] = field(default_factory=dict)
    where: str = ""


def is_harness_samples(location: Path) -> bool:
    """True when ``location`` is a harness sample file (``samples_*.jsonl``) or a folder
    holding one (at any depth)."""
    if location.is_dir():
        return next(location.rglob(PATTERN), None) is not None
    return location.match(PATTERN)


def sample_files(location: Path) -> list[Path]:
    """The harness sample files of a file or folder, in natural order."""
    if location.is_file():
        return [location]
    files = sorted(location.rglob(PATTERN), key=lambda p: natural_key(p.as_posix()))
    if not files:
        raise DataError(f"{location} holds no harness sample files ({PATTERN}).")
    return files


def harness_source(
    location: Path,
    suite: Suite,
    *,
    limit: int | None = None,
    fresh_words: int | None = None,
) -> PredictionSource:
    """The predictions of the harness sample files at ``location`` (a file or a folder of
    them), checked against ``suite``; ``limit`` scores only the first ``limit`` items of
    each test (the harness's ``--limit``); ``fresh_words``, when given, is the seed the
    export's documents must record.

    Raises
    ------
    DataError
        A file that is not a harness sample file of a symcomp export, a document of another
        suite or test, an edited document, samples of two exports, two answers for one item,
        or a run whose size is not ``limit``.
    """
    samples = _suite_samples(location, suite)
    options = _one_export(samples, location, fresh_words)
    answers: dict[str, _Answers] = {}
    for sample in samples:
        _add(answers, sample)
    exported = ExportedDocuments(suite, options)
    per_test, limits, written = {}, {}, {}
    for test, found in answers.items():
        limits[test] = _checked_size(test, found, suite, limit)
        documents = exported.items(test, sorted(found.by_doc))
        per_test[test] = _predictions(location, found, documents)
        if options.steps:
            written[test] = _written(found)
    return PredictionSource(
        location.name,
        per_test=per_test,
        limits=limits,
        fresh_words=options.fresh_words,
        written=written,
    )


def _suite_samples(location: Path, suite: Suite) -> list[_Sample]:
    """Every sample of ``suite`` at ``location``; in a folder, the files of other suites'
    exports are passed over (a harness run's folder holds the tasks of other exports too)."""
    found: list[_Sample] = []
    for path in sample_files(location):
        lines = list(_lines(path))
        if location.is_dir() and lines and not _of_suite(lines[0][1], suite):
            continue
        found.extend(_sample(data, f"{path}:{number}", suite) for number, data in lines)
    if not found:
        raise DataError(
            f"{location} holds no harness sample of a task exported from {suite.root}; {_FIX}."
        )
    return found


def _lines(path: Path) -> Iterator[tuple[int, Mapping[str, Any]]]:
    for number, line in enumerate(text_lines(path, "a harness sample file is JSON lines"), 1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except (json.JSONDecodeError, RecursionError):
            raise DataError(f"{path}:{number}: not a JSON line of a harness sample file.") from None
        if not isinstance(data, dict) or not {"doc_id", "doc", "filtered_resps"} <= set(data):
            raise DataError(
                f"{path}:{number}: not a harness sample (it needs doc_id, doc and "
                f"filtered_resps, as the harness logs its samples)."
            )
        yield number, data


def _of_suite(sample: Mapping[str, Any], suite: Suite) -> bool:
    """True when a sample's document is an item of one of ``suite``'s tests."""
    doc = sample["doc"]
    if not isinstance(doc, Mapping) or str(doc.get("test")) not in suite.tests:
        return False
    return bool(doc.get("suite") == suite.digest(str(doc["test"])))


def _sample(data: Mapping[str, Any], where: str, suite: Suite) -> _Sample:
    """One sample of ``suite``, its fields checked."""
    doc = data["doc"]
    if not isinstance(doc, Mapping) or not {"id", "test", "suite"} <= set(doc):
        raise DataError(
            f"{where}: its document carries no symcomp test (id, test, suite): a task that "
            f"symcomp did not export; {_FIX}."
        )
    test = doc["test"]
    if not isinstance(test, str) or test not in suite.tests:
        raise DataError(
            f"{where}: a sample of test {test!r}, which {suite.root} does not have: a sample "
            f"file of another suite; score it against the suite it was exported from."
        )
    if doc["suite"] != suite.digest(test):
        raise DataError(
            f"{where}: a sample of another suite's {test!r} (the sha256 in its document is not "
            f"this suite's); score it against the suite it was exported from, or export this "
            f"suite again and rerun the harness."
        )
    return _Sample(
        where,
        _doc_id(data["doc_id"], where),
        doc,
        test,
        _export(doc, where),
        data["filtered_resps"],
        _generated(data.get("resps")),
    )


def _generated(resps: Any) -> str:
    """The whole generated text of a sample (``resps``: a list per request, of one text);
    an answer the harness did not log reads as no answer, never as an error."""
    while isinstance(resps, list) and resps:
        resps = resps[0]
    return resps if isinstance(resps, str) else ""


def _doc_id(value: Any, where: str) -> int:
    if not _whole(value):
        raise DataError(f"{where}: doc_id must be a whole number 0 or more, got {_shown(value)}.")
    return int(value)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _export(doc: Mapping[str, Any], where: str) -> HarnessOptions:
    """The export options a document records (its ``export`` and ``fresh_words``)."""
    entry = doc.get(EXPORT)
    if entry is None:
        raise DataError(
            f'{where}: its document records no "{EXPORT}" (the options that shaped it), as '
            f"an export by an earlier symcomp wrote them; export the suite again and rerun "
            f"the harness."
        )
    fresh = doc.get("fresh_words")
    wrong = _field_error(entry, fresh)
    if wrong:
        raise DataError(f"{where}: the document's {wrong}; {_EDITED}.")
    return HarnessOptions(
        shots=entry["shots"],
        select=entry["select"],
        seed=entry["seed"],
        fresh_words=fresh,
        steps=entry["steps"],
    )


def _field_error(entry: Any, fresh: Any) -> str:
    """What is wrong with a document's ``export`` and ``fresh_words`` ('' when nothing)."""
    if fresh is not None and not _whole(fresh):
        return f'"fresh_words" is {_shown(fresh)}, not a seed (a whole number 0 or more) or null'
    if not isinstance(entry, Mapping) or set(entry) != set(ENTRY_FIELDS):
        return f'"{EXPORT}" is {_shown(entry)}, not an object of {", ".join(ENTRY_FIELDS)}'
    for key in ("shots", "seed"):
        if not _whole(entry[key]):
            return f'"{EXPORT}.{key}" is {_shown(entry[key])}, not a whole number 0 or more'
    if entry["select"] not in SELECTIONS:
        return f'"{EXPORT}.select" is {_shown(entry["select"])}, not one of {", ".join(SELECTIONS)}'
    if not isinstance(entry["steps"], bool):
        return f'"{EXPORT}.steps" is {_shown(entry["steps"])}, not true or false'
    return ""


def _one_export(
    samples: Sequence[_Sample], location: Path, fresh_words: int | None
) -> HarnessOptions:
    """The options of the one export every sample comes from."""
    first = samples[0]
    other = next((s for s in samples if s.export != first.export), None)
    if other is not None:
        raise DataError(
            f"{location}: samples of two exports of this suite ({first.where}: "
            f"{_described(first.export)}; {other.where}: {_described(other.export)}), or an "
            f"edited document; score one export at a time (give the sample files of one)."
        )
    if fresh_words is not None and first.export.fresh_words != fresh_words:
        raise DataError(
            f"{first.where}: the samples answer an export with {_described(first.export)}, "
            f"and `fresh_words` says {fresh_words}; drop `fresh_words` (the samples record "
            f"their export's), or give the samples of the export you mean."
        )
    return first.export


def _described(options: HarnessOptions) -> str:
    fresh = (
        "no fresh words" if options.fresh_words is None else f"fresh words {options.fresh_words}"
    )
    worked = ", worked (steps)" if options.steps else ""
    return f"{fresh}, {options.shots} shots by {options.select}, seed {options.seed}{worked}"


def _add(answers: dict[str, _Answers], sample: _Sample) -> None:
    found = answers.setdefault(sample.test, _Answers(where=sample.where))
    earlier = found.by_doc.get(sample.doc_id)
    if earlier is None:
        found.by_doc[sample.doc_id] = sample
    elif earlier.filtered != sample.filtered or (
        sample.export.steps and earlier.generated != sample.generated
    ):
        raise DataError(
            f"{sample.where}: a second, different answer for item {sample.doc_id} of test "
            f"{sample.test!r} (the first was in {earlier.where}); score one run at a time."
        )


def _predictions(
    location: Path, found: _Answers, exported: Sequence[Mapping[str, Any]]
) -> Predictions:
    """The answers of one test's samples, by item id, each document checked against the one
    the export wrote (``exported``, in doc_id order)."""
    predictions = Predictions(origin=str(location))
    for (_, sample), expected in zip(sorted(found.by_doc.items()), exported, strict=True):
        _check_document(sample, expected)
        predictions.by_id[str(expected["id"])] = _answer(sample, expected)
    return predictions


def _written(found: _Answers) -> dict[str, str]:
    """The whole generations of one test's samples of a worked export, by item id (each
    document already checked against the export's, so its id is the item's)."""
    return {str(sample.doc["id"]): sample.generated for sample in found.by_doc.values()}


def _check_document(sample: _Sample, expected: Mapping[str, Any]) -> None:
    """Every field of the document the export wrote, and no other: a worked document whose
    ``export`` was edited to say no steps keeps its ``steps`` and ``worked``."""
    added = next((key for key in sample.doc if key not in expected), None)
    if added is not None:
        raise DataError(
            f'{sample.where}: the document holds "{added}" ({_shown(sample.doc[added])}), a '
            f"field that the export it records ({_described(sample.export)}) does not write: "
            f"{_EDITED}."
        )
    for key, value in expected.items():
        given = sample.doc.get(key)
        if key not in sample.doc or given != value or type(given) is not type(value):
            shown = "missing" if key not in sample.doc else _shown(given)
            raise DataError(
                f'{sample.where}: the document\'s "{key}" is {shown}, but the export wrote '
                f"{_shown(value)} for item {sample.doc_id} of test {sample.test!r}: {_EDITED}."
            )


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, default=repr)
    return text if len(text) <= 60 else text[:57] + "..."


def _answer(sample: _Sample, doc: Mapping[str, Any]) -> str:
    """The model's answer: the filtered generation, or the most likely choice."""
    filtered = sample.filtered
    choices = doc.get("choices")
    if isinstance(choices, list):
        return str(choices[_most_likely(filtered, len(choices), sample.where)])
    if isinstance(filtered, list) and len(filtered) == 1:
        filtered = filtered[0]
    if not isinstance(filtered, str):
        raise DataError(
            f"{sample.where}: filtered_resps is {_shown(sample.filtered)}, not the generated "
            f"text (a string, or a list of one); score the sample files the harness wrote."
        )
    return filtered


def _most_likely(filtered: Any, size: int, where: str) -> int:
    """argmax of the choices' log-likelihoods (the first of equals, as numpy's)."""
    if not isinstance(filtered, list) or len(filtered) != size:
        count = f"a list of {len(filtered)}" if isinstance(filtered, list) else _shown(filtered)
        raise DataError(
            f"{where}: filtered_resps is {count}, not a [log-likelihood, is-greedy] pair for "
            f"each of the {size} choices."
        )
    return max(range(size), key=lambda i: (_log_likelihood(filtered[i], i, where), -i))


def _log_likelihood(pair: Any, index: int, where: str) -> float:
    """The log-likelihood of a ``[value, is_greedy]`` pair (the harness logs both as text):
    a number, or minus infinity; never NaN, plus infinity or a number past a float's range."""
    value = pair[0] if isinstance(pair, list) and len(pair) == 2 else None
    try:
        number = float(value) if isinstance(value, str | int | float) else math.nan
    except (ValueError, OverflowError):
        number = math.nan
    if isinstance(value, bool) or math.isnan(number) or number == math.inf:
        raise DataError(
            f"{where}: filtered_resps[{index}] is {_shown(pair)}, not a [log-likelihood, "
            f"is-greedy] pair with a log-likelihood a float can hold; score the sample files "
            f"the harness wrote."
        )
    return number


def _checked_size(test: str, found: _Answers, suite: Suite, limit: int | None) -> int:
    """The number of first items the samples of ``test`` answer, checked against the test
    part and ``limit``."""
    total = len(suite.split(test).test)
    past = next((s for i, s in sorted(found.by_doc.items()) if i >= total), None)
    if past is not None:
        raise DataError(
            f"{past.where}: doc_id {past.doc_id} is past the end of test {test!r}, whose test "
            f"part holds {total:,} items (doc_ids 0..{total - 1}): {_EDITED}."
        )
    size = len(found.by_doc)
    expected = total if limit is None else min(limit, total)
    if sorted(found.by_doc) != list(range(size)) or size != expected:
        return _size_error(test, found, total, size, limit)
    return size


def _size_error(test: str, found: _Answers, total: int, size: int, limit: int | None) -> int:
    first = sorted(found.by_doc)
    if first != list(range(size)):
        gap = next(i for i, doc_id in enumerate(first) if doc_id != i)
        raise DataError(
            f"{found.where}: the samples of test {test!r} are not its first {size} items (no "
            f"sample of doc_id {gap}; doc_ids {first[0]}..{first[-1]}); score a whole run of "
            f"the harness."
        )
    if limit is None:
        raise DataError(
            f"{found.where}: the samples answer {size:,} of the {total:,} items of test "
            f"{test!r} (a run of the harness limited to {size}); pass `limit` {size} to score "
            f"those first items, or run the harness on every item."
        )
    raise DataError(
        f"{found.where}: the samples answer {size:,} items of test {test!r}, where `limit` "
        f"{limit} asks for {min(limit, total):,}: samples of a run with another limit."
    )
