"""First-order formulas: a small immutable form, canonical variables, SMT-LIB and TPTP text.

Formulas come from β-reduced λ-terms (:mod:`symcomp.logic.lambda_terms`) and are plain nested
tuples, so they are hashable and cheap to pickle:

``("pred", name, (term, ...))``, ``("eq", term, term)``, ``("not", f)``,
``("and", (f, ...))``, ``("or", (f, ...))``, ``("imp", f, g)``, ``("iff", f, g)``,
``("all", var, f)``, ``("exists", var, f)``; a term is ``("var", name)`` or
``("const", name)``.

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
    raise SemanticsError(f"not a first-order formula: {formula!r}.")


def _rename_term(term: Term, names: Mapping[str, str]) -> Term:
    if term[0] == "var" and term[1] in names:
        return ("var", names[term[1]])
    return term


# -- inspection ------------------------------------------------------------------------------


def signature(formula: Formula, into: dict[str, int] | None = None) -> dict[str, int]:
    """Predicate name → arity of every predicate in ``formula``."""
    found = {} if into is None else into
    for node in _nodes(formula):
        if node[0] == "pred":
            found[node[1]] = len(node[2])
    return found


def constants(formula: Formula) -> set[str]:
    """Names of the individual constants in ``formula``."""
    found: set[str] = set()
    for node in _nodes(formula):
        terms: Iterable[Term] = ()
        if node[0] == "pred":
            terms = node[2]
        elif node[0] == "eq":
            terms = node[1:]
        found.update(name for kind, name in terms if kind == "const")
    return found


def _nodes(formula: Formula) -> Iterator[Formula]:
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


# -- printing --------------------------------------------------------------------------------

_NLTK_JOIN = {"and": " & ", "or": " | "}


def to_text(formula: Formula) -> str:
    """The formula in :mod:`nltk.sem.logic` notation (parseable by nltk again)."""
    kind = formula[0]
    if kind == "pred":
        return _atom(formula[1], [name for _kind, name in formula[2]])
    if kind == "eq":
        return f"({formula[1][1]} = {formula[2][1]})"
    if kind == "not":
        return f"-{to_text(formula[1])}"
    if kind in _NLTK_JOIN:
        return "(" + _NLTK_JOIN[kind].join(to_text(part) for part in formula[1]) + ")"
    if kind in ("imp", "iff"):
        arrow = " -> " if kind == "imp" else " <-> "
        return f"({to_text(formula[1])}{arrow}{to_text(formula[2])})"
    return f"{kind} {formula[1]}.{to_text(formula[2])}"


def to_tptp(formula: Formula) -> str:
    """The formula in TPTP ``fof`` syntax (variables upper-cased)."""
    kind = formula[0]
    if kind == "pred":
        return _atom(formula[1], [_tptp_term(term) for term in formula[2]])
    if kind == "eq":
        return f"({_tptp_term(formula[1])} = {_tptp_term(formula[2])})"
    if kind == "not":
        return f"~{to_tptp(formula[1])}"
    if kind in _NLTK_JOIN:
        return "(" + _NLTK_JOIN[kind].join(to_tptp(part) for part in formula[1]) + ")"
    if kind in ("imp", "iff"):
        arrow = " => " if kind == "imp" else " <=> "
        return f"({to_tptp(formula[1])}{arrow}{to_tptp(formula[2])})"
    quantifier = "!" if kind == "all" else "?"
    return f"({quantifier}[{formula[1].upper()}]: {to_tptp(formula[2])})"


def to_smtlib(formula: Formula) -> str:
    """The formula as an SMT-LIB 2 term over the sort :data:`SORT` (symbols quoted)."""
    kind = formula[0]
    if kind == "pred":
        if not formula[2]:
            return f"|{formula[1]}|"
        return f"(|{formula[1]}| {' '.join(_smt_term(term) for term in formula[2])})"
    if kind == "eq":
        return f"(= {_smt_term(formula[1])} {_smt_term(formula[2])})"
    if kind == "not":
        return f"(not {to_smtlib(formula[1])})"
    if kind in ("and", "or"):
        return f"({kind} {' '.join(to_smtlib(part) for part in formula[1])})"
    if kind in ("imp", "iff"):
        operator = "=>" if kind == "imp" else "="
        return f"({operator} {to_smtlib(formula[1])} {to_smtlib(formula[2])})"
    quantifier = "forall" if kind == "all" else "exists"
    return f"({quantifier} (({formula[1]} {SORT})) {to_smtlib(formula[2])})"


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
