"""Finite structures: evaluating formulas in them, and searching one that satisfies formulas.

A :class:`Structure` is a world of ``size`` things (numbered 1..size in what users read),
an element for every constant and a set of tuples for every predicate. :func:`holds`
evaluates a formula of :mod:`symcomp.logic.fol` in it by the textbook definition, counting
quantifiers included; it is symcomp's own evaluator and shares no code with any solver, so a
structure it accepts is a certificate that the formulas are satisfiable.

:func:`find_model` looks for such a structure by grounding the formulas over a domain of
``k`` elements (quantifiers become conjunctions, disjunctions and cardinality constraints over
the ``k`` values; each ground atom is a Boolean variable; a constant picks one element) and
asking a SAT solver (z3 on the propositional problem), for each ``k`` of ``sizes`` in turn. A
structure found is checked with :func:`holds` before it is returned. Finding none proves
nothing: a larger domain might hold a model (``at least 10 dogs`` needs 10 things), so a
finite search is sound only as a search for countermodels, never as a proof.

>>> from symcomp.logic.lambda_terms import parse_formula as f
>>> from symcomp.logic.prover_z3 import Z3Prover
>>> premise = f("exists x.(dog(x) & ran(x))")
>>> solve = Z3Prover().solve_ground
>>> model = find_model([premise, f("-exists x.(cat(x) & ran(x))")], solve, sizes=(1, 2))
>>> model.describe()
'a world of 1 thing: cat = {}, dog = {1}, ran = {1}'
>>> holds(f("all x.(dog(x) -> ran(x))"), model)
True
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from symcomp.errors import SemanticsError
from symcomp.logic.fol import Formula, Term, constants, signature, subformulas

MAX_SIZE = 8  # the largest domain searched unless a formula's numerals need more
MAX_GROUND_NODES = 400_000  # a grounding larger than this is not attempted (too costly)


@dataclass(frozen=True)
class Structure:
    """A finite world: ``size`` elements 0..size-1, constants and predicate extensions."""

    size: int
    constants: Mapping[str, int]
    relations: Mapping[str, frozenset[tuple[int, ...]]]

    def describe(self) -> str:
        """The world in words, elements numbered from 1.

        >>> Structure(2, {"emma": 1}, {"dog": frozenset({(0,)}), "saw": frozenset({(1, 0)})}
        ...           ).describe()
        'a world of 2 things: dog = {1}, saw = {(2,1)}, emma = 2'
        """
        things = "thing" if self.size == 1 else "things"
        parts = [f"{name} = {_extension(self.relations[name])}" for name in sorted(self.relations)]
        parts += [f"{name} = {self.constants[name] + 1}" for name in sorted(self.constants)]
        return f"a world of {self.size} {things}: " + ", ".join(parts)

    def to_json(self) -> dict[str, Any]:
        """The whole structure, elements numbered from 1 (as :meth:`describe` writes them)."""
        return {
            "size": self.size,
            "constants": {name: value + 1 for name, value in sorted(self.constants.items())},
            "relations": {
                name: sorted([value + 1 for value in row] for row in rows)
                for name, rows in sorted(self.relations.items())
            },
        }


def _extension(rows: frozenset[tuple[int, ...]]) -> str:
    shown = [
        str(row[0] + 1) if len(row) == 1 else "(" + ",".join(str(v + 1) for v in row) + ")"
        for row in sorted(rows)
    ]
    return "{" + ", ".join(shown) + "}"


# -- evaluation ---------------------------------------------------------------------------------


def holds(formula: Formula, structure: Structure) -> bool:
    """Whether ``formula`` (a sentence) is true in ``structure``.

    Quantified sub-formulas are evaluated once per assignment of their free variables (a
    memo), so the cost grows with the size of the domain to the number of free variables of
    a sub-formula, not to the depth of quantifier nesting.

    >>> world = Structure(3, {}, {"dog": frozenset({(0,), (1,)})})
    >>> holds(("count", 2, "x", ("pred", "dog", (("var", "x"),))), world)
    True
    """
    return _Evaluation(structure).true(formula, {})


BINDERS = frozenset({"all", "exists", "count"})


class _Evaluation:
    """The truth of sub-formulas in one structure, memoised by their free variables' values."""

    def __init__(self, structure: Structure) -> None:
        self.s = structure
        self.memo: dict[tuple[int, tuple[int, ...]], bool] = {}
        self.keys = MemoKeys()
        self.extensions: dict[str, list[int]] = {}  # a unary predicate's things, in order

    def true(self, formula: Formula, env: dict[str, int]) -> bool:
        if formula[0] not in BINDERS:  # cheap to evaluate again: no memo (it costs more)
            return self._true(formula, env)
        key = self.keys.of(formula, env)
        found = self.memo.get(key)
        if found is None:
            found = self._true(formula, env)
            self.memo[key] = found
        return found

    def _value(self, term: Term, env: Mapping[str, int]) -> int:
        kind, name = term
        if kind == "var":
            return env[name]
        if name not in self.s.constants:
            raise SemanticsError(f"the structure interprets no constant {name!r}.")
        return self.s.constants[name]

    def _true(self, formula: Formula, env: dict[str, int]) -> bool:
        kind = formula[0]
        if kind == "pred":
            row = tuple(self._value(term, env) for term in formula[2])
            return row in self.s.relations.get(formula[1], frozenset())
        if kind == "eq":
            return self._value(formula[1], env) == self._value(formula[2], env)
        if kind == "not":
            return not self.true(formula[1], env)
        if kind == "and":
            return all(self.true(part, env) for part in formula[1])
        if kind == "or":
            return any(self.true(part, env) for part in formula[1])
        if kind == "imp":
            return not self.true(formula[1], env) or self.true(formula[2], env)
        if kind == "iff":
            return self.true(formula[1], env) == self.true(formula[2], env)
        if kind in ("all", "exists"):
            wanted = kind == "exists"  # the value that decides: a witness, or a counterexample
            found = wanted in self._instances(kind, formula[1], formula[2], env)
            return wanted if found else not wanted
        if kind == "count":
            total = 0
            for value in self._instances(kind, formula[2], formula[3], env):
                total += value
                if total >= formula[1]:
                    return True
            return False
        raise SemanticsError(f"not a first-order formula: {formula!r}.")

    def _instances(
        self, quantifier: str, variable: str, body: Formula, env: dict[str, int]
    ) -> Iterator[bool]:
        """The truth of ``body`` for each value of ``variable`` that can decide the quantifier
        (``env`` is updated in place and restored: cheaper than a new mapping per value).

        Where the body is guarded by an atom ``p(x)`` (a conjunct of an existential's or a
        count's body, or of a universal's antecedent: ``some dog``, ``every dog``), a thing
        outside ``p``'s extension makes the body false, or the implication true, so it
        decides nothing and is skipped."""
        guard = guard_of(quantifier, variable, body)
        values: Iterable[int] = range(self.s.size) if guard is None else self._extension(guard)
        before = env.get(variable)
        try:
            for value in values:
                env[variable] = value
                yield self.true(body, env)
        finally:
            if before is None:
                env.pop(variable, None)
            else:
                env[variable] = before

    def _extension(self, name: str) -> list[int]:
        """The things a unary predicate holds of (computed once per structure)."""
        found = self.extensions.get(name)
        if found is None:
            found = sorted({row[0] for row in self.s.relations.get(name, frozenset())})
            self.extensions[name] = found
        return found


