"""Localism with a model in the loop (Hupkes et al. 2020, section 6.4).

For each unrolled record the model computes the program step by step, its own earlier outputs
substituted for ``*k``; the record is *consistent* when the last step's prediction equals the
model's prediction on the whole input. Also reported: the accuracy of the unrolled answer, and
consistency split by whether any intermediate prediction is longer than five tokens (the
published analysis). Steps are batched across records: step 1 of every record, then step 2, …

Unlike the published script (unseeded shuffle, first 10,000 records), every record is scored.

>>> from symcomp.suites.unroll import UnrolledRecord
>>> record = UnrolledRecord((("copy A B ", "*1"), ("reverse *1", "B A")), "reverse copy A B", "B A")
>>> scores = localism_scores([record], lambda xs: ["B A" if x.startswith("reverse") else "A B"
...                                                   for x in xs])
>>> scores["consistency"], scores["unrolled_accuracy"]
(1.0, 1.0)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from symcomp.metrics.models import Model, batched
from symcomp.metrics.scores import matches, normalise
from symcomp.suites.unroll import UnrolledRecord, substitute

LONG = 5  # tokens: intermediate outputs longer than this count as long (published analysis)


def localism_scores(
    records: Sequence[UnrolledRecord], model: Model, batch_size: int = 256
) -> dict[str, Any]:
    """Consistency of step-by-step and whole-input predictions over ``records``."""
    if not records:
        raise ValueError("no localism records to score")
    outputs: list[dict[str, str]] = [{} for _ in records]
    finals: list[str] = [""] * len(records)
    long_intermediate = [False] * len(records)
    for step in range(max(len(record.steps) for record in records)):
        active = [i for i, record in enumerate(records) if step < len(record.steps)]
        sources = [substitute(records[i].steps[step][0], outputs[i]) for i in active]
        for i, prediction in zip(active, batched(model, sources, batch_size), strict=True):
            placeholder = records[i].steps[step][1]
            if step == len(records[i].steps) - 1:
                finals[i] = prediction
            else:
                outputs[i][placeholder] = normalise(prediction)
                long_intermediate[i] |= len(prediction.split()) > LONG
    whole = batched(model, [record.source for record in records], batch_size)
    consistent = [matches(a, b) for a, b in zip(finals, whole, strict=True)]
    long = [ok for ok, is_long in zip(consistent, long_intermediate, strict=True) if is_long]
    short = [ok for ok, is_long in zip(consistent, long_intermediate, strict=True) if not is_long]
    return {
        "records": len(records),
        "consistency": sum(consistent) / len(records),
        "unrolled_accuracy": sum(map(matches, finals, (r.target for r in records))) / len(records),
        "whole_accuracy": sum(map(matches, whole, (r.target for r in records))) / len(records),
        "consistency_long_intermediate": sum(long) / len(long) if long else None,
        "consistency_short_intermediate": sum(short) / len(short) if short else None,
        "share_long_intermediate": len(long) / len(records),
    }
