"""Maximum-compound-divergence (MCD) splits: the greedy construction of Keysers et al. (2020).

Train and test grow from empty. Each step adds one example to the side that is further behind
its target size (so the size ratio holds throughout), choosing, among ``candidates`` examples
drawn at random from the unused ones and the best ``carry`` unchosen ones of the side's
previous step, the one that keeps the atom divergence under its bound and brings the compound
divergence closest to its target (or highest, for ``target_dc=None``). Every
``removal_interval`` additions the member whose removal most improves the score is taken out
again, the paper's occasional removals.

The construction may start from held-out parent-child pairs (:mod:`symcomp.dbca.seeding`,
``seeding``); a pool of more than :data:`PILOT_SIZE` examples chooses them, and whether to use
them, on a sample of that size, and then runs one construction. The paper leaves the escape
from local optima unspecified; here it is a large-neighbourhood search run for ``rounds`` rounds
after the construction: each round removes from each side the ``removal_fraction`` of members
whose removal improves the score most (a random share after a round without improvement),
regrows it with the same greedy step, and the best split seen (within the atom bound, if any
is) is kept; while no split seen meets the atom bound, each round weighs the bound
``escalation`` times more. Every score uses the incremental divergence engine
(:mod:`symcomp.dbca.engine`): a candidate costs O(its atoms and compounds).

Both divergences are exact at the end: the result's values are recomputed from the final
count vectors.

>>> from symcomp.dbca.features import ngram_features
>>> texts = [f"{a} {b} {c}" for a in "abcd" for b in "efgh" for c in "ijkl"]
>>> result = mcd_split(ngram_features(texts), McdConfig(train_size=24, test_size=8), seed=0)
>>> len(result.train), len(result.test), result.compound_divergence > 0.5
(24, 8, True)
"""

from __future__ import annotations

import contextlib
import logging
import math
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import numpy.typing as npt

from symcomp._util import GeneratorSeed, make_generator
from symcomp.dbca.engine import UNUSED, DivergenceEngine
from symcomp.dbca.features import Features
from symcomp.dbca.measure import divergences_of
from symcomp.dbca.seeding import held_out_pairs
from symcomp.errors import DataError

LOG = logging.getLogger(__name__)
DEFAULT_MAX_DA = 0.02  # the atom-divergence bound of the paper's MCD splits (Keysers et al. 2020)
ATOM_PENALTY = 10.0  # score units per unit of atom divergence above the bound
SEEDING = ("auto", "on", "off")
# Pools larger than this choose their held-out pairs (and, with seeding "auto", between the
# seeded and the plain construction) on a random sample of this many examples.
PILOT_SIZE = 50_000


