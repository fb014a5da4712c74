"""The task test: a random split of the pool."""

from __future__ import annotations

from symcomp.languages.pcfg_set.suite.context import Context


def add_test(context: Context) -> None:
    context.writer.add_test(
        "task",
        kind="accuracy",
        split=context.task,
        pool="examples.jsonl",
        records=context.records,
        description="random split of the pool",
    )
