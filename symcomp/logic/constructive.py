"""Evidence by construction first, solvers by exception: the default prover of ``verify``.

A pair is decided in three stages; the first that settles it gives the verdict, and the
verdict says which (``decided_by``):

1. ``derivation`` — a one-step monotonicity derivation (:mod:`symcomp.logic.monotone`),
   re-checked by the small independent checker (:mod:`symcomp.logic.derivation_check`),
   proves ENTAILMENT; a world of premise ∧ hypothesis ∧ axioms shows that the premise has a
   model (so the verdict is not INCONSISTENT) and that the hypothesis is not contradicted.
2. ``world`` — two worlds built from the formulas (:mod:`symcomp.logic.worlds`): one where
   the premise and the axioms hold and the hypothesis does not, one where all hold: NEUTRAL.
   Every world is confirmed by symcomp's evaluator (:func:`~symcomp.logic.finite.holds`).
3. ``portfolio`` — what the first two decline (contradictions, premises without a model,
   pairs that differ in more than one place, worlds too large to build) goes to the solvers
   (:class:`~symcomp.logic.portfolio.PortfolioProver`), unchanged.

Stages 1 and 2 use neither a clock nor a step budget: a verdict never depends on the
machine, its load or ``jobs``.

>>> from symcomp.logic.lambda_terms import parse_formula as f
>>> axioms = (("dog_is_animal", f("all x.(dog(x) -> animal(x))")),)
>>> premise = f("exists x.(dog(x) & ran(x))")
>>> prover = ConstructiveProver()
>>> animal, cat = f("exists x.(animal(x) & ran(x))"), f("exists x.(cat(x) & ran(x))")
>>> verdict = prover.prove(Problem((("premise", premise),), animal, axioms))
>>> verdict.label.value, verdict.decided_by, verdict.used
('ENTAILMENT', 'derivation', ('dog_is_animal', 'premise', 'negated_hypothesis'))
>>> verdict = prover.prove(Problem((("premise", premise),), cat, axioms))
>>> verdict.label.value, verdict.decided_by, [name for name, _world in verdict.models]
('NEUTRAL', 'world', ['negated_hypothesis', 'hypothesis'])
"""

from __future__ import annotations

import logging
import time
from dataclasses import replace

from symcomp.logic.derivation_check import CertificateError, check_derivation
from symcomp.logic.monotone import find_derivation
from symcomp.logic.prover import (
    DEFAULT_RLIMIT,
    HYPOTHESIS,
    NEGATED_HYPOTHESIS,
    Label,
    Problem,
    Prover,
    Verdict,
)
from symcomp.logic.worlds import build_world

LOG = logging.getLogger(__name__)
DERIVATION, WORLD, PORTFOLIO = "derivation", "world", "portfolio"
STAGES = (DERIVATION, WORLD, PORTFOLIO)


class ConstructiveProver:
    """Derivations and built worlds first, then ``fallback`` (the portfolio by default)."""

    name = "portfolio"

    def __init__(
        self,
        rlimit: int = DEFAULT_RLIMIT,
        timeout_ms: int | None = None,
        fallback: Prover | None = None,
    ) -> None:
        if fallback is None:
            from symcomp.logic.portfolio import PortfolioProver

            fallback = PortfolioProver(rlimit=rlimit, timeout_ms=timeout_ms)
        self.fallback = fallback

    def prove(self, problem: Problem) -> Verdict:
        start = time.perf_counter()
        verdict = self.construct(problem) if len(problem.premises) == 1 else None
        if verdict is None:
            verdict = replace(self.fallback.prove(problem), decided_by=PORTFOLIO)
        return replace(verdict, seconds=time.perf_counter() - start, prover=self.name)

    def construct(self, problem: Problem) -> Verdict | None:
        """Stages 1 and 2: the verdict with its certificates, or None (declined)."""
        premise, hypothesis = problem.premises[0][1], problem.hypothesis
        named = problem.relevant_axioms()
        axioms = dict(named)
        context = [formula for _name, formula in named]
        both = build_world([premise, hypothesis, *context])
        if both is None:  # no world of both built: maybe none exists (a contradiction)
            return None
        derivation = find_derivation(premise, hypothesis, axioms)
        if derivation is not None and derivation.entails:
            try:
                check_derivation(premise, hypothesis, axioms, derivation)
            except CertificateError as error:  # a bug in the search: never trust it
                LOG.warning("a derivation failed its check (%s); the solvers decide", error)
                return None
            used = (*([derivation.axiom] if derivation.axiom else []), "premise")
            return Verdict(
                Label.ENTAILMENT,
                used=(*used, NEGATED_HYPOTHESIS),
                models=((HYPOTHESIS, both),),
                decided_by=DERIVATION,
                derivation=derivation,
            )
        countermodel = build_world([premise, ("not", hypothesis), *context])
        if countermodel is None:
            return None
        models = ((NEGATED_HYPOTHESIS, countermodel), (HYPOTHESIS, both))
        return Verdict(Label.NEUTRAL, models=models, decided_by=WORLD, derivation=derivation)
