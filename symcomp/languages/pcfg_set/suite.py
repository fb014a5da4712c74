"""The PCFG SET suite (Hupkes, Dankers, Mul & Bruni 2020): five tests over one pool.

One pool (naturalised like the published data by default; 97,203 programs, the published
82,622 + 4,860 + 9,721) is split for each test. The ``paper`` construction (default) builds
every test as the published data has it; ``filtered-dev`` is the same except that each test's
dev set is filtered to its training condition (no held-out pair, no long input, no exception
pair), so that choosing a checkpoint on dev does not peek at the test condition (the published
tests share one unfiltered dev set).

task
    random 85/5/10.
systematicity
    test: every example with a held-out adjacent function pair; train: every other non-dev one
    (the task's train and test).
productivity
    train: at most ``threshold`` functions (default 8), test: more (of the task's train and
    test); Table 3 statistics.
substitutivity/equally_distributed, substitutivity/primitive
    synonyms ``<f>_twin``: either half of the training occurrences replaced by the twin, or the
    twins only in single-function inputs, 0.1 % of the training set per synonym (published:
    331 lines); test: for each synonym, ``pairs_per_synonym`` (2,500) task-test inputs with
    its function, each paired with the input where every occurrence of it is the synonym (an
    input can be drawn for several synonyms: published 10,000 pairs of 6,716 inputs).
localism
    the task split plus the unrolled records of the test inputs with at least two functions
    (one function has no inner step; published 9,567 of 9,721) and the increasing-string-length
    corpus (each function on strings of length 2..20).
overgeneralisation/ratio=R
    every example of the task's train and test with an exception pair is left out; ``R`` x
    (count of the pair's rarer function) of them return with exception targets, half with the
    pair alone; the test file lists them with both targets (published train 82.3-82.8k).
per_function
    every function applied to the same composed inputs (test inputs with fewer than 8
    functions for unary functions, as published; random pairs within 8 functions for binary).
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lark import Tree

from symcomp._util import Record, did_you_mean
from symcomp.core.language import Language
from symcomp.core.registry import get_language
from symcomp.core.resources import grammar_file
from symcomp.core.sidecar import RepeatSpec
from symcomp.core.suite_builder import SuiteBuilder, option
from symcomp.data.generate import PoolSpec, generate
from symcomp.data.naturalize import LengthDepthTarget
from symcomp.data.splits import Split, random_split
from symcomp.errors import GenerationError
from symcomp.languages.pcfg_set.functions import BINARY, UNARY
from symcomp.suites.common import (
    contains_any,
    has_adjacent,
    load_records,
    make_record,
    part_statistics,
    rng_for,
    tokens,
)
from symcomp.suites.folder import SuiteWriter, suite_header
from symcomp.suites.unroll import record_lines, unroll_record

Pair = tuple[str, str]
HELD_OUT_PAIRS: tuple[Pair, ...] = (
    ("swap_first_last", "repeat"),
    ("append", "remove_second"),
    ("repeat", "remove_second"),
    ("append", "swap_first_last"),
)
TWINNED = ("swap_first_last", "repeat", "append", "remove_second")
EXCEPTION_PAIRS: tuple[Pair, ...] = (
    ("reverse", "echo"),
    ("prepend", "remove_first"),
    ("echo", "remove_first"),
    ("prepend", "reverse"),
)
# Inside an exception pair each function is read as another (visible in the published data).
EXCEPTION_REMAP = {
    "reverse": "echo",
    "echo": "copy",
    "remove_first": "append",
    "prepend": "remove_second",
}
EXCEPTION_RATIOS = (0.0001, 0.0005, 0.001, 0.005)
CONSTRUCTIONS = ("paper", "filtered-dev")
# Drawn with these weights, the string arguments of a naturalised pool of the published size
# have lengths 2..5 in the published data's shares (15.9, 29.7, 27.7, 26.7 %; the published
# generator draws uniformly, but its length-2 strings ran out during its long placeholder run,
# so the programs its naturalisation kept have fewer; benchmarks/pcfgset_construction.py).
PUBLISHED_STRING_WEIGHTS = (0.163, 0.2837, 0.2763, 0.2768)
PUBLISHED_POOL = 97_203  # 82,622 train + 4,860 dev + 9,721 test unique programs
MAX_DRAWS_PER_ITEM = 10_000  # rejection sampling gives up (with an error) after this many draws


@dataclass(frozen=True)
class PcfgSetSuiteSpec:
    """Parameters of the PCFG SET suite (defaults: the paper's)."""

    n: int = option(
        PUBLISHED_POOL, "Pool size (default: the published data's unique programs).", minimum=100
    )
    seed: int = option(0, "Seed of the pool and of every split.")
    construction: str = option(
        "paper",
        "How tests are built: paper (as the published data: one shared dev set) or "
        "filtered-dev (each dev set filtered to its test's training condition).",
        choices=CONSTRUCTIONS,
    )
    naturalize: bool = option(True, "Draw the pool with PCFG SET's published length/depth profile.")
    published_string_lengths: bool = option(
        True,
        "Draw string-argument lengths 2..5 so that the pool has the published data's shares "
        "(else uniformly, as the published generator's code).",
    )
    string_length_weights: tuple[float, ...] = PUBLISHED_STRING_WEIGHTS
    fractions: tuple[float, float, float] = (0.85, 0.05, 0.10)
    held_out_pairs: tuple[Pair, ...] = option(
        HELD_OUT_PAIRS,
        'Held-out adjacent pairs for systematicity, e.g. "append repeat,echo shift" '
        "(default: the paper's four).",
        name="pairs",
        parse=lambda text: parse_pairs(text),
    )
    productivity_threshold: int = option(
        8, "Productivity: most functions in a training input.", name="threshold", minimum=1
    )
    twinned: tuple[str, ...] = TWINNED
    primitive_fraction: float = 0.001  # of the training set, per synonym
    pairs_per_synonym: int = option(
        2500, "Substitutivity: test pairs per synonym (the paper: 2,500).", minimum=1
    )
    exception_pairs: tuple[Pair, ...] = EXCEPTION_PAIRS
    exception_remap: Mapping[str, str] = field(default_factory=lambda: dict(EXCEPTION_REMAP))
    exception_ratios: tuple[float, ...] = EXCEPTION_RATIOS
    per_function: int = option(5000, "Inputs per function in the per-function test.", minimum=1)
    string_lengths: tuple[int, int] = (2, 20)
    per_length: int = 53
    jobs: int = option(1, "Worker processes (the suite is identical for any value).", minimum=1)
    export: bool = option(True, "Write .tsv/.src/.tgt files per split.")

    def describe(self) -> dict[str, Any]:
        data = {key: getattr(self, key) for key in self.__dataclass_fields__}
        data["exception_remap"] = dict(self.exception_remap)
        data.pop("jobs")
        return data


def parse_pairs(text: str) -> tuple[Pair, ...]:
    """Function pairs from ``"a b,c d"`` (each name a PCFG SET function).

    >>> parse_pairs("append repeat, echo shift")
    (('append', 'repeat'), ('echo', 'shift'))
    """
    pairs = []
    for item in text.split(","):
        words = item.split()
        if len(words) != 2:
            raise ValueError(f"a pair is two function names separated by a space, got {item!r}")
        unknown = [word for word in words if word not in (*UNARY, *BINARY)]
        if unknown:
            hint = did_you_mean(unknown[0], UNARY + BINARY)
            raise ValueError(f"{unknown[0]!r} is not a PCFG SET function{hint}")
        pairs.append((words[0], words[1]))
    return tuple(pairs)


def suite_builder() -> SuiteBuilder:
    """``symcomp suite pcfg-set``."""
    return SuiteBuilder(
        "PCFG SET's five tests (Hupkes et al. 2020) over one pool.", PcfgSetSuiteSpec, build
    )


def build(
    out: Path,
    spec: PcfgSetSuiteSpec,
    *,
    overwrite: bool = False,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Build the suite into ``out``; return its manifest."""
    language = get_language("pcfg-set")
    say = progress or (lambda message: None)
    with SuiteWriter(out, overwrite=overwrite, export=spec.export) as writer:
        say("generating the pool")
        pool_manifest = _generate_pool(language, writer, spec)
        records = load_records(writer.path("examples.jsonl"))
        writer.describe("examples.jsonl", "the shared pool of PCFG SET programs (one per line)")
        task = random_split(
            len(records),
            fractions=spec.fractions,
            seed=rng_for(spec.seed, "task"),
            meta={"method": "random", "fractions": list(spec.fractions)},
        )
        builder = _Builder(language, spec, writer, records, task)
        for name, step in (
            ("task", builder.task),
            ("systematicity", builder.systematicity),
            ("productivity", builder.productivity),
            ("substitutivity", builder.substitutivity),
            ("localism", builder.localism),
            ("overgeneralisation", builder.overgeneralisation),
            ("per_function", builder.per_function),
        ):
            say(f"building {name}")
            step()
        pool = {key: pool_manifest[key] for key in ("parameters", "limits", "filters")}
        header = suite_header("pcfg-set", language, spec.seed, spec.describe(), pool=pool)
        return writer.finish(header, "PCFG SET test suite", INTRODUCTION)


INTRODUCTION = (
    "The five compositionality tests of Hupkes et al. (2020), built by `symcomp suite pcfg-set`. "
    "Every `split.json` indexes the pool named in its `meta.pool` (CFQ layout: trainIdxs, devIdxs, "
    "testIdxs). Score a model or prediction files with `symcomp evaluate <this folder>`."
)


def _generate_pool(language: Language, writer: SuiteWriter, spec: PcfgSetSuiteSpec) -> Any:
    if spec.published_string_lengths:
        repeat = dict(language.grammar.sidecar.repeat)
        repeat["string"] = RepeatSpec.weighted(2, spec.string_length_weights)
        language = language.variant(language.name, repeat=repeat)
    target = None
    if spec.naturalize:
        default = grammar_file(language.grammar.sidecar.naturalize_target or "")
        target = LengthDepthTarget.from_json(
            json.loads(default.read_text(encoding="utf-8")), str(default)
        )
    folder = writer.path(".pool/x").parent
    manifest = generate(
        language,
        folder,
        PoolSpec(n=spec.n, seed=spec.seed, naturalize=target),
        jobs=spec.jobs,
        overwrite=True,
    )
    (folder / "examples.jsonl").replace(writer.path("examples.jsonl"))
    (folder / "manifest.json").unlink()
    folder.rmdir()
    return manifest


class _Builder:
    """Builds each test from the pool and the task split."""

    def __init__(
        self,
        language: Language,
        spec: PcfgSetSuiteSpec,
        writer: SuiteWriter,
        records: list[Record],
        task: Split,
    ) -> None:
        self.language = language
        self.spec = spec
        self.writer = writer
        self.records = records
        self.task_split = task

    def dev(self, keep: Callable[[int], bool]) -> list[int]:
        """A test's dev part: the task's dev set, filtered to the test's training condition
        unless the construction is the paper's (one shared dev set)."""
        if self.spec.construction == "paper":
            return list(self.task_split.dev)
        return [i for i in self.task_split.dev if keep(i)]

    # -- task, systematicity, productivity ---------------------------------------------------

    def task(self) -> None:
        self.writer.add_test(
            "task",
            kind="accuracy",
            split=self.task_split,
            pool="examples.jsonl",
            records=self.records,
            description="random split of the pool",
        )

    def systematicity(self) -> None:
        pairs = set(self.spec.held_out_pairs)
        held = {i for i, record in enumerate(self.records) if has_adjacent(tokens(record), pairs)}
        # as published: every non-dev example without a held-out pair trains
        split = Split.of(
            sorted(i for i in self.task_split.train + self.task_split.test if i not in held),
            self.dev(lambda i: i not in held),
            sorted(i for i in held if i not in self.task_split.dev),
            {
                "method": "held-out adjacent function pairs",
                "held_out_pairs": [list(pair) for pair in self.spec.held_out_pairs],
            },
        )
        self.writer.add_test(
            "systematicity",
            kind="accuracy",
            split=split,
            pool="examples.jsonl",
            records=self.records,
            description="train never shows the held-out adjacent pairs; every test input has one",
        )

    def productivity(self) -> None:
        threshold = self.spec.productivity_threshold
        short = [
            i
            for i in self.task_split.train + self.task_split.test
            if self.records[i]["meta"]["functions"] <= threshold
        ]
        long = [
            i
            for i in self.task_split.train + self.task_split.test
            if self.records[i]["meta"]["functions"] > threshold
        ]
        if not short or not long:
            most = max(self.records[i]["meta"]["functions"] for i in short + long)
            raise GenerationError(
                f"`threshold` {threshold} leaves the productivity "
                f"{'test' if not long else 'training set'} empty: this pool's inputs have 1 to "
                f"{most} functions; choose a threshold from 1 to {most - 1}."
            )
        dev = self.dev(lambda i: self.records[i]["meta"]["functions"] <= threshold)
        split = Split.of(
            sorted(short),
            dev,
            sorted(long),
            {"method": "number of functions", "threshold": threshold},
        )
        statistics = {
            part: part_statistics(self.records, split.part(part)) for part in ("train", "test")
        }
        split = split.with_meta(statistics=statistics)
        self.writer.write_json(
            "productivity/statistics.json",
            statistics,
            "Table 3: min/max/mean depth, length and #functions of train and test",
        )
        self.writer.add_test(
            "productivity",
            kind="accuracy",
            split=split,
            pool="examples.jsonl",
            records=self.records,
            aux={"statistics": "productivity/statistics.json"},
            description=f"train: <= {threshold} functions, test: more",
        )

    # -- substitutivity ----------------------------------------------------------------------

    def substitutivity(self) -> None:
        rng = rng_for(self.spec.seed, "substitutivity-test")
        test_records, pairs = self._twin_test(rng)
        dev = [self.records[i] for i in self.task_split.dev]
        train = [self.records[i] for i in self.task_split.train]
        conditions = {
            "equally_distributed": (
                self._equally_distributed(train, rng_for(self.spec.seed, "substitutivity-ed")),
                "half of the training occurrences of each twinned function use its twin",
            ),
            "primitive": (
                train + self._primitive_twins(len(train), rng_for(self.spec.seed, "primitive")),
                "twins occur in training only in single-function inputs",
            ),
        }
        for condition, (train_records, description) in conditions.items():
            name = f"substitutivity/{condition}"
            pool = train_records + dev + test_records
            split = Split.of(
                range(len(train_records)),
                range(len(train_records), len(train_records) + len(dev)),
                range(len(train_records) + len(dev), len(pool)),
                {
                    "method": "synonyms",
                    "condition": condition,
                    "twinned": list(self.spec.twinned),
                    "pairs": len(pairs),
                },
            )
            self.writer.write_records(
                f"{name}/examples.jsonl", pool, "this test's pool: its training inputs carry twins"
            )
            self.writer.write_records(
                f"{name}/pairs.jsonl",
                pairs,
                "test pairs: ids of an input and its twin-substituted version",
            )
            self.writer.add_test(
                name,
                kind="substitutivity",
                split=split,
                pool=f"{name}/examples.jsonl",
                records=pool,
                aux={"pairs": f"{name}/pairs.jsonl"},
                description=f"{description}; test: inputs and their twin versions",
            )

    def _twin_test(self, rng: random.Random) -> tuple[list[Record], list[dict[str, str]]]:
        """For each synonym, ``pairs_per_synonym`` test inputs with its function (drawn
        without replacement; fewer when the test set has fewer), each with the input where every
        occurrence of the function is the synonym."""
        originals: dict[str, Record] = {}
        twins: list[Record] = []
        pairs: list[dict[str, str]] = []
        test = [self.records[index] for index in self.task_split.test]
        for function in self.spec.twinned:
            candidates = [record for record in test if function in tokens(record)]
            chosen = rng.sample(candidates, min(self.spec.pairs_per_synonym, len(candidates)))
            for record in chosen:
                twin = self._substitute(record, function.__eq__)
                originals.setdefault(str(record["id"]), record)
                twins.append(twin)
                pairs.append(
                    {"original": record["id"], "synonym": twin["id"], "function": function}
                )
        return [*originals.values(), *twins], pairs

    def _substitute(self, record: Record, replace_token: Callable[[str], bool]) -> Record:
        words = [f"{t}_twin" if replace_token(t) else t for t in tokens(record)]
        return make_record(self.language, " ".join(words), record["output"], record["meta"])

    def _equally_distributed(self, train: list[Record], rng: random.Random) -> list[Record]:
        twinned = set(self.spec.twinned)

        def flip(token: str) -> bool:
            return token in twinned and rng.random() < 0.5

        return [
            self._substitute(record, flip) if contains_any(record, twinned) else record
            for record in train
        ]

    def _primitive_twins(self, train_size: int, rng: random.Random) -> list[Record]:
        """Single-function inputs with twins, on strings new to the pool: ``primitive_fraction``
        of the training set per synonym."""
        count = max(1, round(self.spec.primitive_fraction * train_size))
        strings = _StringSource(self.language, self.records, rng)
        out = []
        for number in range(count * len(self.spec.twinned)):
            function = self.spec.twinned[number % len(self.spec.twinned)]
            arguments = [strings.draw_new() for _ in range(2 if function in BINARY else 1)]
            text = f"{function}_twin " + " , ".join(" ".join(arg) for arg in arguments)
            output = _apply(self.language, function, arguments)
            meta = {
                "length": len(text.split()),
                "depth": 1,
                "functions": 1,
                "output_length": len(output),
            }
            out.append(make_record(self.language, text, " ".join(output), meta))
        return out

    # -- localism ----------------------------------------------------------------------------

    def localism(self) -> None:
        unrolled = (
            line
            for index in self.task_split.test
            if self.records[index]["meta"]["functions"] > 1  # one function: no inner step
            for line in record_lines(unroll_record(self.language, self.records[index]["input"]))
        )
        self.writer.write_text(
            "localism/unrolled_test.tsv",
            unrolled,
            "unrolled test programs of two or more functions: `unrolled<TAB>step<TAB>*k` lines "
            "(innermost first; the last carries the gold output), then "
            "`original<TAB>input<TAB>gold`",
        )
        corpus = self._increasing_length(rng_for(self.spec.seed, "increasing-length"))
        self.writer.write_records(
            "localism/increasing_length.jsonl",
            corpus,
            "each function on strings of length 2..20 (binary: the other argument 2..5)",
        )
        self.writer.add_test(
            "localism",
            kind="localism",
            split=self.task_split,
            pool="examples.jsonl",
            records=self.records,
            aux={
                "unrolled": "localism/unrolled_test.tsv",
                "increasing_length": "localism/increasing_length.jsonl",
            },
            description="the task split; a model is run step by step on the unrolled test programs",
        )

    def _increasing_length(self, rng: random.Random) -> list[Record]:
        low, high = self.spec.string_lengths
        symbols = self.language.grammar.sidecar.lexicon["SYMBOL"]

        def string(length: int) -> list[str]:
            return [symbols[int(rng.random() * len(symbols))] for _ in range(length)]

        corpus = []
        for function in UNARY + BINARY:
            for length in range(low, high + 1):
                for _ in range(self.spec.per_length):
                    arguments = [string(length)]
                    if function in BINARY:
                        other = string(2 + int(rng.random() * 4))
                        arguments = (
                            [arguments[0], other] if rng.random() < 0.5 else [other, arguments[0]]
                        )
                    text = f"{function} " + " , ".join(" ".join(arg) for arg in arguments)
                    output = _apply(self.language, function, arguments)
                    meta = {
                        "length": len(text.split()),
                        "depth": 1,
                        "functions": 1,
                        "output_length": len(output),
                        "function": function,
                        "string_length": length,
                    }
                    corpus.append(make_record(self.language, text, " ".join(output), meta))
        return corpus

    # -- overgeneralisation ------------------------------------------------------------------

    def overgeneralisation(self) -> None:
        pairs = self.spec.exception_pairs
        pair_of = {i: first_pair(record, pairs) for i, record in enumerate(self.records)}
        affected = {i for i, pair in pair_of.items() if pair is not None}
        source = sorted(self.task_split.train + self.task_split.test)  # as published
        train = [i for i in source if i not in affected]
        dev = self.dev(lambda i: i not in affected)
        counts = {
            f: sum(f in tokens(self.records[i]) for i in train) for pair in pairs for f in pair
        }
        for ratio in self.spec.exception_ratios:
            rng = rng_for(self.spec.seed, f"exceptions-{ratio}")
            exceptions = []
            for pair in pairs:
                wanted = round(ratio * min(counts[pair[0]], counts[pair[1]]))
                candidates = [i for i in source if pair_of[i] == pair]
                chosen = _short_and_long(
                    candidates,
                    self.records,
                    wanted,
                    rng,
                    functools.partial(self._is_exceptional, pair=pair),
                )
                exceptions += [self._exception(self.records[i], pair) for i in chosen]
            self._write_overgeneralisation(ratio, train, dev, exceptions, counts)

    def _is_exceptional(self, index: int, pair: Pair) -> bool:
        """An exception must differ from the rule (rare coincidences, e.g. `reverse echo A A`)."""
        record = self.records[index]
        output = exception_output(self.language, record["input"], pair, self.spec.exception_remap)
        return bool(output != record["output"])

    def _exception(self, record: Record, pair: Pair) -> dict[str, Any]:
        output = exception_output(self.language, record["input"], pair, self.spec.exception_remap)
        return {
            "id": record["id"],
            "input": record["input"],
            "rule_output": record["output"],
            "exception_output": output,
            "pair": list(pair),
            "meta": record["meta"],
        }

    def _write_overgeneralisation(
        self,
        ratio: float,
        train: list[int],
        dev: list[int],
        exceptions: list[dict[str, Any]],
        counts: Mapping[str, int],
    ) -> None:
        name = f"overgeneralisation/ratio={ratio:g}"
        exception_records = [
            {
                "id": e["id"],
                "input": e["input"],
                "output": e["exception_output"],
                "meta": {**e["meta"], "exception": True, "rule_output": e["rule_output"]},
            }
            for e in exceptions
        ]
        train_records = [self.records[i] for i in train] + exception_records
        pool = train_records + [self.records[i] for i in dev]
        split = Split.of(
            range(len(train_records)),
            range(len(train_records), len(pool)),
            [],
            {
                "method": "exceptions",
                "ratio": ratio,
                "pairs": [list(p) for p in self.spec.exception_pairs],
                "remap": dict(self.spec.exception_remap),
                "exceptions": len(exceptions),
                "function_counts": dict(counts),
            },
        )
        self.writer.write_records(
            f"{name}/examples.jsonl",
            pool,
            "this test's pool: training inputs without the exception pairs "
            "plus the exceptions (with exception targets) and dev",
        )
        self.writer.write_records(
            f"{name}/exceptions.jsonl",
            (
                {key: e[key] for key in ("id", "input", "rule_output", "exception_output", "pair")}
                for e in exceptions
            ),
            "the exceptions: input, rule (compositional) target, exception target",
        )
        self.writer.write_text(
            f"{name}/test.tsv",
            (f"{e['input']}\t{e['rule_output']}\t{e['exception_output']}" for e in exceptions),
            "the exceptions in the published layout: input<TAB>original<TAB>exception",
        )
        self.writer.add_test(
            name,
            kind="overgeneralisation",
            split=split,
            pool=f"{name}/examples.jsonl",
            records=pool,
            aux={"exceptions": f"{name}/exceptions.jsonl"},
            description=f"exceptions at ratio {ratio:g}; monitored over training checkpoints",
        )

    # -- per function ------------------------------------------------------------------------

    def per_function(self) -> None:
        rng = rng_for(self.spec.seed, "per-function")
        limit = self.spec.productivity_threshold  # composed programs stay in the train range
        test = [self.records[i] for i in self.task_split.test]
        # as published: unary functions on the test inputs of < limit functions, in order
        unary_inputs = [r for r in test if r["meta"]["functions"] < limit][: self.spec.per_function]
        pairs = _argument_pairs(test, limit, min(self.spec.per_function, len(test)), rng)
        corpus = []
        for function in UNARY:
            corpus += [self._compose(function, [record]) for record in unary_inputs]
        for function in BINARY:
            corpus += [self._compose(function, list(pair)) for pair in pairs]
        split = Split.of([], [], range(len(corpus)), {"method": "each function on the same inputs"})
        self.writer.write_records(
            "per_function/examples.jsonl",
            corpus,
            "each function applied to the same composed test inputs",
        )
        self.writer.add_test(
            "per_function",
            kind="accuracy",
            split=split,
            pool="per_function/examples.jsonl",
            records=corpus,
            description="function difficulty: every function on the same inputs",
        )

    def _compose(self, function: str, arguments: list[Record]) -> Record:
        text = f"{function} " + " , ".join(argument["input"] for argument in arguments)
        output = _apply(self.language, function, [a["output"].split() for a in arguments])
        metas = [argument["meta"] for argument in arguments]
        meta = {
            "length": len(text.split()),
            "depth": 1 + max(m["depth"] for m in metas),
            "functions": 1 + sum(m["functions"] for m in metas),
            "output_length": len(output),
            "function": function,
        }
        return make_record(self.language, text, " ".join(output), meta)


def _argument_pairs(
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


def _apply(language: Language, function: str, arguments: Sequence[Sequence[str]]) -> list[str]:
    """A function of the semantics applied to argument values (no parsing needed)."""
    result: list[str] = getattr(language.semantics, function)([list(a) for a in arguments])
    return result


def first_pair(record: Record, pairs: Sequence[Pair]) -> Pair | None:
    sequence = tokens(record)
    for pair in pairs:
        if has_adjacent(sequence, {pair}):
            return pair
    return None


def _short_and_long(
    candidates: list[int],
    records: Sequence[Record],
    wanted: int,
    rng: random.Random,
    usable: Callable[[int], bool],
) -> list[int]:
    """Half of the exceptions with exactly two functions, half longer (as published)."""
    short = [i for i in candidates if records[i]["meta"]["functions"] == 2]
    long = [i for i in candidates if records[i]["meta"]["functions"] > 2]
    rng.shuffle(short)
    rng.shuffle(long)
    # keep the shuffled order; test usability lazily, only as far as needed
    short = _first_usable(short, wanted, usable)
    long = _first_usable(long, wanted, usable)
    take_short = min(len(short), (wanted + 1) // 2)
    take_long = min(len(long), wanted - take_short)
    take_short = min(len(short), wanted - take_long)
    if take_short + take_long < wanted:
        raise GenerationError(
            f"only {len(candidates)} training examples contain the pair, fewer than the "
            f"{wanted} exceptions asked for; lower the exception ratio or enlarge the pool."
        )
    return sorted(short[:take_short] + long[:take_long])


def _first_usable(indices: list[int], wanted: int, usable: Callable[[int], bool]) -> list[int]:
    found: list[int] = []
    for index in indices:
        if len(found) == wanted:
            break
        if usable(index):
            found.append(index)
    return found


def exception_output(
    language: Language, text: str, pair: Pair, remap: Mapping[str, str] = EXCEPTION_REMAP
) -> str:
    """The exception target of an input: inside every occurrence of ``pair`` (a function whose
    first argument is the other), both functions are read as ``remap`` says.

    >>> pcfg = get_language("pcfg-set")
    >>> exception_output(pcfg, "reverse echo A1 B1", ("reverse", "echo"))
    'A1 B1 B1'
    >>> exception_output(pcfg, "prepend remove_first A1 , B1 , C1", ("prepend", "remove_first"))
    'A1 B1'
    """
    tree = language.parse(text)
    relabel: dict[int, str] = {}
    for node in tree.iter_subtrees():
        child = _first_argument_function(node)
        if node.data == pair[0] and child is not None and child.data == pair[1]:
            relabel[id(node)] = remap[pair[0]]
            relabel[id(child)] = remap[pair[1]]
    return language.render(language.evaluate(_relabelled(tree, relabel)))


def _first_argument_function(node: Tree[Any]) -> Tree[Any] | None:
    argument = node.children[0] if node.children else None
    if isinstance(argument, Tree) and argument.data == "call":
        inner = argument.children[0]
        return inner if isinstance(inner, Tree) else None
    return None


def _relabelled(tree: Tree[Any], relabel: Mapping[int, str]) -> Tree[Any]:
    """A copy of ``tree`` with the nodes named in ``relabel`` (by id) renamed."""
    children = [_relabelled(c, relabel) if isinstance(c, Tree) else c for c in tree.children]
    return Tree(relabel.get(id(tree), tree.data), children)


class _StringSource:
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
