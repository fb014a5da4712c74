"""The z3 backend: formulas over one uninterpreted sort, a fresh context per problem.

The problem is written as SMT-LIB 2 (:mod:`symcomp.logic.fol`) with one Boolean guard per named
formula (``guard => formula``) and read in a new :class:`z3.Context`, so no state leaks
between problems or processes. The refutations run with the guards as assumptions; the
unsat core (the guards z3 needed) names the premises and axioms a proof used. The second
refutation reuses the first one's solver within a small budget and falls back to a fresh
solver when that runs out.

Work is bounded by z3's resource limit (``rlimit``), a count of deterministic steps, not by
time: the whole problem gets ``rlimit`` units, so the same problem gets the same verdict on
any machine and under any load. A wall-clock ``timeout_ms`` is an optional safety net.

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

import functools
import itertools
import time
from types import ModuleType
from typing import Any

from symcomp.logic.finite import Structure, holds
from symcomp.logic.fol import (
    SORT,
    Formula,
    constants,
    expand_counts,
    signature,
    smtlib_declarations,
    to_smtlib,
)
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

INCREMENTAL_BUDGET = 100_000  # resource units; typical second checks use under 5,000
MAX_READ_UNIVERSE = 12  # z3 models with more elements are not read back (costly, unreadable)


def _z3() -> ModuleType:
    import z3  # type: ignore[import-untyped]

    module: ModuleType = z3
    return module


def _check_installed() -> None:
    """Refuse at once where z3 is missing, without importing it (a fifth of a second that a
    run whose every label is decided by construction never needs)."""
    import importlib.util

    if importlib.util.find_spec("z3") is None:
        raise ImportError("z3 is not installed: `pip install z3-solver` (or 'symcomp[nli]').")


class Z3Prover:
    """Decide problems with z3 (``pip install z3-solver``).

    Parameters
    ----------
    rlimit : int
        Resource units of one problem (both checks together): the deterministic budget.
    timeout_ms : int or None
        Optional wall-clock budget of one problem, a safety net (verdicts that hit it depend
        on the machine).
    """

    name = "z3"

    def __init__(self, rlimit: int = DEFAULT_RLIMIT, timeout_ms: int | None = None) -> None:
        self.rlimit = rlimit
        self.timeout_ms = timeout_ms
        _check_installed()
        self._shared: Any = None

    @functools.cached_property
    def z3(self) -> ModuleType:
        """The z3 module, imported when the first problem reaches the solver."""
        return _z3()

    def _context(self) -> Any:
        """The prover's z3 context, made on first use and shared by its problems.

        Making a context costs about as much as deciding a small problem, so one context
        serves every problem; each problem still gets a new solver, so no assertion or learned
        clause carries over from one problem to the next.
        """
        if self._shared is None:
            self._shared = self.z3.Context()
        return self._shared

    def prove(self, problem: Problem) -> Verdict:
        start = time.perf_counter()
        named = [*problem.relevant_axioms(), *problem.premises]
        first, second = self.checks(problem)
        return verdict_of(first, second, named, time.perf_counter() - start, self.name)

    def checks(self, problem: Problem) -> tuple[Outcome, Outcome]:
        """The two refutations of a problem: of ``not hypothesis`` (does it follow?) and of
        ``hypothesis`` (is it contradicted?), with z3's model where one is satisfiable."""
        named = [*problem.relevant_axioms(), *problem.premises]
        script = _script(named, problem.hypothesis)
        z3 = self.z3
        context = self._context()
        guards = [z3.Bool(f"g{index}", context) for index in range(len(named))]
        labels = {f"g{index}": name for index, (name, _formula) in enumerate(named)}
        labels |= {"g_not_h": NEGATED_HYPOTHESIS, "g_h": HYPOTHESIS}
        negated, positive = z3.Bool("g_not_h", context), z3.Bool("g_h", context)
        budget = _Budget(self.rlimit, self.timeout_ms, time.perf_counter())

        solver = self._solver(context, script)
        first = self._check(solver, [*guards, negated], labels, budget, budget.left)
        # The second refutation reuses the solver (much cheaper than a new one) within a
        # small budget: what it learned in the first check can mislead its quantifier
        # instantiation badly, and then a fresh solver decides in milliseconds.
        reuse = min(INCREMENTAL_BUDGET, budget.left)
        second = self._check(solver, [*guards, positive], labels, budget, reuse)
        if second.refutation is Refutation.UNKNOWN and budget.left > 0:
            fresh = self._solver(context, script)
            second = self._check(fresh, [*guards, positive], labels, budget, budget.left)
        return first, second

    def check_one(self, problem: Problem, negated: bool, rlimit: int) -> Outcome:
        """One refutation alone (of ``not hypothesis`` when ``negated``, else of
        ``hypothesis``) on a fresh solver with a budget of ``rlimit`` units."""
        named = [*problem.relevant_axioms(), *problem.premises]
        z3 = self.z3
        context = self._context()
        guards = [z3.Bool(f"g{index}", context) for index in range(len(named))]
        labels = {f"g{index}": name for index, (name, _formula) in enumerate(named)}
        labels |= {"g_not_h": NEGATED_HYPOTHESIS, "g_h": HYPOTHESIS}
        goal = z3.Bool("g_not_h" if negated else "g_h", context)
        budget = _Budget(rlimit, self.timeout_ms, time.perf_counter())
        solver = self._solver(context, _script(named, problem.hypothesis))
        return self._check(solver, [*guards, goal], labels, budget, budget.left)

    def structure(self, model: Any, formulas: list[Formula]) -> Structure | None:
        """z3's model of ``formulas`` as a :class:`~symcomp.logic.finite.Structure` (every
        predicate evaluated on every tuple of its universe), or None when its universe is
        larger than :data:`MAX_READ_UNIVERSE` or the structure fails symcomp's evaluator."""
        z3 = self.z3
        context = self._context()
        sort = z3.DeclareSort(SORT, context)
        universe = list(model.get_universe(sort) or [])
        if len(universe) > MAX_READ_UNIVERSE:
            return None
        if not universe:
            universe = [z3.Const("symcomp!element", sort)]
        index = {str(element): number for number, element in enumerate(universe)}
        arities: dict[str, int] = {}
        names: set[str] = set()
        for formula in formulas:
            signature(formula, arities)
            names |= constants(formula)
        relations: dict[str, frozenset[tuple[int, ...]]] = {}
        for name, arity in arities.items():
            if arity == 0:
                value = model.eval(z3.Bool(name, context), model_completion=True)
                relations[name] = frozenset({()}) if z3.is_true(value) else frozenset()
                continue
            declaration = z3.Function(name, *([sort] * arity), z3.BoolSort(context))
            relations[name] = self._extension(model, declaration, arity, universe, index)
        chosen = {}
        for name in names:
            value = str(model.eval(z3.Const(name, sort), model_completion=True))
            if value not in index:
                return None
            chosen[name] = index[value]
        found = Structure(len(universe), chosen, relations)
        return found if all(holds(formula, found) for formula in formulas) else None

    def _extension(
        self, model: Any, declaration: Any, arity: int, universe: list[Any], index: dict[str, int]
    ) -> frozenset[tuple[int, ...]]:
        """The tuples a predicate is true of in z3's model: from its interpretation's entries
        and constant default when it has one (fast), else by evaluating every tuple."""
        z3 = self.z3
        interpretation = model[declaration] if declaration in model else None  # noqa: SIM401
        if interpretation is None:  # unconstrained: false everywhere (model completion)
            return frozenset()
        default = interpretation.else_value()
        if default is not None and (z3.is_true(default) or z3.is_false(default)):
            rows = (
                set(itertools.product(range(len(universe)), repeat=arity))
                if z3.is_true(default)
                else set()
            )
            for entry in interpretation.as_list()[:-1]:
                row = tuple(index.get(str(value), -1) for value in entry[:-1])
                if -1 in row:
                    break  # an entry not over universe elements: evaluate instead
                (rows.add if z3.is_true(entry[-1]) else rows.discard)(row)
            else:
                return frozenset(rows)
        return frozenset(
            row
            for row in itertools.product(range(len(universe)), repeat=arity)
            if z3.is_true(
                model.eval(declaration(*(universe[i] for i in row)), model_completion=True)
            )
        )

    def solve_ground(self, text: str) -> set[str] | None:
        """Decide a propositional problem (SMT-LIB text, Booleans and cardinality constraints
        only: a grounding of :mod:`symcomp.logic.finite`); the variables true in a satisfying
        assignment, or None when there is none."""
        z3 = self.z3
        solver = z3.Solver(ctx=self._context())
        solver.from_string(text)
        if solver.check() != z3.sat:
            return None
        model = solver.model()
        return {
            declaration.name()
            for declaration in model.decls()
            if z3.is_true(model.get_interp(declaration))
        }

    def _solver(self, context: Any, script: str) -> Any:
        solver = self.z3.SimpleSolver(ctx=context)
        solver.from_string(script)
        return solver

    def _check(
        self,
        solver: Any,
        assumptions: list[Any],
        labels: dict[str, str],
        budget: _Budget,
        units: int,
    ) -> Outcome:
        """One refutation within ``units``: outcome, names in the unsat core, reason, model."""
        if units <= 0:
            return Outcome(Refutation.UNKNOWN, [], budget.exhausted())
        left_ms = budget.left_ms()
        if left_ms is not None and left_ms <= 0:
            return Outcome(Refutation.UNKNOWN, [], budget.exhausted())
        solver.set("rlimit", units)  # counted from the solver's current count
        if left_ms is not None:
            solver.set("timeout", left_ms)
        before = _resources_used(solver)
        result = solver.check(*assumptions)
        budget.spend(_resources_used(solver) - before)
        if result == self.z3.unsat:
            core = [labels[guard.decl().name()] for guard in solver.unsat_core()]
            return Outcome(Refutation.PROVED, core, "")
        if result == self.z3.sat:
            return Outcome(Refutation.CONSISTENT, [], "", solver.model())
        why = solver.reason_unknown()
        if why in ("timeout", "canceled", "max. resource limit exceeded"):
            return Outcome(Refutation.UNKNOWN, [], budget.exhausted())
        return Outcome(Refutation.UNKNOWN, [], f"z3: {why}")


