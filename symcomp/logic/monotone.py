"""One-step monotonicity derivations: a proof that a one-edit hypothesis follows, without a solver.

Most NLI pairs in symcomp's data are one edit of one sentence (an adjective, a relative clause
or a place added or dropped, a noun or verb replaced by its hypernym). Their formulas then
differ at exactly one place, the *site*, and whether the hypothesis follows is decided by two
facts about it (Lyndon's monotonicity lemma, here for symcomp's first-order formulas with
counting quantifiers):

* the **inclusion** at the site: the premise's side is included in the hypothesis's side
  (``subset``), the reverse (``superset``), or both (``equivalent``) — for every assignment of
  the site's free variables. More conjuncts give a smaller set, more disjuncts a larger one,
  a hyponym a smaller one than its hypernym (by an axiom ``all x.(p(x) -> q(x))`` of the
  problem), repeated parts change nothing;
* the site's **polarity**: upward (+1) when an even number of negations and implication
  antecedents lie on the path from the root, downward (-1) when an odd number. ``and``,
  ``or``, ``exists``, ``all`` and the counting quantifier ``at least n`` are monotone in every
  argument, so they keep the polarity; ``iff`` is neither (no derivation through it).

The lemma: replacing a sub-formula by a larger one at an upward position (a smaller one at a
downward position) gives a formula that follows. So the hypothesis follows when the site is
upward and the relation is ``subset``, or downward and ``superset`` (``equivalent`` either
way). :func:`find_derivation` walks both formulas in parallel to the site and returns the
:class:`Derivation`; anything else (two sites, a different quantifier or numeral, a changed
name, an edit under ``iff``) is declined with None, never guessed. A derivation is re-checked
by the small, independent checker :func:`symcomp.logic.derivation_check.check_derivation`
before a verdict rests on it.

>>> from symcomp.logic.lambda_terms import parse_formula as f
>>> axioms = {"dog_is_animal": f("all x.(dog(x) -> animal(x))")}
>>> premise = f("-exists x.(animal(x) & ran(x))")
>>> derivation = find_derivation(premise, f("-exists x.(dog(x) & ran(x))"), axioms)
>>> derivation.polarity, derivation.relation, derivation.axiom, derivation.entails
(-1, 'superset', 'dog_is_animal', True)
>>> find_derivation(f("exists x.(dog(x) & ran(x))"), f("exists x.(cat(x) & ran(x))"), axioms)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from symcomp.logic.fol import Formula

SUBSET, SUPERSET, EQUIVALENT = "subset", "superset", "equivalent"
# the steps a site can take (what differs there)
IDENTICAL = "identical"  # premise and hypothesis are the same formula
PARTS = "parts"  # an and/or gains or loses parts, the others kept in order
PART_OF = "part-of"  # a formula becomes an and/or that has it as one of its parts
AXIOM = "axiom"  # an atom p(t..) becomes q(t..), with all x.(p(x) -> q(x)) or the reverse
STEPS = (IDENTICAL, PARTS, PART_OF, AXIOM)
# the child of each kind of node that a path index may name; the others have none
BRANCHING = ("not", "and", "or", "imp", "iff", "all", "exists", "count")


@dataclass(frozen=True)
class Derivation:
    """A one-step monotonicity argument for premise ⇒ hypothesis (or for why it is not one).

    Attributes
    ----------
    path : tuple of int
        The child taken at each node from the root to the site: the part's index in an
        and/or, 0 or 1 in an implication, 0 under a negation or a quantifier.
    step : str
        What differs at the site: ``identical``, ``parts``, ``part-of`` or ``axiom``.
    relation : str
        The premise's side against the hypothesis's side: ``subset``, ``superset`` or
        ``equivalent``.
    polarity : int
        +1 (upward) or -1 (downward) at the site.
    axiom : str or None
        The name of the axiom an ``axiom`` step uses.
    sites : tuple of two formulas
        The premise's and the hypothesis's sub-formula at the site (for explanations).
    context : tuple of (formula, int)
        The premise's node at each step of the path and the child taken (for explanations;
        not part of the certificate's equality).
    """

    path: tuple[int, ...]
    step: str
    relation: str
    polarity: int
    axiom: str | None = None
    sites: tuple[Formula, ...] = field(default=(), compare=False, repr=False)
    context: tuple[tuple[Formula, int], ...] = field(default=(), compare=False, repr=False)

    @property
    def entails(self) -> bool:
        """Whether the step proves the hypothesis (see the module docstring)."""
        if self.relation == EQUIVALENT:
            return True
        return (self.polarity > 0) == (self.relation == SUBSET)

    def to_json(self) -> dict[str, object]:
        """The certificate as JSON (what ``verify --json`` writes)."""
        return {
            "path": list(self.path),
            "step": self.step,
            "relation": self.relation,
            "polarity": "upward" if self.polarity > 0 else "downward",
            "axiom": self.axiom,
            "entails": self.entails,
        }


def find_derivation(
    premise: Formula, hypothesis: Formula, axioms: Mapping[str, Formula]
) -> Derivation | None:
    """The one-step derivation between ``premise`` and ``hypothesis``, or None (declined).

    ``axioms`` maps names to the problem's axioms; only ``all x.(p(x) -> q(x))`` ones are
    used, for a changed predicate.
    """
    path: list[int] = []
    context: list[tuple[Formula, int]] = []
    polarity = 1
    left, right = premise, hypothesis
    while left != right:
        index = _differing_child(left, right)
        if index is None:
            break  # the site: the nodes differ in themselves, not below
        if left[0] == "iff":
            return None  # neither monotone nor antitone
        if left[0] == "not" or (left[0] == "imp" and index == 0):
            polarity = -polarity
        path.append(index)
        context.append((left, index))
        left, right = children(left)[index], children(right)[index]
    site = _site(left, right, axioms)
    if site is None:
        return None
    step, relation, axiom = site
    return Derivation(tuple(path), step, relation, polarity, axiom, (left, right), tuple(context))


def children(formula: Formula) -> tuple[Formula, ...]:
    """The sub-formulas of a node, in path-index order (none for atoms and equations)."""
    kind = formula[0]
    if kind == "not":
        return (formula[1],)
    if kind in ("and", "or"):
        return tuple(formula[1])
    if kind in ("imp", "iff"):
        return (formula[1], formula[2])
    if kind in ("all", "exists"):
        return (formula[2],)
    if kind == "count":
        return (formula[3],)
    return ()


def _head(formula: Formula) -> tuple[object, ...]:
    """What a node is apart from its children: its kind, binder and numeral, arity."""
    kind = formula[0]
    if kind in ("and", "or"):
        return (kind, len(formula[1]))
    if kind in ("all", "exists"):
        return (kind, formula[1])
    if kind == "count":
        return (kind, formula[1], formula[2])
    if kind in BRANCHING:
        return (kind,)
    return formula  # an atom or an equation is all head


def _differing_child(left: Formula, right: Formula) -> int | None:
    """The index of the one child in which two nodes of the same head differ, or None when
    the heads differ or more than one child does (the site is then this node)."""
    if _head(left) != _head(right) or left[0] not in BRANCHING:
        return None
    differing = [
        index
        for index, (a, b) in enumerate(zip(children(left), children(right), strict=True))
        if a != b
    ]
    return differing[0] if len(differing) == 1 else None


def _site(
    left: Formula, right: Formula, axioms: Mapping[str, Formula]
) -> tuple[str, str, str | None] | None:
    """(step, relation, axiom) at the site ``left`` (premise) / ``right`` (hypothesis)."""
    if left == right:
        return IDENTICAL, EQUIVALENT, None
    if left[0] == right[0] and left[0] in ("and", "or"):
        relation = parts_relation(left[0], left[1], right[1])
        if relation is not None:
            return PARTS, relation, None
    if right[0] in ("and", "or") and left in right[1]:
        bigger = right[0] == "or"  # the hypothesis adds disjuncts (larger) or conjuncts
        return PART_OF, SUBSET if bigger else SUPERSET, None
    if left[0] in ("and", "or") and right in left[1]:
        bigger = left[0] == "or"
        return PART_OF, SUPERSET if bigger else SUBSET, None
    if left[0] == "pred" == right[0] and left[2] == right[2] and len(left[2]) == 1:
        for name, axiom in axioms.items():
            if axiom == _implication(left[1], right[1], axiom):
                return AXIOM, SUBSET, name
            if axiom == _implication(right[1], left[1], axiom):
                return AXIOM, SUPERSET, name
    return None


def parts_relation(kind: str, left: Sequence[Formula], right: Sequence[Formula]) -> str | None:
    """How an and/or of ``left`` parts relates to one of ``right`` parts when one list is the
    other with parts added (order kept), or None.

    >>> a, b = ("pred", "a", ()), ("pred", "b", ())
    >>> parts_relation("and", (a, b), (a,)), parts_relation("or", (a, b), (a,))
    ('subset', 'superset')
    >>> parts_relation("and", (a, a), (a,)), parts_relation("and", (b, a), (a, b))
    ('equivalent', None)
    """
    shorter, longer = (left, right) if len(left) < len(right) else (right, left)
    if len(shorter) == len(longer) or not _subsequence(shorter, longer):
        return None
    if all(part in shorter for part in longer):
        return EQUIVALENT
    left_more = longer is left
    smaller = left_more if kind == "and" else not left_more  # the premise's side is smaller
    return SUBSET if smaller else SUPERSET


def _subsequence(short: Sequence[Formula], long: Sequence[Formula]) -> bool:
    remaining = iter(long)
    return all(any(part == candidate for candidate in remaining) for part in short)


def _implication(narrow: str, wide: str, axiom: Formula) -> Formula:
    """``all v.(narrow(v) -> wide(v))`` with the variable ``axiom`` binds (if it binds one)."""
    variable = axiom[1] if axiom[0] == "all" else "x"
    term = (("var", variable),)
    return ("all", variable, ("imp", ("pred", narrow, term), ("pred", wide, term)))


# -- in words (``verify --explain``) ------------------------------------------------------------

_RELATION_SIGNS = {SUBSET: "⊆", SUPERSET: "⊇", EQUIVALENT: "≡"}


def explain_derivation(derivation: Derivation) -> list[str]:
    """A derivation in words, one line per fact: the site, the step, the position, the
    conclusion.

    >>> from symcomp.logic.lambda_terms import parse_formula as f
    >>> axioms = {"dog_is_animal": f("all x.(dog(x) -> animal(x))")}
    >>> premise, hypothesis = f("-exists x.(animal(x) & ran(x))"), f("-exists x.(dog(x) & ran(x))")
    >>> print("\\n".join(explain_derivation(find_derivation(premise, hypothesis, axioms))))
    ... # doctest: +ELLIPSIS
    the one difference: premise `animal(x1)`, hypothesis `dog(x1)`
    step: animal ⊇ dog, by axiom dog_is_animal: all x.(dog(x) -> animal(x))
    position: downward, under 'no'; path: not (flips) > exists x1 > and, part 1 of 2
    so: at a downward position the premise's side must include the hypothesis's (⊇): it ...
    """
    from symcomp.logic.fol import to_text

    left, right = derivation.sites or (None, None)
    lines = []
    if left is not None and right is not None:
        lines.append(
            f"the one difference: premise `{to_text(left)}`, hypothesis `{to_text(right)}`"
        )
    lines.append(f"step: {_step_words(derivation)}")
    direction = "upward" if derivation.polarity > 0 else "downward"
    under = _quantifier_words(derivation.context)
    path = " > ".join(_node_words(node, index) for node, index in derivation.context) or "none"
    lines.append(f"position: {direction}{', under ' + under if under else ''}; path: {path}")
    lines.append(f"so: {_conclusion(derivation)}")
    return lines


def _step_words(derivation: Derivation) -> str:
    sign = _RELATION_SIGNS[derivation.relation]
    left, right = derivation.sites or (("?",), ("?",))
    if derivation.step == IDENTICAL:
        return "premise and hypothesis are the same formula"
    if derivation.step == AXIOM:
        narrow, wide = (left[1], right[1]) if derivation.relation == SUBSET else (right[1], left[1])
        rule = f"all x.({narrow}(x) -> {wide}(x))"
        return f"{left[1]} {sign} {right[1]}, by axiom {derivation.axiom}: {rule}"
    if derivation.step == PARTS:
        kind = "conjunct" if left[0] == "and" else "disjunct"
        more = "premise" if len(left[1]) > len(right[1]) else "hypothesis"
        return f"the {more} has more {kind}s, the others kept: premise's side {sign} hypothesis's"
    inner = "premise" if right[0] in ("and", "or") else "hypothesis"
    junction = "and" if (right if inner == "premise" else left)[0] == "and" else "or"
    return f"the {inner}'s side is one part of an `{junction}`: premise's side {sign} hypothesis's"


def _conclusion(derivation: Derivation) -> str:
    if derivation.relation == EQUIVALENT:
        return "both sides are equivalent, so the hypothesis follows"
    wanted = SUBSET if derivation.polarity > 0 else SUPERSET
    position = "an upward" if derivation.polarity > 0 else "a downward"
    need = "be included in" if wanted == SUBSET else "include"
    verdict = "it does, so the hypothesis follows" if derivation.entails else "it does not"
    return (
        f"at {position} position the premise's side must {need} the hypothesis's "
        f"({_RELATION_SIGNS[wanted]}): {verdict}"
    )


def _node_words(node: Formula, index: int) -> str:
    kind = node[0]
    if kind == "not":
        return "not (flips)"
    if kind in ("and", "or"):
        return f"{kind}, part {index + 1} of {len(node[1])}"
    if kind == "imp":
        return "if-part (flips)" if index == 0 else "then-part"
    if kind in ("all", "exists"):
        return f"{kind} {node[1]}"
    if kind == "count":
        return f"at least {node[1]} {node[2]}"
    return str(kind)


def _quantifier_words(context: Sequence[tuple[Formula, int]]) -> str:
    """The determiners the path passes, in words (``no``, ``every``'s restrictor, ...)."""
    words = []
    for position, (node, index) in enumerate(context):
        below = context[position + 1][0][0] if position + 1 < len(context) else ""
        if node[0] == "not" and below == "exists":
            words.append("'no'")
        elif node[0] == "not" and below == "count":
            words.append(f"'fewer than {context[position + 1][0][1]}'")
        elif node[0] == "not" and below == "all":
            words.append("'not every'")
        elif node[0] == "imp" and index == 0 and position and context[position - 1][0][0] == "all":
            words.append("the restrictor of 'every'")
    return ", ".join(words)