def guard_of(quantifier: str, variable: str, body: Formula) -> str | None:
    """A unary predicate ``p`` such that, for every value of ``variable`` outside ``p``'s
    extension, the body of an existential or a count is false, or the body of a universal
    (an implication) is true: such values cannot decide the quantifier.

    >>> from symcomp.logic.lambda_terms import parse_formula as f
    >>> some, every = f("exists x.(dog(x) & ran(x))"), f("all x.(dog(x) -> ran(x))")
    >>> guard_of("exists", "x1", some[2]), guard_of("all", "x1", every[2])
    ('dog', 'dog')
    >>> guard_of("all", "x1", f("all x.dog(x)")[2]), guard_of("exists", "x1", every[2])
    (None, None)
    """
    if quantifier == "all":
        if body[0] != "imp":
            return None
        body = body[1]  # a thing outside the antecedent's guard satisfies the implication
    elif body[0] == "imp":
        return None
    parts = body[1] if body[0] == "and" else (body,)
    for part in parts:
        if part[0] == "pred" and part[2] == (("var", variable),):
            return str(part[1])
    return None


# -- search -------------------------------------------------------------------------------------


def domain_sizes(formulas: Sequence[Formula], limit: int = MAX_SIZE) -> tuple[int, ...]:
    """The domain sizes worth searching for ``formulas``: from the largest numeral of a
    counting quantifier (``at least 3``: 3 things) up to the witnesses the formulas can ask
    for (existentials, numerals, constants), at most ``limit`` (or that numeral).

    >>> from symcomp.logic.lambda_terms import parse_formula as f
    >>> domain_sizes([f("exists x.(dog(x) & exists y.cat(y))")])
    (1, 2)
    """
    lowest, witnesses, names = 1, 0, set()
    for formula in formulas:
        names |= constants(formula)
        for node in subformulas(formula):
            if node[0] == "exists":
                witnesses += 1
            elif node[0] == "count":
                lowest = max(lowest, int(node[1]))
                witnesses += int(node[1])
    highest = max(lowest, min(limit, max(1, witnesses + len(names))))
    return tuple(range(lowest, highest + 1))


