"""A compiled expansion of a rule as the sampler walks it, and the kinds of its symbols.

>>> Plan(label="x", expand1=False, symbols=((LITERAL, "a", True),), group="x", unique=False).kinds
()
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

LITERAL, SLOT, NONTERMINAL, REPEAT, WORD = range(5)


@dataclass(frozen=True)
class Plan:
    """One compiled expansion, prepared for sampling."""

    label: str | None  # tree node label; None: spliced into the parent (`_rule`)
    expand1: bool  # `?rule` without alias: a single kept child replaces the node
    symbols: tuple[tuple[int, Any, bool], ...]  # (kind, payload, kept in the tree)
    group: str  # the alias, or the rule name for unaliased rules: the unit of weighting
    unique: bool  # content must be new in the pool (sidecar [uniqueness] tokens_of)
    kinds: tuple[str, ...] = ()  # recursion kinds this node counts for (sidecar [depths])


Table = tuple[list[float], list[Plan], float]  # cumulative weights, expansions, total

__all__ = ["LITERAL", "NONTERMINAL", "REPEAT", "SLOT", "WORD", "Plan", "Table"]
