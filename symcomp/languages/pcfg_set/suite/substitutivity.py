"""Substitutivity: synonyms ``<f>_twin`` in training, in two conditions; the test pairs inputs
with their twin-substituted versions."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable

from symcomp._util import Record
from symcomp.core.language import Language
from symcomp.data.splits import Split
from symcomp.errors import GenerationError
from symcomp.languages.pcfg_set.functions import BINARY
from symcomp.languages.pcfg_set.suite.context import Context, single_call
from symcomp.languages.pcfg_set.suite.spec import MAX_DRAWS_PER_ITEM
from symcomp.suites.common import contains_any, make_record, rng_for, tokens


def add_test(context: Context) -> None:
    """Both conditions, ``substitutivity/equally_distributed`` and ``substitutivity/primitive``,
    over the same test pairs."""
    seed = context.spec.seed
    test_records, pairs = _twin_test(context, rng_for(seed, "substitutivity-test"))
    dev = [context.records[i] for i in context.task.dev]
    train = [context.records[i] for i in context.task.train]
    conditions = {
        "equally_distributed": (
            _equally_distributed(context, train, rng_for(seed, "substitutivity-ed")),
            "half of the training occurrences of each twinned function use its twin",
        ),
        "primitive": (
            train + _primitive_twins(context, len(train), rng_for(seed, "primitive")),
            "twins occur in training only in single-function inputs",
        ),
    }
    for condition, (train_records, description) in conditions.items():
        parts = (train_records, dev, test_records)
        _write_condition(context, condition, description, parts, pairs)


def _write_condition(
    context: Context,
    condition: str,
    description: str,
    parts: tuple[list[Record], list[Record], list[Record]],
    pairs: list[dict[str, str]],
) -> None:
    name = f"substitutivity/{condition}"
    train_size, dev_size = len(parts[0]), len(parts[1])
    pool = [*parts[0], *parts[1], *parts[2]]
    split = Split.of(
        range(train_size),
        range(train_size, train_size + dev_size),
        range(train_size + dev_size, len(pool)),
        {
            "method": "synonyms",
            "condition": condition,
            "twinned": list(context.spec.twinned),
            "pairs": len(pairs),
        },
    )
    context.writer.write_records(
        f"{name}/examples.jsonl", pool, "this test's pool: its training inputs carry twins"
    )
    context.writer.write_records(
        f"{name}/pairs.jsonl",
        pairs,
        "test pairs: ids of an input and its twin-substituted version",
    )
    context.writer.add_test(
        name,
        kind="substitutivity",
        split=split,
        pool=f"{name}/examples.jsonl",
        records=pool,
        aux={"pairs": f"{name}/pairs.jsonl"},
        description=f"{description}; test: inputs and their twin versions",
    )


def _twin_test(context: Context, rng: random.Random) -> tuple[list[Record], list[dict[str, str]]]:
    """For each synonym, ``pairs_per_synonym`` test inputs with its function (drawn
    without replacement; fewer when the test set has fewer), each with the input where every
    occurrence of the function is the synonym."""
    originals: dict[str, Record] = {}
    twins: list[Record] = []
    pairs: list[dict[str, str]] = []
    test = [context.records[index] for index in context.task.test]
    for function in context.spec.twinned:
        candidates = [record for record in test if function in tokens(record)]
        chosen = rng.sample(candidates, min(context.spec.pairs_per_synonym, len(candidates)))
        for record in chosen:
            twin = _substitute(context.language, record, function.__eq__)
            originals.setdefault(str(record["id"]), record)
            twins.append(twin)
            pairs.append({"original": record["id"], "synonym": twin["id"], "function": function})
    return [*originals.values(), *twins], pairs


def _substitute(language: Language, record: Record, replace_token: Callable[[str], bool]) -> Record:
    words = [f"{t}_twin" if replace_token(t) else t for t in tokens(record)]
    return make_record(language, " ".join(words), record["output"], record["meta"])


def _equally_distributed(context: Context, train: list[Record], rng: random.Random) -> list[Record]:
    twinned = set(context.spec.twinned)

    def flip(token: str) -> bool:
        return token in twinned and rng.random() < 0.5

    return [
        _substitute(context.language, record, flip) if contains_any(record, twinned) else record
        for record in train
    ]


def _primitive_twins(context: Context, train_size: int, rng: random.Random) -> list[Record]:
    """Single-function inputs with twins, on strings new to the pool: ``primitive_fraction``
    of the training set per synonym."""
    spec, language = context.spec, context.language
    count = max(1, round(spec.primitive_fraction * train_size))
    strings = StringSource(language, context.records, rng)
    out = []
    for number in range(count * len(spec.twinned)):
        function = spec.twinned[number % len(spec.twinned)]
        arguments = [strings.draw_new() for _ in range(2 if function in BINARY else 1)]
        out.append(single_call(language, f"{function}_twin", function, arguments))
    return out


class StringSource:
    """Random PCFG SET strings (length 2..5) never used as an argument in the pool."""

    def __init__(self, language: Language, records: Iterable[Record], rng: random.Random) -> None:
        self.symbols = language.grammar.sidecar.lexicon["SYMBOL"]
        self.rng = rng
        self.used: set[tuple[str, ...]] = set()
        symbols = set(self.symbols)
        for record in records:
            run: list[str] = []
            for token in [*tokens(record), ","]:
                if token in symbols:
                    run.append(token)
                elif run:
                    self.used.add(tuple(run))
                    run = []

    def draw_new(self) -> list[str]:
        for _ in range(MAX_DRAWS_PER_ITEM):
            length = 2 + int(self.rng.random() * 4)
            candidate = tuple(
                self.symbols[int(self.rng.random() * len(self.symbols))] for _ in range(length)
            )
            if candidate not in self.used:
                self.used.add(candidate)
                return list(candidate)
        raise GenerationError(
            f"drew {MAX_DRAWS_PER_ITEM:,} strings of {len(self.symbols)} symbols and every one "
            f"was already an argument in the pool ({len(self.used):,} used); give the language "
            f"more symbols or ask for a smaller suite."
        )
