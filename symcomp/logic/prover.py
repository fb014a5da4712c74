"""The prover protocol: a problem in, a verdict out (never a bare bool).

A :class:`Problem` is named premises, a hypothesis and named background axioms, all
first-order formulas (:mod:`symcomp.logic.fol`). A prover answers with a :class:`Verdict`: one of
ENTAILMENT, CONTRADICTION, NEUTRAL or UNKNOWN (with the reason), the names of the premises
and axioms the proof used (the unsat core), and the time it took.

Every backend runs the same two refutations and combines them with :func:`decide`:

1. axioms + premises + ``not hypothesis`` unsatisfiable ⇒ the hypothesis follows;
2. axioms + premises + ``hypothesis`` unsatisfiable ⇒ the hypothesis is contradicted.

Backends: ``z3`` (:mod:`symcomp.logic.prover_z3`, the default) and ``eprover``
(:mod:`symcomp.logic.prover_e`, the E theorem prover through TPTP, for cross-checking), made
by name with :func:`symcomp.logic.backends.make_prover`. NLTK's own
provers are not used: they are unsound for this purpose.

>>> decide(Refutation.PROVED, Refutation.CONSISTENT)
<Label.ENTAILMENT: 'ENTAILMENT'>
>>> decide(Refutation.CONSISTENT, Refutation.CONSISTENT)
<Label.NEUTRAL: 'NEUTRAL'>
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from symcomp.logic.finite import Structure
from symcomp.logic.fol import Formula, signature
from symcomp.logic.monotone import Derivation

# The deterministic work budget of one problem, in z3 resource units ("rlimit"). On the
# slowest monotonicity problems z3 does 0.9 to 3.3 million units per second (median 1.4 M/s,
# measured on a 2-core machine shared with other work), so the former default timeout of 5 s
# corresponds to 5 to 16 million units; 10 million is in the middle of that range. A budget
# in units, unlike a timeout, gives the same verdicts on any machine and under any load.
DEFAULT_RLIMIT = 10_000_000
HYPOTHESIS = "hypothesis"
NEGATED_HYPOTHESIS = "negated_hypothesis"


class Label(enum.StrEnum):
    """What a prover concluded about premises ⇒ hypothesis."""

    ENTAILMENT = "ENTAILMENT"
    CONTRADICTION = "CONTRADICTION"
    NEUTRAL = "NEUTRAL"
    # both refutations succeed: the premises (with the axioms) have no model, so the
    # hypothesis follows and is contradicted alike; decided, with the core as evidence
    INCONSISTENT = "INCONSISTENT"
    UNKNOWN = "UNKNOWN"


class Refutation(enum.Enum):
    """Outcome of one refutation check."""

    PROVED = "proved"  # the assumptions are unsatisfiable
    CONSISTENT = "consistent"  # a model exists
    UNKNOWN = "unknown"  # timeout, resource limit, incompleteness


@dataclass(frozen=True)
class Verdict:
    """A prover's answer.

    Attributes
    ----------
    label : Label
        ENTAILMENT, CONTRADICTION, NEUTRAL or UNKNOWN.
    reason : str
        Why the answer is UNKNOWN (empty otherwise).
    used : tuple of str
        Names of the premises, axioms and hypothesis the decisive refutation used.
    seconds : float
        Wall-clock time of both checks.
    prover : str
        The backend's name.
    models : tuple of (str, Structure)
        Certificates of the satisfiable checks: a finite world in which the premises, the
        axioms and the negated hypothesis (``negated_hypothesis``: the hypothesis does not
        follow) or the hypothesis (``hypothesis``: it is not contradicted) hold, each checked
        with symcomp's own evaluator (:func:`symcomp.logic.finite.holds`).
    decided_by : str
        Which stage decided (``derivation``, ``world`` or ``portfolio``:
        :mod:`symcomp.logic.constructive`); empty for a prover used alone.
    derivation : Derivation or None
        The one-step monotonicity derivation (checked) of a ``derivation`` verdict; for a
        ``world`` verdict the site found, if any, whose step does not entail.
    """

    label: Label
    reason: str = ""
    used: tuple[str, ...] = ()
    seconds: float = 0.0
    prover: str = ""
    models: tuple[tuple[str, Structure], ...] = ()
    decided_by: str = ""
    derivation: Derivation | None = None


@dataclass(frozen=True)
class Problem:
    """Premises ⇒ hypothesis under background axioms, every formula with a name."""

    premises: tuple[tuple[str, Formula], ...]
    hypothesis: Formula
    axioms: tuple[tuple[str, Formula], ...] = field(default=())

    def relevant_axioms(self) -> tuple[tuple[str, Formula], ...]:
        """The axioms whose predicates all occur in the premises or the hypothesis.

        An axiom with a predicate the problem never mentions is left out. For the hyponymy
        axioms shipped with symcomp (implications from hyponym to hypernym predicates, two
        disjoint sets) this cannot change the answer: a fresh hypernym can be true of
        everything and a fresh hyponym of nothing. It keeps problems small and unsat cores
        readable.
        """
        used: set[str] = set()
        for _name, formula in self.premises:
            used.update(_signature(formula))
        used.update(_signature(self.hypothesis))
        return _relevant(self.axioms, frozenset(used))


@functools.lru_cache(maxsize=4096)
def _signature(formula: Formula) -> tuple[str, ...]:
    """The predicates of a formula (cached: a pair and its reverse share their sentences)."""
    return tuple(signature(formula))


@functools.lru_cache(maxsize=1024)
def _relevant(
    axioms: tuple[tuple[str, Formula], ...], used: frozenset[str]
) -> tuple[tuple[str, Formula], ...]:
    """The axioms whose predicates are all in ``used`` (cached: vocabularies recur)."""
    return tuple((name, axiom) for name, axiom, needs in _indexed(axioms) if needs <= used)


@functools.lru_cache(maxsize=8)
def _indexed(
    axioms: tuple[tuple[str, Formula], ...],
) -> tuple[tuple[str, Formula, frozenset[str]], ...]:
    """Each axiom with its predicates (the axioms recur in every problem: computed once)."""
    return tuple((name, axiom, frozenset(signature(axiom))) for name, axiom in axioms)


class Prover(Protocol):
    """What every backend provides."""

    name: str

    def prove(self, problem: Problem) -> Verdict:
        """Decide premises ⇒ hypothesis."""
        ...


@dataclass(frozen=True)
class Outcome:
    """One refutation: its outcome, the names in its unsat core, why it is unknown, and the
    backend's model when it is satisfiable (z3's; None otherwise)."""

    refutation: Refutation
    core: list[str]
    reason: str
    model: Any = None


INCONSISTENT_REASON = (
    "the premises have no model (with the axioms): every hypothesis follows and is "
    "contradicted; the core names what makes them inconsistent"
)


def verdict_of(
    first: Outcome,
    second: Outcome,
    named: Iterable[tuple[str, Formula]],
    seconds: float,
    prover: str,
    models: tuple[tuple[str, Structure], ...] = (),
) -> Verdict:
    """The verdict of refutation 1 (of ``not hypothesis``) and 2 (of ``hypothesis``): the
    label, the decisive refutation's core in problem order, the reason of an UNKNOWN."""
    label = decide(first.refutation, second.refutation)
    order = [*(name for name, _formula in named), NEGATED_HYPOTHESIS, HYPOTHESIS]
    used: tuple[str, ...] = ()
    if label in (Label.ENTAILMENT, Label.INCONSISTENT):
        used = ordered_names(first.core, order)
    elif label is Label.CONTRADICTION:
        used = ordered_names(second.core, order)
    reason = ""
    if label is Label.UNKNOWN:
        reason = first.reason or second.reason
    elif label is Label.INCONSISTENT:
        reason = INCONSISTENT_REASON
    return Verdict(label, reason, used, seconds, prover, models)


def decide(entailment: Refutation, contradiction: Refutation) -> Label:
    """Combine refutation 1 (of ``not hypothesis``) and 2 (of ``hypothesis``)."""
    if entailment is Refutation.UNKNOWN or contradiction is Refutation.UNKNOWN:
        return Label.UNKNOWN
    if entailment is Refutation.PROVED:
        return Label.INCONSISTENT if contradiction is Refutation.PROVED else Label.ENTAILMENT
    return Label.CONTRADICTION if contradiction is Refutation.PROVED else Label.NEUTRAL


def ordered_names(names: Iterable[str], order: Iterable[str]) -> tuple[str, ...]:
    """``names`` in the order of ``order`` (cores come back as sets)."""
    wanted = set(names)
    return tuple(name for name in order if name in wanted)
