"""Drawing a pool: one seeded stream of derivations, filtered by the pool's rules.

A draw joins the pool when it is within the limits (input length, depth), its input is new, its
language-specific uniqueness keys are new (PCFG-LET: no function applied twice to the same
literal list) and, when naturalising, its (length, depth) cell still has room. ``tokens_of``
content (PCFG SET string arguments) is made new inside the draw itself, by redrawing just that
node, as the published generator does. Every rejection is counted by reason; the counts go into
the manifest, so no filter is silent.

All of this is order-dependent, so it runs as one stream in one process; what follows
(interpretation, serialisation) is a pure function of the accepted derivations and may run in
parallel (:mod:`symcomp.data.parallel`) without changing a byte.

>>> import symcomp
>>> stats = DrawStats()
>>> pool = list(draw_pool(symcomp.get_language("scan"), 3, seed=0, stats=stats))
>>> [item.text for item in pool]
['turn around left thrice', 'turn right thrice and run twice', 'jump']
>>> stats.draws, stats.accepted
(3, 3)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Hashable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from lark import Tree

from symcomp.core.derivation import tree_metrics
from symcomp.core.language import Language
from symcomp.core.sampler import Derivation, Rejected
from symcomp.data.naturalize import LengthDepthTarget
from symcomp.errors import GenerationError


@dataclass
class Accepted:
    """A derivation that joined the pool, with its input text and size measures."""

    tree: Tree[Any]
    text: str
    meta: dict[str, int]


@dataclass
class DrawStats:
    """Counts of draws, acceptances and rejections by reason (for the manifest)."""

    draws: int = 0
    accepted: int = 0
    rejected: Counter[str] = field(default_factory=Counter)

    def describe(self) -> dict[str, Any]:
        return {
            "draws": self.draws,
            "accepted": self.accepted,
            "rejected": dict(sorted(self.rejected.items())),
        }


def default_max_draws(n: int) -> int:
    """Draw budget before giving up on a pool of ``n`` (covers coupon-collector pools)."""
    return 10_000 + 200 * n


def draw_pool(
    language: Language,
    n: int,
    *,
    seed: int,
    max_depth: int | None = None,
    max_length: int | None = None,
    target: LengthDepthTarget | None = None,
    max_draws: int | None = None,
    stats: DrawStats | None = None,
) -> Iterator[Accepted]:
    """Yield ``n`` distinct accepted derivations of ``language`` drawn with ``seed``.

    Parameters
    ----------
    language : Language
        What to draw from.
    n : int
        Pool size.
    seed : int
        Seed of the single random stream.
    max_depth, max_length : int, optional
        Limits overriding the language's sidecar limits.
    target : LengthDepthTarget, optional
        Naturalise: draw with random per-example probabilities and fill the target's cells.
    max_draws : int, optional
        Give up (``GenerationError``) after this many draws; default :func:`default_max_draws`.
    stats : DrawStats, optional
        Filled with the counts as the pool is drawn.

    Raises
    ------
    GenerationError
        When ``n`` examples cannot be drawn within the budget (nothing should be written).
    """
    stats = stats if stats is not None else DrawStats()
    rng = random.Random(seed)
    limits = language.limits(max_depth=max_depth, max_length=max_length)
    budget = max_draws if max_draws is not None else default_max_draws(n)
    pool = _Admission(language, target, n)
    while stats.accepted < n:
        if stats.draws >= budget:
            raise GenerationError(_exhausted(language, n, stats, limits))
        stats.draws += 1
        derivation = _draw(language, rng, pool, limits["max_length"], stats)
        if derivation is None:
            continue
        meta = _measure(derivation, language.functions, limits, stats)
        if meta is None:
            continue
        text = " ".join(derivation.tokens)
        reason = pool.admit(derivation, text, meta)
        if reason is not None:
            stats.rejected[reason] += 1
            continue
        stats.accepted += 1
        yield Accepted(derivation.tree, text, meta)


def _draw(
    language: Language,
    rng: random.Random,
    pool: _Admission,
    max_length: int | None,
    stats: DrawStats,
) -> Derivation | None:
    """One derivation (with random rule weights when naturalising); None when the sampler
    rejects it, the reason counted."""
    tables = None
    if pool.target is not None:
        tables = language.sampler.weighted_tables(language.random_weights(rng))
    try:
        return language.derive(rng, tables=tables, used=pool.content, max_length=max_length)
    except Rejected as rejection:
        stats.rejected[rejection.reason] += 1
        return None


class _Admission:
    """What a drawn pool holds so far, against which each new draw is judged."""

    def __init__(self, language: Language, target: LengthDepthTarget | None, n: int) -> None:
        self.language = language
        self.target = target
        self.quotas = target.quotas(n) if target is not None else None
        self.inputs: set[str] = set()
        self.keys: set[Hashable] = set()
        # content the sampler must not draw again (PCFG SET string arguments); the sampler
        # reads this very set, so it only grows in place
        self.content: set[Hashable] = set()

    def admit(self, derivation: Derivation, text: str, meta: Mapping[str, int]) -> str | None:
        """Take the draw into the pool, or say why not (the rejection's reason)."""
        if text in self.inputs:
            return "duplicate_input"
        keys = list(self.language.uniqueness_keys(derivation.tree, text))
        if len(set(keys)) < len(keys) or any(key in self.keys for key in keys):
            return "duplicate_key"
        if self.quotas is not None and self.target is not None:
            cell = self.target.cell(length=meta["length"], depth=meta["depth"])
            if self.quotas.get(cell, 0) == 0:
                return (
                    "naturalize_cell_full" if cell in self.quotas else "naturalize_outside_target"
                )
            self.quotas[cell] -= 1
        self.inputs.add(text)
        self.keys.update(keys)
        self.content |= derivation.unique_keys
        return None


def enumerate_pool(
    language: Language,
    *,
    max_depth: int | None = None,
    max_length: int | None = None,
    stats: DrawStats | None = None,
) -> Iterator[Accepted]:
    """Yield every derivation of a finite language within the limits, in grammar order."""
    stats = stats if stats is not None else DrawStats()
    limits = language.limits(max_depth=max_depth, max_length=max_length)
    seen: set[str] = set()
    for derivation in language.enumerate():
        stats.draws += 1
        meta = _measure(derivation, language.functions, limits, stats)
        if meta is None:
            continue
        text = " ".join(derivation.tokens)
        if text in seen:  # two derivations of one sentence: an ambiguous grammar
            stats.rejected["duplicate_input"] += 1
            continue
        seen.add(text)
        stats.accepted += 1
        yield Accepted(derivation.tree, text, meta)


def _measure(
    derivation: Derivation,
    functions: frozenset[str] | None,
    limits: Mapping[str, int | None],
    stats: DrawStats,
) -> dict[str, int] | None:
    """Length, depth and function count; None (and a counted rejection) beyond the limits."""
    length = len(derivation.tokens)
    if limits["max_length"] is not None and length > limits["max_length"]:
        stats.rejected["length"] += 1  # only enumeration gets here: draws abort early
        return None
    depth, count = tree_metrics(derivation.tree, functions)
    if limits["max_depth"] is not None and depth > limits["max_depth"]:
        stats.rejected["depth"] += 1
        return None
    return {"length": length, "depth": depth, "functions": count}


def _exhausted(language: Language, n: int, stats: DrawStats, limits: dict[str, int | None]) -> str:
    reasons = ", ".join(f"{reason}: {count:,}" for reason, count in stats.rejected.most_common())
    return (
        f"could draw only {stats.accepted:,} of {n:,} {language.name} examples in "
        f"{stats.draws:,} draws (rejected: {reasons or 'none'}; limits {limits}). Ask for fewer "
        f"examples, relax the limits or the naturalisation target, or use `enumerate_all` for a "
        f"finite language. Nothing was written."
    )
