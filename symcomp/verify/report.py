"""The verification report (counts, tables, listed problems, exit code, JSON) and
:func:`verify_file`, the whole ``symcomp verify`` pipeline as one call.

Nothing in a report depends on timing or on the number of worker processes, so the same
data gives the same report byte for byte.

Exit codes (DESIGN.md): 0 every row agrees; 1 a row disagrees (or a cross-check does; with
``strict``, an unknown counts too); 2 bad input: a row is invalid (bad JSON, missing
column, unknown label) or, unless ``allow_unparsable``, not in the language; also 2 when no
row at all was checked (every row unparsable or invalid). An unknown row was checked and got
no verdict (the prover's budget ran out): it is not bad input, so a file of unknown rows exits 0,
or 1 with ``strict``. Texts and messages longer
than :data:`MAX_SHOWN` characters are shortened in reports.

>>> from symcomp.verify import Check, Status
>>> report = Report(source="d.jsonl", language="scan", checker="recomputation")
>>> report.add(Check(1, "a", Status.AGREE, "I_WALK", "I_WALK"))
>>> report.add(Check(2, "b", Status.DISAGREE, "I_RUN", "I_WALK", texts=(("input", "walk"),)))
>>> report.exit_code(), report.counts["disagree"]
(1, 1)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from symcomp.core.language import Language
from symcomp.data.parallel import Jobs
from symcomp.logic.constructive import STAGES
from symcomp.logic.monotone import explain_derivation
from symcomp.logic.prover import Label
from symcomp.verify import (
    Check,
    Status,
    VerifyOptions,
    checker_for,
    sample_indices,
    verify_rows,
)
from symcomp.verify.rows import data_file, guess_format, read_rows

EXIT_OK, EXIT_DISAGREE, EXIT_BAD_INPUT = 0, 1, 2
SECTIONS = (
    (Status.DISAGREE, "disagreements"),
    (Status.UNKNOWN, "unknown"),
    (Status.UNPARSABLE, "unparsable rows"),
    (Status.INVALID, "invalid rows"),
)
GROUP_ORDER = ("label", "depth")
PROGRESS_STEP = 100
MAX_SHOWN = 500  # characters of a text or message line shown in a report


def shorten(text: str, limit: int = MAX_SHOWN) -> str:
    """``text`` cut to ``limit`` characters, saying how long it was.

    >>> shorten("abcdef", limit=3)
    'abc... (6 characters in all)'
    """
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text):,} characters in all)"


@dataclass
class Report:
    """Everything ``symcomp verify`` prints, accumulated one :class:`Check` at a time."""

    source: str
    language: str
    checker: str
    options: dict[str, Any] = field(default_factory=dict)
    rows: int = 0
    counts: Counter[str] = field(default_factory=Counter)
    groups: dict[str, dict[str, Counter[str]]] = field(default_factory=dict)
    problems: list[Check] = field(default_factory=list)
    cross: Counter[str] = field(default_factory=Counter)
    cross_problems: list[Check] = field(default_factory=list)
    # decided rows whose premises have no model: the gold may hold, but the row is vacuous
    inconsistent: list[Check] = field(default_factory=list)
    explain: str | None = None  # the id (or line number) of a row to keep whatever its status
    explained: Check | None = None
    stages: Counter[str] = field(default_factory=Counter)  # rows per deciding stage

    def add(self, check: Check) -> None:
        """Count one row's check."""
        self.rows += 1
        self.counts[check.status.value] += 1
        if check.decided_by:
            self.stages[check.decided_by] += 1
        for name, value in check.groups:
            self.groups.setdefault(name, {}).setdefault(value, Counter())[check.status.value] += 1
        if check.status is not Status.AGREE:
            self.problems.append(check)
        elif check.found == Label.INCONSISTENT:
            self.inconsistent.append(check)
        if self.explain is not None and self.explain in (check.id, str(check.line)):
            self.explained = check
        if check.cross is not None:
            outcome = "agree" if check.cross.agrees else "disagree"
            if "UNKNOWN" in (check.cross.found, check.found):
                outcome = "unknown"
            self.cross[outcome] += 1
            if outcome != "agree":
                self.cross_problems.append(check)

    @property
    def verified(self) -> int:
        """Rows the checker decided: they agree or disagree."""
        return self.counts[Status.AGREE] + self.counts[Status.DISAGREE]

    def exit_code(self, *, strict: bool = False, allow_unparsable: bool = False) -> int:
        """0 all agree, 1 disagreements, 2 bad input (see the module docstring)."""
        if self.counts[Status.INVALID] or (self.counts[Status.UNPARSABLE] and not allow_unparsable):
            return EXIT_BAD_INPUT
        if self.verified + self.counts[Status.UNKNOWN] == 0:
            return EXIT_BAD_INPUT  # nothing the checker could even try
        unknown = self.counts[Status.UNKNOWN] + self.cross["unknown"]
        if self.counts[Status.DISAGREE] or self.cross["disagree"] or (strict and unknown):
            return EXIT_DISAGREE
        return EXIT_OK

    # -- JSON ------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "language": self.language,
            "checker": self.checker,
            "options": dict(self.options),
            "summary": {
                "rows": self.rows,
                "verified": self.verified,
                **{s.value: self.counts[s.value] for s in Status},
                "inconsistent_premises": len(self.inconsistent),
                "decided_by": _stage_counts(self.stages),
            },
            "groups": {
                name: {value: dict(counts) for value, counts in _sorted_values(values)}
                for name, values in self.groups.items()
            },
            "cross_check": dict(self.cross) if self.cross else None,
            "problems": [check_json(check) for check in self.problems],
            "cross_check_problems": [check_json(check) for check in self.cross_problems],
            "inconsistent_premises": [check_json(check) for check in self.inconsistent],
        }

    # -- text ------------------------------------------------------------------------------

    def format(self, max_listed: int = 100) -> str:
        """The summary table, per-group tables, cross-check line and listed problems."""
        lines = [f"verify {self.source}: language {self.language}, checker {self.checker}"]
        lines += self._summary()
        if self.stages:
            counts = _stage_counts(self.stages)
            lines.append(
                "  decided by: "
                + ", ".join(f"{stage} {count:,}" for stage, count in counts.items())
            )
        for name in sorted(self.groups, key=_group_rank):
            lines += ["", *self._group_table(name)]
        if self.cross:
            total = sum(self.cross.values())
            lines += [
                "",
                f"cross-check on {total:,} sampled rows: agree {self.cross['agree']:,}, "
                f"disagree {self.cross['disagree']:,}, unknown {self.cross['unknown']:,}",
            ]
        for status, title in SECTIONS:
            listed = [check for check in self.problems if check.status is status]
            if listed:
                lines += ["", f"{title} ({len(listed):,}):"]
                lines += _listing(listed, max_listed)
        if self.inconsistent:
            lines += ["", f"agree, but the premises have no model ({len(self.inconsistent):,}):"]
            lines += _listing(self.inconsistent, max_listed)
        if self.cross_problems:
            lines += ["", f"cross-check differences ({len(self.cross_problems):,}):"]
            lines += _listing(self.cross_problems, max_listed, cross=True)
        if self.rows and self.verified == 0:
            lines += ["", _why_none_verified(self.counts[Status.UNKNOWN])]
        return "\n".join(lines)

    def _summary(self) -> list[str]:
        lines = [f"  {'rows':<12}{self.rows:>10,}"]
        for status in Status:
            count = self.counts[status.value]
            share = f"{100 * count / self.rows:8.2f}%" if self.rows else ""
            lines.append(f"  {status.value:<12}{count:>10,}{share}")
        return lines

    def _group_table(self, name: str) -> list[str]:
        columns = [status.value for status in Status]
        header = f"  {'by ' + name:<18}{'rows':>8}" + "".join(f"{c:>12}" for c in columns)
        lines = [header]
        for value, counts in _sorted_values(self.groups[name]):
            total = sum(counts.values())
            cells = "".join(f"{counts[column]:>12,}" for column in columns)
            lines.append(f"  {value:<18}{total:>8,}{cells}")
        return lines


