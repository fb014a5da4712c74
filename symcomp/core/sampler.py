"""Seeded top-down sampling (and enumeration) over a grammar's compiled Lark rules.

The sampler walks the rules Lark compiled, choosing each expansion by the sidecar weights, and
builds the very tree Lark's parser would build for the text it writes: anonymous tokens are
dropped, ``_rules`` are spliced into their parent, ``?rules`` with one child collapse, aliases
label nodes. That identity is what lets one semantics class serve sampled and parsed inputs; the
property tests check it for every registered language.

Randomness comes only from ``random.Random.random()``, whose stream Python guarantees across
versions for a given seed, so the same seed writes the same bytes everywhere.

>>> from symcomp.core.grammar import Grammar
>>> g = Grammar.from_text(
...     'start: "go" WORD+\\nWORD: /[a-z]+/\\n%ignore " "\\n',
...     {"language": {"version": "1"}, "lexicon": {"WORD": ["up", "down"]},
...      "repeat": {"start": {"min": 2, "max": 2}}},
...     name="toy",
... )
>>> derivation = Sampler(g).sample(random.Random(1))
>>> derivation.tokens, derivation.tree
(['go', 'down', 'up'], Tree('start', ['down', 'up']))
"""

from __future__ import annotations

import bisect
import itertools
import random
from collections.abc import Callable, Hashable, Iterator, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import Any

from lark import Tree
from lark.grammar import Rule

from symcomp.core import conditioned
from symcomp.core.grammar import Grammar, aux_repeat
from symcomp.core.plan import LITERAL as LITERAL
from symcomp.core.plan import NONTERMINAL as NONTERMINAL
from symcomp.core.plan import REPEAT as REPEAT
from symcomp.core.plan import SLOT as SLOT
from symcomp.core.plan import WORD as WORD
from symcomp.core.plan import Plan as Plan
from symcomp.core.plan import Table as Table
from symcomp.core.sidecar import RepeatSpec
from symcomp.errors import GenerationError, GrammarError

DEFAULT_REPEAT = RepeatSpec("geometric", 1, None, 0.5)  # what uniform choice over x+ gives
MAX_RAW_DEPTH = 400  # rule expansions on one path; keeps recursion far from Python's limit
MAX_REDRAWS = 10_000  # attempts to draw new content for a `tokens_of` node


