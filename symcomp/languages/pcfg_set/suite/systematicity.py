"""Systematicity: every example with a held-out adjacent function pair is tested."""

from __future__ import annotations

from symcomp.data.splits import Split
from symcomp.languages.pcfg_set.suite.context import Context
from symcomp.suites.common import has_adjacent, tokens


def add_test(context: Context) -> None:
    pairs = set(context.spec.held_out_pairs)
    held = {i for i, record in enumerate(context.records) if has_adjacent(tokens(record), pairs)}
    task = context.task
    # as published: every non-dev example without a held-out pair trains
    split = Split.of(
        sorted(i for i in task.train + task.test if i not in held),
        context.dev(lambda i: i not in held),
        sorted(i for i in held if i not in task.dev),
        {
            "method": "held-out adjacent function pairs",
            "held_out_pairs": [list(pair) for pair in context.spec.held_out_pairs],
        },
    )
    context.writer.add_test(
        "systematicity",
        kind="accuracy",
        split=split,
        pool="examples.jsonl",
        records=context.records,
        description="train never shows the held-out adjacent pairs; every test input has one",
    )