def _stage_counts(stages: Counter[str]) -> dict[str, int]:
    """Rows per deciding stage, in the order the stages run (every stage listed)."""
    order = [*STAGES, *sorted(set(stages) - set(STAGES))]
    return {stage: stages[stage] for stage in order} if stages else {}


def _group_rank(name: str) -> tuple[int, str]:
    return (GROUP_ORDER.index(name) if name in GROUP_ORDER else len(GROUP_ORDER), name)


def _sorted_values(values: dict[str, Counter[str]]) -> list[tuple[str, Counter[str]]]:
    def key(item: tuple[str, Counter[str]]) -> tuple[int, int, str]:
        value = item[0]
        return (0, int(value), "") if value.isdigit() else (1, 0, value)

    return sorted(values.items(), key=key)


def _listing(checks: list[Check], max_listed: int, cross: bool = False) -> list[str]:
    shown = checks if max_listed == 0 else checks[:max_listed]
    lines: list[str] = []
    for check in shown:
        lines += _describe(check, cross)
    if len(shown) < len(checks):
        lines.append(
            f"  ... and {len(checks) - len(shown):,} more (`max_listed` 0 lists all; `as_json` "
            f"writes every row)"
        )
    return lines


def _describe(check: Check, cross: bool) -> list[str]:
    head = f"  line {check.line}  id {check.id}"
    shows_found = check.status in (Status.DISAGREE, Status.UNKNOWN) or cross
    if shows_found or check.found == Label.INCONSISTENT:
        head += f"  expected {shorten(check.expected, 80) or '-'}, found {check.found or '-'}"
    if cross and check.cross is not None:
        head += f", {check.cross.prover} found {check.cross.found}"
    lines = [head]
    width = max((len(role) for role, _text in check.texts), default=0) + 1
    lines += [f"    {role + ':':<{width}} {shorten(text)}" for role, text in check.texts]
    if check.evidence:
        lines.append(f"    {'used:':<{width}} {', '.join(check.evidence)}")
    for name, model in check.models:
        lines.append(f"    {MODEL_TITLES.get(name, name)}: {shorten(model.describe(), 400)}")
    message = check.message or (check.cross.reason if cross and check.cross else "")
    if message:
        lines += ["    " + shorten(line) for line in message.splitlines()]
    return lines


