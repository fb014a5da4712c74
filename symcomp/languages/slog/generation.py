"""Drawing SLOG's sentences as Alto drew them: from a part's IRTG rule table
(``grammars/slog.tables.json``, :mod:`symcomp.languages.slog.tables`), inside the part's depth
windows (Alto's ``--pp-depth``, ``--cp-depth``, ``--cemb-depth``), a sentence with a noun twice
skipped (as Alto's ``CogsCorpusGenerator`` does), no sentence twice in the suite. Each sentence
is parsed with ``slog.lark`` for its tree, so its logical form is the grammar's.

:class:`SlogDrawer` is :class:`symcomp.languages.cogs.generation.Drawer` with the IRTG rules in
place of the Lark sampler: its ``take`` (rejections counted by reason, quotas, no sentence
twice) and ``forced`` (a COGS target written into its slot, for the exposure rows) are cogs's.

>>> from symcomp.core.registry import get_language
>>> drawer = SlogDrawer(get_language("slog"), seed=1)
>>> [s.text for s in drawer.take(2, "center_embed_2")]  # doctest: +NORMALIZE_WHITESPACE
['The dog burned the cake that the creature that the girl liked ate .',
 'Charlotte rolled the spoon that the donkey that Emma shortened appreciated .']
"""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from itertools import accumulate
from typing import Any

from lark import Tree

from symcomp.core.language import Language
from symcomp.core.resources import grammar_file
from symcomp.core.sampler import Rejected
from symcomp.errors import SymcompError
from symcomp.languages.cogs.generation import Drawer
from symcomp.languages.slog.deep import (
    all_distinct,
    best_split,
    distinct_chance,
    fewest_nouns,
)

KINDS = ("pp", "cp", "cemb")
DEFAULT_WINDOW = (0, 2)  # SLOG's README runs Alto with 0-2 for every kind
MAX_RULES = 4_000  # rule expansions in one sentence; a draw past it is rejected


@dataclass(frozen=True)
class Draw:
    """What one part is drawn from: a rule table and a (min, max) window per depth kind;
    ``distinct_verbs``: a sentence with a verb twice is skipped, as it is with a noun twice."""

    table: str
    windows: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    ending: str = "."  # "?" after a question, nothing after a standalone noun phrase
    # SLOG's Alto skipped a verb twice too: no part it drew repeats one (0 of the 16,000 gen
    # rows outside CP_5-12, 0 of its 8,560 train rows), where the noun rule alone repeats one in
    # up to 80 % of rows (centre embedding 5-12); COGS's own sentences (in_distribution,
    # COGS's train) repeat verbs (70 of 24,012 rows), so they keep them
    distinct_verbs: bool = True

    def window(self, kind: str) -> tuple[int, int]:
        """The window of one kind (SLOG's default 0-2 where the part sets none)."""
        return self.windows.get(kind, DEFAULT_WINDOW)


def draw(
    table: str, ending: str = ".", *, distinct_verbs: bool = True, **windows: tuple[int, int]
) -> Draw:
    """A :class:`Draw` (``draw("pp_recursion", pp=(3, 3))``)."""
    return Draw(table, dict(windows), ending, distinct_verbs)


@dataclass(frozen=True)
class RuleTables:
    """``slog.tables.json``: per table, per nonterminal, cumulative weights and right sides."""

    start: str
    markers: Mapping[str, frozenset[str]]
    words: Mapping[str, Mapping[str, Any]]
    tables: Mapping[str, Mapping[str, tuple[list[float], list[tuple[str, ...]]]]]
    # a preterminal with fixed words (not a slog.lark terminal's): cumulative weights, words
    fixed: Mapping[str, tuple[list[float], list[str]]] = field(default_factory=dict)