class Rejected(Exception):  # noqa: N818 (control flow: the draw is retried, not an error)
    """A draw exceeded a limit; the caller counts it and draws again."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class WordSlot:
    """A lexicon terminal with weighted words or words that must differ within one example
    (plain uniform terminals stay ``SLOT``: their random stream is unchanged)."""

    terminal: str
    words: tuple[str, ...]
    cumulative: tuple[float, ...]  # empty: uniform
    total: float
    groups: tuple[str, ...]  # [constraints.distinct] groups the words belong to

    def draw(self, random: Callable[[], float]) -> str:
        if not self.cumulative:
            return self.words[int(random() * len(self.words))]
        index = bisect.bisect_right(self.cumulative, random() * self.total)
        return self.words[min(index, len(self.words) - 1)]


@dataclass
class Derivation:
    """What one draw produced: the tree, the input tokens, and its new-content keys."""

    tree: Tree[Any]
    tokens: list[str]
    unique_keys: set[Hashable] = field(default_factory=set)


class Sampler:
    """Draw derivations of a grammar at random, or enumerate all of a finite one.

    Parameters
    ----------
    grammar : Grammar
        A validated grammar; weights, repetitions and lexicons come from its sidecar.
    """

    def __init__(self, grammar: Grammar) -> None:
        self.grammar = grammar
        self.start = grammar.sidecar.start
        self.windows: dict[str, tuple[int, int | None]] = {
            kind: (spec.minimum, spec.maximum) for kind, spec in grammar.sidecar.depths.items()
        }
        self._slots = self._word_slots()
        # depth counts and distinct-word sets cost every node drawn: only grammars that declare
        # recursion kinds or distinct groups keep them
        self._counted = bool(self.windows) or any(slot.groups for slot in self._slots.values())
        self._plans = self._compile_plans()
        self.repeat_items = {
            name: self._repeat_items(name) for name in self._plans if aux_repeat(name)
        }
        # `WORD+` repeats one lexicon slot: draw the words directly (the common case)
        self.repeat_words: dict[str, tuple[tuple[str, ...], bool]] = {}
        for name, items in self.repeat_items.items():
            if len(items) == 1 and len(items[0].symbols) == 1 and items[0].symbols[0][0] == SLOT:
                _kind, words, keep = items[0].symbols[0]
                self.repeat_words[name] = (words, keep)
        self.tables = self.weighted_tables(grammar.sidecar.weights)
        # absence probabilities per (choice tables, required aliases); the tables are kept so
        # their id stays theirs
        self._absence: dict[tuple[int, frozenset[str]], tuple[Any, dict[str, float]]] = {}

    @property
    def plans(self) -> Mapping[str, list[Plan]]:
        """The compiled expansions of every nonterminal (read-only view)."""
        return self._plans

    # -- compilation -----------------------------------------------------------------------

    def _word_slots(self) -> dict[str, WordSlot]:
        sidecar = self.grammar.sidecar
        groups: dict[str, list[str]] = {}
        for group, terminals in sidecar.distinct.items():
            for terminal in terminals:
                groups.setdefault(terminal, []).append(group)
        slots = {}
        for terminal in set(sidecar.lexicon_weights) | set(groups):
            weights = sidecar.lexicon_weights.get(terminal, ())
            cumulative = tuple(itertools.accumulate(weights)) if weights else ()
            slots[terminal] = WordSlot(
                terminal,
                sidecar.lexicon[terminal],
                cumulative,
                cumulative[-1] if cumulative else 0.0,
                tuple(groups.get(terminal, ())),
            )
        return slots

    def _compile_plans(self) -> dict[str, list[Plan]]:
        plans: dict[str, list[Plan]] = {}
        unique = set(self.grammar.sidecar.unique_tokens_of)
        depths = self.grammar.sidecar.depths
        for rule in self.grammar.rules:
            origin = str(rule.origin.name)
            group = rule.alias or origin
            label = None if origin.startswith("_") else group
            plan = Plan(
                label=label,
                expand1=bool(rule.options.expand1) and not rule.alias,
                symbols=tuple(self._symbol(rule, symbol, group) for symbol in rule.expansion),
                group=group,
                unique=group in unique or origin in unique,
                kinds=tuple(kind for kind, spec in depths.items() if group in spec.aliases),
            )
            plans.setdefault(origin, []).append(plan)
        return plans

    def _symbol(self, rule: Rule, symbol: Any, group: str) -> tuple[int, Any, bool]:
        keep = bool(rule.options.keep_all_tokens) or not (symbol.is_term and symbol.filter_out)
        name = str(symbol.name)
        if symbol.is_term:
            literal = self.grammar.literal(name)
            if literal is not None:
                return (LITERAL, literal, keep)
            if name in self._slots:
                return (WORD, self._slots[name], keep)
            return (SLOT, self.grammar.sidecar.lexicon[name], keep)
        repeat = aux_repeat(name)
        if repeat is not None:
            spec = self._repeat_spec(group, str(rule.origin.name))
            return (REPEAT, (spec, name), keep)
        return (NONTERMINAL, name, keep)

    def _repeat_spec(self, group: str, origin: str) -> RepeatSpec:
        repeats = self.grammar.sidecar.repeat
        return repeats.get(group) or repeats.get(origin) or DEFAULT_REPEAT

    def weighted_tables(self, weights: Mapping[str, float]) -> dict[str, Table]:
        """Cumulative choice tables per nonterminal for the given alias weights.

        A rule without weights chooses its alternatives uniformly; the compiled expansions of
        one alternative (Lark expands ``(a|b)``, ``x?`` and ``x~2..3`` into several) share
        that alternative's weight equally.
        """
        tables = {}
        for origin, plans in self._plans.items():
            groups: dict[str, list[Plan]] = {}
            for plan in plans:
                groups.setdefault(plan.group, []).append(plan)
            weighted = any(group in weights for group in groups)
            cumulative, chosen, total = [], [], 0.0
            for group, members in groups.items():
                weight = weights.get(group, 0.0) if weighted else 1.0
                for plan in members:
                    if weight > 0:
                        total += weight / len(members)
                        cumulative.append(total)
                        chosen.append(plan)
            tables[origin] = (cumulative, chosen, total)
        return tables

    def _repeat_items(self, aux: str) -> list[Plan]:
        """Expansions of one repeated item of Lark's ``x+`` helper rule (the non-recursive ones)."""
        return [plan for plan in self._plans[aux] if not self._is_recursive(plan, aux)]

    @staticmethod
    def _is_recursive(plan: Plan, aux: str) -> bool:
        """Lark writes `x+` as `aux: x | aux x`; the second expansion starts with `aux`."""
        if not plan.symbols:
            return False
        kind, payload, _keep = plan.symbols[0]
        return kind == REPEAT and payload[1] == aux

    # -- sampling --------------------------------------------------------------------------

    def sample(
        self,
        rng: random.Random,
        *,
        tables: Mapping[str, Table] | None = None,
        used: AbstractSet[Hashable] = frozenset(),
        max_length: int | None = None,
        windows: Mapping[str, tuple[int, int | None]] | None = None,
        require: frozenset[str] | None = None,
        start: str | None = None,
    ) -> Derivation:
        """Draw one derivation (of ``start``, default the grammar's start rule).

        Parameters
        ----------
        rng : random.Random
            The source of randomness (only ``rng.random()`` is called).
        tables : mapping, optional
            Choice tables from :meth:`weighted_tables`; default: the sidecar weights.
        used : set
            Content keys already in the pool; ``tokens_of`` nodes are redrawn until new.
        max_length : int, optional
            Abort (raise :class:`Rejected`) as soon as the input has more tokens.
        windows : mapping, optional
            Depth window ``(min, max)`` per recursion kind; default: the sidecar's
            ``[depths]``.
        require : frozenset of str, optional
            Draw given that the derivation holds at least one node of these aliases
            (:mod:`symcomp.core.conditioned`): exact, and without wasted draws.

        Raises
        ------
        Rejected
            When the input exceeds ``max_length``, the derivation nests too deeply, a recursion
            kind leaves its window, or a ``[constraints.distinct]`` word repeats.
        """
        tables = tables or self.tables
        if require or windows is not None or start is not None or self._counted:
            return self._sample_counted(rng, tables, used, max_length, windows, require, start)
        return _Draw(self, rng, tables, used, max_length).run(self.start)

    def _sample_counted(
        self,
        rng: random.Random,
        tables: Mapping[str, Table],
        used: AbstractSet[Hashable],
        max_length: int | None,
        windows: Mapping[str, tuple[int, int | None]] | None,
        require: frozenset[str] | None,
        start: str | None,
    ) -> Derivation:
        """A draw that counts recursion kinds and distinct words, from any rule, maybe given
        required aliases."""
        if start is not None and (start not in self._plans or start.startswith("_")):
            raise GrammarError(f"{self.grammar.source}: no rule {start!r} to draw from.")
        window = dict(windows) if windows is not None else self.windows
        if require:
            key = (id(tables), require)
            if key not in self._absence:
                self._absence[key] = (tables, conditioned.absence(tables, require))
            given = _ConditionedDraw(self, rng, tables, used, max_length, window)
            given.require_nodes(require, self._absence[key][1])
            draw: _CountedDraw = given
        else:
            draw = _CountedDraw(self, rng, tables, used, max_length, window)
        return draw.run(start if start is not None else self.start)

    def word(self, rng: random.Random, terminal: str) -> str:
        """One word of a lexicon terminal, by its weights (uniform when it has none)."""
        if terminal in self._slots:
            return self._slots[terminal].draw(rng.random)
        words = self.grammar.sidecar.lexicon[terminal]
        return words[int(rng.random() * len(words))]

    # -- enumeration -----------------------------------------------------------------------

    def is_finite(self) -> bool:
        """True when the language has finitely many sentences (no reachable recursion)."""
        return self._recursion() is None

    def _recursion(self) -> list[str] | None:
        # a repetition answers without a graph (and without importing networkx: generating a
        # pool asks, and the import costs as much as generating 1,100 PCFG SET examples)
        for origin, plans in self._plans.items():
            for plan in plans:
                for kind, payload, _keep in plan.symbols:
                    if kind == REPEAT:
                        return [origin, payload[1]]
        return self._cycle()

    def _cycle(self) -> list[str] | None:
        """The rules of a cycle reachable from the start rule, or None."""
        import networkx as nx

        graph = nx.DiGraph()
        for origin, plans in self._plans.items():
            graph.add_node(origin)
            for plan in plans:
                for kind, payload, _keep in plan.symbols:
                    if kind == NONTERMINAL:
                        graph.add_edge(origin, payload)
        reachable = graph.subgraph(nx.descendants(graph, self.start) | {self.start})
        try:
            return [edge[0] for edge in nx.find_cycle(reachable)]
        except nx.NetworkXNoCycle:
            return None

    def count(self) -> int:
        """The number of derivations of a finite language (its size, if unambiguous).

        Raises
        ------
        GrammarError
            When the language is infinite.
        """
        self._require_finite()
        memo: dict[str, int] = {}

        def derivations(origin: str) -> int:
            if origin not in memo:
                total = 0
                for plan in self._plans[origin]:
                    product = 1
                    for kind, payload, _keep in plan.symbols:
                        if kind == SLOT:
                            product *= len(payload)
                        elif kind == WORD:
                            product *= len(payload.words)
                        elif kind == NONTERMINAL:
                            product *= derivations(payload)
                    total += product
                memo[origin] = total
            return memo[origin]

        return derivations(self.start)

    def _require_finite(self) -> None:
        cycle = self._recursion()
        if cycle is not None:
            raise GrammarError(
                f"{self.grammar.name} is infinite (rule {cycle[0]!r} is recursive or repeats), "
                f"so it cannot be enumerated; sample a pool of `n` instead."
            )

    def enumerate(self) -> Iterator[Derivation]:
        """Yield every derivation of a finite language, in grammar order.

        Raises
        ------
        GrammarError
            When the language is infinite.
        """
        self._require_finite()
        memo: dict[str, list[tuple[list[Any], list[str]]]] = {}
        for kids, tokens in self._enumerate_nonterminal(self.start, memo):
            (tree,) = kids
            yield Derivation(tree, tokens)

    def _enumerate_nonterminal(
        self, origin: str, memo: dict[str, list[tuple[list[Any], list[str]]]]
    ) -> list[tuple[list[Any], list[str]]]:
        if origin not in memo:
            memo[origin] = [
                result
                for plan in self._plans[origin]
                for result in self._enumerate_plan(plan, memo)
            ]
        return memo[origin]

    def _enumerate_plan(
        self, plan: Plan, memo: dict[str, list[tuple[list[Any], list[str]]]]
    ) -> Iterator[tuple[list[Any], list[str]]]:
        options: list[list[tuple[list[Any], list[str]]]] = []
        for kind, payload, keep in plan.symbols:
            if kind == LITERAL:
                options.append([([payload] if keep else [], [payload])])
            elif kind in (SLOT, WORD):
                words = payload.words if kind == WORD else payload
                options.append([([word] if keep else [], [word]) for word in words])
            else:
                options.append(self._enumerate_nonterminal(payload, memo))
        for combination in itertools.product(*options):
            kids = [kid for part in combination for kid in part[0]]
            tokens = [token for part in combination for token in part[1]]
            yield _shape(plan, kids), tokens


