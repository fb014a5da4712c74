"""Worlds built from the formulas themselves: models without a solver, checked by evaluation.

:func:`build_world` makes a small :class:`~symcomp.logic.finite.Structure` in which a list
of formulas is meant to hold, the way a reader would draw it: every existential that must be
true gets a fresh witness (``at least n``: n of them), every atom asserted of its witnesses
is made true, and every universal (an ``every``, a ``no``, an axiom ``all x.(dog(x) ->
animal(x))``) is applied to each thing of the world until nothing changes (a *chase*: an
axiom closes the extensions upward, an ``every`` gives its scope to its restrictor's
members). What is never asserted stays empty, so the smaller side of a one-edit pair (the
``small`` of "some small dog", the antecedent of a "no") is left out of the world.

Several *candidates* are tried in a fixed order (:data:`CANDIDATES`): a disjunction is made
true by its first constructive part or by its last one, and the chase either adds fresh
witnesses or reuses a thing that already fits (which saturates relations over the things
they range over). A world is returned only when symcomp's own evaluator
(:func:`~symcomp.logic.finite.holds`) confirms every formula in it, so a bug or a wrong
guess here can cost time, never a wrong verdict. None means no candidate worked (a solver
decides the pair then); it proves nothing.

>>> from symcomp.logic.lambda_terms import parse_formula as f
>>> premise = f("exists x.(dog(x) & ran(x))")
>>> negated = ("not", f("exists x.(dog(x) & small(x) & ran(x))"))
>>> axiom = f("all x.(dog(x) -> animal(x))")
>>> build_world([premise, negated, axiom]).describe()
'a world of 1 thing: animal = {1}, dog = {1}, ran = {1}, small = {}'
>>> build_world([f("exists x.dog(x)"), f("-exists x.dog(x)")]) is None
True
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from symcomp.logic.finite import BINDERS, MemoKeys, Structure, free_variables, guard_of, holds
from symcomp.logic.fol import Formula, Term, constants, signature

MAX_THINGS = 96  # a chase that needs more things than this gives up (it may not end)
MAX_ROUNDS = 64  # rounds of the chase over every universal and thing


@dataclass(frozen=True)
class Candidate:
    """How one attempt builds its world."""

    last_part: bool = False  # make a disjunction true by its last constructive part
    reuse: bool = False  # an existential reuses a thing that already satisfies its body
    share: bool = False  # one set of witnesses per binder, whatever its free variables are


# in the order tried: shared witnesses give the smallest worlds; a plain chase can grow a
# world to MAX_THINGS before it fails, so it comes after the cheaper ones
CANDIDATES = (
    Candidate(share=True),
    Candidate(share=True, last_part=True),
    Candidate(last_part=True),
    Candidate(),
    Candidate(reuse=True),
)


class _NoWorldError(Exception):
    """This candidate cannot build a world (too large, or a non-monotone connective)."""


def build_world(formulas: Sequence[Formula]) -> Structure | None:
    """A structure in which every formula of ``formulas`` holds (checked), or None."""
    names = sorted(set().union(*(constants(formula) for formula in formulas)))
    arities: dict[str, int] = {}
    for formula in formulas:
        signature(formula, arities)
    for candidate in CANDIDATES:
        try:
            world = _Builder(candidate, names).build(formulas)
        except _NoWorldError:
            continue
        structure = world.structure(arities)
        if all(holds(formula, structure) for formula in formulas):
            return structure
    return None


Env = Mapping[str, int]


@dataclass
class _Universal:
    """The body must have truth value ``sign`` for every thing but ``allowed`` of them (0 for
    a universal, n - 1 for "fewer than n"); ``checked`` is the tick it was last found true."""

    variable: str
    body: Formula
    env: Env
    sign: bool
    allowed: int
    predicates: frozenset[str]
    checked: int = -1


class _Builder:
    """One candidate's world under construction (elements 0..size-1)."""

    def __init__(self, candidate: Candidate, names: Sequence[str]) -> None:
        self.candidate = candidate
        self.size = 0
        self.relations: dict[str, set[tuple[int, ...]]] = {}
        self.universals: dict[tuple[object, ...], _Universal] = {}
        # a clock of changes: when the world last grew, and when each relation last changed
        # (a universal checked since is still true: only its predicates and things matter)
        self.tick, self.grown = 0, 0
        self.stamps: dict[str, int] = {}
        # truth of (sub-formula, values of its free variables) in the world as it stands;
        # emptied whenever the world grows
        self.memo: dict[tuple[int, tuple[int, ...]], bool] = {}
        self.keys = MemoKeys()
        self.shared: dict[int, list[int]] = {}  # a binder's witnesses (candidate ``share``)
        self.constants = {name: self._fresh() for name in names}  # names: distinct things

    def build(self, formulas: Sequence[Formula]) -> _Builder:
        for formula in formulas:
            self.make(formula, {}, True)
        self._chase()
        if self.size == 0:
            self._fresh()  # a world has at least one thing
            self._chase()
        return self

    def structure(self, arities: Mapping[str, int]) -> Structure:
        relations = {name: frozenset(self.relations.get(name, ())) for name in arities}
        return Structure(self.size, dict(self.constants), relations)

    def _fresh(self) -> int:
        if self.size >= MAX_THINGS:
            raise _NoWorldError
        self.memo.clear()
        self.size += 1
        self.tick += 1
        self.grown = self.tick
        return self.size - 1

    # -- making a formula true (sign True) or false (sign False) ----------------------------

    def make(self, formula: Formula, env: Env, sign: bool) -> None:
        kind = formula[0]
        if kind == "pred":
            if sign:
                row = tuple(self._value(term, env) for term in formula[2])
                rows = self.relations.setdefault(formula[1], set())
                if row not in rows:
                    rows.add(row)
                    self.memo.clear()
                    self.tick += 1
                    self.stamps[formula[1]] = self.tick
        elif kind == "not":
            self.make(formula[1], env, not sign)
        elif kind in ("and", "or"):
            parts = [(part, sign) for part in formula[1]]
            if (kind == "and") == sign:
                for part, part_sign in parts:
                    self.make(part, env, part_sign)
            else:
                self._choose(parts, env)
        elif kind == "imp":
            if sign:
                self._choose([(formula[1], False), (formula[2], True)], env)
            else:
                self.make(formula[1], env, True)
                self.make(formula[2], env, False)
        elif kind in ("all", "exists"):
            if (kind == "exists") == sign:
                self._witnesses(formula, 1, env, sign)
            else:
                self._require(formula[1], formula[2], env, sign, 0)
        elif kind == "count":
            if sign:
                self._witnesses(formula, int(formula[1]), env, True)
            else:  # fewer than n: made by making the body false of every thing, if need be
                self._require(formula[2], formula[3], env, False, int(formula[1]) - 1)
        elif kind == "iff":
            raise _NoWorldError
        # an equation or a negated atom is only checked, never made

    def _witnesses(self, node: Formula, n: int, env: Env, sign: bool) -> None:
        """Make the body of the binder ``node`` have truth value ``sign`` for ``n`` distinct
        things: fresh ones; with ``reuse`` first those that already fit; with ``share`` the
        things this binder was given before (one set of witnesses for every occurrence)."""
        variable, body = (node[2], node[3]) if node[0] == "count" else (node[1], node[2])
        if self.candidate.reuse:
            fitting = sum(self.true({**env, variable: v}, body) == sign for v in range(self.size))
            n -= min(n, fitting)
        shared = self.shared.setdefault(id(node), []) if self.candidate.share else []
        for index in range(n):
            if index == len(shared) or not self.candidate.share:
                shared.append(self._fresh())
            self.make(body, {**env, variable: shared[index]}, sign)

    def _choose(self, options: list[tuple[Formula, bool]], env: Env) -> None:
        """Make a disjunction of signed parts true: nothing if one is, else one part."""
        if any(self.true(env, part) == sign for part, sign in options):
            return
        constructive = [(part, sign) for part, sign in options if _constructive(part, sign)]
        if not constructive:
            raise _NoWorldError
        part, sign = constructive[-1] if self.candidate.last_part else constructive[0]
        self.make(part, env, sign)

    def _require(self, variable: str, body: Formula, env: Env, sign: bool, allowed: int) -> None:
        """Record a universal for the chase (once: the same body with the same values of its
        free variables is the same requirement)."""
        free = sorted(free_variables(body) - {variable})
        key = (id(body), sign, allowed, tuple(env[name] for name in free))
        if key not in self.universals:
            predicates = frozenset(signature(body))
            self.universals[key] = _Universal(variable, body, env, sign, allowed, predicates)

    def _chase(self) -> None:
        for _round in range(MAX_ROUNDS):
            changed = False
            for universal in list(self.universals.values()):
                if universal.checked >= self.grown and all(
                    self.stamps.get(name, 0) <= universal.checked for name in universal.predicates
                ):
                    continue  # nothing it depends on changed since it was last true
                changed |= self._apply(universal)
            if not changed:
                return
        raise _NoWorldError

    def _apply(self, universal: _Universal) -> bool:
        """Make ``universal`` true where it is not; whether the world changed."""
        variable, body, sign = universal.variable, universal.body, universal.sign
        scopes = [{**universal.env, variable: value} for value in range(self.size)]
        wrong = [scope for scope in scopes if self.true(scope, body) != sign]
        if len(wrong) <= universal.allowed:
            universal.checked = self.tick
            return False
        for scope in wrong:
            self.make(body, scope, sign)
        return True

    # -- truth in the world as it stands (a guide only: holds() has the last word) ----------

    def true(self, env: Env, formula: Formula) -> bool:
        if formula[0] not in BINDERS:
            return self._true(env, formula)
        key = self.keys.of(formula, env)
        found = self.memo.get(key)
        if found is None:
            found = self._true(env, formula)
            self.memo[key] = found
        return found

    def _true(self, env: Env, formula: Formula) -> bool:
        kind = formula[0]
        if kind == "pred":
            row = tuple(self._value(term, env) for term in formula[2])
            return row in self.relations.get(formula[1], ())
        if kind == "eq":
            return self._value(formula[1], env) == self._value(formula[2], env)
        if kind == "not":
            return not self.true(env, formula[1])
        if kind == "and":
            return all(self.true(env, part) for part in formula[1])
        if kind == "or":
            return any(self.true(env, part) for part in formula[1])
        if kind == "imp":
            return not self.true(env, formula[1]) or self.true(env, formula[2])
        if kind == "iff":
            return self.true(env, formula[1]) == self.true(env, formula[2])
        values = self._truths(formula, env)
        if kind == "exists":
            return any(values)
        if kind == "all":
            return all(values)
        return sum(values) >= int(formula[1])  # count

    def _truths(self, formula: Formula, env: Env) -> Iterator[bool]:
        variable, body = (formula[2], formula[3]) if formula[0] == "count" else formula[1:3]
        guard = guard_of(formula[0], variable, body)
        values: Iterable[int] = range(self.size)
        if guard is not None:  # the other things cannot decide (see finite.guard_of)
            values = [row[0] for row in self.relations.get(guard, ())]
        return (self.true({**env, variable: value}, body) for value in values)

    def _value(self, term: Term, env: Env) -> int:
        return env[term[1]] if term[0] == "var" else int(self.constants[term[1]])


def _constructive(formula: Formula, sign: bool) -> bool:
    """Whether making ``formula`` have truth value ``sign`` adds something to the world (a
    negated atom or an equation cannot be made true by adding)."""
    kind = formula[0]
    if kind == "not":
        return _constructive(formula[1], not sign)
    if kind == "pred":
        return sign
    return bool(kind != "eq")
