"""Evaluate a suite: score every test from a model or from prediction files; the report card.

Each test of a suite has a kind (in its manifest) that says how it is scored:

accuracy
    sequence accuracy of the test part, by length, depth, #functions and function; for a test
    whose split holds out adjacent pairs (``held_out_pairs`` in its meta) also per pair (the
    paper's Table 2); and two ``<eos>`` statistics over wrong predictions: contained in the
    target as a contiguous sub-sequence (the paper's definition) and a strict prefix.
substitutivity
    accuracy on inputs and on their synonym twins, and the consistency of the pairs (equal and
    non-empty predictions), split into consistent & correct and consistent & wrong (Table 5).
localism
    accuracy of the test part and, with a model in the loop or a published trace, the
    consistency of step-by-step and whole-input predictions, by depth of the input, and the
    local accuracy of each step per function; accuracy on the increasing-string-length corpus.
overgeneralisation
    for each checkpoint, how the exceptions are predicted (rule, exception, neither); the peak,
    over all exceptions and over the exceptions that are the pair alone (the paper's: its
    logs count only those).

Every row of the report card names the definition it uses.

The test part of every test must be predicted (a missing prediction is an error naming the
input); auxiliary corpora (localism steps, increasing length, exception checkpoints) are scored
when a model or predictions for them are available, and marked ``n/a`` otherwise.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from symcomp._util import Record
from symcomp.core.language import Language
from symcomp.data.parallel import Jobs, as_executor
from symcomp.errors import DataError
from symcomp.metrics.epoch_logs import EpochLog, epoch_profile
from symcomp.metrics.localism import Trace, localism_scores, trace_scores
from symcomp.metrics.model_interface import Model, ModelContext, batched, gold_table, oracle
from symcomp.metrics.predictions import Predictions, aligned_predictions, load_predictions
from symcomp.metrics.scores import (
    accuracy_report,
    adjacent_pair_breakdown,
    consistency,
    matches,
    overgeneralisation_profile,
)
from symcomp.metrics.values import pair_report, value_report
from symcomp.suites.reading import Suite
from symcomp.suites.unroll import read_records

ModelFactory = Callable[[ModelContext], Model]


@dataclass
class PredictionSource:
    """Where predictions come from: a model (built per test, so an oracle sees that test's
    gold), or prediction files, optionally one TSV aligned with a single test, and checkpoints
    for overgeneralisation profiles; or what published runs logged: a localism ``trace`` and an
    overgeneralisation ``epoch_log`` (for the one test they belong to)."""

    name: str
    model: ModelFactory | None = None
    predictions: Predictions | None = None
    aligned: Path | None = None
    checkpoints: Sequence[Predictions | Model] = field(default_factory=list)
    trace: Sequence[Trace] | None = None
    epoch_log: EpochLog | None = None
    # a harness's answers: predictions per test (one item's prompt differs between tests),
    # the first items answered per test (its --limit), and the fresh-words seed of the export
    per_test: Mapping[str, Predictions] | None = None
    limits: Mapping[str, int] = field(default_factory=dict)
    fresh_words: int | None = None
    # the harness's whole written answers of a worked export (test -> item id -> text), whose
    # steps are checked against the grammar (symcomp.metrics.steps)
    written: Mapping[str, Mapping[str, str]] = field(default_factory=dict)

    @classmethod
    def of_model(cls, name: str, model: Model) -> PredictionSource:
        return cls(name, model=lambda context: model)

    @classmethod
    def oracle(cls) -> PredictionSource:
        return cls("oracle", model=lambda context: oracle(context.language, context.gold))

    @classmethod
    def of_files(
        cls,
        path: Path,
        tests: Sequence[str] = (),
        checkpoints: Sequence[Predictions | Model] = (),
        *,
        fresh_words: int | None = None,
    ) -> PredictionSource:
        """Predictions read from a file or folder (:func:`load_predictions`), to score on
        ``tests`` (all when empty). A single TSV file scored on a single test is also
        aligned with it line by line: published TSVs carry no ids, so their rows are matched
        to the test's inputs; JSON lines carry ids and a folder names its tests.
        ``fresh_words`` is the seed of the export in fresh words they answer (JSON lines may
        state it too: then the two must agree)."""
        one_tsv = path.is_file() and path.suffix.lower() != ".jsonl"
        predictions = load_predictions(path)
        stated = predictions.stated_fresh_words()
        if predictions.fresh_words and fresh_words is not None and stated != fresh_words:
            raise DataError(
                f"{predictions.fresh_words[stated]}: the predictions state fresh_words "
                f"{stated}, and `fresh_words` says {fresh_words}; give one seed."
            )
        return cls(
            path.name,
            predictions=predictions,
            aligned=path if one_tsv and len(tests) == 1 else None,
            checkpoints=list(checkpoints),
            fresh_words=stated if fresh_words is None else fresh_words,
        )


def evaluate_suite(
    suite: Path | Suite,
    source: PredictionSource,
    tests: Sequence[str] | None = None,
    *,
    jobs: Jobs = 1,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Score ``source`` on every test of the suite (or on ``tests``); return the report card.

    ``jobs`` scores the tests (in this process by default; each test a unit of work on an
    executor: the same card either way); ``progress`` is told the name of each test scored
    in this process before it is scored."""
    folder = suite if isinstance(suite, Suite) else Suite.read(suite)
    language = _language(folder)
    chosen = folder.chosen(tests)  # an unknown name is an error before any work
    if source.aligned is not None and len(chosen) != 1:
        raise DataError("a line-aligned TSV scores one test: name it with `tests`.")
    executor = as_executor(jobs)
    if executor.in_process:
        say = progress or (lambda name: None)
        found = []
        for name in chosen:
            say(name)
            found.append(_TestScorer(folder, name, language, source).score())
    else:
        found = executor.run(score_test, [(folder.root, name, source) for name in chosen])
    results = dict(zip(chosen, found, strict=True))
    return {
        "suite": str(folder.root),
        "source": source.name,
        "language": language.name if language is not None else None,
        "tests": results,
    }