@dataclass(frozen=True)
class McdConfig:
    """Parameters of an MCD split search.

    Parameters
    ----------
    train_size, test_size : int
        Number of examples on each side (the held-out side includes dev, if any).
    target_dc : float or None
        Compound divergence to aim for; None: as high as possible.
    max_da : float
        Bound on the atom divergence (default 0.02).
    candidates : int
        Unused examples scored per greedy step.
    removal_interval : int
        Additions between two removal attempts during the construction (0: none; 1 is refused:
        each addition could be undone by the next removal and the split would never grow).
    rounds : int
        Improvement rounds after the construction (0: the plain greedy construction).
    removal_fraction : float
        Share of a side removed and regrown per improvement round.
    seeding : {"auto", "on", "off"}
        ``on``: start from held-out parent-child pairs (:mod:`symcomp.dbca.seeding`): train
        candidates come from the examples without them, test candidates from those with them.
        ``off``: the plain construction. ``auto``: run both constructions, keep the better.
    time_limit : float or None
        Stop improving after this many seconds. The construction always completes: past the
        limit it only adds (no more removal attempts), so its remaining work is bounded.
    carry : int
        Unchosen candidates of a step, the best-scoring, scored again (with fresh ones) at the
        same side's next step: a near miss gets another chance, and each step chooses, in
        effect, among far more than ``candidates`` (0: every step draws afresh).
    escalation : float
        Factor by which each round raises the weight of the atom-bound penalty while the best
        split seen misses the bound (1: a constant penalty), so that the rounds end within it
        where a split can be.
    """

    train_size: int
    test_size: int
    target_dc: float | None = None
    max_da: float = DEFAULT_MAX_DA
    candidates: int = 128
    removal_interval: int = 100
    rounds: int = 10
    removal_fraction: float = 0.3
    seeding: str = "auto"
    time_limit: float | None = None
    carry: int = 64
    escalation: float = 2.0

    def check(self, pool_size: int) -> None:
        """Raise :class:`DataError` for sizes or targets that cannot be met."""
        if self.train_size < 1 or self.test_size < 1:
            raise DataError(
                f"an MCD split needs at least one train and one test example, got train "
                f"{self.train_size} and test {self.test_size}; raise `train_frac`/`test_frac`."
            )
        if self.train_size + self.test_size > pool_size:
            raise DataError(
                f"train ({self.train_size:,}) and test ({self.test_size:,}) exceed the pool of "
                f"{pool_size:,} examples; lower the fractions."
            )
        if self.target_dc is not None and not 0.0 <= self.target_dc <= 1.0:
            raise DataError(f"`target_dc` must lie in [0, 1] (or be 'max'), got {self.target_dc}.")
        if not 0.0 <= self.max_da <= 1.0:
            raise DataError(f"`max_da` must lie in [0, 1], got {self.max_da}.")
        if self.candidates < 1 or self.rounds < 0 or self.removal_interval < 0:
            raise DataError("`candidates` must be >= 1, `rounds` and `removal_interval` >= 0.")
        if self.removal_interval == 1:
            raise DataError(
                "`removal_interval` 1 would try a removal after every addition, so the split "
                "might never grow; use 0 (no removals) or 2 or more (default 100)."
            )
        if self.time_limit is not None and not 0.0 < self.time_limit < math.inf:
            raise DataError(
                f"`time_limit` must be a positive number of seconds, got {self.time_limit}."
            )
        if self.seeding not in SEEDING:
            raise DataError(f"seeding must be one of {', '.join(SEEDING)}, got {self.seeding!r}.")
        if self.carry < 0 or not self.escalation >= 1.0:
            raise DataError("`carry` must be >= 0 and `escalation` >= 1.")
        if not 0.0 < self.removal_fraction < 1.0:
            raise DataError(f"removal fraction must lie in (0, 1), got {self.removal_fraction}.")

    def describe(self) -> dict[str, Any]:
        return {
            "train_size": self.train_size,
            "test_size": self.test_size,
            "target_dc": "max" if self.target_dc is None else self.target_dc,
            "max_da": self.max_da,
            "candidates": self.candidates,
            "removal_interval": self.removal_interval,
            "rounds": self.rounds,
            "removal_fraction": self.removal_fraction,
            "seeding": self.seeding,
            "time_limit": self.time_limit,
            "carry": self.carry,
            "escalation": self.escalation,
        }


@dataclass(frozen=True)
class McdResult:
    """The chosen examples (ascending indices) and the measured divergences."""

    train: list[int]
    test: list[int]
    atom_divergence: float
    compound_divergence: float
    target_met: bool
    history: list[dict[str, float]] = field(default_factory=list)
    held_out_pairs: list[str] = field(default_factory=list)
    seconds: float = 0.0
    cpu_seconds: dict[str, float] = field(default_factory=dict)  # by phase of the search


@dataclass(frozen=True)
class SearchProgress:
    """Where a search stands: what it does (``stage``), how many examples it has placed in
    train or test so far and will place in all (construction and regrowth), and the current
    divergences of the split it is building."""

    stage: str
    placed: int
    planned: int
    atom_divergence: float
    compound_divergence: float


Progress = Callable[[SearchProgress], None]
REPORT_EVERY = 1_000  # examples placed between two progress reports
SCORE_SLICE = 8_192  # members scored at once when a round chooses whom to remove


@dataclass
class _Tracker:
    """Counts the examples a search places and reports every :data:`REPORT_EVERY`."""

    report: Progress
    planned: int
    placed: int = 0
    stage: str = "construction"

    def enter(self, stage: str, engine: DivergenceEngine | None = None) -> None:
        self.stage = stage
        self.emit(engine)

    def added(self, count: int, engine: DivergenceEngine) -> None:
        before, self.placed = self.placed, self.placed + count
        if self.placed // REPORT_EVERY > before // REPORT_EVERY:
            self.emit(engine)

    def emit(self, engine: DivergenceEngine | None) -> None:
        da, dc = (1.0, 1.0) if engine is None else engine.divergences()  # nothing placed: 1
        self.report(SearchProgress(self.stage, self.placed, self.planned, da, dc))


