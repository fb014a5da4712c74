"""From a pool folder to a measured split: what ``symcomp split`` and ``divergence`` run.

:class:`PoolData` reads a pool once (records, manifest, features, lengths, patterns on demand);
:func:`mcd`, :func:`swap` and :func:`baseline` make :class:`symcomp.data.splits.Split` objects
whose ``meta`` records the method, its parameters, the seed, the feature options and every
measure of :mod:`symcomp.dbca.measure`; :func:`measure` measures any split.

>>> import json, tempfile
>>> from pathlib import Path
>>> folder = Path(tempfile.mkdtemp())
>>> lines = [{"id": str(i), "input": t, "output": t.upper()} for i, t in enumerate(
...     ["jump twice", "walk twice", "jump thrice", "walk thrice", "look twice", "look thrice"])]
>>> _ = (folder / "examples.jsonl").write_text("".join(json.dumps(r) + "\\n" for r in lines))
>>> data = PoolData.read(folder, FeatureOptions(compounds="ngrams"))
>>> split = baseline(data, "random", SplitSizes(train=4, dev=0, test=2), seed=0)
>>> split.meta["method"], split.meta["sizes"]
('random', {'train': 4, 'dev': 0, 'test': 2})
"""

from __future__ import annotations

import hashlib
import logging
import random
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Any, overload

import numpy as np
import numpy.typing as npt

from symcomp.data.artifacts import (
    MANIFEST,
    examples_path,
    file_record,
    read_manifest,
)
from symcomp.data.parallel import Jobs, as_executor
from symcomp.data.splits import Split
from symcomp.dbca.baselines import (
    Parts,
    SplitSizes,
    divide_held_out,
    length_split,
    pattern_split,
    random_parts,
)
from symcomp.dbca.division import divide_within_bound, worst_atom_divergence
from symcomp.dbca.features import Features
from symcomp.dbca.mcd import (
    TARGET_TOLERANCE,
    McdConfig,
    Progress,
    SearchProgress,
    fixed_test_split,
    mcd_split,
    planned_placements,
)
from symcomp.dbca.measure import MEASURE_VERSION, compound_divergence_of, split_measures
from symcomp.dbca.patterns import Patterns
from symcomp.dbca.pool import (
    FeatureOptions,
    FeaturePlan,
    feature_plan,
    features_of_records,
    record_length,
)
from symcomp.dbca.shard_layout import SHARD_SIZE
from symcomp.dbca.shards import (
    FeatureShards,
    LineRecords,
    open_shards,
    pool_shards,
    write_shards,
)
from symcomp.dbca.swap import swap_search
from symcomp.errors import DataError, SymcompError
from symcomp.version import __version__

LOG = logging.getLogger(__name__)
BASELINES = ("random", "input_length", "output_length", "input_pattern", "output_pattern")
DIVISION_MARGIN = 0.05  # with a dev part, the search bounds D_A 5 % below `max_da`


def _check_apart(pool: Path, features: Path) -> None:
    """Feature shards live in a folder of their own: not the pool's folder, nor inside it,
    nor around it (writing shards again replaces their whole folder)."""
    folder, own = features.resolve(), pool.resolve()
    where = (
        "the pool's own folder"
        if folder == own
        else "inside the pool's folder"
        if own in folder.parents
        else "a folder that holds the pool"
        if folder in own.parents
        else None
    )
    if where is not None:
        raise DataError(
            f"`features` {features} is {where} ({own}): feature shards need a folder of their "
            f"own, apart from the pool; give a new folder beside it, such as "
            f"{own.with_name(own.name + '.features')}."
        )


