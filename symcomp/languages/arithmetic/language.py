"""CobA arithmetic expressions: generation by value decomposition, values, infix, sympy checks.

Generation follows the paper: draw a natural integer in 1..100; decompose it as the sum or the
product of two integers (primes and 1 have no product decomposition; 1 has no sum of naturals
either); decompose each part again, or keep it, with probability ``p`` (0.5). Here the drawn
value itself is decomposed with the same probability, so expressions have 0..9 operators (the
upper bound is the sidecar's ``max_length`` of 19 tokens). A sum ``n = a + b`` takes ``a``
uniform in 1..n-1; a product takes ``a`` uniform among the divisors 2..n/2; sum or product is a
fair coin when both exist. Written in prefix notation, one token per integer or operator.

>>> arithmetic = build()
>>> arithmetic.interpret("× 2 + 14 3")
'34'

Expressions as plain data are :mod:`symcomp.languages.arithmetic.expressions`; ``symcomp
verify`` recomputes values with sympy (:mod:`symcomp.languages.arithmetic.checking`).
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping
from collections.abc import Set as AbstractSet
from typing import TYPE_CHECKING, Any

from lark import Tree

from symcomp.core.language import Language
from symcomp.core.resources import load_grammar
from symcomp.core.sampler import Derivation, Rejected, Table
from symcomp.core.semantics import Semantics
from symcomp.languages.arithmetic.checking import ArithmeticChecker
from symcomp.languages.arithmetic.expressions import ADD, OPERATORS, SPLITS, VALUES

if TYPE_CHECKING:
    from symcomp.core.suite_builder import SuiteBuilder
    from symcomp.verify import Checker, VerifyOptions

NAME = "arithmetic"


class ArithmeticSemantics(Semantics):
    """The value of an expression."""

    def number(self, children: list[str]) -> int:
        return int(children[0])

    def add(self, children: list[int]) -> int:
        return children[0] + children[1]

    def mul(self, children: list[int]) -> int:
        return children[0] * children[1]

    def render(self, meaning: int) -> str:
        return str(meaning)


class Arithmetic(Language):
    """CobA's language with its value-driven generator."""

    decompose_probability = 0.5

    def suite_builder(self) -> SuiteBuilder:
        """``symcomp suite arithmetic``: :mod:`symcomp.languages.arithmetic.suite`."""
        from symcomp.languages.arithmetic.suite import suite_builder

        return suite_builder()

    def make_checker(self, options: VerifyOptions) -> Checker | None:
        """``symcomp verify`` checks arithmetic data with sympy (see :class:`ArithmeticChecker`)."""
        return ArithmeticChecker(options)

    def derive(
        self,
        rng: random.Random,
        *,
        tables: Mapping[str, Table] | None = None,
        used: AbstractSet[Hashable] = frozenset(),
        max_length: int | None = None,
    ) -> Derivation:
        value = VALUES[0] + int(rng.random() * (VALUES[1] - VALUES[0] + 1))
        tokens: list[str] = []
        limit = max_length if max_length is not None else 1 << 30
        tree = self._decompose(value, rng, tokens, limit)
        return Derivation(Tree("start", [tree]), tokens)

    def _decompose(
        self, value: int, rng: random.Random, tokens: list[str], limit: int
    ) -> Tree[Any]:
        if len(tokens) >= limit:
            raise Rejected("length")
        kinds, splits = SPLITS[value]
        if not splits or rng.random() >= self.decompose_probability:
            tokens.append(str(value))
            return Tree("number", [str(value)])
        kind = kinds[int(rng.random() * len(kinds))]
        options = splits[kind]
        left = options[int(rng.random() * len(options))]
        right = value - left if kind == ADD else value // left
        tokens.append(kind)
        return Tree(
            OPERATORS[kind],
            [self._decompose(left, rng, tokens, limit), self._decompose(right, rng, tokens, limit)],
        )


def build() -> Arithmetic:
    """The ``arithmetic`` language from the packaged grammar."""
    return Arithmetic(NAME, load_grammar(NAME, "arithmetic"), ArithmeticSemantics)