SatSolve = Callable[[str], "set[str] | None"]  # SMT-LIB text -> true variables, or None (unsat)


def find_model(
    formulas: Sequence[Formula], solve: SatSolve, sizes: Iterable[int] | None = None
) -> Structure | None:
    """A structure in which every formula holds, searched at each domain size in ``sizes``
    (default :func:`domain_sizes`), or None when there is none of those sizes.

    ``solve`` decides a propositional problem in SMT-LIB text and returns the variables true
    in a satisfying assignment (z3's: :meth:`symcomp.logic.prover_z3.Z3Prover.solve_ground`).
    """
    for size in sizes if sizes is not None else domain_sizes(formulas):
        grounding = _Grounding(size, sorted(set().union(*(constants(f) for f in formulas))))
        if not grounding.add_all(formulas):
            continue  # false at this size whatever the predicates are
        found = solve(grounding.text())
        if found is None:
            continue
        structure = grounding.structure(found, formulas)
        failed = [formula for formula in formulas if not holds(formula, structure)]
        if failed:  # the grounding and the evaluator disagree: a bug, never a certificate
            raise SemanticsError(f"a model found at size {size} does not satisfy {failed[0]!r}")
        return structure
    return None


class _TooLargeError(Exception):
    """A grounding past :data:`MAX_GROUND_NODES`."""