@cache
def rule_tables() -> RuleTables:
    """The packaged rule tables."""
    data = json.loads(grammar_file("slog.tables.json").read_text(encoding="utf-8"))
    tables = {}
    for name, rules in data["tables"].items():
        compiled = {}
        for lhs, alternatives in rules.items():
            cumulative, total = [], 0.0
            for weight, _rhs in alternatives:
                total += weight
                cumulative.append(total)
            compiled[lhs] = (cumulative, [tuple(rhs.split()) for _w, rhs in alternatives])
        tables[name] = compiled
    markers = {kind: frozenset(found) for kind, found in data["markers"].items()}
    fixed = {
        category: (list(accumulate(source["weights"])), [str(w) for w in source["words"]])
        for category, source in data["words"].items()
        if "terminal" not in source
    }
    return RuleTables(data["start"], markers, data["words"], tables, fixed)


@dataclass(frozen=True)
class DeepPart:
    """A deep part's noun preterminals (to their terminal), the terminals' word
    probabilities, its verb preterminals and their terminals' words (where the part forbids
    a verb twice), and the bound on the chance that a structure's nouns and verbs differ."""

    terminal_of: Mapping[str, str]
    probabilities: Mapping[str, tuple[float, ...]]
    bound: float
    verb_of: Mapping[str, str] = field(default_factory=dict)
    verb_words: Mapping[str, Mapping[str, float]] = field(default_factory=dict)
    _verb_chances: dict[tuple[tuple[str, int], ...], float] = field(default_factory=dict)

    def chance(self, slots: list[str]) -> float:
        """The chance that a structure's nouns, and its verbs, come out distinct."""
        nouns = Counter(self.terminal_of[c] for c in slots if c in self.terminal_of)
        chance = math.prod(all_distinct(self.probabilities[t], k) for t, k in nouns.items())
        verbs = tuple(sorted(Counter(self.verb_of[c] for c in slots if c in self.verb_of).items()))
        if verbs and verbs not in self._verb_chances:  # structures share few verb counts
            self._verb_chances[verbs] = distinct_chance(self.verb_words, dict(verbs))
        return chance * (self._verb_chances[verbs] if verbs else 1.0)


def _reachable(rules: Mapping[str, Any], category: str) -> bool:
    return any(category in rhs for _cumulative, sides in rules.values() for rhs in sides)


def _pick(rng: random.Random, cumulative: list[float]) -> int:
    point = rng.random() * cumulative[-1]
    for index, bound in enumerate(cumulative):
        if point < bound:
            return index
    return len(cumulative) - 1


