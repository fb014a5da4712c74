"""Localism (Hupkes et al. 2020, section 6.4; Neely & Talha 2020, section 4.4).

A model computes each unrolled program step by step, its own earlier outputs substituted for
``*k``; what it saw and said is a :class:`Trace`. A record is *consistent* when the last step's
prediction equals the model's prediction on the whole input. Scores of a set of traces:

consistency
    the share of consistent records (the papers' localism score), also by the depth of the
    whole input and over inputs deeper than one function (Neely & Talha's "depth > 1");
unrolled / whole accuracy
    the last step's and the whole input's prediction against the gold output;
long / short intermediate
    consistency split by whether an intermediate prediction is longer than five tokens (the
    published analysis);
local accuracy
    each step on its own: the prediction against the meaning of the step as the model saw it
    (its inputs are the model's earlier outputs), overall and per function (Neely & Talha's
    Figures 5 and 6). Steps whose input does not parse (a malformed earlier output) are
    counted apart.

Traces come from a model in the loop (:func:`run_unrolled`, steps batched across records) or
from a published trace file (:mod:`symcomp.metrics.traces`). Unlike the published script
(unseeded shuffle, first 10,000 records), every record is scored.

>>> from symcomp.suites.unroll import UnrolledRecord
>>> record = UnrolledRecord((("copy A B ", "*1"), ("reverse *1", "B A")), "reverse copy A B", "B A")
>>> scores = localism_scores([record], lambda xs: ["B A" if x.startswith("reverse") else "A B"
...                                                   for x in xs])
>>> scores["consistency"], scores["unrolled_accuracy"]
(1.0, 1.0)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from symcomp.core.language import Language
from symcomp.errors import SymcompError
from symcomp.metrics.model_interface import Model, batched
from symcomp.metrics.scores import breakdown, matches, normalise
from symcomp.suites.unroll import UnrolledRecord, substitute

LONG = 5  # tokens: intermediate outputs longer than this count as long (published analysis)


@dataclass(frozen=True)
class Trace:
    """One unrolled record as a model computed it: each step's source as the model saw it
    (earlier outputs substituted) with its prediction, and the whole input with its
    prediction."""

    steps: tuple[tuple[str, str], ...]
    source: str
    prediction: str

    @property
    def final(self) -> str:
        """The prediction of the last step: the unrolled answer."""
        return self.steps[-1][1] if self.steps else ""

    @property
    def consistent(self) -> bool:
        return matches(self.final, self.prediction)


def run_unrolled(
    records: Sequence[UnrolledRecord], model: Model, batch_size: int = 256
) -> list[Trace]:
    """Run ``model`` step by step on every record (step 1 of every record, then step 2, ...)."""
    outputs: list[dict[str, str]] = [{} for _ in records]
    steps: list[list[tuple[str, str]]] = [[] for _ in records]
    for step in range(max((len(record.steps) for record in records), default=0)):
        active = [i for i, record in enumerate(records) if step < len(record.steps)]
        sources = [substitute(records[i].steps[step][0], outputs[i]) for i in active]
        predictions = batched(model, sources, batch_size)
        for i, source, prediction in zip(active, sources, predictions, strict=True):
            steps[i].append((source, prediction))
            outputs[i][records[i].steps[step][1]] = normalise(prediction)
    whole = batched(model, [record.source for record in records], batch_size)
    return [
        Trace(tuple(done), record.source, prediction)
        for done, record, prediction in zip(steps, records, whole, strict=True)
    ]


def localism_scores(
    records: Sequence[UnrolledRecord],
    model: Model,
    batch_size: int = 256,
    language: Language | None = None,
) -> dict[str, Any]:
    """Consistency of step-by-step and whole-input predictions over ``records``
    (with ``language``: also by depth and the local accuracy of each step)."""
    if not records:
        raise ValueError("no localism records to score")
    traces = run_unrolled(records, model, batch_size)
    return trace_scores(traces, [record.target for record in records], language)


def trace_scores(
    traces: Sequence[Trace],
    targets: Sequence[str] | None,
    language: Language | None = None,
    depths: Mapping[str, int] | None = None,
) -> dict[str, Any]:
    """The localism scores of ``traces`` (gold ``targets`` per trace, else from ``language``;
    the depth of a whole input from ``depths`` by its text, else from parsing it)."""
    if not traces:
        raise ValueError("no localism traces to score")
    if targets is None and language is not None:
        targets = [language.interpret(trace.source) for trace in traces]
    consistent = [trace.consistent for trace in traces]
    long_intermediate = [
        any(len(prediction.split()) > LONG for _, prediction in trace.steps[:-1])
        for trace in traces
    ]
    report: dict[str, Any] = {
        "records": len(traces),
        "consistency": _share(consistent),
        "unrolled_accuracy": None,
        "whole_accuracy": None,
        **_split_by_length(consistent, long_intermediate),
    }
    if targets is not None:
        report["unrolled_accuracy"] = _share(list(map(matches, _finals(traces), targets)))
        report["whole_accuracy"] = _share(
            [matches(trace.prediction, gold) for trace, gold in zip(traces, targets, strict=True)]
        )
    if language is not None:
        report.update(_by_depth(traces, consistent, language, depths or {}))
        report.update(local_accuracy(traces, language))
    return report


def _finals(traces: Sequence[Trace]) -> list[str]:
    return [trace.final for trace in traces]


def _share(flags: Sequence[bool]) -> float | None:
    return sum(flags) / len(flags) if flags else None


def _split_by_length(consistent: Sequence[bool], long: Sequence[bool]) -> dict[str, Any]:
    with_long = [ok for ok, is_long in zip(consistent, long, strict=True) if is_long]
    short = [ok for ok, is_long in zip(consistent, long, strict=True) if not is_long]
    return {
        "consistency_long_intermediate": _share(with_long),
        "consistency_short_intermediate": _share(short),
        "share_long_intermediate": len(with_long) / len(consistent),
    }


def _by_depth(
    traces: Sequence[Trace],
    consistent: Sequence[bool],
    language: Language,
    known: Mapping[str, int],
) -> dict[str, Any]:
    depths = [
        known.get(trace.source) or language.measure(language.parse(trace.source), 0)["depth"]
        for trace in traces
    ]
    deeper = [ok for ok, depth in zip(consistent, depths, strict=True) if depth > 1]
    return {
        "consistency_by_depth": breakdown(depths, consistent),
        "consistency_deeper_than_1": _share(deeper),
    }


def local_accuracy(traces: Sequence[Trace], language: Language) -> dict[str, Any]:
    """Each step scored on its own against the meaning of its source (as the model saw it).

    >>> import symcomp
    >>> pcfg = symcomp.get_language("pcfg-set")
    >>> steps = (("copy A1 B1", "A1 B1"), ("reverse A1 B1", "A1 B1"))
    >>> trace = Trace(steps, "reverse copy A1 B1", "")
    >>> scores = local_accuracy([trace], pcfg)
    >>> scores["local_accuracy"], scores["local_accuracy_by_function"]["reverse"]["accuracy"]
    (0.5, 0.0)
    """
    functions: list[str] = []
    correct: list[bool] = []
    unparsable = 0
    for trace in traces:
        for source, prediction in trace.steps:
            try:
                gold = language.interpret(source)
            except SymcompError:
                unparsable += 1
                continue
            functions.append(source.split()[0])
            correct.append(matches(prediction, gold))
    return {
        "local_accuracy": _share(correct),
        "local_accuracy_by_function": breakdown(functions, correct),
        "local_steps": len(correct),
        "local_steps_unparsable": unparsable,
    }