class _Grounding:
    """Formulas over a domain of ``size`` elements as Boolean definitions in SMT-LIB text.

    Every ground atom ``P(v1..vn)`` is a variable ``a<i>``; every compound ground formula gets
    a variable ``n<i>`` defined by an equivalence (so shared sub-formulas are written once);
    each constant picks its element with one-hot variables ``c<i>_<v>``. Python's True and
    False stand for sub-formulas decided by the grounding itself (``x = y`` of two values).
    """

    def __init__(self, size: int, names: Sequence[str]) -> None:
        self.size = size
        self.names = list(names)
        self.atoms: dict[tuple[str, tuple[int, ...]], str] = {}
        self.lines: list[str] = []
        self.nodes = 0
        self.memo: dict[tuple[int, tuple[int, ...]], str | bool] = {}
        self.keys = MemoKeys()
        self.arities: dict[str, int] = {}
        self.pick = {name: [f"c{i}_{v}" for v in range(size)] for i, name in enumerate(names)}
        for choices in self.pick.values():
            self.lines.extend(f"(declare-const {c} Bool)" for c in choices)
            self.lines.append(
                f"(assert ((_ pbeq 1 {' '.join('1' for _ in choices)}) {' '.join(choices)}))"
            )

    def add_all(self, formulas: Sequence[Formula]) -> bool:
        """Assert every formula; False when one is false at this size already."""
        for formula in formulas:
            signature(formula, self.arities)
            try:
                ground = self.ground(formula, {})
            except _TooLargeError:
                return False
            if ground is False:
                return False
            if ground is not True:
                self.lines.append(f"(assert {ground})")
        return True

    def text(self) -> str:
        return "\n".join(self.lines)

    def ground(self, formula: Formula, env: Mapping[str, int]) -> str | bool:
        key = self.keys.of(formula, env)
        found = self.memo.get(key)
        if found is None:
            found = self._ground(formula, env)
            self.memo[key] = found
        return found

    def _ground(self, formula: Formula, env: Mapping[str, int]) -> str | bool:
        kind = formula[0]
        if kind == "pred":
            return self._atom(formula[1], formula[2], env)
        if kind == "eq":
            return self._equal(formula[1], formula[2], env)
        if kind == "not":
            inner = self.ground(formula[1], env)
            return (not inner) if isinstance(inner, bool) else f"(not {inner})"
        if kind in ("and", "or"):
            return self._junction(kind, [self.ground(part, env) for part in formula[1]])
        if kind == "imp":
            left = self.ground(formula[1], env)
            right = self.ground(formula[2], env)
            negated = (not left) if isinstance(left, bool) else f"(not {left})"
            return self._junction("or", [negated, right])
        if kind == "iff":
            left, right = self.ground(formula[1], env), self.ground(formula[2], env)
            if isinstance(left, bool) and isinstance(right, bool):
                return left == right
            return self._define(f"(= {_text(left)} {_text(right)})")
        if kind in ("all", "exists"):
            parts = [self.ground(formula[2], {**env, formula[1]: v}) for v in range(self.size)]
            return self._junction("and" if kind == "all" else "or", parts)
        if kind == "count":
            return self._at_least(
                int(formula[1]),
                [self.ground(formula[3], {**env, formula[2]: v}) for v in range(self.size)],
            )
        raise SemanticsError(f"not a first-order formula: {formula!r}.")

    def _define(self, expression: str) -> str:
        self.nodes += 1
        if self.nodes > MAX_GROUND_NODES:
            raise _TooLargeError
        name = f"n{self.nodes}"
        self.lines.append(f"(declare-const {name} Bool)(assert (= {name} {expression}))")
        return name

    def _junction(self, kind: str, parts: list[str | bool]) -> str | bool:
        decisive, neutral = (False, True) if kind == "and" else (True, False)
        kept: list[str] = []
        for part in parts:
            if part is decisive:
                return decisive
            if part is not neutral:
                kept.append(str(part))
        if not kept:
            return neutral
        if len(kept) == 1:
            return kept[0]
        return self._define(f"({kind} {' '.join(dict.fromkeys(kept))})")

    def _at_least(self, n: int, parts: list[str | bool]) -> str | bool:
        certain = sum(part is True for part in parts)
        open_parts = [str(part) for part in parts if not isinstance(part, bool)]
        needed = n - certain
        if needed <= 0:
            return True
        if needed > len(open_parts):
            return False
        if needed == 1:
            return self._junction("or", list(open_parts))
        weights = " ".join("1" for _ in open_parts)
        return self._define(f"((_ pbge {needed} {weights}) {' '.join(open_parts)})")

    def _atom(self, name: str, terms: Sequence[Term], env: Mapping[str, int]) -> str | bool:
        choices = [self._values(term, env) for term in terms]
        cases = []
        for row in itertools.product(*choices):
            values = tuple(value for value, _condition in row)
            conditions = [condition for _value, condition in row if condition is not None]
            atom = self._variable(name, values)
            cases.append(atom if not conditions else f"(and {' '.join(conditions)} {atom})")
        return cases[0] if len(cases) == 1 else self._define(f"(or {' '.join(cases)})")

    def _variable(self, name: str, values: tuple[int, ...]) -> str:
        key = (name, values)
        found = self.atoms.get(key)
        if found is None:
            found = f"a{len(self.atoms)}"
            self.atoms[key] = found
            self.lines.append(f"(declare-const {found} Bool)")
        return found

    def _values(self, term: Term, env: Mapping[str, int]) -> list[tuple[int, str | None]]:
        """The values ``term`` may have, each with the condition under which it has it."""
        kind, name = term
        if kind == "var":
            return [(env[name], None)]
        return list(enumerate(self.pick[name]))

    def _equal(self, left: Term, right: Term, env: Mapping[str, int]) -> str | bool:
        cases: list[str | bool] = []
        for (a, first), (b, second) in itertools.product(
            self._values(left, env), self._values(right, env)
        ):
            if a != b:
                continue
            conditions = [c for c in (first, second) if c is not None]
            cases.append(True if not conditions else f"(and {' '.join(conditions)})")
        return self._junction("or", cases)

    def structure(self, true_atoms: set[str], formulas: Sequence[Formula]) -> Structure:
        """The structure a satisfying assignment describes (atoms never mentioned: false)."""
        relations: dict[str, set[tuple[int, ...]]] = {name: set() for name in self.arities}
        for (name, values), variable in self.atoms.items():
            if variable in true_atoms:
                relations[name].add(values)
        chosen = {}
        for name, choices in self.pick.items():
            chosen[name] = next((v for v, c in enumerate(choices) if c in true_atoms), 0)
        return Structure(
            self.size, chosen, {name: frozenset(rows) for name, rows in relations.items()}
        )