def planned_placements(config: McdConfig, constructions: int = 1) -> int:
    """Examples a search places: each construction's, then each round's regrowth.

    >>> planned_placements(McdConfig(train_size=100, test_size=20, rounds=2))
    192
    """
    regrown = int(config.removal_fraction * config.train_size)
    regrown += int(config.removal_fraction * config.test_size)
    return constructions * (config.train_size + config.test_size) + config.rounds * regrown


class _Unused:
    """The examples a construction may still add: ``ids[:free]``, in the order candidates are
    drawn by position, and each one's position (a taken one's place goes to the last)."""

    def __init__(self, mask: npt.NDArray[np.bool_]) -> None:
        self.ids = np.flatnonzero(mask)
        self.at = np.full(len(mask), -1, dtype=np.int64)
        self.at[self.ids] = np.arange(len(self.ids))
        self.free = len(self.ids)

    def take(self, example: int) -> None:
        self.free -= 1
        last, place = int(self.ids[self.free]), int(self.at[example])
        self.ids[place], self.at[last], self.at[example] = last, place, -1

    def put(self, example: int) -> None:
        self.ids[self.free], self.at[example] = example, self.free
        self.free += 1

    def holds(self, examples: npt.NDArray[np.int64]) -> npt.NDArray[np.bool_]:
        held: npt.NDArray[np.bool_] = self.at[examples] >= 0
        return held


