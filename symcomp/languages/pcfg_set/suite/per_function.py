"""Per function: every function applied to the same composed test inputs."""

from __future__ import annotations

import random
from collections.abc import Sequence

from symcomp._util import Record
from symcomp.core.language import Language
from symcomp.data.splits import Split
from symcomp.errors import GenerationError
from symcomp.languages.pcfg_set.functions import BINARY, UNARY
from symcomp.languages.pcfg_set.suite.context import Context, apply_function
from symcomp.languages.pcfg_set.suite.spec import MAX_DRAWS_PER_ITEM
from symcomp.suites.common import make_record, rng_for


def add_test(context: Context) -> None:
    spec, language = context.spec, context.language
    rng = rng_for(spec.seed, "per-function")
    limit = spec.productivity_threshold  # composed programs stay in the train range
    test = [context.records[i] for i in context.task.test]
    # as published: unary functions on the test inputs of < limit functions, in order
    unary_inputs = [r for r in test if r["meta"]["functions"] < limit][: spec.per_function]
    pairs = argument_pairs(test, limit, min(spec.per_function, len(test)), rng)
    corpus = []
    for function in UNARY:
        corpus += [_compose(language, function, [record]) for record in unary_inputs]
    for function in BINARY:
        corpus += [_compose(language, function, list(pair)) for pair in pairs]
    split = Split.of([], [], range(len(corpus)), {"method": "each function on the same inputs"})
    context.writer.write_records(
        "per_function/examples.jsonl",
        corpus,
        "each function applied to the same composed test inputs",
    )
    context.writer.add_test(
        "per_function",
        kind="accuracy",
        split=split,
        pool="per_function/examples.jsonl",
        records=corpus,
        description="function difficulty: every function on the same inputs",
    )


def _compose(language: Language, function: str, arguments: list[Record]) -> Record:
    text = f"{function} " + " , ".join(argument["input"] for argument in arguments)
    output = apply_function(language, function, [a["output"].split() for a in arguments])
    metas = [argument["meta"] for argument in arguments]
    meta = {
        "length": len(text.split()),
        "depth": 1 + max(m["depth"] for m in metas),
        "functions": 1 + sum(m["functions"] for m in metas),
        "output_length": len(output),
        "function": function,
    }
    return make_record(language, text, " ".join(output), meta)


def argument_pairs(
    test: Sequence[Record], limit: int, count: int, rng: random.Random
) -> list[tuple[Record, Record]]:
    """Random pairs (X, Y) of test inputs with 1 + f(X) + f(Y) <= limit functions.

    The published binary files pair test inputs of mostly two functions each by a rule that
    cannot be recovered from the data; this keeps the composed program in the training range.
    """
    small = [r for r in test if r["meta"]["functions"] <= limit - 2]
    pairs: list[tuple[Record, Record]] = []
    budget = MAX_DRAWS_PER_ITEM * count
    while len(small) >= 2 and len(pairs) < count:
        if budget == 0:
            raise GenerationError(
                f"found only {len(pairs):,} of {count:,} pairs of test inputs that compose to at "
                f"most {limit} functions in {MAX_DRAWS_PER_ITEM * count:,} draws; ask for fewer "
                f"(`per_function`) or a larger pool (`n`)."
            )
        budget -= 1
        x, y = rng.sample(small, 2)
        if 1 + x["meta"]["functions"] + y["meta"]["functions"] <= limit:
            pairs.append((x, y))
    return pairs
