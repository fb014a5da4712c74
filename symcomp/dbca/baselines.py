"""Baseline splits to compare MCD splits against (Keysers et al. 2020, Table 3).

random
    Train, dev and test drawn at random.
length (input or output)
    With a threshold N (``max_train_length``, the paper's splits): train is drawn at random from
    the examples of length at most N, the held-out side from the longer ones. Without one:
    train takes the shortest examples, the held-out side the longest (ties broken at random).
pattern (input or output)
    Examples are grouped by pattern (:mod:`symcomp.dbca.patterns`); whole groups, in random
    order, go to the held-out side while they fit, so no test pattern occurs in train.

Every method fills ``train`` and a held-out side of ``dev + test`` examples; dev and test are
then a random partition of the held-out side (as CFQ's dev and test share one distribution).
All functions are pure and seeded.

>>> sizes = SplitSizes(train=4, dev=1, test=2)
>>> split = length_split([3, 1, 4, 1, 5, 9, 2, 6, 5, 3], sizes, seed=0)
>>> sorted(split.train), sorted(split.test + split.dev)
([0, 1, 3, 6], [4, 5, 7])
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from symcomp._util import Seed, make_rng
from symcomp.errors import DataError


@dataclass(frozen=True)
class SplitSizes:
    """How many examples each part gets."""

    train: int
    dev: int
    test: int

    @classmethod
    def from_fractions(
        cls, pool_size: int, train: float, test: float, dev: float = 0.0
    ) -> SplitSizes:
        """Sizes from fractions of the pool (each rounded; their sum must not exceed 1).

        >>> SplitSizes.from_fractions(20910, 0.4, 0.1)
        SplitSizes(train=8364, dev=0, test=2091)
        """
        fractions = {"`train_frac`": train, "`test_frac`": test, "`dev_frac`": dev}
        for name, value in fractions.items():
            if not 0.0 <= value <= 1.0:
                raise DataError(f"{name} must lie in [0, 1], got {value}.")
        if train + test + dev > 1.0 + 1e-9:
            raise DataError(
                f"`train_frac` + `test_frac` + `dev_frac` = {train + test + dev:g} exceeds 1; "
                f"the parts of a split are disjoint subsets of the pool."
            )
        sizes = cls(round(train * pool_size), round(dev * pool_size), round(test * pool_size))
        if sizes.train < 1 or sizes.test < 1:
            raise DataError(
                f"a pool of {pool_size:,} examples gives train {sizes.train} and test "
                f"{sizes.test} examples; both need at least one (raise the fractions)."
            )
        return sizes

    @property
    def held_out(self) -> int:
        return self.dev + self.test


@dataclass(frozen=True)
class Parts:
    """Index lists of a split (ascending)."""

    train: list[int]
    dev: list[int]
    test: list[int]


def divide_held_out(held_out: Sequence[int], sizes: SplitSizes, rng: random.Random) -> Parts:
    """Dev and test as a random partition of the held-out side (train left empty)."""
    order = list(held_out)
    rng.shuffle(order)
    return Parts([], sorted(order[: sizes.dev]), sorted(order[sizes.dev :]))


def _parts(
    train: Sequence[int], held_out: Sequence[int], sizes: SplitSizes, rng: random.Random
) -> Parts:
    divided = divide_held_out(held_out, sizes, rng)
    return Parts(sorted(train), divided.dev, divided.test)


def random_parts(pool_size: int, sizes: SplitSizes, seed: Seed = 0) -> Parts:
    """Train, dev and test at random.

    >>> random_parts(10, SplitSizes(4, 1, 2), seed=1).test
    [6, 9]
    """
    _check(pool_size, sizes)
    rng = make_rng(seed)
    order = list(range(pool_size))
    rng.shuffle(order)
    held_out = order[: sizes.held_out]
    return _parts(order[sizes.held_out : sizes.held_out + sizes.train], held_out, sizes, rng)


def length_split(
    lengths: Sequence[int],
    sizes: SplitSizes,
    seed: Seed = 0,
    max_train_length: int | None = None,
) -> Parts:
    """Shortest examples to train, longest to the held-out side (ties at random); with
    ``max_train_length`` N, train at random from lengths <= N and held-out from lengths > N.

    >>> parts = length_split([1, 2, 3, 4, 5, 6], SplitSizes(2, 0, 2), 0, max_train_length=3)
    >>> all(i < 3 for i in parts.train), all(i >= 3 for i in parts.test)
    (True, True)
    """
    _check(len(lengths), sizes)
    rng = make_rng(seed)
    if max_train_length is not None:
        return _threshold_split(lengths, sizes, rng, max_train_length)
    tie = list(range(len(lengths)))
    rng.shuffle(tie)
    rank = {index: position for position, index in enumerate(tie)}
    order = sorted(range(len(lengths)), key=lambda i: (lengths[i], rank[i]))
    held_out = order[len(order) - sizes.held_out :]
    return _parts(order[: sizes.train], held_out, sizes, rng)


def _threshold_split(
    lengths: Sequence[int], sizes: SplitSizes, rng: random.Random, threshold: int
) -> Parts:
    short = [i for i, length in enumerate(lengths) if length <= threshold]
    long = [i for i, length in enumerate(lengths) if length > threshold]
    for name, part, wanted, side in (
        ("train", short, sizes.train, f"at most {threshold}"),
        ("held-out", long, sizes.held_out, f"longer than {threshold}"),
    ):
        if len(part) < wanted:
            raise DataError(
                f"`max_train_length` {threshold} leaves {len(part):,} examples of length "
                f"{side}, but the {name} side needs {wanted:,} (lengths in the pool run from "
                f"{min(lengths)} to {max(lengths)}); choose another threshold or smaller "
                f"fractions."
            )
    rng.shuffle(short)
    rng.shuffle(long)
    return _parts(short[: sizes.train], long[: sizes.held_out], sizes, rng)


def pattern_split(patterns: Sequence[Hashable], sizes: SplitSizes, seed: Seed = 0) -> Parts:
    """Whole pattern groups to the held-out side; train from the other patterns.

    Groups are taken in random order while they fit into the held-out size, so the held-out
    side may come out slightly smaller than asked when no remaining group fits exactly.

    >>> parts = pattern_split(["a", "a", "b", "b", "c", "c", "d", "d"], SplitSizes(4, 0, 2), 0)
    >>> len({i // 2 for i in parts.test} & {i // 2 for i in parts.train})
    0
    """
    _check(len(patterns), sizes)
    rng = make_rng(seed)
    groups: dict[Hashable, list[int]] = {}
    for index, pattern in enumerate(patterns):
        groups.setdefault(pattern, []).append(index)
    keys = list(groups)
    rng.shuffle(keys)
    held_out: list[int] = []
    rest: list[int] = []
    for key in keys:
        members = groups[key]
        if len(held_out) + len(members) <= sizes.held_out:
            held_out.extend(members)
        else:
            rest.extend(members)
    if not held_out:
        raise DataError(
            "every pattern group is larger than the held-out side, so no pattern split exists; "
            "raise `test_frac` or use a finer pattern."
        )
    rng.shuffle(rest)
    return _parts(rest[: sizes.train], held_out, sizes, rng)


def _check(pool_size: int, sizes: SplitSizes) -> None:
    if sizes.train + sizes.held_out > pool_size:
        raise DataError(
            f"train {sizes.train:,} + dev {sizes.dev:,} + test {sizes.test:,} exceed the pool "
            f"of {pool_size:,} examples."
        )