def score_test(unit: tuple[Path, str, PredictionSource]) -> dict[str, Any]:
    """One test's result: a unit of work that runs anywhere the suite is readable."""
    root, name, source = unit
    folder = Suite.read(root)
    return _TestScorer(folder, name, _language(folder), source).score()


def _language(folder: Suite) -> Language | None:
    """The suite's language (None for a suite over an imported pool), in fresh words when
    the suite is renamed."""
    return folder.load_language()


def _in_fresh_words(
    language: Language, pool: Sequence[Record], seed: int
) -> tuple[list[Record], Language]:
    """The pool and its language renamed with the fresh words of ``seed`` (as an export with
    that seed wrote them), in the output format the pool is written in."""
    from symcomp.core.fresh_words import as_written, rename_records

    written, _ = as_written(language, pool)
    return rename_records(written, pool, seed), written.with_fresh_words(seed)


class _TestScorer:
    def __init__(
        self, suite: Suite, name: str, language: Language | None, source: PredictionSource
    ):
        self.suite = suite
        self.name = name
        self.entry = suite.entry(name)
        self.pool = suite.pool(name)
        if source.fresh_words is not None and language is not None:
            # the harness answered the items in fresh words: score against them
            self.pool, language = _in_fresh_words(language, self.pool, source.fresh_words)
        self.language = language
        self.source = source
        split = suite.split(name)
        self.test = [self.pool[index] for index in split.test]
        if name in source.limits:  # the harness answered the first items only
            self.test = self.test[: source.limits[name]]
        self.train = [self.pool[index] for index in split.train]
        context = ModelContext(language, gold_table(self.pool), self.train)
        self.model = source.model(context) if source.model else None
        self.matched: str | None = None  # how a line-aligned file's rows met the inputs

    def score(self) -> dict[str, Any]:
        kind = self.entry.kind
        scorer = {
            "accuracy": self.accuracy,
            "substitutivity": self.substitutivity,
            "localism": self.localism,
            "overgeneralisation": self.overgeneralisation,
            "value": self.values,
            "value-pairs": self.value_pairs,
        }.get(kind)
        if scorer is None:
            raise DataError(f"{self.suite.root}: test {self.name!r} has unknown kind {kind!r}.")
        result = {"kind": kind, **scorer()}
        if self.matched is not None:
            result["matched_by"] = self.matched
        if self.name in self.source.limits:
            total = len(self.suite.split(self.name).test)
            result["limited_to"] = {"items": len(self.test), "of": total}
        if self.source.written.get(self.name) and self.language is not None:
            result["steps"] = self.steps(self.language)
        return result

    def steps(self, language: Language) -> dict[str, Any]:
        """The model's written steps checked against ``language`` (:mod:`.steps`)."""
        from symcomp.metrics.steps import steps_report

        predictions = self.predict(self.test, f"test {self.name!r}")
        return steps_report(language, self.test, predictions, self.source.written[self.name])

    # -- predictions -----------------------------------------------------------------------

    @property
    def has_predictions(self) -> bool:
        return (
            self.model is not None
            or self._file_predictions is not None
            or self.source.aligned is not None
        )

    @property
    def _file_predictions(self) -> Predictions | None:
        if self.source.per_test is not None:
            return self.source.per_test.get(self.name)
        return self.source.predictions

    def predict(self, records: Sequence[Record], context: str) -> list[str]:
        if self.model is not None:
            return batched(self.model, [str(r["input"]) for r in records])
        if self.source.aligned is not None:
            predictions, self.matched = aligned_predictions(self.source.aligned, records, context)
            return predictions
        found = self._file_predictions
        if found is None:
            raise DataError(f"{self.source.name}: no predictions for test {self.name!r}.")
        return found.for_records(records, context)

    def optional(self, records: Sequence[Record]) -> list[str] | None:
        """Predictions for auxiliary inputs, or None when they are not available."""
        if self.model is not None:
            return batched(self.model, [str(r["input"]) for r in records])
        predictions = self._file_predictions
        if predictions is None:
            return None
        found = [predictions.lookup(record) for record in records]
        return None if any(f is None for f in found) else [str(f) for f in found]

    def fresh_words_hint(self, predictions: Sequence[str]) -> str | None:
        """A warning when most predictions of a file hold words no output of the suite holds,
        in a language fresh words rename, with no seed given: the answers to an export in
        fresh words, scored against the original words, would be wrong without a word."""
        language = self.language
        if (
            self.model is not None
            or self.source.per_test is not None  # harness samples record their export's seed
            or self.source.fresh_words is not None
            or language is None
            or language.fresh_words is not None  # a renamed suite: its words are the fresh ones
            or language.renamable() is None
        ):
            return None
        known = {token for record in self.pool for token in str(record["output"]).split()}
        foreign = [t for p in predictions for t in p.split() if t not in known][:1]
        holding = sum(any(t not in known for t in p.split()) for p in predictions)
        if not foreign or 2 * holding < len(predictions):
            return None
        return (
            f"{holding:,} of the {len(predictions):,} predictions hold words that no output of "
            f"this suite holds (such as {foreign[0]!r}): the answers to an export in fresh "
            f"words? Then give its seed (`fresh_words`) to score them against its items."
        )

    def functions_of(self, record: Mapping[str, Any]) -> list[str]:
        if "function" in record.get("meta", {}):
            return [str(record["meta"]["function"])]
        names = (self.language.functions if self.language else None) or frozenset()
        return [token for token in str(record["input"]).split() if token in names]

    # -- kinds -----------------------------------------------------------------------------

    def accuracy(self) -> dict[str, Any]:
        if not self.test:
            return {"n": 0, "accuracy": None, "note": "empty test part"}
        predictions = self.predict(self.test, f"test {self.name!r}")
        report = accuracy_report(self.test, predictions, functions=self.functions_of)
        hint = self.fresh_words_hint(predictions)
        if hint:
            report["warning"] = hint
        for key in self.entry.meta.get("breakdown", ()):
            report[f"by_{key}"] = meta_breakdown(self.test, predictions, str(key))
        pairs = self.entry.meta.get("held_out_pairs")
        if pairs:
            correct = [
                matches(p, str(r["output"])) for r, p in zip(self.test, predictions, strict=True)
            ]
            report["by_held_out_pair"] = adjacent_pair_breakdown(
                [str(r["input"]) for r in self.test], correct, [(a, b) for a, b in pairs]
            )
        return report

    def substitutivity(self) -> dict[str, Any]:
        pairs = self.suite.aux_records(self.name, "pairs")
        predictions = self.predict(self.test, f"test {self.name!r}")
        by_id = {str(r["id"]): (r, p) for r, p in zip(self.test, predictions, strict=True)}
        accuracy = _share(predictions, [str(r["output"]) for r in self.test])
        if self.name in self.source.limits:  # the pairs whose two items were answered
            pairs = [p for p in pairs if p["original"] in by_id and p["synonym"] in by_id]
            if not pairs:
                note = "no pair among the items answered"
                return {"n": len(self.test), "accuracy": accuracy, "pairs": 0, "note": note}
        try:
            rows = [(by_id[p["original"]], by_id[p["synonym"]], p["function"]) for p in pairs]
        except KeyError as error:
            raise DataError(f"{self.name}: pair id {error} is not in the test part.") from None
        originals = [r[0][1] for r in rows]
        twins = [r[1][1] for r in rows]
        targets = [str(r[0][0]["output"]) for r in rows]
        report: dict[str, Any] = consistency(originals, twins, targets)
        report["accuracy"] = accuracy  # every item of the test part, paired or not
        report["accuracy_original"] = _share(originals, targets)
        report["accuracy_synonym"] = _share(twins, targets)
        report["by_function"] = {
            function: consistency(
                *zip(
                    *[
                        (a, b, t)
                        for a, b, t, f in zip(
                            originals, twins, targets, (r[2] for r in rows), strict=True
                        )
                        if f == function
                    ],
                    strict=True,
                )
            )["consistency"]
            for function in sorted({r[2] for r in rows})
        }
        return report

    def localism(self) -> dict[str, Any]:
        if self.language is None:  # localism tests come with a language's suite only
            raise DataError(f"test {self.name}: localism needs the suite's language; it has none.")
        language = self.language
        report: dict[str, Any] = {"n": len(self.test), "accuracy": None}
        if self.has_predictions:
            report = self.accuracy()
        aux = self.entry.aux
        if "unrolled" in aux:
            lines = self.suite.aux_lines(self.name, "unrolled")
            records = read_records(lines, str(self.suite.aux_path(self.name, "unrolled")))
            if self.source.trace is not None:
                gold = {" ".join(r.source.split()): r.target for r in records}
                targets = [
                    gold.get(t.source) or language.interpret(t.source) for t in self.source.trace
                ]
                depths = {
                    " ".join(str(r["input"]).split()): int(r["meta"]["depth"])
                    for r in self.pool
                    if "depth" in r.get("meta", {})
                }
                report["localism"] = trace_scores(self.source.trace, targets, self.language, depths)
            elif self.model is not None and records:
                report["localism"] = localism_scores(records, self.model, language=self.language)
            else:
                report["localism"] = {
                    "consistency": None,
                    "note": "needs a model in the loop or a published trace",
                }
        if "increasing_length" in aux and self.has_predictions:
            corpus = self.suite.aux_records(self.name, "increasing_length", examples=True)
            predictions = self.optional(corpus)
            if predictions is not None:
                report["increasing_length"] = _by_function_and_length(corpus, predictions)
        return report

    def values(self) -> dict[str, Any]:
        predictions = self.predict(self.test, f"test {self.name!r}")
        return value_report(self.test, predictions)

    def value_pairs(self) -> dict[str, Any]:
        report = self.values()
        pairs = self.suite.aux_records(self.name, "pairs")
        if self.name in self.source.limits:  # the pairs whose two items were answered
            answered = {str(record["id"]) for record in self.test}
            pairs = [p for p in pairs if {p["representative"], p["member"]} <= answered]
            if not pairs:
                return {**report, "pairs": {"pairs": 0, "note": "no pair among the items answered"}}
        by_id = {str(record["id"]): record for record in self.pool}
        needed = [
            by_id[i] for i in sorted({p[k] for p in pairs for k in ("representative", "member")})
        ]
        predictions = dict(
            zip(
                (str(r["id"]) for r in needed),
                self.predict(needed, f"pairs of {self.name!r}"),
                strict=True,
            )
        )
        return {**report, "pairs": pair_report(pairs, predictions, by_id)}

    def overgeneralisation(self) -> dict[str, Any]:
        exceptions = self.suite.aux_records(self.name, "exceptions")
        if self.source.epoch_log is not None:
            return {
                "exceptions": len(exceptions),
                "pair_only": epoch_profile(self.source.epoch_log),
                "peak": None,
                "note": "a published log holds only the accuracies on pair-only exceptions",
            }
        checkpoints = self._exception_checkpoints(exceptions)
        if exceptions and not checkpoints:
            return {
                "exceptions": len(exceptions),
                "peak": None,
                "note": "needs predictions on the exceptions (a model, or per-checkpoint files)",
            }
        rule = [str(e["rule_output"]) for e in exceptions]
        exception = [str(e["exception_output"]) for e in exceptions]
        report = overgeneralisation_profile(checkpoints, rule, exception)
        alone = [i for i, e in enumerate(exceptions) if self._pair_only(e)]
        report["pair_only"] = overgeneralisation_profile(
            [[c[i] for i in alone] for c in checkpoints],
            [rule[i] for i in alone],
            [exception[i] for i in alone],
        )
        return report

    def _exception_checkpoints(self, exceptions: Sequence[Record]) -> list[list[str]]:
        records = [{"id": e["id"], "input": e["input"]} for e in exceptions]
        if self.source.checkpoints:
            return [
                p.for_records(records, f"exceptions of {self.name!r}")
                if isinstance(p, Predictions)
                else batched(p, [str(r["input"]) for r in records])
                for p in self.source.checkpoints
            ]
        single = self.optional(records)
        return [single] if single is not None else []

    def _pair_only(self, exception: Mapping[str, Any]) -> bool:
        """True when the exception's input has no function besides its pair (the paper's
        logs count only these)."""
        pair = exception.get("pair") or ()
        return bool(pair) and len(self.functions_of({"input": exception["input"]})) == len(pair)


