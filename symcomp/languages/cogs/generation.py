"""Drawing COGS sentences as COGS's generator did: the main table or a case's weight table,
Alto's rejections (a noun twice, PP or CP depth outside the window) counted by reason, no
sentence twice in the whole dataset, and targets forced into their slots.

One :class:`Drawer` holds one random stream and the set of sentences already used, so every
part drawn through it is new with respect to all parts before it; the order of the parts is
fixed, which makes the suite the same bytes for a seed.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from lark import Tree

from symcomp.core.language import Language
from symcomp.core.sampler import Rejected, Table
from symcomp.errors import GenerationError
from symcomp.languages.cogs.cases import Case, Slot, force

MAX_DRAWS_PER_SENTENCE = 2_000  # a part that needs more is impossible, not unlucky


@dataclass
class Sentence:
    """An accepted sentence: its tree (the parse of ``text``) and text."""

    tree: Tree[Any]
    text: str


def text_of(tree: Tree[Any]) -> str:
    """The sentence of a COGS tree (every token is kept), first word capitalised."""
    words = list(_leaves(tree))
    if words and words[0] in ("a", "the"):
        words[0] = words[0].capitalize()
    return " ".join(words)


def _leaves(tree: Tree[Any]) -> Iterator[str]:
    for child in tree.children:
        if isinstance(child, Tree):
            yield from _leaves(child)
        else:
            yield str(child)


class Drawer:
    """Draws accepted sentences from one seeded stream; ``used`` holds every sentence taken."""

    max_draws_per_sentence = MAX_DRAWS_PER_SENTENCE

    def __init__(self, language: Language, seed: int) -> None:
        self.language = language
        self.rng = random.Random(f"symcomp-cogs:{seed}")
        self.used: set[str] = set()
        self.rejected: Counter[str] = Counter()
        self.draws = 0
        self._tables: dict[str, tuple[dict[str, Table], dict[str, tuple[int, int | None]]]] = {}

    def table(self, name: str) -> tuple[dict[str, Table], dict[str, tuple[int, int | None]]]:
        """Choice tables and depth windows of the main table or a named weight table."""
        if name not in self._tables:
            sampler = self.language.sampler
            if name == "main":
                self._tables[name] = (dict(sampler.tables), dict(sampler.windows))
            else:
                spec = self.language.grammar.sidecar.table(name)
                weights = {**self.language.grammar.sidecar.weights, **spec.weights}
                windows = {**sampler.windows, **spec.depths}
                self._tables[name] = (sampler.weighted_tables(weights), windows)
        return self._tables[name]

    def tree(self, table: str, require: frozenset[str] | None = None) -> Tree[Any] | None:
        """One derivation tree under a table (given a node of ``require`` when given), or None
        (the rejection counted)."""
        tables, windows = self.table(table)
        self.draws += 1
        try:
            derivation = self.language.sampler.sample(
                self.rng, tables=tables, windows=windows, require=require
            )
        except Rejected as rejection:
            self.rejected[rejection.reason] += 1
            return None
        return derivation.tree

    def take(
        self,
        n: int,
        table: str = "main",
        *,
        case: Case | None = None,
        accept: Callable[[Tree[Any]], bool] | None = None,
        quota: tuple[Callable[[Tree[Any]], Hashable], int] | None = None,
        what: str = "sentences",
    ) -> list[Sentence]:
        """``n`` new sentences under ``table``, the target of ``case`` forced in when given,
        each passing ``accept`` when given; ``quota = (key, k)`` takes at most ``k``
        sentences per ``key(tree)`` (100 per recursion depth)."""
        found: list[Sentence] = []
        filled: Counter[Hashable] = Counter()
        budget = self.max_draws_per_sentence * n + 10_000
        start = self.draws
        while len(found) < n:
            if self.draws - start > budget:
                raise GenerationError(
                    f"could draw only {len(found):,} of {n:,} {what} in {budget:,} draws "
                    f"(rejected: {dict(self.rejected)}); the table cannot produce them."
                )
            tree = self.tree(table, case.require if case is not None else None)
            if tree is not None and case is not None:
                tree = self.forced(tree, case)
            if tree is None:
                continue
            if accept is not None and not accept(tree):
                continue
            key = quota[0](tree) if quota is not None else None
            if quota is not None and filled[key] >= quota[1]:
                self.rejected["quota_full"] += 1
                continue
            text = text_of(tree)
            if text in self.used:
                self.rejected["duplicate_sentence"] += 1
                continue
            self.used.add(text)
            filled[key] += 1
            found.append(Sentence(tree, text))
        return found

    def forced(self, tree: Tree[Any], case: Case) -> Tree[Any] | None:
        """The tree with the case's target in its slot, or None (the rejection counted)."""
        try:
            forced = force(tree, case, self.fresh_np)
        except Rejected as rejection:
            self.rejected[rejection.reason] += 1
            return None
        if forced is None:
            self.rejected["no_slot_for_target"] += 1
            return None
        nouns = [w for w in _leaves(forced) if w in self._nouns()]
        if len(nouns) != len(set(nouns)):
            self.rejected["repeated_nouns"] += 1
            return None
        return forced

    def _nouns(self) -> frozenset[str]:
        if not hasattr(self, "_noun_words"):
            lexicon = self.language.grammar.sidecar.lexicon
            self._noun_words = frozenset(w for t in self._noun_terminals() for w in lexicon[t])
        return self._noun_words

    def _noun_terminals(self) -> frozenset[str]:
        """The terminals whose words may not repeat in a sentence (the sidecar's ``distinct``)."""
        sidecar = self.language.grammar.sidecar
        return frozenset(t for group in sidecar.distinct.values() for t in group)

    def fresh_np(self, slot: Slot, target: str) -> Tree[Any]:
        """A noun phrase of ``target`` for a slot, drawn as the grammar draws that slot's
        common (or proper) noun phrases: determiner and PP by the main table's weights."""
        proper = target[:1].isupper()
        prefix = "animate" if slot.np == "object" else "theme"
        if proper:
            inner = Tree("animate_proper" if slot.np == "object" else "theme_proper", [target])
        else:
            inner = self._common_np(prefix, target)
        return Tree("object_animate_np", [inner]) if slot.np == "object" else inner

    def _common_np(self, prefix: str, target: str) -> Tree[Any]:
        sampler = self.language.sampler
        weights = self.language.grammar.sidecar.weights
        base = "animate_common" if prefix == "animate" else "theme_common"
        with_pp = weights[f"{base}_pp"] / (weights[base] + weights[f"{base}_pp"])
        determiner = sampler.word(self.rng, "DET")
        alias = base if prefix == "animate" else "theme_animate"
        if self.rng.random() >= with_pp:
            return Tree(alias, [determiner, target])
        pp = sampler.sample(self.rng, start="pp", windows=sampler.windows).tree
        return Tree(f"{alias}_pp", [determiner, target, pp])

    def describe(self) -> dict[str, Any]:
        """Draw counts for the manifest."""
        return {
            "draws": self.draws,
            "accepted": len(self.used),
            "rejected": dict(sorted(self.rejected.items())),
        }


def depth(tree: Tree[Any], aliases: Iterable[str]) -> int:
    """The most nodes labelled with one of ``aliases`` on a root-to-leaf path (Alto's
    embedding depth; the sidecar's ``[depths]`` count the same way)."""
    wanted = set(aliases)
    own = 1 if tree.data in wanted else 0
    inner = [depth(child, wanted) for child in tree.children if isinstance(child, Tree)]
    return own + max(inner, default=0)


def with_word(tree: Tree[Any], old: str, new: str) -> Tree[Any]:
    """A copy of ``tree`` with every leaf ``old`` replaced by ``new`` (swapping one target for
    another of the same class)."""
    children = [
        with_word(child, old, new) if isinstance(child, Tree) else (new if child == old else child)
        for child in tree.children
    ]
    return Tree(tree.data, children)


def depth_key(aliases: Iterable[str]) -> Callable[[Tree[Any]], int]:
    """``depth`` of a tree for fixed aliases (a quota key)."""
    wanted = tuple(aliases)
    return lambda tree: depth(tree, wanted)
