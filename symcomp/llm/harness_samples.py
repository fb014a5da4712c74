"""The harness's answers read back: ``lm-eval run --log_samples`` files as predictions.

``lm-eval run ... --log_samples --output_path OUT`` writes ``samples_<task>_<date>.jsonl``
per task, a line per document: ``doc_id``, ``doc`` (the exported document, with symcomp's
``id``, ``test`` and ``suite``), ``target``, ``resps`` and ``filtered_resps``. A generated
answer is the filtered response (after ``remove_whitespace``); a multiple-choice answer is
the choice of highest log-likelihood (the first of equals, as the harness's ``acc`` takes
``argmax``).

Each file is checked against the suite before anything is scored: every document must name
a test of this suite with this suite's sha256 for it, sit at its ``doc_id`` in the test part,
and the documents of a test must be its first items; a run with ``--limit N`` holds only the
first N, which is scored only when ``limit`` says N (the report card of a part of a test is
not the test's).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from symcomp.core.steps import FIELD as STEPS
from symcomp.errors import DataError
from symcomp.metrics.predictions import Predictions, natural_key, text_lines
from symcomp.metrics.report import PredictionSource
from symcomp.suites.reading import Suite

PATTERN = "samples_*.jsonl"
_FIX = "export the suite in the lm-eval format and run the harness on it, logging its samples"


@dataclass
class _Answers:
    """What the sample files say about one test: predictions by doc_id, where each was read,
    and the fresh-words seed of the export."""

    by_doc: dict[int, tuple[str, str]] = field(default_factory=dict)  # doc_id -> (id, answer)
    written: dict[str, str] = field(default_factory=dict)  # id -> whole answer (worked steps)
    fresh_words: int | None = None
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


def harness_source(location: Path, suite: Suite, *, limit: int | None = None) -> PredictionSource:
    """The predictions of the harness sample files at ``location`` (a file or a folder of
    them), checked against ``suite``; ``limit`` scores only the first ``limit`` items of
    each test (the harness's ``--limit``).

    Raises
    ------
    DataError
        A file that is not a harness sample file of a symcomp export, a document of another
        suite or test, two answers for one item, or a run whose size is not ``limit``.
    """
    answers: dict[str, _Answers] = {}
    for path in sample_files(location):
        samples = list(_samples(path))
        if location.is_dir() and samples and not _of_suite(samples[0][1], suite):
            continue  # a harness run's folder holds the tasks of other exports too
        for number, sample in samples:
            _add(answers, sample, f"{path}:{number}", suite)
    if not answers:
        raise DataError(
            f"{location} holds no harness sample of a task exported from {suite.root}; {_FIX}."
        )
    seeds = {found.fresh_words for found in answers.values()}
    if len(seeds) > 1:
        raise DataError(
            f"{location}: the sample files come from exports with different fresh words "
            f"({', '.join(map(str, sorted(seeds, key=str)))}); score one export at a time."
        )
    per_test, limits = {}, {}
    for test, found in answers.items():
        limits[test] = _checked_size(test, found, suite, limit)
        predictions = Predictions(origin=str(location))
        for key, answer in found.by_doc.values():
            predictions.by_id[key] = answer
        per_test[test] = predictions
    return PredictionSource(
        location.name,
        per_test=per_test,
        limits=limits,
        fresh_words=seeds.pop() if seeds else None,
        written={test: found.written for test, found in answers.items() if found.written},
    )


def _samples(path: Path) -> Iterator[tuple[int, Mapping[str, Any]]]:
    lines = text_lines(path, "a harness sample file is JSON lines")
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            sample = json.loads(line)
        except (json.JSONDecodeError, RecursionError):
            raise DataError(f"{path}:{number}: not a JSON line of a harness sample file.") from None
        if not isinstance(sample, dict) or not {"doc_id", "doc", "filtered_resps"} <= set(sample):
            raise DataError(
                f"{path}:{number}: not a harness sample (it needs doc_id, doc and "
                f"filtered_resps, as the harness logs its samples)."
            )
        yield number, sample


def _of_suite(sample: Mapping[str, Any], suite: Suite) -> bool:
    """True when a sample's document is an item of one of ``suite``'s tests."""
    doc = sample["doc"]
    if not isinstance(doc, Mapping) or str(doc.get("test")) not in suite.tests:
        return False
    return bool(doc.get("suite") == suite.digest(str(doc["test"])))


def _add(answers: dict[str, _Answers], sample: Mapping[str, Any], where: str, suite: Suite) -> None:
    doc = sample["doc"]
    if not isinstance(doc, Mapping) or not {"id", "test", "suite"} <= set(doc):
        raise DataError(
            f"{where}: its document carries no symcomp test (id, test, suite): a task that "
            f"symcomp did not export; {_FIX}."
        )
    test = str(doc["test"])
    if test not in suite.tests:
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
    found = answers.setdefault(test, _Answers(fresh_words=doc.get("fresh_words"), where=where))
    index = _doc_id(sample["doc_id"], where)
    answer = _answer(sample, doc, where)
    earlier = found.by_doc.get(index)
    if earlier is not None and earlier[1] != answer:
        raise DataError(
            f"{where}: a second, different answer for item {index} of test {test!r} (the first "
            f"was in {found.where}); score one run at a time."
        )
    found.by_doc[index] = (str(doc["id"]), answer)
    if STEPS in doc:  # a worked export: the whole generation holds the model's steps
        found.written[str(doc["id"])] = _generated(sample.get("resps", ""))


def _generated(resps: Any) -> str:
    """The whole generated text of a sample (``resps``: a list per request, of one text);
    an answer the harness did not log reads as no answer, never as an error."""
    while isinstance(resps, list) and resps:
        resps = resps[0]
    return resps if isinstance(resps, str) else ""


def _doc_id(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise DataError(f"{where}: doc_id must be a non-negative integer, got {value!r}.")
    return value


def _answer(sample: Mapping[str, Any], doc: Mapping[str, Any], where: str) -> str:
    """The model's answer: the filtered generation, or the most likely choice."""
    filtered = sample["filtered_resps"]
    choices = doc.get("choices")
    if isinstance(choices, list):
        return str(choices[_most_likely(filtered, len(choices), where)])
    if isinstance(filtered, list):
        filtered = filtered[0] if filtered else None
    if not isinstance(filtered, str):
        raise DataError(f"{where}: filtered_resps holds no generated text.")
    return filtered


def _most_likely(filtered: Any, size: int, where: str) -> int:
    """argmax of the choices' log-likelihoods (the first of equals, as numpy's)."""
    try:
        scores = [float(pair[0]) for pair in filtered]
    except (TypeError, ValueError, IndexError):
        raise DataError(f"{where}: filtered_resps is not a log-likelihood per choice.") from None
    if len(scores) != size:
        raise DataError(f"{where}: {len(scores)} log-likelihoods for {size} choices.")
    return max(range(size), key=lambda i: (scores[i], -i))


def _checked_size(test: str, found: _Answers, suite: Suite, limit: int | None) -> int:
    """The number of first items the samples of ``test`` answer, checked against the test
    part and ``limit``; each document's id must be the test item's at its doc_id."""
    items = suite.test(test).test
    size = len(found.by_doc)
    expected = len(items) if limit is None else min(limit, len(items))
    if sorted(found.by_doc) != list(range(size)) or size != expected:
        return _size_error(test, found, len(items), size, limit)
    for index, (key, _) in found.by_doc.items():
        if str(items[index]["id"]) != key:
            raise DataError(
                f"{found.where}: item {index} of test {test!r} is {key!r} in the samples and "
                f"{items[index]['id']!r} in the suite: a sample file of another suite or task."
            )
    return size


def _size_error(test: str, found: _Answers, total: int, size: int, limit: int | None) -> int:
    first = sorted(found.by_doc)
    if first != list(range(size)):
        raise DataError(
            f"{found.where}: the samples of test {test!r} are not its first {size} items "
            f"(doc_ids {first[0]}..{first[-1]} with gaps); score a whole run of the harness."
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