class _Search:
    """State of one search: the engine, the unused examples and the scoring rule."""

    def __init__(
        self,
        features: Features,
        config: McdConfig,
        rng: np.random.Generator,
        barred: npt.NDArray[np.bool_] | None = None,
        tracker: _Tracker | None = None,
    ) -> None:
        self.engine = DivergenceEngine(features)
        self.config = config
        self.rng = rng
        self.targets = (config.train_size, config.test_size)
        self.barred = barred  # kept out of test (the tests of earlier splits)
        self.excluded: npt.NDArray[np.bool_] | None = None  # never drawn (a fixed dev part)
        self.allowed: list[npt.NDArray[np.bool_] | None] = [None, None]
        self.allowed_free = [0, 0]
        self.tracker = tracker
        self.penalty = ATOM_PENALTY  # raised round by round while no split meets the bound
        self.restrict(1, None)

    def restrict(self, side: int, allowed: npt.NDArray[np.bool_] | None) -> None:
        """Draw candidates for ``side`` only among ``allowed`` examples (None: any; test
        candidates never come from the barred examples while others are free)."""
        if side == 1 and self.barred is not None:
            allowed = ~self.barred if allowed is None else allowed & ~self.barred
        self.allowed[side] = allowed
        free = self.engine.side == UNUSED
        self.allowed_free[side] = 0 if allowed is None else int((allowed & free).sum())

    def move(self, example: int, side: int) -> None:
        before = int(self.engine.side[example])
        for s, allowed in enumerate(self.allowed):
            if allowed is not None and allowed[example]:
                self.allowed_free[s] += (side == UNUSED) - (before == UNUSED)
        self.engine.move(example, side)

    def score(
        self, da: npt.ArrayLike, dc: npt.ArrayLike, penalty: float | None = None
    ) -> npt.NDArray[np.float64]:
        """Lower is better: distance of D_C from its target plus the atom-bound penalty (the
        search's own, unless ``penalty`` is given)."""
        da_array = np.asarray(da, dtype=np.float64)
        dc_array = np.asarray(dc, dtype=np.float64)
        target = self.config.target_dc
        miss = 1.0 - dc_array if target is None else np.abs(dc_array - target)
        weight = self.penalty if penalty is None else penalty
        result: npt.NDArray[np.float64] = miss + weight * np.maximum(
            0.0, da_array - self.config.max_da
        )
        return result

    def scalar_score(self, da: float, dc: float) -> float:
        return float(self.score(da, dc))

    def adapt_penalty(self, feasible: bool) -> None:
        """After a round: weigh the atom bound ``escalation`` times more if the split misses
        it, less (down to :data:`ATOM_PENALTY`) if it meets it, so that the rounds end within
        the bound where a split can be, without holding a weight that no longer binds."""
        growth = self.config.escalation
        self.penalty = (
            self.penalty * growth if not feasible else max(ATOM_PENALTY, self.penalty / growth)
        )

    def current(self) -> float:
        return self.scalar_score(*self.engine.divergences())

    def next_side(self) -> int:
        sizes = self.engine.sizes
        if sizes[1] >= self.targets[1]:
            return 0
        if sizes[0] >= self.targets[0]:
            return 1
        return 1 if sizes[1] * self.targets[0] < sizes[0] * self.targets[1] else 0

    def candidates(
        self, side: int, unused: npt.NDArray[np.int64], free: int
    ) -> npt.NDArray[np.int64]:
        """Positions in ``unused[:free]`` of up to ``candidates`` examples allowed on ``side``."""
        wanted = min(self.config.candidates, free)
        allowed = self.allowed[side]
        if allowed is None or self.allowed_free[side] == 0:
            return self.rng.choice(free, wanted, replace=False)
        share = self.allowed_free[side] / free
        draw = min(free, int(np.ceil(wanted / share * 1.25)) + 8)
        picks = self.rng.choice(free, draw, replace=False)
        kept = picks[allowed[unused[picks]]][:wanted]
        return kept if len(kept) else self.rng.choice(free, wanted, replace=False)

    def grow(self, removal_interval: int, deadline: float = math.inf) -> None:
        """Add examples until both sides have their sizes (the greedy construction); removal
        attempts stop at ``deadline`` (a :func:`time.perf_counter` reading). Each step scores
        fresh candidates and the best ``carry`` unchosen ones of the side's previous step."""
        free_mask = self.engine.side == UNUSED
        if self.excluded is not None:
            free_mask &= ~self.excluded
        unused = _Unused(free_mask)
        carried = [np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)]
        additions = 0
        while self.engine.sizes[0] < self.targets[0] or self.engine.sizes[1] < self.targets[1]:
            side = self.next_side()
            fresh = unused.ids[self.candidates(side, unused.ids, unused.free)]
            kept = carried[side][unused.holds(carried[side])]
            batch = np.concatenate([kept, fresh[~np.isin(fresh, kept)]])
            ranked = batch[
                np.argsort(self.score(*self.engine.evaluate(batch, side)), kind="stable")
            ]
            carried[side] = ranked[1 : 1 + self.config.carry]
            self.move(int(ranked[0]), side)
            unused.take(int(ranked[0]))
            additions += 1
            if self.tracker is not None:
                self.tracker.added(1, self.engine)
            if removal_interval and additions % removal_interval == 0:
                removed = self.remove_one(side) if time.perf_counter() < deadline else None
                if removed is not None:
                    unused.put(removed)

    def remove_one(self, side: int) -> int | None:
        """Remove the member of ``side`` whose removal improves the score most, if any does."""
        members = self.engine.members(side)
        if len(members) < 2:
            return None
        sample = self.rng.choice(members, min(self.config.candidates, len(members)), False)
        scores = self.score(*self.engine.evaluate(sample, UNUSED))
        best = int(np.argmin(scores))
        if scores[best] >= self.current():
            return None
        self.move(int(sample[best]), UNUSED)
        return int(sample[best])

    def shake(self, side: int, at_random: bool = False) -> None:
        """Remove a share of ``side`` (those whose removal scores best, or drawn at random
        to leave a plateau), then regrow it."""
        members = self.engine.members(side)
        count = int(self.config.removal_fraction * len(members))
        if at_random:
            chosen = self.rng.choice(members, count, replace=False)
        else:
            # scored a slice at a time: the entries of a whole side would take 80 bytes each
            scores = np.concatenate(
                [
                    self.score(*self.engine.evaluate(members[start : start + SCORE_SLICE], UNUSED))
                    for start in range(0, len(members), SCORE_SLICE)
                ]
            )
            chosen = members[np.argsort(scores, kind="stable")[:count]]
        for example in chosen:
            self.move(int(example), UNUSED)
        self.grow(removal_interval=0)

    def held_out(self) -> npt.NDArray[np.int64]:
        """Parent-child pairs to hold out (:mod:`symcomp.dbca.seeding`; pair columns)."""
        features = self.engine.features
        if features.pairs is None:
            return np.zeros(0, dtype=np.int64)
        chosen = held_out_pairs(
            features,
            features.pairs,
            self.targets[0],
            self.targets[1],
            score=self.scalar_score,
            seed=self.rng,
            barred=self.barred,
        )
        return np.asarray(chosen, dtype=np.int64)

    def hold_out(self, pairs: npt.NDArray[np.int64]) -> None:
        """Draw train candidates from the examples without ``pairs``, test candidates from
        those with them."""
        matrix = self.engine.features.pairs
        assert matrix is not None
        owners = np.repeat(np.arange(len(matrix)), matrix.lengths())
        blocked = np.zeros(len(matrix), dtype=bool)
        blocked[owners[np.isin(matrix.indices, pairs)]] = True
        self.restrict(0, ~blocked)
        self.restrict(1, blocked)

    def construct(self, pairs: npt.NDArray[np.int64] | None, deadline: float) -> _Search:
        """The greedy construction, from held-out ``pairs`` if any (None: plain)."""
        if pairs is not None and len(pairs):
            self.hold_out(pairs)
        self.grow(self.config.removal_interval, deadline)
        self.restrict(0, None)
        self.restrict(1, None)
        return self