STAGE_WORDS = {
    "derivation": "a one-step monotonicity derivation, and a world where both sentences hold",
    "world": "worlds built from the formulas, each confirmed by evaluation",
    "portfolio": "the solvers: z3, finite countermodels, E",
}
MODEL_TITLES = {
    "negated_hypothesis": "countermodel (premise true, hypothesis false)",
    "hypothesis": "model (premise and hypothesis true)",
}


def explain(check: Check) -> str:
    """One row's verdict and its certificate, in words (``symcomp verify --explain ID``)."""
    lines = [
        f"line {check.line}  id {check.id}: {check.status.value}; expected "
        f"{check.expected or '-'}, found {check.found or '-'}"
    ]
    lines += [f"  {role}: {text}" for role, text in check.texts]
    if check.decided_by:
        lines.append(f"  decided by: {check.decided_by} ({STAGE_WORDS.get(check.decided_by, '')})")
    if check.derivation is not None:
        proved = check.derivation.entails and check.decided_by == "derivation"
        title = "one step of monotonicity, re-checked" if proved else "no proof at the one site"
        lines.append(f"  derivation ({title}):")
        lines += [f"    {line}" for line in explain_derivation(check.derivation)]
        if check.evidence:
            lines.append(f"  proof uses: {', '.join(check.evidence)}")
    elif check.evidence:
        lines.append(f"  proof uses: {', '.join(check.evidence)} (unsat core)")
    for name, model in check.models:
        lines.append(f"  {MODEL_TITLES.get(name, name)}:")
        lines.append(f"    {model.describe()}")
    if check.message:
        lines += [f"  {line}" for line in check.message.splitlines()]
    return "\n".join(lines)


def check_json(check: Check) -> dict[str, Any]:
    """The JSON of one row's check (as ``problems`` lists it), certificates included."""
    data: dict[str, Any] = {
        "line": check.line,
        "id": check.id,
        "status": check.status.value,
        "expected": check.expected,
        "found": check.found,
        "texts": {role: shorten(text) for role, text in check.texts},
        "message": "\n".join(shorten(line) for line in check.message.splitlines()),
        "used": list(check.evidence),
    }
    if check.decided_by:
        data["decided_by"] = check.decided_by
    if check.derivation is not None:
        data["derivation"] = check.derivation.to_json()
    if check.models:
        data["models"] = {name: model.to_json() for name, model in check.models}
    if check.cross is not None:
        data["cross_check"] = {
            "prover": check.cross.prover,
            "found": check.cross.found,
            "agrees": check.cross.agrees,
            "reason": check.cross.reason,
        }
    return data


def verify_file(
    location: Path,
    language: Language,
    options: VerifyOptions,
    *,
    fmt: str | None = None,
    jobs: Jobs = 1,
    sample: int = 0,
    seed: int = 0,
    progress: Callable[[int], None] | None = None,
    explain: str | None = None,
) -> Report:
    """Check every row of a data file (or pool folder) and return the report.

    ``explain`` names a row (its id or line number) the report keeps as ``explained``.

    ``sample`` rows, chosen with ``seed``, are also checked by ``options.cross_check``.

    Raises
    ------
    DataError
        When the file cannot be read at all (missing, empty, MNLI header incomplete).
    SymcompError
        When the options do not fit the language (unknown prover, bad --labels).
    """
    path = data_file(location)
    fmt = fmt or guess_format(path)
    checker = checker_for(language, options)  # fails fast on options that do not fit
    total = sum(1 for _row in read_rows(path, fmt, checker.columns))
    cross = sample_indices(total, sample, seed) if options.cross_check and sample else frozenset()
    report = Report(
        source=str(path),
        language=language.name,
        checker=checker.name,
        options={**asdict(options), "format": fmt, "cross_check_sample": len(cross)},
        explain=explain,
    )
    rows = read_rows(path, fmt, checker.columns)
    # worker processes are forked: each gets its own copy of the checker
    checks = verify_rows(rows, lambda: checker, jobs=jobs, cross=cross)
    for count, check in enumerate(checks, start=1):
        report.add(check)
        if progress is not None and count % PROGRESS_STEP == 0:
            progress(PROGRESS_STEP)
    if progress is not None:
        progress(report.rows % PROGRESS_STEP)
    return report


def _why_none_verified(unknown: int) -> str:
    if unknown:
        return (
            "no row got a verdict: every row checked is unknown (the prover's budget ran out); "
            "raise `rlimit` or `timeout_ms` to decide them."
        )
    return "no row was verified: every row is unparsable or invalid."
