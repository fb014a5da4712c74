"""Verifying a dataset's labels against a language's meaning: the checker protocol and engine.

``symcomp verify`` reads rows (:mod:`symcomp.verify.rows`), hands each to the language's
*checker*, and summarises the :class:`Check` results (:mod:`symcomp.verify.report`).

The extension point
-------------------
A language chooses how its rows are checked with the hook
:meth:`~symcomp.core.language.Language.make_checker` (a :class:`Checker` for the given
:class:`VerifyOptions`, or None); :func:`checker_for` calls it.
Languages without one are checked by :class:`RecomputeChecker`: ``output ==
interpret(input)``, which covers every seq2seq language (SCAN, PCFG SET, PCFG-LET ...). The
monotonicity language proves entailment labels instead (its ``EntailmentChecker``);
a language with numeric answers would compare values (e.g. with sympy) in its own checker.
A checker must be a pure function of the row (plus the options), so results are the same
for any number of worker processes.

>>> import symcomp
>>> checker = checker_for(symcomp.get_language("scan"), VerifyOptions())
>>> check = checker.check(Row(1, {"id": "a", "input": "walk twice", "output": "I_WALK"}))
>>> check.status.value, check.found
('disagree', 'I_WALK I_WALK')
"""

from __future__ import annotations

import enum
import random
from collections.abc import Callable, Iterable, Iterator, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, replace
from typing import Any, Protocol

from symcomp.core.language import Checker as LanguageChecker
from symcomp.core.language import Language
from symcomp.data.parallel import Jobs, chunked, ordered_map, worker_state
from symcomp.errors import ParseError, SymcompError
from symcomp.logic.finite import Structure
from symcomp.logic.monotone import Derivation
from symcomp.logic.prover import DEFAULT_RLIMIT
from symcomp.verify.rows import Row

CHUNK = 100


class Status(enum.StrEnum):
    """The outcome of checking one row."""

    AGREE = "agree"  # the data's label/output is what the meaning gives
    DISAGREE = "disagree"
    UNKNOWN = "unknown"  # the checker could not decide (prover timeout ...)
    UNPARSABLE = "unparsable"  # a sentence/input is not in the language
    INVALID = "invalid"  # the row itself is malformed (bad JSON, missing column, bad label)


@dataclass(frozen=True)
class VerifyOptions:
    """Options a checker may use (a recomputation checker ignores the prover ones)."""

    prover: str = "portfolio"
    rlimit: int = DEFAULT_RLIMIT  # deterministic work budget per row (z3 resource units)
    labels: str = "auto"
    cross_check: str | None = None
    timeout_ms: int | None = None  # optional wall-clock safety net (machine-dependent)
    # read words outside a closed lexicon as fresh predicates (monotonicity: open_reader.py)
    open_vocabulary: bool = False
    # derivations and built worlds before the solvers (symcomp.logic.constructive); off:
    # the solvers decide every pair (for baselines and comparisons)
    construct: bool = True


@dataclass(frozen=True)
class CrossCheck:
    """A second prover's verdict on a sampled row, and whether it matches the first."""

    prover: str
    found: str
    agrees: bool
    reason: str = ""


@dataclass(frozen=True)
class Check:
    """What checking one row found.

    Attributes
    ----------
    line, id : int, str
        Where the row is (1-based line) and its id (``line N`` when the data has none).
    status : Status
        The outcome.
    expected, found : str
        The data's label or output, and what the checker derived.
    texts : tuple of (role, text)
        What to show for the row: premise and hypothesis, or the input.
    message : str
        Why a row is unparsable, invalid or unknown (parse errors carry a caret).
    evidence : tuple of str
        Premises and axioms the proof used (the unsat core), for NLI checkers.
    groups : tuple of (name, value)
        Keys of the summary tables, e.g. ``("label", "entailment"), ("depth", "3")``.
    cross : CrossCheck or None
        The cross-check result, for sampled rows.
    models : tuple of (str, Structure)
        Certificates of an NLI verdict: a finite world where the premise holds and the
        hypothesis does not (``negated_hypothesis``: it does not follow), and one where both
        hold (``hypothesis``: it is not contradicted), each re-checked by evaluation.
    seconds : float
        Time the checker spent (not part of the report, which must not depend on timing).
    decided_by : str
        Which stage decided an NLI verdict: ``derivation``, ``world`` or ``portfolio``
        (:mod:`symcomp.logic.constructive`); empty for other checkers and single provers.
    derivation : Derivation or None
        The checked one-step monotonicity derivation of a ``derivation`` verdict; for a
        ``world`` verdict the one site found, whose step does not entail (for explanations).
    """

    line: int
    id: str
    status: Status
    expected: str = ""
    found: str = ""
    texts: tuple[tuple[str, str], ...] = ()
    message: str = ""
    evidence: tuple[str, ...] = ()
    groups: tuple[tuple[str, str], ...] = ()
    cross: CrossCheck | None = None
    seconds: float = 0.0
    models: tuple[tuple[str, Structure], ...] = ()
    decided_by: str = ""
    derivation: Derivation | None = None


