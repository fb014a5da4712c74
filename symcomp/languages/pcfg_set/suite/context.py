"""What every test of the PCFG SET suite is built from: the pool, the task split, the spec and
the folder being written."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from symcomp._util import Record
from symcomp.core.language import Language
from symcomp.data.splits import Split
from symcomp.languages.pcfg_set.suite.spec import PcfgSetSuiteSpec
from symcomp.suites.common import make_record
from symcomp.suites.folder import SuiteWriter


@dataclass(frozen=True)
class Context:
    """The pool's ``records`` and the ``task`` split over them, which every test starts from."""

    language: Language
    spec: PcfgSetSuiteSpec
    writer: SuiteWriter
    records: list[Record]
    task: Split

    def dev(self, keep: Callable[[int], bool]) -> list[int]:
        """A test's dev part: the task's dev set, filtered to the test's training condition
        unless the construction is the paper's (one shared dev set)."""
        if self.spec.construction == "paper":
            return list(self.task.dev)
        return [i for i in self.task.dev if keep(i)]


def apply_function(
    language: Language, function: str, arguments: Sequence[Sequence[str]]
) -> list[str]:
    """A function of the semantics applied to argument values (no parsing needed)."""
    result: list[str] = getattr(language.semantics, function)([list(a) for a in arguments])
    return result


def single_call(
    language: Language,
    shown: str,
    function: str,
    arguments: Sequence[Sequence[str]],
    /,
    **extra: Any,
) -> Record:
    """The record of one function on literal strings: the input names it ``shown`` (its twin,
    say), the output is ``function``'s; ``extra`` goes into the meta."""
    text = f"{shown} " + " , ".join(" ".join(arg) for arg in arguments)
    output = apply_function(language, function, arguments)
    meta = {
        "length": len(text.split()),
        "depth": 1,
        "functions": 1,
        "output_length": len(output),
        **extra,
    }
    return make_record(language, text, " ".join(output), meta)
