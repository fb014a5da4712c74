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
    quotas = target.quotas(n) if target is not None else None
    seen_inputs: set[str] = set()
    seen_keys: set[Hashable] = set()
    used_content: set[Hashable] = set()
    sampler, functions = language.sampler, language.functions

    while stats.accepted < n:
        if stats.draws >= budget:
            raise GenerationError(_exhausted(language, n, stats, limits))
        stats.draws += 1
        tables = None
        if target is not None:
            tables = sampler.weighted_tables(language.random_weights(rng))
        try:
            derivation = language.derive(
                rng, tables=tables, used=used_content, max_length=limits["max_length"]
            )
        except Rejected as rejection:
            stats.rejected[rejection.reason] += 1
            continue
        meta = _measure(derivation, functions, limits, stats)
        if meta is None:
            continue
        text = " ".join(derivation.tokens)
        if text in seen_inputs:
            stats.rejected["duplicate_input"] += 1
            continue
        keys = list(language.uniqueness_keys(derivation.tree, text))
        if len(set(keys)) < len(keys) or any(key in seen_keys for key in keys):
            stats.rejected["duplicate_key"] += 1
            continue
        if quotas is not None and target is not None:
            cell = target.cell(length=meta["length"], depth=meta["depth"])
            if quotas.get(cell, 0) == 0:
                reason = "naturalize_cell_full" if cell in quotas else "naturalize_outside_target"
                stats.rejected[reason] += 1
                continue
            quotas[cell] -= 1
        seen_inputs.add(text)
        seen_keys.update(keys)
        used_content |= derivation.unique_keys
        stats.accepted += 1
        yield Accepted(derivation.tree, text, meta)


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
