"""First-order formulas: a small immutable form, canonical variables, SMT-LIB and TPTP text.

Formulas come from β-reduced λ-terms (:mod:`symcomp.logic.lambda_terms`) and are plain nested
tuples, so they are hashable and cheap to pickle:

``("pred", name, (term, ...))``, ``("eq", term, term)``, ``("not", f)``,
``("and", (f, ...))``, ``("or", (f, ...))``, ``("imp", f, g)``, ``("iff", f, g)``,
``("all", var, f)``, ``("exists", var, f)``, and the counting quantifier
``("count", n, var, f)``: at least n distinct values of ``var`` satisfy ``f`` (exact
numerals). A term is ``("var", name)`` or ``("const", name)``.

Counting is first-order: :func:`expand_counts` writes each ``count`` with ordinary
quantifiers and equality, in the form provers handle best where it occurs. Where it is
asserted (positive polarity) it is n witnesses, pairwise distinct, each satisfying ``f``;
where it is denied, its negation "at most n - 1" is asserted as n - 1 witnesses that every
satisfying value equals: ``∃y1..yn-1 ∀x (f(x) → x = y1 ∨ ...)``. Both are equivalent, so the
choice is only about speed: universals over one variable with simple triggers, and
existentials that become constants.

Bound variables are renamed canonically (:func:`canonical`: ``x1`` for the outermost binder
on a path, ``x2`` inside it, ...), so equal meanings print equally whatever names
β-reduction invented.

>>> dog, saw = ("pred", "dog", (("var", "a"),)), ("pred", "saw", (("var", "a"), ("var", "b")))
>>> inner = ("exists", "b", ("and", (("pred", "cat", (("var", "b"),)), saw)))
>>> formula = canonical(("not", ("exists", "a", ("and", (dog, inner)))))
>>> to_text(formula)
'-exists x1.(dog(x1) & exists x2.(cat(x2) & saw(x1,x2)))'
>>> to_tptp(formula)
'~(?[X1]: (dog(X1) & (?[X2]: (cat(X2) & saw(X1,X2)))))'
>>> sorted(signature(formula).items())
[('cat', 1), ('dog', 1), ('saw', 2)]
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from symcomp.errors import SemanticsError

Formula = tuple[Any, ...]
Term = tuple[str, str]
SORT = "E"  # the one uninterpreted sort of entities


def canonical(formula: Formula) -> Formula:
    """``formula`` with every bound variable renamed ``x<depth>`` (depth of its binder).

    Nested binders get different names, so the result never shadows a variable.
    """
    return _rename(formula, {})


def _rename(formula: Formula, names: Mapping[str, str]) -> Formula:
    kind = formula[0]
    if kind == "pred":
        return ("pred", formula[1], tuple(_rename_term(term, names) for term in formula[2]))
    if kind == "eq":
        return ("eq", _rename_term(formula[1], names), _rename_term(formula[2], names))
    if kind == "not":
        return ("not", _rename(formula[1], names))
    if kind in ("and", "or"):
        return (kind, tuple(_rename(part, names) for part in formula[1]))
    if kind in ("imp", "iff"):
        return (kind, _rename(formula[1], names), _rename(formula[2], names))
    if kind in ("all", "exists"):
        name = f"x{len(names) + 1}"
        return (kind, name, _rename(formula[2], {**names, formula[1]: name}))
    if kind == "count":
        name = f"x{len(names) + 1}"
        return (kind, formula[1], name, _rename(formula[3], {**names, formula[2]: name}))
    raise SemanticsError(f"not a first-order formula: {formula!r}.")


def _rename_term(term: Term, names: Mapping[str, str]) -> Term:
    if term[0] == "var" and term[1] in names:
        return ("var", names[term[1]])
    return term


# -- inspection ------------------------------------------------------------------------------


def signature(formula: Formula, into: dict[str, int] | None = None) -> dict[str, int]:
    """Predicate name → arity of every predicate in ``formula``."""
    found = {} if into is None else into
    for node in subformulas(formula):
        if node[0] == "pred":
            found[node[1]] = len(node[2])
    return found


def constants(formula: Formula) -> set[str]:
    """Names of the individual constants in ``formula``."""
    found: set[str] = set()
    for node in subformulas(formula):
        terms: Iterable[Term] = ()
        if node[0] == "pred":
            terms = node[2]
        elif node[0] == "eq":
            terms = node[1:]
        found.update(name for kind, name in terms if kind == "const")
    return found


def subformulas(formula: Formula) -> Iterator[Formula]:
    """Every node of ``formula``, itself included (depth first)."""
    stack = [formula]
    while stack:
        node = stack.pop()
        yield node
        kind = node[0]
        if kind == "not":
            stack.append(node[1])
        elif kind in ("and", "or"):
            stack.extend(node[1])
        elif kind in ("imp", "iff"):
            stack.extend(node[1:])
        elif kind in ("all", "exists"):
            stack.append(node[2])
        elif kind == "count":
            stack.append(node[3])


# -- counting ----------------------------------------------------------------------------------


def expand_counts(formula: Formula, positive: bool = True) -> Formula:
    """``formula`` without ``count`` nodes (see the module docstring); ``positive`` is the
    polarity at which ``formula`` is asserted.

    >>> body = ("pred", "dog", (("var", "x1"),))
    >>> to_text(canonical(expand_counts(("count", 2, "x1", body))))
    'exists x1.exists x2.(-(x2 = x1) & dog(x1) & dog(x2))'
    >>> to_text(canonical(expand_counts(("not", ("count", 2, "x1", body)))))
    'exists x1.all x2.(dog(x2) -> (x2 = x1))'
    """
    kind = formula[0]
    if kind in ("pred", "eq"):
        return formula
    if kind == "not":
        inner = expand_counts(formula[1], not positive)
        return inner[1] if inner[0] == "not" else ("not", inner)  # no double negations
    if kind in ("and", "or"):
        return (kind, tuple(expand_counts(part, positive) for part in formula[1]))
    if kind == "imp":
        return (kind, expand_counts(formula[1], not positive), expand_counts(formula[2], positive))
    if kind == "iff":  # both polarities at once: either form is right
        return (kind, expand_counts(formula[1]), expand_counts(formula[2]))
    if kind in ("all", "exists"):
        return (kind, formula[1], expand_counts(formula[2], positive))
    if kind == "count":
        n, var, body = formula[1], formula[2], expand_counts(formula[3], positive)
        if n <= 1:
            return ("exists", var, body)
        return _witnesses(n, var, body) if positive else ("not", _at_most(n - 1, var, body))
    raise SemanticsError(f"not a first-order formula: {formula!r}.")


def _witnesses(n: int, var: str, body: Formula) -> Formula:
    """At least n: ∃x1..xn.(x1, ..., xn pairwise distinct ∧ f(x1) ∧ ... ∧ f(xn)).

    One block of existentials rather than a chain of nested ones: the same formula, which z3
    decides about 10 % faster (benchmarks/perf_verify.py at depths 3 and 5)."""
    names = [var, *(f"{var}c{index}" for index in range(2, n + 1))]
    parts: list[Formula] = [
        ("not", ("eq", ("var", name), ("var", other)))
        for index, name in enumerate(names)
        for other in names[:index]
    ]
    for name in names:
        renamed = _substitute(body, var, name)
        parts.extend(renamed[1] if renamed[0] == "and" else [renamed])
    formula: Formula = ("and", tuple(parts))
    for name in reversed(names):
        formula = ("exists", name, formula)
    return formula


def _at_most(n: int, var: str, body: Formula) -> Formula:
    """At most n (n >= 1): ∃y1..yn.∀x.(f(x) → x = y1 ∨ ... ∨ x = yn)."""
    names = [f"{var}w{index}" for index in range(1, n + 1)]
    equal = [("eq", ("var", var), ("var", name)) for name in names]
    formula: Formula = ("all", var, ("imp", body, equal[0] if n == 1 else ("or", tuple(equal))))
    for name in reversed(names):
        formula = ("exists", name, formula)
    return formula


def _substitute(formula: Formula, old: str, new: str) -> Formula:
    """``formula`` with the free variable ``old`` renamed ``new`` (new names never clash)."""
    if old == new:
        return formula
    kind = formula[0]
    if kind in ("pred", "eq"):
        terms = formula[2] if kind == "pred" else formula[1:]
        renamed = tuple(("var", new) if term == ("var", old) else term for term in terms)
        return ("pred", formula[1], renamed) if kind == "pred" else ("eq", *renamed)
    if kind == "not":
        return ("not", _substitute(formula[1], old, new))
    if kind in ("and", "or"):
        return (kind, tuple(_substitute(part, old, new) for part in formula[1]))
    if kind in ("imp", "iff"):
        return (kind, _substitute(formula[1], old, new), _substitute(formula[2], old, new))
    if kind in ("all", "exists"):
        return (
            formula if formula[1] == old else (kind, formula[1], _substitute(formula[2], old, new))
        )
    if formula[2] == old:  # count
        return formula
    return (kind, formula[1], formula[2], _substitute(formula[3], old, new))


# -- printing --------------------------------------------------------------------------------

_NLTK_JOIN = {"and": " & ", "or": " | "}


def to_text(formula: Formula) -> str:
    """The formula in :mod:`nltk.sem.logic` notation (parseable by nltk again); counting
    quantifiers are written out (:func:`expand_counts`)."""
    expanded = _without_counts(formula)
    return _text(formula if expanded is formula else canonical(expanded))


def _text(formula: Formula) -> str:
    kind = formula[0]
    if kind == "pred":
        return _atom(formula[1], [name for _kind, name in formula[2]])
    if kind == "eq":
        return f"({formula[1][1]} = {formula[2][1]})"
    if kind == "not":
        return f"-{_text(formula[1])}"
    if kind in _NLTK_JOIN:
        return "(" + _NLTK_JOIN[kind].join(_text(part) for part in formula[1]) + ")"
    if kind in ("imp", "iff"):
        arrow = " -> " if kind == "imp" else " <-> "
        return f"({_text(formula[1])}{arrow}{_text(formula[2])})"
    return f"{kind} {formula[1]}.{_text(formula[2])}"


def to_tptp(formula: Formula) -> str:
    """The formula in TPTP ``fof`` syntax (variables upper-cased; counting written out)."""
    return _tptp(_without_counts(formula))


def _tptp(formula: Formula) -> str:
    kind = formula[0]
    if kind == "pred":
        return _atom(formula[1], [_tptp_term(term) for term in formula[2]])
    if kind == "eq":
        return f"({_tptp_term(formula[1])} = {_tptp_term(formula[2])})"
    if kind == "not":
        return f"~{_tptp(formula[1])}"
    if kind in _NLTK_JOIN:
        return "(" + _NLTK_JOIN[kind].join(_tptp(part) for part in formula[1]) + ")"
    if kind in ("imp", "iff"):
        arrow = " => " if kind == "imp" else " <=> "
        return f"({_tptp(formula[1])}{arrow}{_tptp(formula[2])})"
    quantifier = "!" if kind == "all" else "?"
    return f"({quantifier}[{formula[1].upper()}]: {_tptp(formula[2])})"


def to_smtlib(formula: Formula) -> str:
    """The formula as an SMT-LIB 2 term over the sort :data:`SORT` (symbols quoted; counting
    written out)."""
    return _smtlib(_without_counts(formula))


def _smtlib(formula: Formula) -> str:
    kind = formula[0]
    if kind == "pred":
        if not formula[2]:
            return f"|{formula[1]}|"
        return f"(|{formula[1]}| {' '.join(_smt_term(term) for term in formula[2])})"
    if kind == "eq":
        return f"(= {_smt_term(formula[1])} {_smt_term(formula[2])})"
    if kind == "not":
        return f"(not {_smtlib(formula[1])})"
    if kind in ("and", "or"):
        return f"({kind} {' '.join(_smtlib(part) for part in formula[1])})"
    if kind in ("imp", "iff"):
        operator = "=>" if kind == "imp" else "="
        return f"({operator} {_smtlib(formula[1])} {_smtlib(formula[2])})"
    quantifier = "forall" if kind == "all" else "exists"
    return f"({quantifier} (({formula[1]} {SORT})) {_smtlib(formula[2])})"


def _without_counts(formula: Formula) -> Formula:
    """``formula`` with counting written out (asserted polarity) if it has any."""
    return (
        expand_counts(formula)
        if any(node[0] == "count" for node in subformulas(formula))
        else formula
    )


def smtlib_declarations(formulas: Iterable[Formula]) -> str:
    """``declare-sort`` / ``declare-fun`` lines for every symbol of ``formulas``."""
    predicates: dict[str, int] = {}
    names: set[str] = set()
    for formula in formulas:
        signature(formula, predicates)
        names |= constants(formula)
    lines = [f"(declare-sort {SORT} 0)"]
    lines += [f"(declare-const |{name}| {SORT})" for name in sorted(names)]
    for name, arity in sorted(predicates.items()):
        lines.append(f"(declare-fun |{name}| ({' '.join([SORT] * arity)}) Bool)")
    return "\n".join(lines)


def _atom(name: str, arguments: list[str]) -> str:
    return f"{name}({','.join(arguments)})" if arguments else name


def _tptp_term(term: Term) -> str:
    return term[1].upper() if term[0] == "var" else term[1]


def _smt_term(term: Term) -> str:
    return term[1] if term[0] == "var" else f"|{term[1]}|"
