"""The trusted checker of one-step monotonicity derivations: small, solver-free, independent.

:func:`check_derivation` re-checks a :class:`~symcomp.logic.monotone.Derivation` against the
two formulas and the problem's axioms before any verdict rests on it. It shares no code with
the search that found the derivation (:mod:`symcomp.logic.monotone`) beyond the certificate's
type and names, so a bug there cannot vouch for itself. It checks, in order:

1. the path: at every node on it the premise and the hypothesis have the same kind, binder,
   numeral and number of parts, every child off the path is identical, and no node is an
   ``iff``; the polarity is counted here again (negations, implication antecedents);
2. the step at the site: for ``identical`` the two are equal; for ``parts`` both are
   and/or of one kind and one list of parts is the other with parts inserted, order kept;
   for ``part-of`` one side is an and/or with the other as one of its parts; for ``axiom``
   both are atoms over the same one argument and the named axiom is exactly
   ``all v.(p(v) -> q(v))`` between their predicates;
3. the claimed relation and polarity are the ones recomputed, and the step entails.

>>> from symcomp.logic.lambda_terms import parse_formula as f
>>> from symcomp.logic.monotone import Derivation
>>> premise, hypothesis = f("exists x.(dog(x) & ran(x))"), f("exists x.dog(x)")
>>> check_derivation(premise, hypothesis, {}, Derivation((0,), "part-of", "subset", 1))
>>> check_derivation(premise, hypothesis, {}, Derivation((0,), "part-of", "subset", -1))
... # doctest: +ELLIPSIS
Traceback (most recent call last):
...
symcomp.logic.derivation_check.CertificateError: the certificate says polarity -1 at the site; ...
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from symcomp.errors import SymcompError
from symcomp.logic.fol import Formula
from symcomp.logic.monotone import Derivation


class CertificateError(SymcompError):
    """A derivation that does not check: it must not decide a verdict."""


def check_derivation(
    premise: Formula, hypothesis: Formula, axioms: Mapping[str, Formula], claim: Derivation
) -> None:
    """Raise :class:`CertificateError` unless ``claim`` proves premise ⇒ hypothesis."""
    left, right, polarity = premise, hypothesis, 1
    for index in claim.path:
        kids_left, kids_right = _step_into(left, right, index)
        if left[0] == "not" or (left[0] == "imp" and index == 0):
            polarity = -polarity
        left, right = kids_left[index], kids_right[index]
    relation = _relation(left, right, claim, axioms)
    if relation != claim.relation:
        raise CertificateError(f"the site's relation is {relation}, not {claim.relation}.")
    if polarity != claim.polarity:
        raise CertificateError(
            f"the certificate says polarity {claim.polarity:+d} at the site; the path gives "
            f"{polarity:+d}."
        )
    upward_ok = polarity > 0 and relation in ("subset", "equivalent")
    downward_ok = polarity < 0 and relation in ("superset", "equivalent")
    if not (upward_ok or downward_ok):
        raise CertificateError(f"a {relation} site at polarity {polarity:+d} proves nothing.")


def _step_into(
    left: Formula, right: Formula, index: int
) -> tuple[tuple[Formula, ...], tuple[Formula, ...]]:
    """The children of two path nodes, after checking that they agree off the path."""
    kind = left[0]
    if kind != right[0] or kind not in ("not", "and", "or", "imp", "all", "exists", "count"):
        raise CertificateError(f"the path passes a {kind!r} node against a {right[0]!r} node.")
    if kind in ("all", "exists") and left[1] != right[1]:
        raise CertificateError("the path passes quantifiers over different variables.")
    if kind == "count" and left[1:3] != right[1:3]:
        raise CertificateError("the path passes counting quantifiers that differ.")
    kids_left, kids_right = _kids(left), _kids(right)
    if len(kids_left) != len(kids_right) or not 0 <= index < len(kids_left):
        raise CertificateError(f"the path's index {index} does not fit a {kind!r} node.")
    for position, (a, b) in enumerate(zip(kids_left, kids_right, strict=True)):
        if position != index and a != b:
            raise CertificateError("a second site: the formulas differ off the path.")
    return kids_left, kids_right


def _kids(node: Formula) -> tuple[Formula, ...]:
    kind = node[0]
    if kind == "not":
        return (node[1],)
    if kind in ("and", "or"):
        return tuple(node[1])
    if kind == "imp":
        return (node[1], node[2])
    if kind in ("all", "exists"):
        return (node[2],)
    return (node[3],)  # count


def _relation(
    left: Formula, right: Formula, claim: Derivation, axioms: Mapping[str, Formula]
) -> str:
    """The relation the claimed step establishes between the two sides (or raise)."""
    if claim.step == "identical" and left == right:
        return "equivalent"
    if claim.step == "parts" and left[0] == right[0] and left[0] in ("and", "or"):
        return _parts(left[0], left[1], right[1])
    if claim.step == "part-of":
        if right[0] in ("and", "or") and left in right[1]:
            return "subset" if right[0] == "or" else "superset"
        if left[0] in ("and", "or") and right in left[1]:
            return "superset" if left[0] == "or" else "subset"
    if claim.step == "axiom" and claim.axiom is not None:
        return _by_axiom(left, right, claim.axiom, axioms)
    raise CertificateError(f"the site is not a {claim.step!r} step.")


def _parts(kind: str, left: Sequence[Formula], right: Sequence[Formula]) -> str:
    short, long = (left, right) if len(left) < len(right) else (right, left)
    rest = iter(long)
    if len(short) == len(long) or not all(any(p == q for q in rest) for p in short):
        raise CertificateError("neither list of parts is the other with parts inserted.")
    if all(part in short for part in long):
        return "equivalent"
    premise_smaller = (long is left) == (kind == "and")
    return "subset" if premise_smaller else "superset"


def _by_axiom(left: Formula, right: Formula, name: str, axioms: Mapping[str, Formula]) -> str:
    axiom = axioms.get(name)
    if axiom is None:
        raise CertificateError(f"the problem has no axiom {name!r}.")
    atoms = left[0] == "pred" == right[0] and left[2] == right[2] and len(left[2]) == 1
    if not atoms:
        raise CertificateError("an axiom step needs two atoms over the same one argument.")
    if axiom[0] == "all" and axiom[2][0] == "imp":
        variable = (("var", axiom[1]),)
        narrow, wide = axiom[2][1], axiom[2][2]
        if narrow == ("pred", left[1], variable) and wide == ("pred", right[1], variable):
            return "subset"
        if narrow == ("pred", right[1], variable) and wide == ("pred", left[1], variable):
            return "superset"
    raise CertificateError(f"axiom {name!r} does not relate {left[1]!r} and {right[1]!r}.")