def _shape(plan: Plan, kids: list[Any]) -> list[Any]:
    """Apply Lark's tree-building conventions: splice, collapse or label."""
    if plan.label is None or (plan.expand1 and len(kids) == 1):
        return kids
    return [Tree(plan.label, kids)]


class _Draw:
    """The state of one draw; methods are hot, so they bind what they use locally.

    This class draws grammars without recursion kinds or distinct words: it keeps no depth
    counts, which would cost every node drawn (:class:`_CountedDraw` keeps them).
    """

    def __init__(
        self,
        sampler: Sampler,
        rng: random.Random,
        tables: Mapping[str, Table],
        used: AbstractSet[Hashable],
        max_length: int | None,
    ) -> None:
        self.sampler = sampler
        self.random: Callable[[], float] = rng.random
        self.rng = rng
        self.tables = tables
        self.used = used
        self.max_length = max_length if max_length is not None else 1 << 62
        self.tokens: list[str] = []
        self.new_keys: set[Hashable] = set()

    def run(self, start: str) -> Derivation:
        kids = self.expand(start, 0)
        if len(kids) != 1 or not isinstance(kids[0], Tree):
            raise GrammarError(
                f"{self.sampler.grammar.source}: the start rule must produce one tree node; "
                f"do not inline it (`?start` with one child or `_start`)."
            )
        return Derivation(kids[0], self.tokens, self.new_keys)

    def choose(self, origin: str) -> Plan:
        cumulative, plans, total = self.tables[origin]
        if not plans:
            raise GrammarError(
                f"{self.sampler.grammar.source}: rule {origin!r} has no alternative with a "
                f"positive weight but must be expanded; check [weights]."
            )
        index = bisect.bisect_right(cumulative, self.random() * total)
        return plans[min(index, len(plans) - 1)]

    def expand(self, origin: str, depth: int) -> list[Any]:
        if depth > MAX_RAW_DEPTH:
            raise Rejected("depth")
        plan = self.choose(origin)
        if plan.unique:
            return self.build_new(origin, plan, depth)
        return self.build(plan, depth)

    def build(self, plan: Plan, depth: int) -> list[Any]:
        kids: list[Any] = []
        tokens = self.tokens
        # nonterminals first: the commonest symbol of every built-in grammar's draws
        for kind, payload, keep in plan.symbols:
            if kind == NONTERMINAL:
                kids.extend(self.expand(payload, depth + 1))
            elif kind == LITERAL:
                tokens.append(payload)
                if keep:
                    kids.append(payload)
            elif kind == SLOT:
                word = payload[int(self.random() * len(payload))]
                tokens.append(word)
                if keep:
                    kids.append(word)
            elif kind == REPEAT:
                self.repeat(payload, kids, depth)
            else:  # WORD, the rarest
                word = self.word(payload)
                tokens.append(word)
                if keep:
                    kids.append(word)
        if len(tokens) > self.max_length:
            raise Rejected("length")
        if plan.label is None or (plan.expand1 and len(kids) == 1):
            return kids
        return [Tree(plan.label, kids)]

    def word(self, slot: WordSlot) -> str:
        return slot.draw(self.random)

    def repeat(self, payload: tuple[RepeatSpec, str], kids: list[Any], depth: int) -> None:
        spec, aux = payload
        count = spec.draw(self.rng)
        if aux in self.sampler.repeat_words:
            words, keep = self.sampler.repeat_words[aux]
            drawn = [words[int(self.random() * len(words))] for _ in range(count)]
            self.tokens.extend(drawn)
            if keep:
                kids.extend(drawn)
            return
        items = self.sampler.repeat_items[aux]
        for _ in range(count):
            item = items[int(self.random() * len(items))] if len(items) > 1 else items[0]
            kids.extend(self.build(item, depth + 1))

    def build_new(self, origin: str, plan: Plan, depth: int) -> list[Any]:
        """Build a `tokens_of` node, redrawing its content until it is new in the pool."""
        start = len(self.tokens)
        for _ in range(MAX_REDRAWS):
            kids = self.build(plan, depth)
            key = (plan.group, tuple(self.tokens[start:]))
            if key not in self.used and key not in self.new_keys:
                self.new_keys.add(key)
                return kids
            del self.tokens[start:]
            plan = self.choose_within(origin, plan.group)
        raise GenerationError(
            f"could not draw a new {plan.group!r} in {MAX_REDRAWS} attempts: the lexicon is "
            f"nearly exhausted for this pool size; enlarge the lexicon or generate fewer examples."
        )

    def choose_within(self, origin: str, group: str) -> Plan:
        while True:
            plan = self.choose(origin)
            if plan.group == group:
                return plan