def _share(predictions: Sequence[str], targets: Sequence[str]) -> float:
    from symcomp.metrics.scores import matches

    return sum(map(matches, predictions, targets)) / len(targets) if targets else 0.0


def _by_function_and_length(corpus: Sequence[Record], predictions: Sequence[str]) -> dict[str, Any]:
    from symcomp.metrics.scores import breakdown, matches

    table: dict[str, Any] = {}
    for function in sorted({str(r["meta"]["function"]) for r in corpus}):
        rows = [
            (r, p)
            for r, p in zip(corpus, predictions, strict=True)
            if r["meta"]["function"] == function
        ]
        table[function] = breakdown(
            (r["meta"]["string_length"] for r, _ in rows),
            (matches(p, str(r["output"])) for r, p in rows),
        )
    return table


Row = tuple[str, float | None]


def _value(value: Any) -> float | None:
    return None if value is None else float(value)


def _accuracy_rows(result: Mapping[str, Any]) -> list[Row]:
    rows: list[Row] = [("accuracy (exact match)", _value(result.get("accuracy")))]
    for pair, cell in result.get("by_held_out_pair", {}).items():
        rows.append((f"accuracy, held-out pair {pair}", _value(cell["accuracy"])))
    if "eos_contained_share" in result:
        rows += [
            ("<eos>: wrong inside target (paper)", _value(result.get("eos_contained_share"))),
            ("<eos>: wrong = strict prefix", _value(result.get("eos_prefix_share"))),
        ]
    return rows