@dataclass
class PoolData:
    """One pool, read once: records, manifest, and what splits are computed from."""

    path: Path
    records: Sequence[dict[str, Any]]
    manifest: dict[str, Any] | None
    options: FeatureOptions
    pattern_abstraction: str = "auto"  # :mod:`symcomp.dbca.patterns`
    _features: Features | None = field(default=None, repr=False)
    # feature shards the features come from, and per example its line's byte offset and its
    # input and output length (then ``records`` reads a line when asked for it)
    shards: FeatureShards | None = field(default=None, repr=False)
    lines: npt.NDArray[np.integer] | None = field(default=None, repr=False)
    feature_seconds: float = field(default=0.0, repr=False)  # CPU seconds features took

    @classmethod
    def read(
        cls,
        pool: Path,
        options: FeatureOptions | None = None,
        pattern_abstraction: str = "auto",
        *,
        features: Path | None = None,
        shard_size: int = SHARD_SIZE,
        own_features: bool = False,
        jobs: Jobs = 1,
        progress: Callable[[int], None] | None = None,
    ) -> PoolData:
        """Read a pool: its features, computed in one pass over its lines, and per example
        where its line is and its input and output length; no record is held (a record is
        read from its line when asked for).

        With ``features`` (a folder of feature shards, :mod:`symcomp.dbca.shards`, extracted
        there first when it holds none: ``shard_size`` examples a shard, on ``jobs`` worker
        processes or an executor, ``progress`` told the examples of each), the features are
        read from the shards. With ``own_features``, the shards ``symcomp import`` wrote into
        the pool folder are read so when they were made with these options (else the
        features are computed in memory)."""
        if features is None and own_features:
            own = cls._from_own_shards(pool, options, pattern_abstraction)
            if own is not None:
                return own
        if features is not None:
            spread = {"jobs": jobs, "progress": progress, "shard_size": shard_size}
            return cls._from_shards(pool, options, pattern_abstraction, features, **spread)
        if not as_executor(jobs).in_process:
            raise DataError(
                "`jobs` spreads the extraction of feature shards over workers; give a "
                "`features` folder (on a file system every worker reads) to extract them into."
            )
        path, manifest, chosen, plan = _planned(pool, options)
        started = time.process_time()
        computed, lines = plan.compute_file(path)
        records = LineRecords(path, lines[:, 0])
        features_of = plan.finish(computed)
        seconds = time.process_time() - started
        return cls(
            path, records, manifest, chosen, pattern_abstraction, features_of, None, lines, seconds
        )

    @classmethod
    def _from_shards(
        cls,
        pool: Path,
        options: FeatureOptions | None,
        pattern_abstraction: str,
        features: Path,
        **spread: Any,
    ) -> PoolData:
        path, manifest, chosen, plan = _planned(pool, options)
        _check_apart(path.parent, features)
        started = time.process_time()  # extraction's CPU in this process (not its workers')
        if not (features / MANIFEST).exists():
            write_shards(path, features, plan, **spread)
        shards = open_shards(features, path, plan)
        data = cls._of_shards(shards, manifest, chosen, pattern_abstraction)
        data.feature_seconds = time.process_time() - started
        return data

    @classmethod
    def _from_own_shards(
        cls, pool: Path, options: FeatureOptions | None, pattern_abstraction: str
    ) -> PoolData | None:
        path, manifest, chosen, plan = _planned(pool, options)
        shards = pool_shards(path, plan)
        if shards is None:
            return None
        return cls._of_shards(shards, manifest, chosen, pattern_abstraction)

    @classmethod
    def _of_shards(
        cls,
        shards: FeatureShards,
        manifest: dict[str, Any] | None,
        options: FeatureOptions,
        pattern_abstraction: str,
    ) -> PoolData:
        lines = shards.lines()
        path = Path(shards.plan.source)
        records = LineRecords(path, lines[:, 0])
        return cls(path, records, manifest, options, pattern_abstraction, None, shards, lines)

    def __len__(self) -> int:
        return len(self.records)

    @property
    def features(self) -> Features:
        if self._features is None:
            started = time.process_time()
            if self.shards is not None:
                self._features = self.shards.plan.finish(self.shards.features())
            else:  # records given in memory (``read`` computes features)
                self._features = features_of_records(
                    self.records, self.manifest, self.options, str(self.path)
                )
            self.feature_seconds += time.process_time() - started
        return self._features

    @cached_property
    def patterns(self) -> Patterns:
        language = None
        if self.manifest is not None and self.manifest.get("language"):
            from symcomp.core.fresh_words import language_of

            try:  # in fresh words when the pool was renamed
                language = language_of(self.manifest, str(self.path))
            except SymcompError:
                LOG.warning("language %s not registered: digit patterns", self.manifest["language"])
        return Patterns.of(language, self.pattern_abstraction)

    @cached_property
    def input_patterns(self) -> Sequence[str]:
        if self.lines is not None:  # records are read when asked for: so are their patterns
            return _OnDemand(self.input_pattern, len(self))
        return [self.patterns.input_pattern(str(r["input"])) for r in self.records]

    def input_pattern(self, index: int) -> str:
        """The input pattern of example ``index``."""
        return self.patterns.input_pattern(str(self.records[index]["input"]))

    @cached_property
    def output_patterns(self) -> list[str]:
        return [self.output_pattern(index) for index in range(len(self.records))]

    def output_pattern(self, index: int) -> str:
        """The output pattern of example ``index``; computed on demand, since it may need a
        parse (an Earley parse per distinct question for cfq): measuring a split needs only
        its train and test examples' patterns."""
        if self.patterns.declared is not None:
            return self.patterns.output_pattern("", str(self.records[index]["output"]))
        # filler patterns: inputs with one input pattern have one output pattern, computed
        # once per pattern from its first example in pool order
        first = self._first_of_pattern(index)
        if first not in self._output_pattern_of:
            record = self.records[first]
            try:
                found = self.patterns.output_pattern(str(record["input"]), str(record["output"]))
            except SymcompError as error:
                raise DataError(f"{self.path}: cannot compute output patterns: {error}") from None
            self._output_pattern_of[first] = found
        return self._output_pattern_of[first]

    def _first_of_pattern(self, index: int) -> int:
        """The first example (in pool order) with the input pattern of example ``index``."""
        if self.lines is None:
            return self._first_with_input_pattern[self.input_patterns[index]]
        hashes, distinct, first = self._pattern_hashes
        return int(first[np.searchsorted(distinct, hashes[index])])

    @cached_property
    def _pattern_hashes(self) -> tuple[npt.NDArray[np.int64], ...]:
        """A 64-bit hash of every example's input pattern (one pass over the pool), the
        distinct hashes (ascending) and the first example of each: the pattern of each example
        without holding one string per example (two patterns sharing a hash, about one chance
        in 10**8 in a pool of a million, would share their output pattern)."""
        hashes = np.fromiter(
            (_hash64(self.patterns.input_pattern(str(r["input"]))) for r in self.records),
            dtype=np.int64,
            count=len(self),
        )
        distinct, first = np.unique(hashes, return_index=True)
        return hashes, distinct, first

    @cached_property
    def _first_with_input_pattern(self) -> dict[str, int]:
        first: dict[str, int] = {}
        for index, pattern in enumerate(self.input_patterns):
            first.setdefault(pattern, index)
        return first

    @cached_property
    def _output_pattern_of(self) -> dict[int, str]:
        return {}

    @cached_property
    def input_lengths(self) -> list[int]:
        if self.lines is not None:
            return [int(n) for n in self.lines[:, 1]]
        return [record_length(r, "length", "input") for r in self.records]

    @cached_property
    def output_lengths(self) -> list[int]:
        if self.lines is not None:
            return [int(n) for n in self.lines[:, 2]]
        return [record_length(r, "output_length", "output") for r in self.records]

    def describe(self) -> dict[str, Any]:
        record = file_record(self.path)
        return {
            "path": str(self.path),
            "examples": len(self.records),
            "sha256": record["sha256"],
            "language": (self.manifest or {}).get("language"),
        }


