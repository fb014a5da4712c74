"""Seeded, balanced premise/hypothesis pairs of the monotonicity language, and their pool.

Every base pair is drawn for a scheduled cell (depth, polarity): the schedule holds each
cell equally often (up to the remainder) in a seeded order. Within its cell a draw chooses,
each uniformly unless weighted: the variant (plain, adverb-first, PP-first, object; weights
in :data:`VARIANT_WEIGHTS`), the replacement r1–r7 allowed there, the position (restrictor
or scope; the embedding level uniformly), distinct nouns and verbs, relative-clause kinds,
then quantifiers uniformly over the tuples whose composed polarity is the cell's (redrawing
the quantifiers otherwise), and the inserted word. The base pair's label follows from
polarity and direction; its reverse (hypothesis and premise swapped) gets the opposite label,
so labels are exactly 1:1 and up/down exactly balanced. Nothing is thinned: every redraw and
every rejected duplicate is counted and written to the manifest.

>>> pairs = generate_pairs(PairSpec(n=4, seed=1, depths=(1, 2)))
>>> [pair.label for pair in pairs]
['non-entailment', 'entailment', 'non-entailment', 'entailment']
>>> pairs[0].premise == pairs[1].hypothesis and pairs[1].meta["reverse"]
True
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TypeVar

from symcomp.core.example import content_id
from symcomp.data.artifacts import (
    EXAMPLES,
    MANIFEST,
    assembled,
    atomic_writer,
    file_record,
    json_text,
)
from symcomp.errors import GenerationError
from symcomp.languages.monotonicity.lexicon import (
    ADJECTIVES,
    ADVERBS,
    EITHER_NUMBER,
    EMBEDDINGS,
    HYPERNYMS,
    MAIN_VERBS,
    NOUNS,
    PHENOMENA,
    PLACES,
    QUANTIFIERS,
    RELATIVE_PHRASES,
    SECOND_VERBS,
    TRANSITIVE_VERBS,
    VERB_HYPERNYMS,
    WH_WORDS,
    Embedding,
    NounPhrase,
    Position,
    Sentence,
    VerbPhrase,
    apply_replacement,
    chain,
    entailment_label,
    opposite,
    path,
    polarity,
    render,
    repeated_words,
)
from symcomp.version import __version__

FORMAT = "symcomp.nli.entailment-pool/1"
SEPARATOR = " ||| "  # between premise and hypothesis in a record's `input`
VARIANT_WEIGHTS = {"plain": 0.55, "adverb_first": 0.15, "place_first": 0.15, "object": 0.15}
PROFILES = ("symcomp", "paper")
PAPER_DEEP_PHENOMENA = ("r1", "r2", "r3", "r4")  # the published scripts' depth >= 1 edits
PAPER_OBJECT_SUBJECT = "some"  # cfg_simple_obj.pl: det_up, the only subject determiner
POLARITIES = ("up", "down")
MAX_ATTEMPTS_PER_PAIR = 10_000


@dataclass(frozen=True)
class PairSpec:
    """What pairs to generate.

    Attributes
    ----------
    n : int
        Number of pairs, base pairs and their reverses together (even).
    seed : int
        Seed of the single random stream.
    depths : tuple of int
        Depths to cover equally (1 = no relative clause, d = d - 1 nested ones).
    variants : mapping
        Variant → weight (plain, adverb_first, place_first, object).
    phenomena : tuple of str
        Replacement functions to use (r1..r7).
    profile : str
        ``symcomp`` (the default, richer): every variant and replacement at every depth and
        position. ``paper``: as the published scripts of Yanaka et al. (2020) make data;
        at depths >= 2 only plain sentences, only r1-r4, only at the deepest noun; the object
        variant only at depth 1, with the subject ``some`` and a singular noun; ``no`` and
        ``some`` with singular nouns; r1 also replaces the verb at depth 1 (by ``moved``,
        ``worked`` or ``existed``).
    """

    n: int
    seed: int = 0
    depths: tuple[int, ...] = (1, 2, 3, 4, 5)
    variants: Mapping[str, float] = field(default_factory=lambda: dict(VARIANT_WEIGHTS))
    phenomena: tuple[str, ...] = tuple(PHENOMENA)
    profile: str = "symcomp"

    def check(self) -> None:
        if self.profile not in PROFILES:
            raise GenerationError(
                f"`profile` must be one of {', '.join(PROFILES)}, got {self.profile!r}."
            )
        if self.n < 2 or self.n % 2:
            raise GenerationError(
                f"`n` must be an even number of at least 2 (every pair comes with its reverse), "
                f"got {self.n}."
            )
        limit = len(NOUNS) - 1  # the object variant uses depth + 1 distinct nouns
        if not self.depths or any(not 1 <= depth <= limit for depth in self.depths):
            raise GenerationError(
                f"depths must lie in 1..{limit} (distinct nouns per sentence), got "
                f"{list(self.depths)}."
            )
        unknown = sorted(set(self.phenomena) - set(PHENOMENA))
        if unknown or not self.phenomena:
            raise GenerationError(f"unknown phenomena {unknown}; choose from {list(PHENOMENA)}.")
        if set(self.variants) - set(VARIANT_WEIGHTS) or sum(self.variants.values()) <= 0:
            raise GenerationError(
                f"variants must be weights over {list(VARIANT_WEIGHTS)}, got {dict(self.variants)}."
            )

    def describe(self) -> dict[str, Any]:
        described = {
            "n": self.n,
            "seed": self.seed,
            "depths": list(self.depths),
            "variants": dict(self.variants),
            "phenomena": list(self.phenomena),
        }
        if self.profile != "symcomp":  # the default profile's manifests stay as they were
            described["profile"] = self.profile
        return described


@dataclass(frozen=True)
class Pair:
    """One premise/hypothesis pair with its gold label and how it was made."""

    premise: str
    hypothesis: str
    label: str
    meta: Mapping[str, Any]

    @property
    def input(self) -> str:
        return f"{self.premise}{SEPARATOR}{self.hypothesis}"

    def record(self, language: str, version: str) -> dict[str, Any]:
        """The JSON object of one ``examples.jsonl`` line."""
        return {
            "id": content_id(language, version, self.input),
            "input": self.input,
            "output": self.label,
            "premise": self.premise,
            "hypothesis": self.hypothesis,
            "label": self.label,
            "meta": {**self.meta, "length": len(self.input.split()), "output_length": 1},
        }


@dataclass
class PairStats:
    """Counts of draws and of every redraw or rejection, by reason."""

    draws: int = 0
    accepted: int = 0
    rejected: Counter[str] = field(default_factory=Counter)

    def describe(self) -> dict[str, Any]:
        return {
            "draws": self.draws,
            "accepted_base_pairs": self.accepted,
            "rejected": dict(sorted(self.rejected.items())),
        }


def generate_pairs(spec: PairSpec, stats: PairStats | None = None) -> list[Pair]:
    """``spec.n`` pairs: base pairs each followed by its reverse."""
    return list(iter_pairs(spec, stats))


def iter_pairs(spec: PairSpec, stats: PairStats | None = None) -> Iterator[Pair]:
    """Yield base pairs each followed by its reverse (see the module docstring)."""
    spec.check()
    stats = stats if stats is not None else PairStats()
    rng = random.Random(spec.seed)
    seen: set[tuple[str, str]] = set()
    for index, (depth_, polarity_) in enumerate(schedule(spec, rng)):
        drawn = _draw_new(spec, depth_, polarity_, rng, seen, stats)
        base = Pair(drawn.premise, drawn.hypothesis, drawn.label, {**drawn.meta, "pair": index})
        yield base
        yield reverse(base)


def schedule(spec: PairSpec, rng: random.Random) -> list[tuple[int, str]]:
    """(depth, polarity) of every base pair: cells equally often, in a seeded order."""
    cells = [(depth_, polarity_) for depth_ in spec.depths for polarity_ in POLARITIES]
    bases = spec.n // 2
    plan = [cells[index % len(cells)] for index in range(bases)]
    return shuffled(rng, plan)


def reverse(pair: Pair) -> Pair:
    """The pair with premise and hypothesis swapped and the opposite label."""
    meta = dict(pair.meta)
    meta["reverse"] = True
    meta["direction"] = "specific" if pair.meta["direction"] == "general" else "general"
    return Pair(pair.hypothesis, pair.premise, opposite(pair.label), meta)


def _draw_new(
    spec: PairSpec,
    depth_: int,
    polarity_: str,
    rng: random.Random,
    seen: set[tuple[str, str]],
    stats: PairStats,
) -> Pair:
    for _ in range(MAX_ATTEMPTS_PER_PAIR):
        stats.draws += 1
        pair = draw_pair(spec, depth_, polarity_, rng, stats)
        if pair is None:
            continue
        key = (pair.premise, pair.hypothesis)
        if key in seen:
            stats.rejected["duplicate_pair"] += 1
            continue
        seen.add(key)
        stats.accepted += 1
        return pair
    raise GenerationError(
        f"could not draw a new pair at depth {depth_} ({polarity_}) in {MAX_ATTEMPTS_PER_PAIR:,} "
        f"draws: the cell is exhausted; ask for fewer pairs or more depths. Nothing was written."
    )


def draw_pair(
    spec: PairSpec, depth_: int, polarity_: str, rng: random.Random, stats: PairStats
) -> Pair | None:
    """One base pair in cell (depth, polarity), or None when rejected (counted in ``stats``).

    The pair may repeat an earlier one; the caller rejects duplicates.
    """
    paper = spec.profile == "paper"
    variant = _weighted(rng, spec.variants)
    if paper and depth_ >= 2:
        variant = "plain"  # the published scripts embed plain sentences only
    allowed = [
        code
        for code in spec.phenomena
        if (variant != "object" or "restrictor" in PHENOMENA[code].positions)
        and not (paper and depth_ >= 2 and code not in PAPER_DEEP_PHENOMENA)
    ]
    if not allowed:
        raise GenerationError(f"no phenomenon of {list(spec.phenomena)} applies to {variant}.")
    code = choice(rng, allowed)
    phenomenon = PHENOMENA[code]
    kinds = phenomenon.positions
    if paper and code == "r1" and variant != "object" and depth_ == 1:
        kinds = ("restrictor", "scope")  # develop.py: verb hypernyms at depth 0
    if paper and depth_ >= 2:
        position = Position("subject", depth_ - 1)  # the deepest noun
    else:
        position = _position(kinds, variant, depth_, rng)
    premise = _skeleton(depth_, variant, rng)
    premise = _quantify(premise, position, polarity_, rng, stats, paper=paper)
    front, item = _front_and_item(variant, code, rng, verb=position.kind == "scope")
    premise = Sentence(premise.subject, premise.predicate, premise.verb, premise.object, front)
    hypothesis = apply_replacement(premise, position, code, item)
    if repeated_words(premise) or repeated_words(hypothesis):
        stats.rejected["repeated_word"] += 1  # excluded by construction; counted if ever seen
        return None
    label = entailment_label(polarity_, phenomenon.direction)
    meta = {
        "depth": depth_,
        "embeddings": depth_ - 1,
        "phenomenon": code,
        "replacement": phenomenon.name,
        "position": position.kind,
        "level": position.level,
        "polarity": polarity_,
        "direction": phenomenon.direction,
        "variant": variant,
        "path": [quantifier for quantifier, _argument in path(premise, position)],
        "quantifiers": _quantifiers(premise),
        "reverse": False,
    }
    return Pair(render(premise), render(hypothesis), label, meta)


def _weighted(rng: random.Random, weights: Mapping[str, float]) -> str:
    names = [name for name in VARIANT_WEIGHTS if weights.get(name, 0) > 0]
    total = sum(weights[name] for name in names)
    point, running = rng.random() * total, 0.0
    for name in names:
        running += weights[name]
        if point < running:
            return name
    return names[-1]


def _position(kinds: tuple[str, ...], variant: str, depth_: int, rng: random.Random) -> Position:
    if variant == "object":
        return Position("object", int(rng.random() * depth_))
    kind = choice(rng, kinds)
    if kind == "scope":
        return Position("scope")
    return Position("subject", int(rng.random() * depth_))


def _skeleton(depth_: int, variant: str, rng: random.Random) -> Sentence:
    """Nouns, verbs and embeddings (quantifiers still placeholders)."""
    transitive = variant == "object"
    nouns = sample(rng, list(NOUNS), depth_ + transitive)  # chain nouns, then the subject's
    verbs = sample(rng, TRANSITIVE_VERBS, depth_ - 1 + transitive)  # embeddings, then main
    np = NounPhrase("", nouns[depth_ - 1], plural=True)
    for level in range(depth_ - 2, -1, -1):
        kind, wh = choice(rng, EMBEDDINGS), choice(rng, WH_WORDS)
        np = NounPhrase(
            "", nouns[level], plural=True, embedding=Embedding(kind, verbs[level], np, wh)
        )
    if transitive:
        subject = NounPhrase("", nouns[depth_], plural=True)
        return Sentence(subject=subject, verb=verbs[depth_ - 1], object=np)
    return Sentence(subject=np, predicate=VerbPhrase(choice(rng, MAIN_VERBS)))


def _quantify(
    sentence: Sentence,
    position: Position,
    polarity_: str,
    rng: random.Random,
    stats: PairStats,
    *,
    paper: bool = False,
) -> Sentence:
    """Quantifiers drawn uniformly among the tuples that give ``position`` the polarity."""
    for _ in range(MAX_ATTEMPTS_PER_PAIR):
        quantified = _with_quantifiers(sentence, rng, paper=paper)
        if polarity(quantified, position) == polarity_:
            return quantified
        stats.rejected["quantifiers_redrawn_for_polarity"] += 1
    raise GenerationError(f"no quantifiers give polarity {polarity_} at {position}.")


def _with_quantifiers(sentence: Sentence, rng: random.Random, *, paper: bool = False) -> Sentence:
    def fill(np: NounPhrase) -> NounPhrase:
        inner = None
        if np.embedding is not None:
            e = np.embedding
            inner = Embedding(e.kind, e.verb, fill(e.np), e.wh)
        quantifier = choice(rng, QUANTIFIERS)
        if paper:  # cfg_simple.pl: `no` and `some` are singular, the others plural
            plural = quantifier not in EITHER_NUMBER
        else:
            plural = rng.random() < 0.5 if quantifier in EITHER_NUMBER else True
        return NounPhrase(quantifier, np.noun, plural, embedding=inner)

    if paper and sentence.object is not None:
        subject = replace(sentence.subject, quantifier=PAPER_OBJECT_SUBJECT, plural=False)
    else:
        subject = fill(sentence.subject)
    obj = fill(sentence.object) if sentence.object is not None else None
    return Sentence(subject, sentence.predicate, sentence.verb, obj, sentence.front)


def _front_and_item(
    variant: str, code: str, rng: random.Random, *, verb: bool = False
) -> tuple[str | None, str | tuple[str, str]]:
    """The fronted adverb or place (if any) and the word the replacement inserts (distinct)."""
    front = None
    if variant == "adverb_first":
        front = choice(rng, ADVERBS)
    elif variant == "place_first":
        front = choice(rng, PLACES)
    choices: dict[str, tuple[str, ...]] = {
        "r1": tuple(HYPERNYMS),
        "r2": ADJECTIVES,
        "r3": PLACES,
        "r5": ADVERBS,
        "r6": SECOND_VERBS,
        "r7": SECOND_VERBS,
    }
    if code == "r4":
        return front, (choice(rng, WH_WORDS), choice(rng, RELATIVE_PHRASES))
    if code == "r1" and verb:
        return front, choice(rng, VERB_HYPERNYMS)
    options = [word for word in choices[code] if word != front]
    return front, choice(rng, options)


T = TypeVar("T")


# Only rng.random() is called: its stream is the same on every Python version for a seed.
def choice(rng: random.Random, items: Sequence[T]) -> T:
    """One item, uniformly.

    >>> choice(random.Random(0), ["a", "b", "c"])
    'c'
    """
    return items[int(rng.random() * len(items))]


def sample(rng: random.Random, items: Sequence[T], k: int) -> list[T]:
    """``k`` distinct items in random order (a partial Fisher-Yates shuffle)."""
    pool = list(items)
    for index in range(k):
        other = index + int(rng.random() * (len(pool) - index))
        pool[index], pool[other] = pool[other], pool[index]
    return pool[:k]


def shuffled(rng: random.Random, items: Sequence[T]) -> list[T]:
    """All items in random order."""
    return sample(rng, items, len(items))


def _quantifiers(sentence: Sentence) -> list[str]:
    found = [np.quantifier for np in chain(sentence.subject)]
    if sentence.object is not None:
        found += [np.quantifier for np in chain(sentence.object)]
    return found


# -- the pool on disk ------------------------------------------------------------------------


def write_pairs(
    out: Path,
    spec: PairSpec,
    *,
    language: str,
    version: str,
    grammar_sha256: str,
    overwrite: bool = False,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Write ``out/examples.jsonl`` (pair records) and ``out/manifest.json``; return it."""
    spec.check()
    # held like every pool: a second command writing the same folder is refused; both files
    # are written aside and put in place together
    with assembled(out, overwrite=overwrite, names=(EXAMPLES, MANIFEST), kind="pool") as work:
        stats = PairStats()
        counts: dict[str, Counter[str]] = {
            key: Counter() for key in ("depth", "label", "polarity", "phenomenon", "variant")
        }
        with atomic_writer(work / EXAMPLES) as handle:
            for count, pair in enumerate(iter_pairs(spec, stats), start=1):
                record = pair.record(language, version)
                line = json_text(
                    record, str(out / EXAMPLES), ensure_ascii=False, separators=(",", ":")
                )
                handle.write(line + "\n")
                for key in counts:
                    counts[key][str(record["label"] if key == "label" else pair.meta[key])] += 1
                if progress is not None and count % 1000 == 0:
                    progress(1000)
        if progress is not None:
            progress(spec.n % 1000)
        manifest = {
            "format": FORMAT,
            "symcomp_version": __version__,
            "language": language,
            "grammar_version": version,
            "grammar_sha256": grammar_sha256,
            "seed": spec.seed,
            "parameters": spec.describe(),
            "filters": stats.describe(),
            "counts": {key: dict(sorted(value.items())) for key, value in counts.items()},
            "files": {EXAMPLES: file_record(work / EXAMPLES)},
        }
        text = json_text(manifest, str(out / MANIFEST), indent=2, sort_keys=True)
        with atomic_writer(work / MANIFEST) as handle:
            handle.write(text + "\n")
    return manifest
