"""Sampling conditioned on a construction: derivations that contain at least one node of some
aliases, drawn exactly from the grammar's distribution given that they do.

Rejection sampling wastes draws when the construction is rare (a COGS unaccusative clause with
a common-noun subject is 1.5 % of sentences). Here the probability ``q[A]`` that a nonterminal
``A`` expands without any required node is computed once per weight table (a fixed point over
the rules); a draw then chooses each alternative with its weight times the probability of the
part it must satisfy (``some``: at least one required node below; ``none``: none below) and
passes the condition on to the children, one child at a time. Limits, depth caps and
constraints still reject as usual, so the result is the grammar's distribution conditioned on
all of them.

>>> import random
>>> from symcomp.core.grammar import Grammar
>>> from symcomp.core.sampler import Sampler
>>> g = Grammar.from_text(
...     'start: "a" -> common\\n     | "b" -> rare\\n%ignore " "\\n',
...     {"language": {"version": "1"}, "weights": {"common": 999, "rare": 1}}, name="toy")
>>> Sampler(g).sample(random.Random(0), require=frozenset({"rare"})).tokens
['b']
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping
from typing import Any

from symcomp.core.plan import NONTERMINAL, REPEAT, Plan, Table
from symcomp.errors import GrammarError

ANY, NONE, SOME = range(3)
ITERATIONS = 500  # fixed-point rounds; stops early once nothing changes by 1e-15


def absence(tables: Mapping[str, Table], require: frozenset[str]) -> dict[str, float]:
    """``q[A]``: the probability that ``A`` expands with no node in ``require`` (and ends)."""
    q = dict.fromkeys(tables, 0.0)
    for _ in range(ITERATIONS):
        change = 0.0
        for origin, (cumulative, plans, total) in tables.items():
            value = 0.0
            previous = 0.0
            for bound, plan in zip(cumulative, plans, strict=True):
                weight, previous = bound - previous, bound
                if plan.group in require:
                    continue
                product = weight / total if total else 0.0
                for kind, payload, _keep in plan.symbols:
                    if kind == NONTERMINAL:
                        product *= q[payload]
                value += product
            change = max(change, abs(value - q[origin]))
            q[origin] = value
        if change < 1e-15:
            break
    return q


def plan_absence(plan: Plan, q: Mapping[str, float], require: frozenset[str]) -> float:
    """The probability that this alternative, once chosen, holds no required node."""
    if plan.group in require:
        return 0.0
    product = 1.0
    for kind, payload, _keep in plan.symbols:
        if kind == NONTERMINAL:
            product *= q[payload]
        elif kind == REPEAT:
            raise GrammarError(
                f"sampling that requires {sorted(require)} cannot pass through the repetition "
                f"in {plan.group!r}; write the repetition as a recursive rule."
            )
    return product


def choose(
    draw: Any, origin: str, mode: int, q: Mapping[str, float], require: frozenset[str]
) -> Plan:
    """An alternative of ``origin`` given that its expansion must (``SOME``) or must not
    (``NONE``) hold a required node."""
    cumulative, plans, _total = draw.tables[origin]
    weights, previous = [], 0.0
    for bound, plan in zip(cumulative, plans, strict=True):
        absent = plan_absence(plan, q, require)
        weights.append((bound - previous) * (absent if mode == NONE else 1.0 - absent))
        previous = bound
    total = sum(weights)
    if not total > 0:
        wanted = "without" if mode == NONE else "with"
        raise GrammarError(
            f"rule {origin!r} cannot be expanded {wanted} a node of {sorted(require)} under "
            f"this weight table."
        )
    running, point = 0.0, draw.random() * total
    bounds = []
    for weight in weights:
        running += weight
        bounds.append(running)
    chosen: Plan = plans[min(bisect.bisect_right(bounds, point), len(plans) - 1)]
    return chosen


def child_modes(
    draw: Any, plan: Plan, mode: int, q: Mapping[str, float], require: frozenset[str]
) -> list[int]:
    """The condition each nonterminal child of a chosen alternative passes on."""
    children = [payload for kind, payload, _keep in plan.symbols if kind == NONTERMINAL]
    if mode == ANY or plan.group in require:
        return [ANY] * len(children)
    if mode == NONE:
        return [NONE] * len(children)
    modes: list[int] = []
    for index, child in enumerate(children):
        rest = 1.0
        for later in children[index:]:
            rest *= q[later]
        needed = (1.0 - q[child]) / (1.0 - rest) if rest < 1.0 else 1.0
        if draw.random() < needed:
            return modes + [SOME] + [ANY] * (len(children) - index - 1)
        modes.append(NONE)
    return modes
