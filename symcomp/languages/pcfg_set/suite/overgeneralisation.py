"""Overgeneralisation: exceptions to the exception pairs' compositional meaning, at several
ratios, for profiles over training checkpoints."""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from lark import Tree

from symcomp._util import Record
from symcomp.core.language import Language
from symcomp.data.splits import Split
from symcomp.errors import GenerationError
from symcomp.languages.pcfg_set.suite.context import Context
from symcomp.languages.pcfg_set.suite.spec import EXCEPTION_REMAP, Pair
from symcomp.suites.common import has_adjacent, rng_for, tokens


def add_test(context: Context) -> None:
    """One test per exception ratio, ``overgeneralisation/ratio=R``."""
    records, spec = context.records, context.spec
    pairs = spec.exception_pairs
    pair_of = {i: first_pair(record, pairs) for i, record in enumerate(records)}
    affected = {i for i, pair in pair_of.items() if pair is not None}
    source = sorted(context.task.train + context.task.test)  # as published
    train = [i for i in source if i not in affected]
    dev = context.dev(lambda i: i not in affected)
    counts = {f: sum(f in tokens(records[i]) for i in train) for pair in pairs for f in pair}
    for ratio in spec.exception_ratios:
        rng = rng_for(spec.seed, f"exceptions-{ratio}")
        exceptions = []
        for pair in pairs:
            wanted = round(ratio * min(counts[pair[0]], counts[pair[1]]))
            candidates = [i for i in source if pair_of[i] == pair]
            chosen = _short_and_long(
                candidates,
                records,
                wanted,
                rng,
                functools.partial(_is_exceptional, context, pair=pair),
            )
            exceptions += [_exception(context, records[i], pair) for i in chosen]
        _write_ratio(context, ratio, train, dev, exceptions, counts)


def _is_exceptional(context: Context, index: int, pair: Pair) -> bool:
    """An exception must differ from the rule (rare coincidences, e.g. `reverse echo A A`)."""
    record = context.records[index]
    remap = context.spec.exception_remap
    output = exception_output(context.language, record["input"], pair, remap)
    return bool(output != record["output"])


def _exception(context: Context, record: Record, pair: Pair) -> dict[str, Any]:
    remap = context.spec.exception_remap
    output = exception_output(context.language, record["input"], pair, remap)
    return {
        "id": record["id"],
        "input": record["input"],
        "rule_output": record["output"],
        "exception_output": output,
        "pair": list(pair),
        "meta": record["meta"],
    }


def _write_ratio(
    context: Context,
    ratio: float,
    train: list[int],
    dev: list[int],
    exceptions: list[dict[str, Any]],
    counts: Mapping[str, int],
) -> None:
    name = f"overgeneralisation/ratio={ratio:g}"
    records, writer = context.records, context.writer
    exception_records = [
        {
            "id": e["id"],
            "input": e["input"],
            "output": e["exception_output"],
            "meta": {**e["meta"], "exception": True, "rule_output": e["rule_output"]},
        }
        for e in exceptions
    ]
    train_records = [records[i] for i in train] + exception_records
    pool = train_records + [records[i] for i in dev]
    split = Split.of(
        range(len(train_records)),
        range(len(train_records), len(pool)),
        [],
        {
            "method": "exceptions",
            "ratio": ratio,
            "pairs": [list(p) for p in context.spec.exception_pairs],
            "remap": dict(context.spec.exception_remap),
            "exceptions": len(exceptions),
            "function_counts": dict(counts),
        },
    )
    writer.write_records(
        f"{name}/examples.jsonl",
        pool,
        "this test's pool: training inputs without the exception pairs "
        "plus the exceptions (with exception targets) and dev",
    )
    _write_exceptions(context, name, exceptions)
    writer.add_test(
        name,
        kind="overgeneralisation",
        split=split,
        pool=f"{name}/examples.jsonl",
        records=pool,
        aux={"exceptions": f"{name}/exceptions.jsonl"},
        description=f"exceptions at ratio {ratio:g}; monitored over training checkpoints",
    )


def _write_exceptions(context: Context, name: str, exceptions: list[dict[str, Any]]) -> None:
    context.writer.write_records(
        f"{name}/exceptions.jsonl",
        (
            {key: e[key] for key in ("id", "input", "rule_output", "exception_output", "pair")}
            for e in exceptions
        ),
        "the exceptions: input, rule (compositional) target, exception target",
    )
    context.writer.write_text(
        f"{name}/test.tsv",
        (f"{e['input']}\t{e['rule_output']}\t{e['exception_output']}" for e in exceptions),
        "the exceptions in the published layout: input<TAB>original<TAB>exception",
    )


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

    >>> from symcomp.core.registry import get_language
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