def _hash64(text: str) -> int:
    """A stable 64-bit signed hash of ``text``.

    >>> _hash64("a") == _hash64("a") != _hash64("b")
    True
    """
    return int.from_bytes(
        hashlib.blake2b(text.encode(), digest_size=8).digest(), "little", signed=True
    )


def _planned(
    pool: Path, options: FeatureOptions | None
) -> tuple[Path, dict[str, Any] | None, FeatureOptions, FeaturePlan]:
    """The pool file, its manifest, the options resolved for it, and their plan."""
    path = examples_path(pool)
    manifest = read_manifest(path.parent) if (path.parent / MANIFEST).is_file() else None
    chosen = (options or FeatureOptions()).for_pool(manifest, path.parent)
    return path, manifest, chosen, feature_plan(manifest, chosen, str(path))


def measure(data: PoolData, split: Split) -> dict[str, Any]:
    """Every measure of :mod:`symcomp.dbca.measure` for ``split`` of ``data``."""
    split.check(len(data), str(data.path))
    return split_measures(
        data.features,
        split.train,
        split.test,
        split.dev,
        input_lengths=data.input_lengths,
        output_lengths=data.output_lengths,
        input_patterns=data.input_patterns,
        output_patterns=_OnDemand(data.output_pattern, len(data)),
    )