class _CountedDraw(_Draw):
    """A draw that keeps each recursion kind's depth within its window and the words of each
    ``[constraints.distinct]`` group apart."""

    def __init__(
        self,
        sampler: Sampler,
        rng: random.Random,
        tables: Mapping[str, Table],
        used: AbstractSet[Hashable],
        max_length: int | None,
        windows: Mapping[str, tuple[int, int | None]],
    ) -> None:
        super().__init__(sampler, rng, tables, used, max_length)
        self.windows = windows
        self.depth: dict[str, int] = {}  # recursion depth of each kind on the current path
        self.deepest: dict[str, int] = {}
        self.drawn: dict[str, set[str]] = {}  # words drawn per distinct group

    def run(self, start: str) -> Derivation:
        derivation = super().run(start)
        self.check_minimums()
        return derivation

    def check_minimums(self) -> None:
        for kind, (minimum, _maximum) in self.windows.items():
            if self.deepest.get(kind, 0) < minimum:
                raise Rejected(f"{kind}_depth_below_min")

    def expand(self, origin: str, depth: int) -> list[Any]:
        if depth > MAX_RAW_DEPTH:
            raise Rejected("depth")
        plan = self.choose(origin)
        if plan.kinds:
            return self.build_counted(origin, plan, depth)
        if plan.unique:
            return self.build_new(origin, plan, depth)
        return self.build(plan, depth)

    def build_counted(self, origin: str, plan: Plan, depth: int) -> list[Any]:
        """Build a node of a recursion kind, keeping that kind's depth within its window."""
        self.enter(plan.kinds)
        kids = self.build_new(origin, plan, depth) if plan.unique else self.build(plan, depth)
        self.leave(plan.kinds)
        return kids

    def enter(self, kinds: tuple[str, ...]) -> None:
        """One level deeper in each recursion kind, within that kind's window."""
        for kind in kinds:
            level = self.depth.get(kind, 0) + 1
            maximum = self.windows.get(kind, (0, None))[1]
            if maximum is not None and level > maximum:
                raise Rejected(f"{kind}_depth")
            self.depth[kind] = level
            self.deepest[kind] = max(self.deepest.get(kind, 0), level)

    def leave(self, kinds: tuple[str, ...]) -> None:
        for kind in kinds:
            self.depth[kind] -= 1

    def word(self, slot: WordSlot) -> str:
        word = slot.draw(self.random)
        for group in slot.groups:
            drawn = self.drawn.setdefault(group, set())
            if word in drawn:
                raise Rejected(f"repeated_{group}")
            drawn.add(word)
        return word