def _substitutivity_rows(result: Mapping[str, Any]) -> list[Row]:
    return [
        ("accuracy (exact match)", _value(result.get("accuracy"))),
        ("consistency (equal, non-empty)", _value(result.get("consistency"))),
        ("consistent & correct", _value(result.get("consistent_correct"))),
        ("consistent & wrong", _value(result.get("consistent_wrong"))),
        ("consistent among wrong pairs", _value(result.get("consistency_among_wrong"))),
    ]


def _localism_rows(result: Mapping[str, Any]) -> list[Row]:
    scores = result.get("localism", {})
    rows: list[Row] = []
    if result.get("accuracy") is not None:
        rows.append(("accuracy (exact match)", _value(result["accuracy"])))
    rows += [
        ("consistency (unrolled = whole)", _value(scores.get("consistency"))),
        ("consistency, depth > 1", _value(scores.get("consistency_deeper_than_1"))),
    ]
    for depth, cell in scores.get("consistency_by_depth", {}).items():
        rows.append((f"consistency, depth {depth}", _value(cell["accuracy"])))
    rows += [
        ("unrolled accuracy", _value(scores.get("unrolled_accuracy"))),
        ("local step accuracy", _value(scores.get("local_accuracy"))),
    ]
    for function, cell in scores.get("local_accuracy_by_function", {}).items():
        rows.append((f"local accuracy, {function}", _value(cell["accuracy"])))
    return rows