class Checker(LanguageChecker, Protocol):
    """Checks rows of one language's data (what :meth:`Language.make_checker` returns, with
    its types: a :class:`Row` in, a :class:`Check` out)."""

    def check(self, row: Row, *, cross_check: bool = False) -> Check:
        """Check one row; never raises for a bad row (report it in the Check)."""
        ...


def checker_for(language: Language, options: VerifyOptions) -> Checker:
    """The language's own checker (:meth:`Language.make_checker`), else recomputation."""
    return language.make_checker(options) or RecomputeChecker(language, options)


def invalid(row: Row, message: str, row_id: str = "") -> Check:
    """The check of a row that cannot be read."""
    return Check(row.line, row_id or f"line {row.line}", Status.INVALID, message=message)


def row_id(fields: Mapping[str, Any], line: int, keys: Iterable[str] = ("id",)) -> str:
    """The first non-empty id field, else ``line N``."""
    for key in keys:
        value = fields.get(key)
        if value not in (None, ""):
            return str(value)
    return f"line {line}"


def depth_group(fields: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    """``(("depth", d),)`` when the row's ``meta`` records a depth."""
    meta = fields.get("meta")
    if isinstance(meta, Mapping) and isinstance(meta.get("depth"), int):
        return (("depth", str(meta["depth"])),)
    return ()


class RecomputeChecker:
    """Seq2seq data: the output must equal ``language.interpret(input)``."""

    columns: tuple[str, ...] = ("input", "output")

    def __init__(self, language: Language, options: VerifyOptions) -> None:
        if options.cross_check:
            raise SymcompError(
                f"`cross_check` compares provers; {language.name} is checked by recomputing "
                f"outputs, which has no second backend. Drop `cross_check`."
            )
        self.language = language
        self.name = f"recomputation (output == interpret(input), {language.name})"

    def check(self, row: Row, *, cross_check: bool = False) -> Check:
        if row.error:
            return invalid(row, row.error)
        identifier = row_id(row.fields, row.line)
        missing = [key for key in self.columns if not isinstance(row.fields.get(key), str)]
        if missing:
            return invalid(row, f"missing or non-text field {', '.join(missing)}", identifier)
        text, expected = str(row.fields["input"]), str(row.fields["output"])
        base = Check(row.line, identifier, Status.AGREE, expected, texts=(("input", text),))
        groups = depth_group(row.fields)
        try:
            found = self.language.interpret(text)
        except ParseError as error:
            return _with(base, status=Status.UNPARSABLE, message=f"input: {error}", groups=groups)
        except SymcompError as error:
            return _with(base, status=Status.INVALID, message=str(error), groups=groups)
        status = Status.AGREE if found == expected else Status.DISAGREE
        return _with(base, status=status, found=found, groups=groups)


def _with(check: Check, **changes: Any) -> Check:
    return replace(check, **changes)


def sample_indices(total: int, k: int, seed: int) -> frozenset[int]:
    """``min(k, total)`` distinct indices of ``range(total)``, chosen with ``seed``.

    >>> sorted(sample_indices(10, 3, seed=0))
    [5, 7, 8]
    """
    rng = random.Random(seed)
    pool = list(range(total))
    for index in range(min(k, total)):
        other = index + int(rng.random() * (total - index))
        pool[index], pool[other] = pool[other], pool[index]
    return frozenset(pool[: min(k, total)])


def verify_rows(
    rows: Iterable[Row],
    make_checker: Callable[[], Checker],
    *,
    jobs: Jobs = 1,
    cross: AbstractSet[int] = frozenset(),
) -> Iterator[Check]:
    """Check every row (the ``i``-th row is cross-checked when ``i`` is in ``cross``).

    Rows go to ``jobs`` processes in chunks; checks come back in row order, so the result
    does not depend on ``jobs``. Each process builds its own checker (and prover contexts).
    """
    chunks = (
        [(index, row, index in cross) for index, row in chunk]
        for chunk in chunked(enumerate(rows), CHUNK)
    )
    state = {"make_checker": make_checker}
    for block in ordered_map(_check_chunk, chunks, jobs=jobs, state=state):
        yield from block


def _check_chunk(chunk: list[tuple[int, Row, bool]]) -> list[Check]:
    state = worker_state()
    checker: Checker | None = state.get("checker")
    if checker is None:
        checker = state["make_checker"]()
        state["checker"] = checker
    return [_check_one(checker, row, cross) for _index, row, cross in chunk]


def _check_one(checker: Checker, row: Row, cross: bool) -> Check:
    """The checker's verdict; a failure inside the checker becomes an invalid row.

    Checkers must not raise for a bad row; this is the last line of defence, so that one
    row can never stop a run (deep nesting, a bug in a third-party checker ...).
    """
    try:
        return checker.check(row, cross_check=cross)
    except SymcompError as error:
        return invalid(row, str(error))
    except RecursionError:
        return invalid(row, "the row nests too deeply to check (Python's recursion limit)")
    except Exception as error:
        return invalid(
            row,
            f"the checker failed on this row ({type(error).__name__}: {error}); please report it",
        )
