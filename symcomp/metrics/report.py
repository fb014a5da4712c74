"""Evaluate a suite: score every test from a model or from prediction files; the report card.

Each test of a suite has a kind (in its manifest) that says how it is scored:

accuracy
    sequence accuracy of the test part, by length, depth, #functions and function, and the
    share of wrong predictions that are a strict prefix of the target (``<eos>`` check).
substitutivity
    accuracy on inputs and on their synonym twins, and the consistency of the pairs.
localism
    accuracy of the test part and, with a model in the loop, the consistency of step-by-step
    and whole-input predictions, plus accuracy on the increasing-string-length corpus.
overgeneralisation
    for each checkpoint, how the exceptions are predicted (rule, exception, neither); the peak.

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
from symcomp.core.registry import get_language
from symcomp.data.parallel import Jobs, as_executor
from symcomp.errors import DataError
from symcomp.metrics.localism import localism_scores
from symcomp.metrics.models import Model, ModelContext, batched, gold_table, oracle
from symcomp.metrics.predictions import Predictions, aligned_predictions
from symcomp.metrics.scores import accuracy_report, consistency, overgeneralisation_profile
from symcomp.metrics.values import pair_report, value_report
from symcomp.suites.reading import Suite
from symcomp.suites.unroll import read_records

ModelFactory = Callable[[ModelContext], Model]


@dataclass
class PredictionSource:
    """Where predictions come from: a model (built per test, so an oracle sees that test's
    gold), or prediction files, optionally one TSV aligned with a single test, and checkpoints
    for overgeneralisation profiles."""

    name: str
    model: ModelFactory | None = None
    predictions: Predictions | None = None
    aligned: Path | None = None
    checkpoints: Sequence[Predictions | Model] = field(default_factory=list)

    @classmethod
    def of_model(cls, name: str, model: Model) -> PredictionSource:
        return cls(name, model=lambda context: model)

    @classmethod
    def oracle(cls) -> PredictionSource:
        return cls("oracle", model=lambda context: oracle(context.language, context.gold))


def evaluate_suite(
    suite: Path | Suite,
    source: PredictionSource,
    tests: Sequence[str] | None = None,
    *,
    jobs: Jobs = 1,
) -> dict[str, Any]:
    """Score ``source`` on every test of the suite (or on ``tests``); return the report card.

    ``jobs`` scores the tests (in this process by default; each test a unit of work on an
    executor: the same card either way)."""
    folder = suite if isinstance(suite, Suite) else Suite.read(suite)
    language = get_language(folder.language)
    chosen = list(tests) if tests else list(folder.tests)
    for name in chosen:
        folder.entry(name)  # an unknown name is an error before any work
    if source.aligned is not None and len(chosen) != 1:
        raise DataError("a line-aligned TSV scores one test: name it with `tests`.")
    executor = as_executor(jobs)
    if executor.in_process:
        found = [_TestScorer(folder, name, language, source).score() for name in chosen]
    else:
        found = executor.run(score_test, [(folder.root, name, source) for name in chosen])
    results = dict(zip(chosen, found, strict=True))
    return {
        "suite": str(folder.root),
        "source": source.name,
        "language": language.name,
        "tests": results,
    }


def score_test(unit: tuple[Path, str, PredictionSource]) -> dict[str, Any]:
    """One test's result: a unit of work that runs anywhere the suite is readable."""
    root, name, source = unit
    folder = Suite.read(root)
    return _TestScorer(folder, name, get_language(folder.language), source).score()