class SlogDrawer(Drawer):
    """Draws accepted SLOG sentences from one seeded stream; ``used`` holds every sentence."""

    # a deep part needs a few hundred draws a sentence (window and distinct-noun rejections),
    # cogs's 2,000 leaves too little room for the deepest; a part past this is impossible
    max_draws_per_sentence = 20_000

    def __init__(self, language: Language, seed: int, draws: Mapping[str, Draw] | None = None):
        super().__init__(language, seed)
        self.rng = random.Random(f"symcomp-slog:{seed}")
        self.parts: dict[str, Draw] = dict(draws or DRAWS)
        self.rules = rule_tables()
        self._deep_parts: dict[tuple[str, tuple[Any, ...], bool], DeepPart | None] = {}

    def tree(self, table: str, require: frozenset[str] | None = None) -> Tree[Any] | None:
        """One sentence of the part ``table`` parsed, or None (the rejection counted);
        ``require`` is ignored: a forced target without a slot is rejected after the draw."""
        del require
        self.draws += 1
        try:
            part = self.parts[table]
            words = self.words(part)
        except Rejected as rejection:
            self.rejected[rejection.reason] += 1
            return None
        try:
            return self.language.parse(sentence(words, part.ending))
        except SymcompError:
            self.rejected["not_parsed"] += 1  # the suite's tests check that none is
            return None

    def words(self, part: Draw) -> list[str]:
        """The words of one derivation of the part's table, inside its windows, no noun twice
        (a deep part: :meth:`deep_words`)."""
        deep = self._deep(part)
        if deep is not None:
            return self.deep_words(part, deep)
        seen: set[str] = set()
        return self._derive(part, lambda category: self._new_word(category, seen, part))

    def _derive(self, part: Draw, leaf: Callable[[str], str]) -> list[str]:
        """One derivation of the part's table inside its windows, ``leaf`` of each
        preterminal in order (a word, or the preterminal itself for a structure)."""
        rules = self.rules.tables[part.table]
        maxima = tuple(part.window(kind)[1] for kind in KINDS)
        deepest = [0] * len(KINDS)
        words: list[str] = []
        stack: list[tuple[str, tuple[int, ...]]] = [(self.rules.start, (0,) * len(KINDS))]
        expanded = 0
        while stack:
            symbol, depths = stack.pop()
            if symbol not in rules:
                words.append(leaf(symbol))
                continue
            expanded += 1
            if expanded > MAX_RULES:
                raise Rejected("too_long")
            cumulative, sides = rules[symbol]
            rhs = sides[_pick(self.rng, cumulative)]
            depths = self._deeper(depths, rhs, maxima)
            deepest = [max(a, b) for a, b in zip(deepest, depths, strict=True)]
            stack.extend((child, depths) for child in reversed(rhs))
        for kind, found in zip(KINDS, deepest, strict=True):
            if found < part.window(kind)[0]:
                raise Rejected(f"{kind}_depth_below")
        return words

    def _deeper(
        self, depths: tuple[int, ...], rhs: tuple[str, ...], maxima: tuple[int, ...]
    ) -> tuple[int, ...]:
        """The depths below a rule: one more for each kind whose marker the rule holds."""
        new = []
        for kind, depth, maximum in zip(KINDS, depths, maxima, strict=True):
            if any(symbol in self.rules.markers[kind] for symbol in rhs):
                depth += 1
                if depth > maximum:
                    raise Rejected(f"{kind}_depth_above")  # Alto's window, checked early
            new.append(depth)
        return tuple(new)

    def deep_words(self, part: Draw, deep: DeepPart) -> list[str]:
        """A deep part's words in two steps, exactly as Alto's distribution
        (:mod:`symcomp.languages.slog.deep`): a structure accepted with the chance that its
        nouns (and, where the part forbids a verb twice, its verbs) differ, over the bound;
        then its verbs, and its nouns, redrawn together until they differ."""
        slots = self._derive(part, lambda category: category)
        if self.rng.random() * deep.bound >= deep.chance(slots):
            raise Rejected("repeated_nouns" if not deep.verb_of else "repeated_words")
        later = {**deep.terminal_of, **deep.verb_of}
        seen: set[str] = set()  # nouns drawn one by one (where they are not drawn later)
        words = [self._new_word(c, seen, part) if c not in later else "" for c in slots]
        for chosen in (deep.verb_of, deep.terminal_of):  # nouns and verbs share no word
            self._distinct_words(slots, words, [i for i, c in enumerate(slots) if c in chosen])
        return words

    def _distinct_words(self, slots: list[str], words: list[str], indices: list[int]) -> None:
        """The words at ``indices`` drawn together until they differ."""
        while True:
            drawn = [self.word(slots[i]) for i in indices]
            if len(set(drawn)) == len(drawn):
                break
        for index, word in zip(indices, drawn, strict=True):
            words[index] = word

    def _deep(self, part: Draw) -> DeepPart | None:
        """What a deep part needs (None for the others): a part with a minimum depth whose
        noun terminals share no word (there the distinct-nouns chance factorises), or whose
        verbs may not repeat."""
        key = (part.table, tuple(sorted(part.windows.items())), part.distinct_verbs)
        if key not in self._deep_parts:
            self._deep_parts[key] = self._deep_part(part)
        return self._deep_parts[key]

    def _deep_part(self, part: Draw) -> DeepPart | None:
        least = max(KINDS, key=lambda kind: part.window(kind)[0])
        markers, minimum = self.rules.markers[least], part.window(least)[0]
        if minimum == 0:
            return None
        rules = self.rules.tables[part.table]
        noun_of, probabilities, bound = self._deep_nouns(rules, markers, minimum)
        verb_of: dict[str, str] = {}
        verb_words: dict[str, dict[str, float]] = {}
        if part.distinct_verbs:
            verb_of = {
                c: str(source["terminal"])
                for c, source in self.rules.words.items()
                if is_verb(c) and _reachable(rules, c)
            }
            verb_words = {t: self._word_probabilities(t) for t in set(verb_of.values())}
            # every structure holds at least `least` verbs of each terminal and `total` in all;
            # however they fall, their chance to differ is at most the best split's
            verbs = {c: "verb" for c in verb_of}
            total = fewest_nouns(rules, self.rules.start, verbs, markers, minimum).get("verb", 0)
            each = fewest_nouns(rules, self.rules.start, verb_of, markers, minimum)
            terminals = sorted(verb_words)
            chances = [tuple(verb_words[t].values()) for t in terminals]
            bound *= best_split(chances, total, [each.get(t, 0) for t in terminals])
        if not noun_of and not verb_of:
            return None
        return DeepPart(noun_of, probabilities, bound, verb_of, verb_words)

    def _deep_nouns(
        self, rules: Mapping[str, Any], markers: frozenset[str], minimum: int
    ) -> tuple[dict[str, str], dict[str, tuple[float, ...]], float]:
        """A deep part's noun preterminals, their terminals' probabilities and the bound,
        where the noun terminals share no word (there the chance factorises); else nothing,
        and the nouns are drawn one by one, a noun twice rejecting the structure."""
        noun_of = {
            c: str(source["terminal"])
            for c, source in self.rules.words.items()
            if source.get("terminal") in self._noun_terminals() and _reachable(rules, c)
        }
        sidecar = self.language.grammar.sidecar
        words = {t: set(sidecar.lexicon[t]) for t in set(noun_of.values())}
        if any(words[a] & words[b] for a in words for b in words if a < b):
            return {}, {}, 1.0
        probabilities = {t: tuple(sidecar.lexicon_weights[t]) for t in words}
        fewest = fewest_nouns(rules, self.rules.start, noun_of, markers, minimum)
        bound = math.prod(all_distinct(probabilities[t], k) for t, k in fewest.items())
        return noun_of, probabilities, bound

    def _word_probabilities(self, terminal: str) -> dict[str, float]:
        """A terminal's words and their probabilities (its sidecar weights, normalised)."""
        sidecar = self.language.grammar.sidecar
        found: dict[str, float] = {}
        for word, weight in zip(
            sidecar.lexicon[terminal], sidecar.lexicon_weights[terminal], strict=True
        ):
            found[word] = found.get(word, 0.0) + weight
        total = sum(found.values())
        return {word: weight / total for word, weight in found.items()}

    def word(self, category: str) -> str:
        """A word of an IRTG preterminal: a slog.lark terminal's (its sidecar weights) or one
        of ``lexicon.irtg``'s fixed words."""
        if category in self.rules.fixed:
            cumulative, words = self.rules.fixed[category]
            return words[_pick(self.rng, cumulative)]
        return self.language.sampler.word(self.rng, self.rules.words[category]["terminal"])

    def _new_word(self, category: str, seen: set[str], part: Draw) -> str:
        """A word of ``category``; a noun (or, where the part says so, a verb) already in the
        sentence rejects the draw at once (Alto skips such sentences; checking early keeps
        deep cases affordable)."""
        word = self.word(category)
        if word in self._nouns():
            if word in seen:
                raise Rejected("repeated_nouns")
            seen.add(word)
        elif part.distinct_verbs and is_verb(category):
            if word in seen:
                raise Rejected("repeated_verbs")
            seen.add(word)
        return word


