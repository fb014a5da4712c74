"""Productivity: train on inputs of at most ``threshold`` functions, test on longer ones."""

from __future__ import annotations

from symcomp.data.splits import Split
from symcomp.errors import GenerationError
from symcomp.languages.pcfg_set.suite.context import Context
from symcomp.suites.common import part_statistics


def add_test(context: Context) -> None:
    threshold = context.spec.productivity_threshold
    records = context.records
    source = context.task.train + context.task.test
    short = [i for i in source if records[i]["meta"]["functions"] <= threshold]
    long = [i for i in source if records[i]["meta"]["functions"] > threshold]
    if not short or not long:
        most = max(records[i]["meta"]["functions"] for i in short + long)
        raise GenerationError(
            f"`threshold` {threshold} leaves the productivity "
            f"{'test' if not long else 'training set'} empty: this pool's inputs have 1 to "
            f"{most} functions; choose a threshold from 1 to {most - 1}."
        )
    dev = context.dev(lambda i: records[i]["meta"]["functions"] <= threshold)
    split = Split.of(
        sorted(short),
        dev,
        sorted(long),
        {"method": "number of functions", "threshold": threshold},
    )
    statistics = {part: part_statistics(records, split.part(part)) for part in ("train", "test")}
    split = split.with_meta(statistics=statistics)
    context.writer.write_json(
        "productivity/statistics.json",
        statistics,
        "Table 3: min/max/mean depth, length and #functions of train and test",
    )
    context.writer.add_test(
        "productivity",
        kind="accuracy",
        split=split,
        pool="examples.jsonl",
        records=records,
        aux={"statistics": "productivity/statistics.json"},
        description=f"train: <= {threshold} functions, test: more",
    )