class _OnDemand(Sequence[str]):
    """``compute(i)`` for each index asked for (a list-like view of a per-example function)."""

    def __init__(self, compute: Callable[[int], str], size: int) -> None:
        self.compute, self.size = compute, size

    def __len__(self) -> int:
        return self.size

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> list[str]: ...
    def __getitem__(self, index: int | slice) -> str | list[str]:
        if isinstance(index, slice):
            return [self.compute(i) for i in range(*index.indices(self.size))]
        if not -self.size <= index < self.size:
            raise IndexError(index)
        return self.compute(index % self.size)


def _finish(
    data: PoolData, parts: Parts, method: str, parameters: dict[str, Any], seed: int
) -> Split:
    split = Split.of(parts.train, parts.dev, parts.test)
    meta: dict[str, Any] = {
        "method": method,
        "parameters": parameters,
        "seed": seed,
        "features": data.features.description,
        "measure_version": MEASURE_VERSION,
        "pool": data.describe(),
        "symcomp_version": __version__,
    }
    meta.update(measure(data, split))
    meta["pattern_abstraction"] = data.patterns.kind
    return split.with_meta(**meta)


def baseline(
    data: PoolData,
    method: str,
    sizes: SplitSizes,
    seed: int,
    *,
    max_train_length: int | None = None,
) -> Split:
    """A random, length or pattern split (:mod:`symcomp.dbca.baselines`); length splits take
    the threshold ``max_train_length`` (train: length <= N, held out: longer)."""
    parameters: dict[str, Any] = {"sizes": sizes.__dict__}
    if max_train_length is not None and not method.endswith("_length"):
        raise DataError(f"`max_train_length` applies to length splits, not to {method!r}.")
    if method == "random":
        parts = random_parts(len(data), sizes, seed)
    elif method.endswith("_length"):
        lengths = data.input_lengths if method == "input_length" else data.output_lengths
        parts = length_split(lengths, sizes, seed, max_train_length)
        parameters["max_train_length"] = max_train_length
    elif method.endswith("_pattern"):
        patterns = data.input_patterns if method == "input_pattern" else data.output_patterns
        parts = pattern_split(patterns, sizes, seed)
    else:
        raise DataError(f"unknown baseline {method!r}; choose one of {', '.join(BASELINES)}.")
    return _finish(data, parts, method, parameters, seed)


