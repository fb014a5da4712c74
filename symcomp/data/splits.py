"""Splits: train/dev/test index lists over the lines of one pool (the CFQ / SCAN-MCD format).

A split file is a JSON object ``{"trainIdxs": [...], "devIdxs": [...], "testIdxs": [...],
"meta": {...}}``: 0-based indices into the lines of ``examples.jsonl`` (CFQ indexes
``dataset.json`` the same way). ``meta`` records how the split was made and what it measured;
``meta["oversample"] = {"<index>": copies}`` repeats training examples (SCAN's add-primitive
splits repeat the primitive alone; every count a whole number >= 1, every index one of
``trainIdxs``), see :meth:`Split.expanded`. Indices are checked against
the pool: in range, no repeats, the three parts disjoint.

>>> split = random_split(10, fractions=(0.6, 0.2, 0.2), seed=0, meta={"method": "random"})
>>> len(split.train), len(split.dev), len(split.test)
(6, 2, 2)
>>> split.check(pool_size=10)
>>> sorted(split.to_json())
['devIdxs', 'meta', 'testIdxs', 'trainIdxs']
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from symcomp._util import Seed, make_rng
from symcomp.data.artifacts import atomic_writer, json_text, read_json
from symcomp.errors import DataError, OutputError

PARTS = ("train", "dev", "test")
KEYS = {"train": "trainIdxs", "dev": "devIdxs", "test": "testIdxs"}


@dataclass(frozen=True)
class Split:
    """Index lists into a pool plus a record of how they were made."""

    train: tuple[int, ...]
    dev: tuple[int, ...]
    test: tuple[int, ...]
    meta: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def of(
        cls,
        train: Iterable[int],
        dev: Iterable[int],
        test: Iterable[int],
        meta: Mapping[str, Any] | None = None,
    ) -> Split:
        return cls(tuple(train), tuple(dev), tuple(test), dict(meta or {}))

    def part(self, name: str) -> tuple[int, ...]:
        """The indices of ``train``, ``dev`` or ``test``."""
        if name not in PARTS:
            raise DataError(f"unknown split part {name!r}; parts are {', '.join(PARTS)}.")
        indices: tuple[int, ...] = getattr(self, name)
        return indices

    def expanded(self, name: str) -> list[int]:
        """The indices of a part with oversampled training examples repeated.

        >>> Split.of([3, 5], [], [1], {"oversample": {"5": 3}}).expanded("train")
        [3, 5, 5, 5]
        """
        copies = self.meta.get("oversample", {}) if name == "train" else {}
        expanded: list[int] = []
        for index in self.part(name):
            expanded.extend([index] * int(copies.get(str(index), 1)))
        return expanded

    def sizes(self) -> dict[str, int]:
        return {name: len(self.part(name)) for name in PARTS}

    def with_meta(self, **updates: Any) -> Split:
        """The same split with ``meta`` extended (a new object; this one is unchanged)."""
        return Split(self.train, self.dev, self.test, {**self.meta, **updates})

    def check(self, pool_size: int, source: str = "split") -> None:
        """Raise :class:`DataError` naming the first index out of range, repeated or shared."""
        owner: dict[int, str] = {}
        for name in PARTS:
            for position, index in enumerate(self.part(name)):
                if not 0 <= index < pool_size:
                    raise DataError(
                        f"{source}: {KEYS[name]}[{position}] = {index} is outside the pool of "
                        f"{pool_size:,} examples (valid: 0..{pool_size - 1})."
                    )
                if index in owner:
                    where = "twice in" if owner[index] == name else f"in {KEYS[owner[index]]} and"
                    raise DataError(
                        f"{source}: example {index} appears {where} {KEYS[name]} "
                        f"(at position {position}); a split's parts must be disjoint."
                    )
                owner[index] = name
        copies = self.meta.get("oversample", {})
        train = set(self.train)
        for key in copies if isinstance(copies, Mapping) else ():
            if int(key) not in train:
                raise DataError(
                    f"{source}: meta.oversample names example {key}, which is not in trainIdxs; "
                    f"only training examples are repeated. Remove the entry or add the example "
                    f"to trainIdxs."
                )

    def check_pool(
        self,
        digest: str,
        source: str = "split",
        pool: str | None = None,
        *,
        base: Path | None = None,
    ) -> None:
        """Raise :class:`DataError` when the split records the sha256 of another pool than
        ``digest`` (``meta.pool.sha256``, as ``symcomp split`` writes), or has an empty train
        or test part (nothing to learn or to measure). ``pool`` names the pool of ``digest``
        in the message, beside the pool the split records; when the split records that very
        file (its ``meta.pool.path``, relative paths taken from the working folder or from
        ``base``, the split file's folder), the message says the pool changed since.

        >>> split = Split((0,), (), (1,), {"pool": {"path": "a/examples.jsonl", "sha256": "1"}})
        >>> try:
        ...     split.check_pool("2", "s.json", "b/examples.jsonl")
        ... except ValueError as error:
        ...     print(str(error)[:60])
        s.json was made for another pool (a/examples.jsonl, sha256 1
        """
        recorded = self.meta.get("pool", {})
        made_for = recorded.get("sha256") if isinstance(recorded, Mapping) else None
        if made_for is not None and made_for != digest:
            made_path = recorded.get("path") if isinstance(recorded, Mapping) else None
            if pool is not None and _same_file(made_path, Path(pool), base):
                raise DataError(
                    f"{pool} has changed since {source} was made from it (its sha256 is now "
                    f"{digest[:16]}…, the split records {str(made_for)[:16]}…): the split's "
                    f"indices would pick other examples. Restore the pool the split was made "
                    f"for, or split the changed pool anew."
                )
            other = f"{made_path}, " if isinstance(made_path, str) else ""
            this = f"{pool} (sha256 {digest[:16]}…)" if pool else f"this pool ({digest[:16]}…)"
            raise DataError(
                f"{source} was made for another pool ({other}sha256 {str(made_for)[:16]}…), "
                f"not for {this}; use a split made for {pool or 'this pool'}, or split it anew."
            )
        empty = [part for part in ("train", "test") if not self.part(part)]
        if empty:
            raise DataError(f"{source} has an empty {' and '.join(empty)} part.")

    def to_json(self) -> dict[str, Any]:
        return {
            "trainIdxs": list(self.train),
            "devIdxs": list(self.dev),
            "testIdxs": list(self.test),
            "meta": dict(self.meta),
        }

    @classmethod
    def from_json(cls, data: Any, source: str = "split") -> Split:
        """Read the CFQ layout; ``devIdxs`` and ``meta`` may be absent."""
        if not isinstance(data, Mapping):
            raise DataError(f"{source}: a split must be a JSON object with trainIdxs/testIdxs.")
        parts: dict[str, tuple[int, ...]] = {}
        for name in PARTS:
            key = KEYS[name]
            value = data.get(key, [] if name == "dev" else None)
            if value is None:
                raise DataError(f"{source}: missing {key}; a split needs trainIdxs and testIdxs.")
            if not isinstance(value, list) or not all(
                isinstance(i, int) and not isinstance(i, bool) for i in value
            ):
                raise DataError(f"{source}: {key} must be a list of integers.")
            parts[name] = tuple(value)
        meta = data.get("meta", {})
        if not isinstance(meta, Mapping):
            raise DataError(f"{source}: meta must be an object.")
        if "oversample" in meta:
            _check_oversample(meta["oversample"], source)
        return cls(parts["train"], parts["dev"], parts["test"], dict(meta))


def _check_oversample(copies: Any, source: str) -> None:
    """``meta.oversample`` must map example indices (decimal strings) to copy counts >= 1.

    >>> _check_oversample({"5": 3}, "s.json")
    >>> _check_oversample({"5": -1}, "s.json")
    Traceback (most recent call last):
    ...
    symcomp.errors.DataError: s.json: meta.oversample["5"] = -1 is not a number of copies ...
    """
    if not isinstance(copies, Mapping):
        raise DataError(
            f"{source}: meta.oversample must be an object mapping example indices to copy "
            f'counts (e.g. {{"12": 3}}), got {type(copies).__name__} {_short(copies)}.'
        )
    for key, count in copies.items():
        if not (isinstance(key, str) and key.isascii() and key.isdigit()):
            raise DataError(
                f"{source}: meta.oversample key {_short(key)} is not an example index (a "
                f'decimal number as a string, e.g. "12").'
            )
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise DataError(
                f"{source}: meta.oversample[{json.dumps(key)}] = {_short(count)} is not a number "
                f"of copies (a whole number >= 1; 1 keeps the example once). Fix the split file."
            )


def _short(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _same_file(recorded: Any, pool: Path, base: Path | None) -> bool:
    """Whether the pool path a split records (absolute, or relative to the working folder or
    to ``base``) is the file ``pool``: the split was made from it, before it changed.

    Only compared, never opened: the recorded path is data.

    >>> _same_file("no/such/examples.jsonl", Path("examples.jsonl"), None)
    False
    """
    if not isinstance(recorded, str) or not recorded:
        return False
    path = Path(recorded)
    candidates = [path] if path.is_absolute() else [path, *([base / path] if base else [])]
    for candidate in candidates:
        try:
            if candidate.is_file() and candidate.samefile(pool):
                return True
        except (OSError, ValueError):  # a NUL byte, a name too long: not that file
            continue
    return False


def read_split(path: Path, pool_size: int | None = None) -> Split:
    """Read (and, given the pool size, check) a split file."""
    split = Split.from_json(read_json(path, what="a split"), str(path))
    if pool_size is not None:
        split.check(pool_size, str(path))
    return split


def check_replaceable(path: Path, *, overwrite: bool) -> None:
    """Refuse to replace ``path`` unless it is a split file and ``overwrite`` is given.

    Raises
    ------
    OutputError
        When ``path`` exists and is not a split (symcomp never replaces files it did not
        write), or is one and ``overwrite`` is false.
    """
    if not path.exists() and not path.is_symlink():
        return
    try:
        if path.is_symlink() or not path.is_file():
            raise DataError(f"{path} is not a regular file")
        read_split(path)
    except DataError:
        raise OutputError(
            f"{path} exists and is not a split file; symcomp never replaces files it did not "
            f"write. Choose another `out`."
        ) from None
    if not overwrite:
        raise OutputError(f"{path} exists; pass `overwrite` to replace it or choose another `out`.")


def write_split(path: Path, split: Split) -> None:
    """Write a split atomically (index lists on one line each, meta indented); a split file is
    a whole output (it completes ``path``)."""
    data = split.to_json()
    meta = json_text(data["meta"], f"{path} (meta)", indent=2, sort_keys=True)
    with atomic_writer(path, completes=path) as handle:
        handle.write("{\n")
        for name in PARTS:
            handle.write(f'  "{KEYS[name]}": {json.dumps(data[KEYS[name]])},\n')
        handle.write(f'  "meta": {meta}\n}}\n')


def random_split(
    size: int,
    *,
    fractions: tuple[float, float, float] = (0.85, 0.05, 0.10),
    seed: Seed = 0,
    meta: Mapping[str, Any] | None = None,
) -> Split:
    """A seeded random split of ``range(size)``; parts are sorted index lists.

    Sizes are ``round(fraction * size)`` for dev and test, the rest is train.
    """
    if any(f < 0 for f in fractions) or abs(sum(fractions) - 1) > 1e-9:
        raise DataError(f"split fractions must be >= 0 and sum to 1, got {fractions}.")
    rng = make_rng(seed)
    order = list(range(size))
    rng.shuffle(order)
    n_dev, n_test = round(fractions[1] * size), round(fractions[2] * size)
    test, dev, train = order[:n_test], order[n_test : n_test + n_dev], order[n_test + n_dev :]
    return Split.of(sorted(train), sorted(dev), sorted(test), meta)


def select(records: Sequence[Any], indices: Iterable[int]) -> list[Any]:
    """The records at ``indices``, in index order as given."""
    return [records[index] for index in indices]