class _Budget:
    """What is left of one problem's resource units (and of its optional timeout)."""

    def __init__(self, rlimit: int, timeout_ms: int | None, start: float) -> None:
        self.rlimit = rlimit
        self.left = rlimit
        self.timeout_ms = timeout_ms
        self.start = start

    def spend(self, units: int) -> None:
        self.left = max(0, self.left - units)

    def left_ms(self) -> int | None:
        if self.timeout_ms is None:
            return None
        return self.timeout_ms - int((time.perf_counter() - self.start) * 1000)

    def exhausted(self) -> str:
        left_ms = self.left_ms()
        if left_ms is not None and left_ms <= 0 and self.left > 0:
            return f"timeout after {self.timeout_ms} ms (the wall-clock safety net)"
        return f"resource limit reached (rlimit {self.rlimit:,} units)"


def _resources_used(solver: Any) -> int:
    """The solver's resource count so far (z3's deterministic measure of work)."""
    try:
        statistics = solver.statistics()
        z3 = _z3()
        context, stats = statistics.ctx.ref(), statistics.stats
        for index in reversed(range(len(statistics))):  # the count is among the last keys
            if z3.Z3_stats_get_key(context, stats, index) == "rlimit count":
                return int(z3.Z3_stats_get_uint_value(context, stats, index))
    except Exception:
        return 0
    return 0