def is_verb(category: str) -> bool:
    """Whether an IRTG preterminal is a verb's (``lexicon.irtg`` names them ``V_...``, as it
    names nouns ``N_...``)."""
    return category.startswith("V_")


def sentence(words: list[str], ending: str = ".") -> str:
    """The sentence Alto's output holds for a derivation's words: the first determiner
    capitalised, then the ending (``?`` after a question, nothing after SLOG's standalone
    noun phrases).

    >>> sentence(["Who", "did", "the", "girl", "see"], "?"), sentence(["a", "cat", "slept"])
    ('Who did the girl see ?', 'A cat slept .')
    """
    if ending == "?":
        words = _wh_first(words)
    first = words[0].capitalize() if words[0] in ("a", "the") else words[0]
    return " ".join([first, *words[1:], *([ending] if ending else [])])


def _wh_first(words: list[str]) -> list[str]:
    """SLOG's post-processing (``alto_output_to_two_lfs.py``, ``move_wh_words``): a question
    whose wh-word is not first (long movement: the grammar writes it in its gap) gets its
    first ``Who``, else its first ``What``, moved to the front.

    >>> _wh_first(["did", "Emma", "say", "that", "Liam", "ate", "What"])
    ['What', 'did', 'Emma', 'say', 'that', 'Liam', 'ate']
    """
    if words[0] in ("Who", "What"):
        return words
    for wh in ("Who", "What"):
        if wh in words:
            index = words.index(wh)
            return [wh, *words[:index], *words[index + 1 :]]
    return words