def mcd_split(
    features: Features,
    config: McdConfig,
    seed: GeneratorSeed = 0,
    *,
    barred_from_test: npt.NDArray[np.bool_] | None = None,
    progress: Progress | None = None,
) -> McdResult:
    """Search a train/test split of maximum (or target) compound divergence.

    Parameters
    ----------
    features : Features
        Atoms and compounds of the pool.
    config : McdConfig
        Sizes, targets and search effort.
    seed : int or numpy Generator
        All random choices come from it.
    barred_from_test : array of bool, optional
        Examples test candidates are not drawn from while others remain (the test sides of
        earlier splits, so that MCD1, MCD2 and MCD3 test different things, as in the paper).
    progress : callable, optional
        Called with a :class:`SearchProgress` when a stage begins and every
        :data:`REPORT_EVERY` examples placed.

    Returns
    -------
    McdResult
        The split with the best score seen; ``target_met`` tells whether D_A is within the
        bound and, for a numeric target, D_C within 0.01 of it.
    """
    config.check(len(features))
    started = time.perf_counter()
    deadline = math.inf if config.time_limit is None else started + config.time_limit
    tracker = None
    if progress is not None:
        both = config.seeding == "auto" and features.pairs is not None
        constructions = 2 if both and len(features) <= PILOT_SIZE else 1
        tracker = _Tracker(progress, planned_placements(config, constructions))
    run = _Run(features, config, make_generator(seed), barred_from_test, deadline, tracker)
    search, held_out = _construct(run)
    with run.phase("rounds"):
        best, history = _improve(run, search, started)
    with run.phase("result"):
        result = _result(features, config, best, history, held_out, time.perf_counter() - started)
    return replace(result, cpu_seconds={k: round(v, 2) for k, v in run.cpu.items()})


def _improve(
    run: _Run, search: _Search, started: float
) -> tuple[_Snapshot, list[dict[str, float]]]:
    """The remove-and-regrow rounds: the best split seen, and the best after each round."""
    config = run.config
    best = _Snapshot.of(search)
    history = [best.record(0)]
    LOG.info("MCD construction: D_A %.4f, D_C %.4f", best.da, best.dc)
    stalled = False
    for round_number in range(1, config.rounds + 1):
        if config.time_limit is not None and time.perf_counter() - started > config.time_limit:
            break
        if run.tracker is not None:
            run.tracker.enter(f"round {round_number}/{config.rounds}", search.engine)
        improved = False
        for side in (0, 1):
            search.shake(side, at_random=stalled)
            candidate = _Snapshot.of(search)
            if candidate.better_than(best):
                best, improved = candidate, True
        stalled = not improved
        search.adapt_penalty(candidate.feasible)
        history.append(best.record(round_number))
        LOG.info("MCD round %d: best D_A %.4f, D_C %.4f", round_number, best.da, best.dc)
    return best, history