def _script(named: list[tuple[str, Formula]], hypothesis: Formula) -> str:
    """SMT-LIB declarations and guarded assertions of one problem."""
    lines = [smtlib_declarations([formula for _name, formula in named] + [hypothesis])]
    for index, (_name, formula) in enumerate(named):
        lines.append(f"(declare-const g{index} Bool)(assert (=> g{index} {_smtlib(formula)}))")
    # counting is written in the form that suits where the hypothesis is asserted or denied
    denied, asserted = _hypothesis_smtlib(hypothesis)
    lines.append(f"(declare-const g_not_h Bool)(assert (=> g_not_h (not {denied})))")
    lines.append(f"(declare-const g_h Bool)(assert (=> g_h {asserted}))")
    return "\n".join(lines)


@functools.lru_cache(maxsize=4096)
def _smtlib(formula: Formula) -> str:
    """:func:`to_smtlib`, cached: axioms recur in every problem, sentences in a pair and its
    reverse."""
    return to_smtlib(formula)


@functools.lru_cache(maxsize=2048)
def _hypothesis_smtlib(hypothesis: Formula) -> tuple[str, str]:
    """The hypothesis where it is denied and where it is asserted (counting written out)."""
    denied = to_smtlib(expand_counts(hypothesis, positive=False))
    return denied, to_smtlib(expand_counts(hypothesis))