def mcd(
    data: PoolData,
    sizes: SplitSizes,
    config: McdConfig,
    seed: int,
    *,
    distinct_from: Mapping[str, Split] | None = None,
    progress: Progress | None = None,
) -> Split:
    """A maximum (or target) compound-divergence split (:mod:`symcomp.dbca.mcd`); the search
    reports to ``progress``, and once more as it measures the split.

    Dev and test divide the held-out side so that both meet the atom bound
    (:mod:`symcomp.dbca.division`); ``target_met`` is true only when every reported atom
    divergence meets it (and, for a numeric target, every reported compound divergence is
    within the tolerance of it). ``distinct_from`` names earlier splits of the pool whose
    held-out examples are not drawn for this test while others remain (MCD1, MCD2, MCD3);
    ``meta.test_overlap`` records, per earlier split, the share of this test in its test.
    """
    earlier = dict(distinct_from or {})
    if earlier:
        digest = file_record(data.path)["sha256"]
        for name, other in earlier.items():
            # a split of another pool indexes other examples: its held-out lines say nothing
            # about this pool, and a test overlap of 0 would be a false assurance
            other.check_pool(digest, name, str(data.path))
            other.check(len(data), name)
    barred = _held_out_mask(len(data), earlier.values()) if earlier else None
    # halves of the held-out side scatter around its atom divergence: leave them room
    search = replace(config, max_da=config.max_da * (1 - DIVISION_MARGIN)) if sizes.dev else config
    last: list[SearchProgress] = []
    reported = None if progress is None else _remembered(progress, last)
    features = data.features
    cpu = {"features": data.feature_seconds}  # read from shards, or extracted
    result = mcd_split(features, search, seed, barred_from_test=barred, progress=reported)
    if progress is not None and last:
        progress(replace(last[-1], stage="measuring the split", placed=last[-1].planned))
    started = time.process_time()
    parts = divide_within_bound(
        data.features, result.train, result.test, sizes.dev, config.max_da, random.Random(seed)
    )
    parameters = {**config.describe(), "sizes": sizes.__dict__, "distinct_from": list(earlier)}
    split = _finish(data, parts, "mcd", parameters, seed)
    if earlier:
        overlaps = {name: overlap(parts.test, other.test) for name, other in earlier.items()}
        split = split.with_meta(test_overlap=overlaps)
    met = _targets_met(data.features, parts, config)
    cpu |= {**result.cpu_seconds, "measures": time.process_time() - started}
    return split.with_meta(
        target_met=met,
        search={
            "seconds": round(result.seconds, 2),
            "cpu_seconds": {phase: round(seconds, 2) for phase, seconds in cpu.items()},
            "held_out_pairs": result.held_out_pairs,
            "history": [{k: round(v, 4) for k, v in h.items()} for h in result.history],
        },
    )


def _remembered(progress: Progress, last: list[SearchProgress]) -> Progress:
    """``progress``, keeping the latest report in ``last``."""

    def report(update: SearchProgress) -> None:
        last[:] = [update]
        progress(update)

    return report


def overlap(test: Sequence[int], other: Sequence[int]) -> float:
    """Share of ``test`` that is also in ``other``.

    >>> overlap([1, 2, 3, 4], [4, 5])
    0.25
    """
    return round(len(set(test) & set(other)) / max(len(test), 1), 4)


def _held_out_mask(size: int, splits: Iterable[Split]) -> npt.NDArray[np.bool_]:
    mask = np.zeros(size, dtype=bool)
    for other in splits:
        mask[list(other.test) + list(other.dev)] = True
    return mask


def _targets_met(features: Features, parts: Parts, config: McdConfig) -> bool:
    """Every reported divergence within the targets: D_A of train vs test and vs dev under the
    bound; for a numeric ``target_dc``, D_C of both within :data:`TARGET_TOLERANCE`."""
    if worst_atom_divergence(features, parts) > config.max_da + 1e-12:
        return False
    if config.target_dc is None:
        return True
    others = [parts.test] + ([parts.dev] if parts.dev else [])
    return all(
        abs(compound_divergence_of(features, parts.train, other) - config.target_dc)
        <= TARGET_TOLERANCE
        for other in others
    )


def swap(
    data: PoolData,
    sizes: SplitSizes,
    seed: int,
    *,
    max_iterations: int = 1000,
    max_divergence: float | None = None,
    min_atom_count: int = 1,
) -> Split:
    """The NQG swap search from a random split (:mod:`symcomp.dbca.swap`)."""
    start = random_parts(len(data), sizes, seed)
    held_out = sorted(start.dev + start.test)
    result = swap_search(
        data.features,
        start.train,
        held_out,
        max_iterations=max_iterations,
        max_divergence=max_divergence,
        min_atom_count=min_atom_count,
    )
    divided = divide_held_out(result.second, sizes, random.Random(seed))
    parts = Parts(sorted(result.first), divided.dev, divided.test)
    parameters = {
        "sizes": sizes.__dict__,
        "max_iterations": max_iterations,
        "max_divergence": max_divergence,
        "min_atom_count": min_atom_count,
    }
    split = _finish(data, parts, "swap", parameters, seed)
    return split.with_meta(search={"swaps": result.swaps, "balance_swaps": result.balanced_swaps})


