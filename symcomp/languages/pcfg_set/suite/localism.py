"""Localism: the task split, the unrolled test programs and the increasing-length corpus."""

from __future__ import annotations

import random

from symcomp._util import Record
from symcomp.languages.pcfg_set.functions import BINARY, UNARY
from symcomp.languages.pcfg_set.suite.context import Context, single_call
from symcomp.suites.common import rng_for
from symcomp.suites.unroll import record_lines, unroll_record


def add_test(context: Context) -> None:
    records, language, writer = context.records, context.language, context.writer
    unrolled = (
        line
        for index in context.task.test
        if records[index]["meta"]["functions"] > 1  # one function: no inner step
        for line in record_lines(unroll_record(language, records[index]["input"]))
    )
    writer.write_text(
        "localism/unrolled_test.tsv",
        unrolled,
        "unrolled test programs of two or more functions: `unrolled<TAB>step<TAB>*k` lines "
        "(innermost first; the last carries the gold output), then "
        "`original<TAB>input<TAB>gold`",
    )
    corpus = _increasing_length(context, rng_for(context.spec.seed, "increasing-length"))
    writer.write_records(
        "localism/increasing_length.jsonl",
        corpus,
        "each function on strings of length 2..20 (binary: the other argument 2..5)",
    )
    writer.add_test(
        "localism",
        kind="localism",
        split=context.task,
        pool="examples.jsonl",
        records=records,
        aux={
            "unrolled": "localism/unrolled_test.tsv",
            "increasing_length": "localism/increasing_length.jsonl",
        },
        description="the task split; a model is run step by step on the unrolled test programs",
    )


def _increasing_length(context: Context, rng: random.Random) -> list[Record]:
    language = context.language
    low, high = context.spec.string_lengths
    symbols = language.grammar.sidecar.lexicon["SYMBOL"]

    def string(length: int) -> list[str]:
        return [symbols[int(rng.random() * len(symbols))] for _ in range(length)]

    corpus = []
    for function in UNARY + BINARY:
        for length in range(low, high + 1):
            for _ in range(context.spec.per_length):
                arguments = [string(length)]
                if function in BINARY:
                    other = string(2 + int(rng.random() * 4))
                    arguments = (
                        [arguments[0], other] if rng.random() < 0.5 else [other, arguments[0]]
                    )
                extra = {"function": function, "string_length": length}
                corpus.append(single_call(language, function, function, arguments, **extra))
    return corpus
