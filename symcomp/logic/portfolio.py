"""The default prover: z3, then finite countermodels, then E; every verdict with its evidence.

A problem is two checks: premises + axioms + ``not hypothesis`` (unsatisfiable: the hypothesis
follows) and premises + axioms + ``hypothesis`` (unsatisfiable: it is contradicted). For each:

1. z3 decides it under its deterministic resource limit (``rlimit``): an unsat core names what
   a proof used; a satisfiable check comes with z3's model, which is read back as a finite
   :class:`~symcomp.logic.finite.Structure` and checked with symcomp's own evaluator.
2. A satisfiable check whose model cannot be read back (more than 12 elements), and a check z3
   leaves unknown, go to the finite search (:func:`symcomp.logic.finite.find_model`: SAT over
   domains of 1 to 8 elements, or the largest numeral). A structure found is the certificate.
   None found proves nothing (a model may need more elements), so:
3. A check still unknown gets z3 again, alone, with 8 times the budget (deeply nested numerals
   need long proofs), then the E prover under its clause limit (deterministic).

So a non-entailment always comes with a world in which the premises hold and the hypothesis
does not (``negated_hypothesis``), and a non-contradiction with one in which both hold
(``hypothesis``), each re-checked by evaluation, never trusted from a solver. Every budget is a
count of steps (z3 resource units, E clauses, domain sizes), never a clock: the same verdict on
any machine, under any load, for any ``--jobs``.

>>> from symcomp.logic.lambda_terms import parse_formula as f
>>> problem = Problem(
...     premises=(("premise", f("exists x.(dog(x) & ran(x))")),),
...     hypothesis=f("exists x.(cat(x) & ran(x))"),
... )
>>> verdict = PortfolioProver().prove(problem)
>>> verdict.label.value, [name for name, _model in verdict.models]
('NEUTRAL', ['negated_hypothesis', 'hypothesis'])
>>> from symcomp.logic.finite import holds
>>> holds(problem.hypothesis, dict(verdict.models)["negated_hypothesis"])
False
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

from symcomp.logic.finite import MAX_SIZE, Structure, domain_sizes, find_model
from symcomp.logic.fol import Formula
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
from symcomp.logic.prover_z3 import Z3Prover

ESCALATION = 8  # a check neither z3 nor a small world settles gets 8 times z3's budget


class PortfolioProver:
    """z3, finite countermodels and E (see the module); ``rlimit`` is z3's budget per
    problem, and E's clause limit is derived from it as for ``--prover eprover``."""

    name = "portfolio"

    def __init__(
        self, rlimit: int = DEFAULT_RLIMIT, timeout_ms: int | None = None, max_size: int = MAX_SIZE
    ) -> None:
        self.z3 = Z3Prover(rlimit=rlimit, timeout_ms=timeout_ms)
        self.rlimit = rlimit
        self.timeout_ms = timeout_ms
        self.max_size = max_size
        self._e: Any = None

    def prove(self, problem: Problem) -> Verdict:
        start = time.perf_counter()
        named = [*problem.relevant_axioms(), *problem.premises]
        context = [formula for _name, formula in named]
        negated, positive = self.z3.checks(problem)
        goal = ("not", problem.hypothesis)
        first, countermodel = self._settle(negated, [*context, goal], named, goal, problem)
        models: list[tuple[str, Structure]] = []
        if countermodel is not None:  # the hypothesis does not follow: a world shows it
            models.append((NEGATED_HYPOTHESIS, countermodel))
        # a world of premises and hypothesis is shown only for a neutral pair (an entailment
        # has its proof; a contradiction its proof and the countermodel above)
        wanted = first.refutation is not Refutation.PROVED
        second, model = self._settle(
            positive, [*context, problem.hypothesis], named, problem.hypothesis, problem, wanted
        )
        if model is not None and second.refutation is Refutation.CONSISTENT:
            models.append((HYPOTHESIS, model))
        elapsed = time.perf_counter() - start
        verdict = verdict_of(first, second, named, elapsed, self.name, tuple(models))
        return replace(verdict, decided_by=self.name)  # the stage it is behind construction

    def _settle(
        self,
        outcome: Outcome,
        formulas: list[Formula],
        named: list[tuple[str, Formula]],
        goal: Formula,
        problem: Problem,
        certify: bool = True,
    ) -> tuple[Outcome, Structure | None]:
        """The check decided and, when satisfiable and ``certify``, its certificate."""
        if outcome.refutation is Refutation.PROVED:
            return outcome, None
        if outcome.refutation is Refutation.CONSISTENT and not certify:
            return outcome, None
        if outcome.refutation is Refutation.CONSISTENT and outcome.model is not None:
            read = self.z3.structure(outcome.model, formulas)
            if read is not None:
                return outcome, read
        sizes = domain_sizes(formulas, self.max_size)
        found = find_model(formulas, self.z3.solve_ground, sizes)
        if found is not None:
            return Outcome(Refutation.CONSISTENT, [], ""), found
        if outcome.refutation is Refutation.CONSISTENT:
            return outcome, None  # z3's model exists, larger than the searched sizes
        # no small world: most likely a proof that needs more work (nested numerals): z3
        # again, alone on this check, with ESCALATION times the budget
        again = self.z3.check_one(problem, goal[0] == "not", self.rlimit * ESCALATION)
        if again.refutation is Refutation.PROVED:
            return again, None
        if again.refutation is Refutation.CONSISTENT:
            read = self.z3.structure(again.model, formulas) if again.model is not None else None
            return again, read
        return self._e_prover(named, goal, outcome), None

    def _e_prover(
        self, named: list[tuple[str, Formula]], goal: Formula, z3_outcome: Outcome
    ) -> Outcome:
        """E on a check z3 left unknown and no finite model settled: E proves ``named``
        unsatisfiable with ``goal``, i.e. proves the negation of ``goal``."""
        from symcomp.errors import SymcompError
        from symcomp.logic.prover_e import EProver

        try:
            if self._e is None:
                self._e = EProver(rlimit=self.rlimit, timeout_ms=self.timeout_ms)
        except SymcompError:
            return z3_outcome  # E is not installed: z3's unknown stands
        negated = goal[1] if goal[0] == "not" else ("not", goal)
        seconds = 300 if self.timeout_ms is None else max(1, -(-self.timeout_ms // 2000))
        refutation, used, reason = self._e.run(named, negated, seconds)
        if refutation is Refutation.UNKNOWN:
            return Outcome(refutation, [], f"{z3_outcome.reason}; then {reason}")
        core = [*used, NEGATED_HYPOTHESIS if goal[0] == "not" else HYPOTHESIS]
        return Outcome(refutation, core, "")
