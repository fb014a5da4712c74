"""Drawing SLOG's deep parts exactly, and fast enough.

Alto draws a sentence and skips it when a noun repeats. A centre embedding 12 deep holds 14
nouns, and with Zipf(1.4) word weights one of them repeats in about 999 of 1,000 draws;
redrawing whole sentences costs some 50,000 draws a sentence. The same distribution is drawn
in two steps here:

1. a structure (the rules and the preterminals, no words) inside the part's windows, accepted
   with probability ``q(s) / Q``: ``q(s)`` is the chance that its nouns come out distinct
   (``k! e_k(p)`` per noun terminal, the elementary symmetric polynomial of the terminal's
   word probabilities, exact when the terminals share no word), and ``Q`` is ``q`` at the
   fewest nouns of each terminal that any structure reaching the window's minimum depth has
   (:func:`fewest_nouns`; ``q`` falls with every noun, so ``Q`` bounds it);
2. its words, the nouns redrawn together until distinct.

Step 1 draws a structure with probability proportional to P(s) q(s), step 2 the words given
the structure and distinct nouns: together Alto's distribution given the windows and distinct
nouns, exactly. Where a part may not repeat a verb either, ``q(s)`` also holds the chance that
its verbs differ (:func:`distinct_chance`: verb terminals share words, a clause-taking and a
transitive `liked`), ``Q`` the most that chance reaches at the fewest verbs
(:func:`best_split`), and step 2 redraws the verbs until they differ too; where the noun
terminals share words (a PP's nouns), the nouns are drawn one by one instead, a repeat
rejecting the structure.

>>> round(all_distinct((0.5, 0.5), 2), 6)  # two draws from two equal words differ half the time
0.5
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import cache

Rules = Mapping[str, tuple[list[float], list[tuple[str, ...]]]]


@cache
def all_distinct(probabilities: tuple[float, ...], k: int) -> float:
    """The chance that ``k`` independent draws from ``probabilities`` are all different."""
    elementary = [1.0] + [0.0] * k
    total = sum(probabilities)
    for p in probabilities:
        for j in range(k, 0, -1):
            elementary[j] += elementary[j - 1] * p / total
    return math.factorial(k) * elementary[k]


def fewest_nouns(
    rules: Rules,
    start: str,
    terminal_of: Mapping[str, str],
    markers: frozenset[str],
    depth: int,
) -> dict[str, int]:
    """Per noun terminal, the fewest preterminals of it in any derivation of ``start`` with at
    least ``depth`` nested rules holding a marker (a lower bound for every structure of a
    window whose minimum is ``depth``).

    >>> rules = {"S": ([1.0], [("N", "V", "O")]), "O": ([0.5, 1.0], [("N",), ("N", "R", "O")])}
    >>> fewest_nouns(rules, "S", {"N": "NOUN"}, frozenset({"R"}), 2)
    {'NOUN': 4}
    """
    found = {}
    for terminal in sorted(set(terminal_of.values())):
        counted = frozenset(c for c, t in terminal_of.items() if t == terminal)
        found[terminal] = _fewest(rules, start, counted, markers, depth)
    return found


def _fewest(
    rules: Rules, start: str, counted: frozenset[str], markers: frozenset[str], depth: int
) -> int:
    """Bellman-Ford over (nonterminal, depth still needed): costs only fall, so it settles."""
    best: dict[tuple[str, int], float] = {
        (lhs, r): math.inf for lhs in rules for r in range(depth + 1)
    }
    changed = True
    while changed:
        changed = False
        for lhs, (_cumulative, sides) in rules.items():
            for need in range(depth + 1):
                cost = min(_side_cost(rules, best, counted, markers, rhs, need) for rhs in sides)
                if cost < best[lhs, need]:
                    best[lhs, need], changed = cost, True
    result = best[start, depth]
    return 0 if math.isinf(result) else int(result)


def _side_cost(
    rules: Rules,
    best: Mapping[tuple[str, int], float],
    counted: frozenset[str],
    markers: frozenset[str],
    rhs: Sequence[str],
    need: int,
) -> float:
    """The fewest nouns below one right side when one child carries the depth still needed."""
    below = max(0, need - (1 if any(s in markers for s in rhs) else 0))

    def cost(symbol: str, needed: int) -> float:
        if symbol in rules:
            return best[symbol, needed]
        return (1.0 if symbol in counted else 0.0) if needed == 0 else math.inf

    plain = [cost(symbol, 0) for symbol in rhs]
    if below == 0:
        return sum(plain)
    options = [sum(plain) - plain[i] + cost(s, below) for i, s in enumerate(rhs)]
    return min(options, default=math.inf)


MAX_ENUMERATED = 3  # draws enumerated word by word in one group of terminals sharing words


def distinct_chance(words: Mapping[str, Mapping[str, float]], counts: Mapping[str, int]) -> float:
    """The chance that independent draws are all different words: ``counts[t]`` draws from
    terminal ``t``, whose word probabilities are ``words[t]``. Terminals may share words (a
    clause-taking verb and a transitive one are both `liked`): groups of terminals that share
    none are independent; within a group, every draw but those of its most-drawn terminal is
    enumerated (at most ``MAX_ENUMERATED``), and the most-drawn terminal's draws avoid them.

    >>> distinct_chance({"A": {"x": 0.5, "y": 0.5}}, {"A": 2})
    0.5
    >>> distinct_chance({"A": {"x": 0.5, "y": 0.5}, "B": {"x": 1.0}}, {"A": 2, "B": 1})
    0.0
    >>> round(distinct_chance({"A": {"x": 0.5, "y": 0.5}, "B": {"x": 0.5, "z": 0.5}},
    ...                        {"A": 1, "B": 1}), 6)
    0.75
    """
    chance = 1.0
    for group in _sharing_groups(words, [t for t, k in counts.items() if k > 0]):
        ordered = sorted(group, key=lambda t: (-counts[t], t))
        main, enumerated = ordered[0], [t for t in ordered[1:] for _ in range(counts[t])]
        if len(enumerated) > MAX_ENUMERATED:
            raise ValueError(
                f"{len(enumerated)} draws of {ordered[1:]} share words with {main}: more than "
                f"{MAX_ENUMERATED} to enumerate"
            )
        chance *= _avoiding(words, main, counts[main], enumerated, frozenset())
    return chance


def _sharing_groups(
    words: Mapping[str, Mapping[str, float]], terminals: list[str]
) -> list[set[str]]:
    groups: list[set[str]] = []
    for terminal in terminals:
        joined = {terminal}
        for group in [
            g for g in groups if any(words[terminal].keys() & words[t].keys() for t in g)
        ]:
            groups.remove(group)
            joined |= group
        groups.append(joined)
    return groups


def _avoiding(
    words: Mapping[str, Mapping[str, float]],
    main: str,
    k: int,
    enumerated: list[str],
    used: frozenset[str],
) -> float:
    """The chance that ``enumerated`` (one draw each) and then ``k`` draws of ``main`` are all
    different and avoid ``used``."""
    if enumerated:
        first, rest = enumerated[0], enumerated[1:]
        return sum(
            p * _avoiding(words, main, k, rest, used | {word})
            for word, p in words[first].items()
            if p > 0 and word not in used
        )
    left = [p for word, p in words[main].items() if word not in used]
    elementary = [1.0] + [0.0] * k
    for p in left:
        for j in range(k, 0, -1):
            elementary[j] += elementary[j - 1] * p
    return math.factorial(k) * elementary[k]


def best_split(
    probabilities: Sequence[tuple[float, ...]], total: int, least: Sequence[int] | None = None
) -> float:
    """The most that the product of ``all_distinct(p_t, k_t)`` reaches over counts ``k_t`` of
    at least ``least[t]`` summing to ``total`` or more: a bound on the chance that draws spread
    over these terminals come out distinct, for every structure with at least ``least[t]``
    draws of each terminal and ``total`` in all (each terminal's own draws must differ,
    independently, and fewer draws only raise the product).

    >>> best_split([(0.5, 0.5), (0.5, 0.5)], 2), best_split([(0.5, 0.5), (0.5, 0.5)], 2, [2, 0])
    (1.0, 0.5)
    """
    least = least or [0] * len(probabilities)
    total = max(total, sum(least))
    best = [1.0] + [0.0] * total
    for p, fewest in zip(probabilities, least, strict=True):
        best = [
            max((best[j - i] * all_distinct(p, i) for i in range(fewest, j + 1)), default=0.0)
            for j in range(total + 1)
        ]
    return best[total]
