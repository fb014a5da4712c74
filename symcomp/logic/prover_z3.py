"""The z3 backend: formulas over one uninterpreted sort, a fresh context per problem.

The problem is written as SMT-LIB 2 (:mod:`symcomp.logic.fol`) with one Boolean guard per named
formula (``guard => formula``) and read in a new :class:`z3.Context`, so no state leaks
between problems or processes. The refutations run with the guards as assumptions; the
unsat core (the guards z3 needed) names the premises and axioms a proof used. The second
refutation reuses the first one's solver within a deterministic resource budget and falls
back to a fresh solver when that runs out. The timeout covers the whole problem.

>>> from symcomp.logic.lambda_terms import parse_formula as f
>>> problem = Problem(
...     premises=(("premise", f("exists x.(dog(x) & ran(x))")),),
...     hypothesis=f("exists x.(animal(x) & ran(x))"),
...     axioms=(("dog_is_animal", f("all x.(dog(x) -> animal(x))")),),
... )
>>> verdict = Z3Prover().prove(problem)
>>> verdict.label.value, verdict.used
('ENTAILMENT', ('dog_is_animal', 'premise', 'negated_hypothesis'))
"""

from __future__ import annotations

import time
from types import ModuleType
from typing import Any

from symcomp.logic.fol import Formula, smtlib_declarations, to_smtlib
from symcomp.logic.prover import (
    DEFAULT_TIMEOUT_MS,
    HYPOTHESIS,
    NEGATED_HYPOTHESIS,
    Label,
    Problem,
    Refutation,
    Verdict,
    decide,
    inconsistent_reason,
    ordered_names,
)

INCREMENTAL_BUDGET = 100_000  # resource units; typical second checks use under 5,000


def _z3() -> ModuleType:
    import z3  # type: ignore[import-untyped]

    module: ModuleType = z3
    return module


class Z3Prover:
    """Decide problems with z3 (``pip install z3-solver``).

    Parameters
    ----------
    timeout_ms : int
        Wall-clock budget of one problem (both checks together).
    """

    name = "z3"

    def __init__(self, timeout_ms: int = DEFAULT_TIMEOUT_MS) -> None:
        self.timeout_ms = timeout_ms
        self.z3 = _z3()

    def prove(self, problem: Problem) -> Verdict:
        start = time.perf_counter()
        named = [*problem.relevant_axioms(), *problem.premises]
        script = _script(named, problem.hypothesis)
        z3 = self.z3
        context = z3.Context()
        guards = [z3.Bool(f"g{index}", context) for index in range(len(named))]
        labels = {f"g{index}": name for index, (name, _formula) in enumerate(named)}
        labels |= {"g_not_h": NEGATED_HYPOTHESIS, "g_h": HYPOTHESIS}
        negated, positive = z3.Bool("g_not_h", context), z3.Bool("g_h", context)

        solver = self._solver(context, script, start)
        first = self._check(solver, [*guards, negated], labels, start)
        # The second refutation reuses the solver (much cheaper than a new one) within a
        # deterministic resource budget: what it learned in the first check can mislead its
        # quantifier instantiation badly, and then a fresh solver decides in milliseconds.
        solver.set("rlimit", _resources_used(solver) + INCREMENTAL_BUDGET)
        second = self._check(solver, [*guards, positive], labels, start)
        if second[0] is Refutation.UNKNOWN and self._left_ms(start) > 0:
            second = self._check(
                self._solver(context, script, start), [*guards, positive], labels, start
            )

        label = decide(first[0], second[0])
        order = [*(name for name, _formula in named), NEGATED_HYPOTHESIS, HYPOTHESIS]
        used: tuple[str, ...] = ()
        if label is Label.ENTAILMENT:
            used = ordered_names(first[1], order)
        elif label is Label.CONTRADICTION:
            used = ordered_names(second[1], order)
        reason = ""
        if label is Label.UNKNOWN:
            reason = first[2] or second[2] or inconsistent_reason(first[0], second[0])
        return Verdict(label, reason, used, time.perf_counter() - start, self.name)

    def _left_ms(self, start: float) -> int:
        return self.timeout_ms - int((time.perf_counter() - start) * 1000)

    def _solver(self, context: Any, script: str, start: float) -> Any:
        solver = self.z3.SimpleSolver(ctx=context)
        solver.set("timeout", max(1, self._left_ms(start)))
        solver.from_string(script)
        return solver

    def _check(
        self, solver: Any, assumptions: list[Any], labels: dict[str, str], start: float
    ) -> tuple[Refutation, list[str], str]:
        """One refutation: (outcome, names in the unsat core, reason if unknown)."""
        left_ms = self._left_ms(start)
        if left_ms <= 0:
            return Refutation.UNKNOWN, [], f"timeout after {self.timeout_ms} ms"
        solver.set("timeout", left_ms)
        result = solver.check(*assumptions)
        if result == self.z3.unsat:
            core = [labels[guard.decl().name()] for guard in solver.unsat_core()]
            return Refutation.PROVED, core, ""
        if result == self.z3.sat:
            return Refutation.CONSISTENT, [], ""
        why = solver.reason_unknown()
        if why in ("timeout", "canceled"):
            why = f"timeout after {self.timeout_ms} ms"
        return Refutation.UNKNOWN, [], f"z3: {why}"


def _resources_used(solver: Any) -> int:
    """The solver's resource count so far (z3's deterministic measure of work)."""
    statistics = solver.statistics()
    keys = statistics.keys()
    return int(statistics.get_key_value("rlimit count")) if "rlimit count" in keys else 0


def _script(named: list[tuple[str, Formula]], hypothesis: Formula) -> str:
    """SMT-LIB declarations and guarded assertions of one problem."""
    lines = [smtlib_declarations([formula for _name, formula in named] + [hypothesis])]
    for index, (_name, formula) in enumerate(named):
        lines.append(f"(declare-const g{index} Bool)(assert (=> g{index} {to_smtlib(formula)}))")
    body = to_smtlib(hypothesis)
    lines.append(f"(declare-const g_not_h Bool)(assert (=> g_not_h (not {body})))")
    lines.append(f"(declare-const g_h Bool)(assert (=> g_h {body}))")
    return "\n".join(lines)