class _ConditionedDraw(_CountedDraw):
    """A draw given that some node of the required aliases occurs (see
    :mod:`symcomp.core.conditioned`); unconstrained subtrees are drawn as usual."""

    def require_nodes(self, require: frozenset[str], absence: dict[str, float]) -> None:
        self.require = require
        self.absence = absence

    def run(self, start: str) -> Derivation:
        kids = self.expand_in(start, 0, conditioned.SOME)
        self.check_minimums()
        return Derivation(kids[0], self.tokens, self.new_keys)

    def expand_in(self, origin: str, depth: int, mode: int) -> list[Any]:
        if mode == conditioned.ANY:
            return self.expand(origin, depth)
        if depth > MAX_RAW_DEPTH:
            raise Rejected("depth")
        plan = conditioned.choose(self, origin, mode, self.absence, self.require)
        modes = conditioned.child_modes(self, plan, mode, self.absence, self.require)
        self.enter(plan.kinds)
        kids = self.build_in(plan, depth, modes)
        self.leave(plan.kinds)
        return kids

    def build_in(self, plan: Plan, depth: int, modes: list[int]) -> list[Any]:
        if plan.unique:
            raise GrammarError(
                f"sampling that requires {sorted(self.require)} cannot redraw the [uniqueness] "
                f"content of {plan.group!r}."
            )
        kids: list[Any] = []
        pending = iter(modes)
        for kind, payload, keep in plan.symbols:
            if kind == NONTERMINAL:
                kids.extend(self.expand_in(payload, depth + 1, next(pending)))
                continue
            if kind == LITERAL:
                word = payload
            elif kind == SLOT:
                word = payload[int(self.random() * len(payload))]
            elif kind == WORD:
                word = self.word(payload)
            else:
                self.repeat(payload, kids, depth)
                continue
            self.tokens.append(word)
            if keep:
                kids.append(word)
        if len(self.tokens) > self.max_length:
            raise Rejected("length")
        if plan.label is None or (plan.expand1 and len(kids) == 1):
            return kids
        return [Tree(plan.label, kids)]