def _text(value: str | bool) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else value


class MemoKeys:
    """Keys that memoise a sub-formula's value by the values of its free variables only (the
    sub-formula objects live as long as the memo, so their ids are stable)."""

    def __init__(self) -> None:
        self.free: dict[int, tuple[str, ...]] = {}

    def of(self, formula: Formula, env: Mapping[str, int]) -> tuple[int, tuple[int, ...]]:
        free = self.free.get(id(formula))
        if free is None:
            free = tuple(sorted(free_variables(formula)))
            self.free[id(formula)] = free
        return id(formula), tuple(env[name] for name in free)


@functools.lru_cache(maxsize=65_536)
def free_variables(formula: Formula) -> frozenset[str]:
    """The variables of ``formula`` that no quantifier in it binds (cached: the formulas of
    a dataset's sentences recur, and a sub-formula's answer serves every formula around it)."""
    kind = formula[0]
    if kind == "pred":
        return frozenset(name for term_kind, name in formula[2] if term_kind == "var")
    if kind == "eq":
        return frozenset(name for term_kind, name in formula[1:] if term_kind == "var")
    if kind == "not":
        return free_variables(formula[1])
    if kind in ("and", "or"):
        return frozenset().union(*(free_variables(part) for part in formula[1]))
    if kind in ("imp", "iff"):
        return free_variables(formula[1]) | free_variables(formula[2])
    if kind in ("all", "exists"):
        return free_variables(formula[2]) - {formula[1]}
    if kind == "count":
        return free_variables(formula[3]) - {formula[2]}
    raise SemanticsError(f"not a first-order formula: {formula!r}.")