def abstraction_of(split: Split, override: str | None) -> str:
    """The pattern abstraction a split was measured with (its meta), unless overridden."""
    if override is not None:
        return override
    recorded = split.meta.get("pattern_abstraction")
    return "fillers" if recorded == "fillers" else "auto"


def options_of(split: Split, override: FeatureOptions | None) -> FeatureOptions:
    """The feature options a split was measured with (its meta), unless overridden."""
    if override is not None:
        return override
    recorded = split.meta.get("features")
    if isinstance(recorded, Mapping):
        try:
            return FeatureOptions.from_description(recorded)
        except (SymcompError, TypeError, ValueError):
            LOG.warning("split meta has unusable feature options; using the defaults")
    return FeatureOptions()


SWEEP_LEVELS = (0.0, 0.25, 0.5, 0.75, 1.0)


def sweep(
    data: PoolData,
    sizes: SplitSizes,
    config: McdConfig,
    seed: int,
    levels: Sequence[float] = SWEEP_LEVELS,
    progress: Progress | None = None,
) -> dict[float, Split]:
    """One test, several training sets: train sets of one size at D_C levels ``levels`` × the
    reachable maximum, all against the same test and dev, under the same atom bound (GenBench's
    low/high-divergence pairs; SLURPFOOD draws the test once, then grows training sets to
    comdiv 0 and 1).

    Test and dev are drawn once at random (seeded), so that both ends of the range can be
    reached; the maximum is the train of highest D_C grown against them
    (:func:`symcomp.dbca.mcd.fixed_test_split`, target "max"), and every other level grows a
    train at target ``level × maximum``. A level below the lowest D_C any train reaches against
    this test gets that lowest value (its meta says whether the target was met). ``progress``
    hears of every search, as one count of examples placed over all the levels.
    """
    if not levels or any(not 0.0 <= level <= 1.0 for level in levels):
        raise DataError(f"sweep levels must lie in [0, 1], got {list(levels)}.")
    drawn = random_parts(len(data), sizes, seed)
    search = replace(config, test_size=len(drawn.test), seeding="off")
    grown: dict[float, Split] = {}
    reachable = 0.0
    order = [1.0, *sorted(set(levels) - {1.0}, reverse=True)]
    each = planned_placements(replace(search, test_size=0))
    for number, level in enumerate(order):
        target = None if level == 1.0 else level * reachable
        found = fixed_test_split(
            data.features,
            replace(search, target_dc=target),
            drawn.test,
            seed,
            excluded=drawn.dev,
            progress=_shifted(progress, f"level {level:g}", number * each, len(order) * each),
        )
        if level == 1.0:
            reachable = found.compound_divergence
        parts = Parts(found.train, list(drawn.dev), found.test)
        parameters = {**replace(search, target_dc=target).describe(), "sizes": sizes.__dict__}
        split = _finish(data, parts, "mcd_fixed_test", parameters, seed)
        grown[level] = split.with_meta(
            target_met=_targets_met(data.features, parts, replace(search, target_dc=target)),
            sweep={"level": level, "reachable_dc": round(reachable, 4), "levels": list(levels)},
        )
    return {level: grown[level] for level in sorted(set(levels))}


def _shifted(progress: Progress | None, stage: str, before: int, planned: int) -> Progress | None:
    """``progress`` for one of several searches: its stage named, its placements counted after
    the ``before`` of the searches before it, out of ``planned`` in all."""
    if progress is None:
        return None
    told = progress

    def report(update: SearchProgress) -> None:
        told(
            replace(
                update,
                stage=f"{stage}: {update.stage}",
                placed=before + update.placed,
                planned=planned,
            )
        )

    return report