def fixed_test_split(
    features: Features,
    config: McdConfig,
    test: npt.ArrayLike,
    seed: GeneratorSeed = 0,
    *,
    excluded: npt.ArrayLike = (),
    progress: Progress | None = None,
) -> McdResult:
    """A train set of ``config.train_size`` for a given test set, at the target (or maximum)
    compound divergence under the atom bound: the fixed-test sweeps of GenBench and SLURPFOOD
    (the test is drawn once, training sets are grown to several D_C levels).

    ``config.test_size`` must be the size of ``test``; ``excluded`` examples (a dev part) are
    never drawn. Train grows greedily as in :func:`mcd_split` (without held-out pair seeding,
    which chooses test), then ``config.rounds`` rounds remove and regrow a share of train;
    ``progress`` is told as in :func:`mcd_split`.

    >>> from symcomp.dbca.features import ngram_features
    >>> features = ngram_features([f"{a} {b} {c}" for a in "abcd" for b in "efgh" for c in "ij"])
    >>> test = list(range(0, 32, 4))
    >>> low = McdConfig(train_size=16, test_size=8, target_dc=0.0, max_da=1.0)
    >>> result = fixed_test_split(features, low, test, seed=0, excluded=[1])
    >>> result.test == test, len(result.train), 1 in result.train
    (True, 16, False)
    >>> from dataclasses import replace
    >>> high = fixed_test_split(features, replace(low, target_dc=None), test, seed=0)
    >>> high.compound_divergence > result.compound_divergence
    True
    """
    held_out = np.unique(np.asarray(test, dtype=np.int64))
    if len(held_out) != config.test_size:
        raise DataError(
            f"the fixed test has {len(held_out):,} distinct examples but `test_size` is "
            f"{config.test_size:,}; give the test's size."
        )
    config.check(len(features))
    started = time.perf_counter()
    rng = make_generator(seed)
    tracker = None
    if progress is not None:  # test is placed at once: only train grows
        tracker = _Tracker(progress, planned_placements(replace(config, test_size=0)))
    search = _Search(features, config, rng, tracker=tracker)
    blocked = np.zeros(len(features), dtype=bool)
    blocked[np.asarray(excluded, dtype=np.int64)] = True
    if blocked[held_out].any():
        raise DataError("an example is both in the fixed test and among the excluded ones.")
    search.excluded = blocked
    for example in held_out:
        search.move(int(example), 1)
    search.grow(config.removal_interval)
    best, history = _train_rounds(search, tracker)
    return _result(features, config, best, history, [], time.perf_counter() - started)


def _train_rounds(
    search: _Search, tracker: _Tracker | None
) -> tuple[_Snapshot, list[dict[str, float]]]:
    """The rounds of :func:`fixed_test_split`: train alone removed and regrown."""
    config = search.config
    best = _Snapshot.of(search)
    history = [best.record(0)]
    stalled = False
    for round_number in range(1, config.rounds + 1):
        if tracker is not None:
            tracker.enter(f"round {round_number}/{config.rounds}", search.engine)
        search.shake(0, at_random=stalled)
        candidate = _Snapshot.of(search)
        stalled = not candidate.better_than(best)
        best = best if stalled else candidate
        search.adapt_penalty(candidate.feasible)
        history.append(best.record(round_number))
    return best, history


@dataclass
class _Run:
    """What the constructions of one search share, and the CPU seconds of its phases."""

    features: Features
    config: McdConfig
    rng: np.random.Generator
    barred: npt.NDArray[np.bool_] | None
    deadline: float
    tracker: _Tracker | None = None
    cpu: dict[str, float] = field(default_factory=dict)

    def search(self, tracked: bool = True) -> _Search:
        tracker = self.tracker if tracked else None
        return _Search(self.features, self.config, self.rng, self.barred, tracker)

    def construct(self, pairs: npt.NDArray[np.int64] | None) -> _Search:
        with self.phase("construction"):
            if self.tracker is not None:
                self.tracker.enter("construction")
            return self.search().construct(pairs, self.deadline)

    @contextlib.contextmanager
    def phase(self, name: str) -> Iterator[None]:
        started = time.process_time()
        try:
            yield
        finally:
            self.cpu[name] = self.cpu.get(name, 0.0) + time.process_time() - started