def _overgeneralisation_rows(result: Mapping[str, Any]) -> list[Row]:
    alone = result.get("pair_only", {})
    return [
        ("peak overgen., pair-only exceptions (paper)", _value(alone.get("peak"))),
        ("peak overgen., all exceptions", _value(result.get("peak"))),
        ("exceptions memorised, pair-only (last)", _value(alone.get("final_exception"))),
    ]


ROWS: dict[str, Callable[[Mapping[str, Any]], list[Row]]] = {
    "accuracy": _accuracy_rows,
    "substitutivity": _substitutivity_rows,
    "localism": _localism_rows,
    "overgeneralisation": _overgeneralisation_rows,
    "summary": lambda r: [(str(label), _value(value)) for label, value in r["rows"]],
    "value": lambda r: [("RMSE", _value(r.get("rmse"))), ("accuracy", _value(r.get("accuracy")))],
    "value-pairs": lambda r: [
        ("evaluation RMSE", _value(r["pairs"].get("evaluation"))),
        ("agreement RMSE", _value(r["pairs"].get("agreement"))),
        ("harmonic mean", _value(r["pairs"].get("harmonic"))),
    ],
}


def card_rows(result: Mapping[str, Any]) -> list[Row]:
    """The numbers of a test on the report card: (label naming its definition, value or
    None); a worked export's steps after them."""
    rows = ROWS[str(result["kind"])](result)
    if "steps" in result:
        from symcomp.metrics.steps import steps_rows

        rows += steps_rows(result["steps"])
    return rows