class _TestScorer:
    def __init__(self, suite: Suite, name: str, language: Language, source: PredictionSource):
        self.suite = suite
        self.name = name
        self.entry = suite.entry(name)
        self.pool = suite.pool(name)
        self.language = language
        self.source = source
        split = suite.split(name)
        self.test = [self.pool[index] for index in split.test]
        self.train = [self.pool[index] for index in split.train]
        context = ModelContext(language, gold_table(self.pool), self.train)
        self.model = source.model(context) if source.model else None

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
        return {"kind": kind, **scorer()}

    # -- predictions -----------------------------------------------------------------------

    def predict(self, records: Sequence[Record], context: str) -> list[str]:
        if self.model is not None:
            return batched(self.model, [str(r["input"]) for r in records])
        if self.source.aligned is not None:
            return aligned_predictions(self.source.aligned, records, context)
        assert self.source.predictions is not None
        return self.source.predictions.for_records(records, context)

    def optional(self, records: Sequence[Record]) -> list[str] | None:
        """Predictions for auxiliary inputs, or None when they are not available."""
        if self.model is not None:
            return batched(self.model, [str(r["input"]) for r in records])
        if self.source.predictions is None:
            return None
        found = [self.source.predictions.lookup(record) for record in records]
        return None if any(f is None for f in found) else [str(f) for f in found]

    def functions_of(self, record: Mapping[str, Any]) -> list[str]:
        if "function" in record.get("meta", {}):
            return [str(record["meta"]["function"])]
        names = self.language.functions or frozenset()
        return [token for token in str(record["input"]).split() if token in names]

    # -- kinds -----------------------------------------------------------------------------

    def accuracy(self) -> dict[str, Any]:
        if not self.test:
            return {"n": 0, "accuracy": None, "note": "empty test part"}
        predictions = self.predict(self.test, f"test {self.name!r}")
        return accuracy_report(self.test, predictions, functions=self.functions_of)

    def substitutivity(self) -> dict[str, Any]:
        pairs = self.suite.aux_records(self.name, "pairs")
        predictions = self.predict(self.test, f"test {self.name!r}")
        by_id = {str(r["id"]): (r, p) for r, p in zip(self.test, predictions, strict=True)}
        try:
            rows = [(by_id[p["original"]], by_id[p["synonym"]], p["function"]) for p in pairs]
        except KeyError as error:
            raise DataError(f"{self.name}: pair id {error} is not in the test part.") from None
        originals = [r[0][1] for r in rows]
        twins = [r[1][1] for r in rows]
        targets = [str(r[0][0]["output"]) for r in rows]
        report: dict[str, Any] = consistency(originals, twins, targets)
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
        report = self.accuracy()
        aux = self.entry.aux
        if "unrolled" in aux:
            lines = self.suite.aux_lines(self.name, "unrolled")
            records = read_records(lines, str(self.suite.aux_path(self.name, "unrolled")))
            if self.model is not None and records:
                report["localism"] = localism_scores(records, self.model)
            else:
                report["localism"] = {
                    "consistency": None,
                    "note": "needs a model in the loop",
                }
        if "increasing_length" in aux:
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
        records = [{"id": e["id"], "input": e["input"]} for e in exceptions]
        checkpoints: list[list[str]] = []
        if self.source.checkpoints:
            checkpoints = [
                p.for_records(records, f"exceptions of {self.name!r}")
                if isinstance(p, Predictions)
                else batched(p, [str(r["input"]) for r in records])
                for p in self.source.checkpoints
            ]
        else:
            single = self.optional(records)
            if single is not None:
                checkpoints = [single]
        if exceptions and not checkpoints:
            return {
                "exceptions": len(exceptions),
                "peak": None,
                "note": "needs predictions on the exceptions (a model, or per-checkpoint files)",
            }
        return overgeneralisation_profile(
            checkpoints,
            [str(e["rule_output"]) for e in exceptions],
            [str(e["exception_output"]) for e in exceptions],
        )


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


ROWS: dict[str, tuple[tuple[str, Callable[[Mapping[str, Any]], Any]], ...]] = {
    "accuracy": (("accuracy", lambda r: r.get("accuracy")),),
    "substitutivity": (
        ("consistency", lambda r: r.get("consistency")),
        ("consistent & correct", lambda r: r.get("consistent_correct")),
    ),
    "localism": (
        ("consistency", lambda r: r.get("localism", {}).get("consistency")),
        ("unrolled accuracy", lambda r: r.get("localism", {}).get("unrolled_accuracy")),
    ),
    "overgeneralisation": (
        ("peak overgeneralisation", lambda r: r.get("peak")),
        ("exceptions memorised", lambda r: r.get("final_exception")),
    ),
    "value": (("RMSE", lambda r: r.get("rmse")), ("accuracy", lambda r: r.get("accuracy"))),
    "value-pairs": (
        ("evaluation RMSE", lambda r: r["pairs"].get("evaluation")),
        ("agreement RMSE", lambda r: r["pairs"].get("agreement")),
        ("harmonic mean", lambda r: r["pairs"].get("harmonic")),
    ),
}


def card_rows(result: Mapping[str, Any]) -> list[tuple[str, float | None]]:
    """The numbers of a test on the report card: (label, value or None)."""
    return [
        (label, None if (value := read(result)) is None else float(value))
        for label, read in ROWS[str(result["kind"])]
    ]


def format_report_card(cards: Sequence[Mapping[str, Any]]) -> str:
    """One table: rows per test (a headline and, where it helps, a second number), a column
    per model or prediction source."""
    names = list(cards[0]["tests"])
    width = max(len(name) for name in names)
    label_width = max(len(label) for rows in ROWS.values() for label, _ in rows)
    header = f"{'test':<{width}}  {'score':<{label_width}}" + "".join(
        f"  {card['source']:>14}" for card in cards
    )
    lines = [header, "-" * len(header)]
    for name in names:
        per_card = [card_rows(card["tests"][name]) for card in cards]
        for row, (label, _) in enumerate(per_card[0]):
            cells = "".join(
                f"  {'n/a':>14}" if rows[row][1] is None else f"  {rows[row][1]:>14.4f}"
                for rows in per_card
            )
            lines.append(f"{name if row == 0 else '':<{width}}  {label:<{label_width}}{cells}")
    return "\n".join(lines)