def _construct(run: _Run) -> tuple[_Search, list[str]]:
    """The greedy construction, seeded or not (``auto``: the better of the two). A pool of
    more than :data:`PILOT_SIZE` examples chooses its held-out pairs, and with ``auto`` also
    which construction to run, on a random sample of that many (a pilot), and then runs one
    construction: their cost grows with the pool, the pilot's does not."""
    features, seeding = run.features, run.config.seeding
    if seeding == "off":
        return run.construct(None), []
    with run.phase("held-out pairs"):
        if run.tracker is not None:
            run.tracker.enter("choosing held-out pairs")
        piloted = len(features) > PILOT_SIZE
        pairs = _pilot(run) if piloted else run.search(tracked=False).held_out()
    if piloted or seeding == "on" or pairs is None or not len(pairs):
        chosen = pairs if piloted or seeding == "on" else None
        return run.construct(chosen), _names(features, chosen)
    results = [(run.construct(pairs), _names(features, pairs)), (run.construct(None), [])]
    return min(results, key=lambda result: _Snapshot.of(result[0]).rank())


def _names(features: Features, pairs: npt.NDArray[np.int64] | None) -> list[str]:
    return [features.pair_names[int(i)] for i in (() if pairs is None else pairs)]


def _pilot(run: _Run) -> npt.NDArray[np.int64] | None:
    """Held-out pairs chosen on a random sample of :data:`PILOT_SIZE` examples (pool pair
    columns), or None where ``auto`` finds the plain construction better on the sample."""
    features, config = run.features, run.config
    rows = np.sort(run.rng.choice(len(features), PILOT_SIZE, replace=False))
    sample, pair_columns = features.sample(rows)
    share = PILOT_SIZE / len(features)
    train = max(1, round(config.train_size * share))
    sizes = replace(config, train_size=train, test_size=max(1, round(config.test_size * share)))
    kept = None if run.barred is None else run.barred[rows]
    seeded = _Search(sample, sizes, run.rng, kept)
    chosen = seeded.held_out()
    if config.seeding == "auto":
        if not len(chosen):
            return None
        plain = _Search(sample, sizes, run.rng, kept).construct(None, run.deadline)
        if (
            _Snapshot.of(plain).rank()
            <= _Snapshot.of(seeded.construct(chosen, run.deadline)).rank()
        ):
            return None
    return pair_columns[chosen]


@dataclass(frozen=True)
class _Snapshot:
    sides: npt.NDArray[np.int64]
    da: float
    dc: float
    score: float
    feasible: bool

    @classmethod
    def of(cls, search: _Search) -> _Snapshot:
        da, dc = search.engine.divergences()
        return cls(
            search.engine.side.copy(),
            da,
            dc,
            float(search.score(da, dc, ATOM_PENALTY)),
            da <= search.config.max_da + 1e-12,
        )

    def better_than(self, other: _Snapshot) -> bool:
        return (self.feasible, -self.score) > (other.feasible, -other.score)

    def rank(self) -> tuple[bool, float]:
        """Lower is better: feasible first, then by score."""
        return (not self.feasible, self.score)

    def record(self, round_number: int) -> dict[str, float]:
        return {"round": round_number, "atom_divergence": self.da, "compound_divergence": self.dc}


def _result(
    features: Features,
    config: McdConfig,
    best: _Snapshot,
    history: list[dict[str, float]],
    held_out: list[str],
    seconds: float,
) -> McdResult:
    train = [int(i) for i in np.flatnonzero(best.sides == 0)]
    test = [int(i) for i in np.flatnonzero(best.sides == 1)]
    da, dc = divergences_of(features, train, test)  # recomputed from the counts: exact
    met = da <= config.max_da + 1e-12 and (
        config.target_dc is None or abs(dc - config.target_dc) <= TARGET_TOLERANCE
    )
    return McdResult(train, test, da, dc, met, history, held_out, seconds)


TARGET_TOLERANCE = 0.01  # a numeric --target-dc counts as met within this distance