# Lark-side depth of each kind: the aliases that open one more level
_KIND_OF: dict[str, Callable[[str], bool]] = {
    "pp": lambda alias: alias in ("pp_on", "pp_in", "pp_beside"),
    "cp": lambda alias: (
        alias.startswith("clausal_complement") or alias in ("wh_long", "wh_clause_complement")
    ),
    "cemb": lambda alias: alias.startswith("rc_"),
}


def kind_depth(tree: Tree[Any], kind: str) -> int:
    """The most nodes of a depth kind on one root-to-leaf path of a slog.lark tree (the
    measure Alto's windows bound: PP, CP or relative-clause nesting)."""
    own = 1 if _KIND_OF[kind](str(tree.data)) else 0
    inner = [kind_depth(child, kind) for child in tree.children if isinstance(child, Tree)]
    return own + max(inner, default=0)


# every part of SLOG's data: its table and windows (SLOG's category names)
DRAWS: dict[str, Draw] = {
    "in_distribution": draw("main", distinct_verbs=False),
    "object_modifying_RC": draw("object_rc"),
    "wh_Q_simple_trans": draw("wh_simple", "?"),
    "pp_4": draw("pp_recursion", pp=(4, 4)),
    "cp_4": draw("cp_recursion", cp=(4, 4)),
    "center_embed_2": draw("center_embedding", cemb=(2, 2)),
    "center_embed_4": draw("center_embedding", cemb=(4, 4)),
    "standalone_NP_PP": draw("standalone_pp", "", pp=(1, 1)),
    "standalone_NP_RC": draw("standalone_rc", ""),
    "CP_3": draw("cp_recursion", cp=(3, 3)),
    "CP_5-12": draw("cp_recursion", cp=(5, 12)),
    "PP_3": draw("pp_recursion", pp=(3, 3)),
    "PP_5-12": draw("pp_recursion", pp=(5, 12)),
    "PP_modif_iobj": draw("pp_modif_iobj"),
    "PP_modif_subj": draw("pp_modif_subj"),
    "Q_dobj_ditransV": draw("q_dobj_ditransitive", "?"),
    "Q_iobj_ditransV": draw("q_iobj_ditransitive", "?"),
    "Q_long_mv": draw("q_long_movement", "?"),
    "Q_modified_NPs": draw("q_modified_nps", "?"),
    "Q_subj_active": draw("q_subj_active", "?"),
    "Q_subj_passive": draw("q_subj_passive", "?"),
    "RC_iobj_extracted": draw("rc_iobj_extracted"),
    "RC_modif_iobj": draw("rc_modif_iobj"),
    "RC_modif_subj": draw("rc_modif_subj"),
    "center_embed_3": draw("center_embedding", cemb=(3, 3)),
    "center_embed_5-12": draw("center_embedding", cemb=(5, 12)),
}
