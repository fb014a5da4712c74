"""Drawing CobA expressions as from the paper's large pool of unique expressions.

The paper generates a pool of about 2.5 million unique expressions and samples every partition
from it under operator bounds. A pool of unique expressions is not the generator's
distribution: small expressions are drawn again and again but kept once, so the pool is
richer in long expressions and in large values (several decompositions) than a stream of draws.

Holding 2.5 million expressions is not needed to sample from that pool. If the pool is what
``draws`` generator draws leave after removing repeats, an expression ``e`` of generator
probability ``q(e)`` is in it with probability ``1 - exp(-draws * q(e))``; drawing ``e`` from the
generator and keeping it with probability ``(1 - exp(-draws * q(e))) / (draws * q(e))`` gives
expressions distributed as uniform picks from the pool. ``draws`` is found for the requested
pool size from a Monte Carlo estimate of the expected number of unique expressions.

>>> import random
>>> from symcomp.languages.arithmetic.expressions import operators
>>> pool = PoolDistribution.calibrated(20_000, random.Random(0), samples=2_000)
>>> 20_000 < pool.draws
True
>>> expr = pool.draw(random.Random(1))
>>> 0 <= operators(expr) <= MAX_OPERATORS and operators(pool.draw(random.Random(2), 2)) <= 2
True
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from symcomp.languages.arithmetic.expressions import (
    ADD,
    SPLITS,
    VALUES,
    Expr,
    kinds_and_splits,
)

DECOMPOSE = 0.5  # the generator decomposes a decomposable integer with this probability
MAX_OPERATORS = 9
MAX_DRAWS = 10_000_000  # a draw that is never kept in this many tries is an error upstream


class _TooLongError(Exception):
    """A draw passed the operator limit (it would be discarded)."""


def draw_expression(
    rng: random.Random, p: float = DECOMPOSE, max_operators: int | None = None
) -> tuple[Expr, float]:
    """One generator draw (value uniform in 1..100, decomposed recursively) and its log
    probability; uses only ``rng.random()``. With ``max_operators``, a draw that would have
    more is abandoned (``ValueError``) as soon as it does.

    >>> expr, logp = draw_expression(random.Random(3))
    >>> round(logp, 6) == round(log_probability(expr), 6)
    True
    """
    low, high = VALUES
    value = low + int(rng.random() * (high - low + 1))
    budget = [MAX_OPERATORS if max_operators is None else max_operators]
    try:
        return _decompose(value, rng, p, -math.log(high - low + 1), budget)
    except _TooLongError:
        raise ValueError("the draw has more operators than allowed") from None


def _decompose(
    value: int, rng: random.Random, p: float, logp: float, budget: list[int]
) -> tuple[Expr, float]:
    kinds, splits = SPLITS[value]
    if not kinds:
        return value, logp
    if rng.random() >= p:
        return value, logp + math.log(1 - p)
    budget[0] -= 1
    if budget[0] < 0:
        raise _TooLongError
    kind = kinds[int(rng.random() * len(kinds))]
    options = splits[kind]
    left = options[int(rng.random() * len(options))]
    right = value - left if kind == ADD else value // left
    logp += math.log(p) - math.log(len(kinds)) - math.log(len(options))
    left_expr, logp = _decompose(left, rng, p, logp, budget)
    right_expr, logp = _decompose(right, rng, p, logp, budget)
    return (kind, left_expr, right_expr), logp


def log_probability(expr: Expr, p: float = DECOMPOSE) -> float:
    """The log probability that one generator draw gives ``expr`` (-inf if it cannot).

    >>> round(math.exp(log_probability(7)), 4)  # 7 drawn (1/100), not decomposed (1/2)
    0.005
    >>> log_probability(("×", 7, 1))
    -inf
    """
    low, high = VALUES
    value = _value(expr)
    if not low <= value <= high:
        return -math.inf
    return -math.log(high - low + 1) + _node(expr, p)


def _value(expr: Expr) -> int:
    if isinstance(expr, int):
        return expr
    operator, left, right = expr
    return _value(left) + _value(right) if operator == ADD else _value(left) * _value(right)


def _node(expr: Expr, p: float) -> float:
    value = _value(expr)
    kinds, splits = kinds_and_splits(value)
    if isinstance(expr, int):
        return 0.0 if not kinds else math.log(1 - p)
    operator, left, right = expr
    options = splits.get(operator, [])
    left_value = _value(left)
    right_expected = value - left_value if operator == ADD else value // max(left_value, 1)
    if left_value not in options or _value(right) != right_expected:
        return -math.inf
    own = math.log(p) - math.log(len(kinds)) - math.log(len(options))
    return own + _node(left, p) + _node(right, p)


@dataclass(frozen=True)
class PoolDistribution:
    """Uniform picks from a pool of unique expressions that ``draws`` generator draws leave
    (expressions of at most ``MAX_OPERATORS`` operators)."""

    size: int
    draws: float

    @classmethod
    def calibrated(cls, size: int, rng: random.Random, samples: int = 100_000) -> PoolDistribution:
        """The pool of ``size`` unique expressions: ``draws`` solved from a Monte Carlo
        estimate (``samples`` generator draws) of the expected number of unique expressions."""
        probabilities = []
        for _ in range(samples):
            try:
                _, logp = draw_expression(rng)
            except ValueError:  # beyond the operator limit: never in the pool
                continue
            probabilities.append(math.exp(logp))
        share = len(probabilities) / samples  # draws within the operator limit

        def unique(draws: float) -> float:
            kept = sum(-math.expm1(-draws * q) / q for q in probabilities)
            return share * kept / max(len(probabilities), 1)

        low, high = float(size), float(size)
        while unique(high) < size:
            high *= 2
            if high > 1e15:
                raise ValueError(f"no pool of {size:,} unique expressions: ask for a smaller one")
        for _ in range(60):
            middle = (low + high) / 2
            low, high = (middle, high) if unique(middle) < size else (low, middle)
        return cls(size, high)

    def keep(self, log_q: float) -> float:
        """The probability of keeping a generator draw of log probability ``log_q``."""
        rate = self.draws * math.exp(log_q)
        return -math.expm1(-rate) / rate if rate > 0 else 1.0

    def in_pool(self, log_q: float) -> float:
        """The probability that an expression of log probability ``log_q`` is in the pool."""
        return -math.expm1(-self.draws * math.exp(log_q))

    def draw(self, rng: random.Random, max_operators: int = MAX_OPERATORS) -> Expr:
        """One expression, distributed as a uniform pick from the pool (among those with at
        most ``max_operators``)."""
        for _ in range(MAX_DRAWS):
            try:
                expr, logp = draw_expression(rng, max_operators=max_operators)
            except ValueError:
                continue
            if rng.random() < self.keep(logp):
                return expr
        raise RuntimeError("no expression kept in 10,000,000 draws")
