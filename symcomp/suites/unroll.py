"""Localism: the step-by-step (post-order) computation of a program, and its record format.

A program like ``reverse shift append V12 P3 , repeat K19`` is unrolled innermost first:
children left to right, then the parent, each step written with ``*k`` standing for the
output of step ``k``. The published PCFG SET file (``localism/unrolled_test.tsv``) writes each
record as ``unrolled<TAB>source<TAB>target`` lines — targets are ``*k`` except the last, which
is the gold output — and then ``original<TAB>input<TAB>gold``. A step whose arguments are all
literal strings keeps a trailing space after its source, as in the published file.

>>> import symcomp
>>> pcfg = symcomp.get_language("pcfg-set")
>>> record = unroll_record(pcfg, "reverse append A1 B1 , repeat C1")
>>> for line in record_lines(record):
...     print(line.replace("\\t", " | "))
unrolled | repeat C1  | *1
unrolled | append A1 B1 , *1 | *2
unrolled | reverse *2 | C1 C1 B1 A1
original | reverse append A1 B1 , repeat C1 | C1 C1 B1 A1
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from lark import Tree

from symcomp.core.language import Language
from symcomp.errors import DataError

PLACEHOLDER = "*"


@dataclass(frozen=True)
class UnrolledRecord:
    """The steps of one program (source, target) and the program with its gold output."""

    steps: tuple[tuple[str, str], ...]
    source: str
    target: str


def unroll_steps(tree: Tree[Any], functions: frozenset[str]) -> list[str]:
    """Sources of the post-order steps of a derivation; step k's output is ``*k``.

    Function nodes are the labels in ``functions``; an argument is either a nested function
    (possibly wrapped in a single-child node such as ``call``) or a literal whose tokens are
    written as they are.
    """
    steps: list[str] = []

    def visit(node: Tree[Any]) -> str:
        arguments = [argument_text(child) for child in node.children if isinstance(child, Tree)]
        source = f"{node.data} " + " , ".join(arguments)
        literal_only = not any(a.startswith(PLACEHOLDER) for a in arguments)
        steps.append(source + " " if literal_only else source)
        return f"{PLACEHOLDER}{len(steps)}"

    def argument_text(node: Tree[Any]) -> str:
        inner = node
        while (
            inner.data not in functions
            and len(inner.children) == 1
            and isinstance(inner.children[0], Tree)
        ):
            inner = inner.children[0]  # pass-through wrappers such as `call`
        if inner.data in functions:
            return visit(inner)
        return " ".join(str(token) for token in node.scan_values(lambda v: not isinstance(v, Tree)))

    visit(_outermost_function(tree, functions))
    return steps


def _outermost_function(tree: Tree[Any], functions: frozenset[str]) -> Tree[Any]:
    stack = [tree]
    while stack:
        node = stack.pop()
        if node.data in functions:
            return node
        stack.extend(reversed([c for c in node.children if isinstance(c, Tree)]))
    raise DataError("the program contains no function to unroll.")


def unroll_record(language: Language, text: str) -> UnrolledRecord:
    """The published localism record of an input of a function language."""
    if language.functions is None:
        raise DataError(f"{language.name} names no functions ([metrics] functions); cannot unroll.")
    tree = language.parse(text)
    gold = language.render(language.evaluate(tree))
    sources = unroll_steps(tree, language.functions)
    targets = [f"{PLACEHOLDER}{k}" for k in range(1, len(sources))] + [gold]
    return UnrolledRecord(tuple(zip(sources, targets, strict=True)), text, gold)


def record_lines(record: UnrolledRecord) -> Iterator[str]:
    """The TSV lines of one record (without newlines)."""
    for source, target in record.steps:
        yield f"unrolled\t{source}\t{target}"
    yield f"original\t{record.source}\t{record.target}"


def read_records(lines: Iterable[str], source: str = "records") -> list[UnrolledRecord]:
    """Parse localism records back from their lines (errors name the line)."""
    records, steps = [], []
    for number, line in enumerate(lines, start=1):
        fields = line.rstrip("\n").split("\t")
        if len(fields) != 3 or fields[0] not in ("unrolled", "original"):
            raise DataError(
                f"{source}:{number}: expected `unrolled|original<TAB>source<TAB>target`, got "
                f"{len(fields)} column(s) starting {fields[0][:20]!r}."
            )
        kind, text, target = fields
        if kind == "unrolled":
            steps.append((text, target))
            continue
        if not steps:
            raise DataError(f"{source}:{number}: an `original` line without `unrolled` steps.")
        records.append(UnrolledRecord(tuple(steps), text, target))
        steps = []
    if steps:
        raise DataError(f"{source}: the last record has steps but no `original` line.")
    return records


def substitute(step: str, outputs: dict[str, str]) -> str:
    """A step's source with each ``*k`` replaced by the output of step k, spaces normalised.

    >>> substitute("append A1 , *1 ", {"*1": "B2 C3"})
    'append A1 , B2 C3'
    """
    return " ".join(outputs.get(token, token) for token in step.split())