def format_report_card(cards: Sequence[Mapping[str, Any]]) -> str:
    """One table: rows per test (a headline and the paper's views, each labelled with its
    definition), a column per model, prediction source or run."""
    names = list(dict.fromkeys(name for card in cards for name in card["tests"]))
    per_test = {
        name: [
            dict(card_rows(card["tests"][name])) if name in card["tests"] else {} for card in cards
        ]
        for name in names
    }
    labels = {
        name: list(dict.fromkeys(label for rows in per_card for label in rows))
        for name, per_card in per_test.items()
    }
    width = max(len(name) for name in names)
    label_width = max((len(label) for found in labels.values() for label in found), default=5)
    header = f"{'test':<{width}}  {'score':<{label_width}}" + "".join(
        f"  {card['source']:>14}" for card in cards
    )
    lines = [header, "-" * len(header)]
    for name in names:
        for row, label in enumerate(labels[name]):
            cells = "".join(
                f"  {'n/a':>14}" if rows.get(label) is None else f"  {rows[label]:>14.4f}"
                for rows in per_test[name]
            )
            lines.append(f"{name if row == 0 else '':<{width}}  {label:<{label_width}}{cells}")
    return "\n".join(lines)


def meta_breakdown(
    records: Sequence[Record], predictions: Sequence[str], key: str
) -> dict[str, dict[str, Any]]:
    """Accuracy per value of ``meta[key]`` (COGS: per gen case, lexical vs structural); records
    without the key are left out.

    >>> rows = [{"output": "a", "meta": {"group": "x"}}, {"output": "b", "meta": {"group": "y"}}]
    >>> meta_breakdown(rows, ["a", "c"], "group")
    {'x': {'n': 1, 'accuracy': 1.0}, 'y': {'n': 1, 'accuracy': 0.0}}
    """
    groups: dict[str, list[bool]] = {}
    for record, prediction in zip(records, predictions, strict=True):
        value = record.get("meta", {}).get(key)
        if value is not None:
            groups.setdefault(str(value), []).append(matches(prediction, str(record["output"])))
    return {
        value: {"n": len(found), "accuracy": sum(found) / len(found)}
        for value, found in sorted(groups.items())
    }
