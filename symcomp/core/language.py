"""A language: grammar + semantics + sampler, and the public authoring API.

Define a language from a ``.lark`` text (or file), sidecar data and a :class:`Semantics`
subclass, register it, and every symcomp tool (``sample``, ``parse``, ``interpret``,
``derivation_dag``, the CLI) works with it:

>>> from symcomp import Language, Semantics
>>> class Counting(Semantics):
...     def twice(self, c): return [c[0], c[0]]
...     def word(self, c): return str(c[0]).upper()
>>> lang = Language.from_grammar(
...     "counting",
...     'start: phrase\\nphrase: word "twice" -> twice\\n      | word -> once\\n'
...     'word: WORD\\nWORD: /[a-z]+/\\n%ignore " "\\n',
...     semantics=Counting,
...     lexicon={"WORD": ["jump", "walk"]},
... )
>>> lang.interpret("walk twice")
'WALK WALK'
>>> lang.sample(seed=3).input
'walk'
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from collections.abc import Set as AbstractSet
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from lark import Tree
from lark.exceptions import VisitError

from symcomp._util import Record, Seed, make_rng
from symcomp.core.abstraction import PatternAbstraction
from symcomp.core.constituents import Step, StepFinder
from symcomp.core.derivation import node_link_to_dag, tree_metrics, tree_to_node_link
from symcomp.core.example import Example
from symcomp.core.fresh_strings import FreshWords, Renamable, class_words, literals
from symcomp.core.fresh_strings import draw as draw_fresh
from symcomp.core.fresh_strings import renamed_grammar as _renamed_grammar
from symcomp.core.grammar import Grammar, read_text
from symcomp.core.sampler import (
    LITERAL,
    NONTERMINAL,
    SLOT,
    WORD,
    Derivation,
    Rejected,
    Sampler,
    Table,
)
from symcomp.core.semantics import Semantics
from symcomp.core.sidecar import Sidecar
from symcomp.core.suite_builder import SuiteBuilder, SuiteImporter
from symcomp.errors import DataError, GenerationError, SemanticsError, SymcompError

if TYPE_CHECKING:  # networkx is imported where a graph is made (a fifth of a second)
    import networkx as nx

MAX_SAMPLE_ATTEMPTS = 100_000


# The hooks below return what higher layers call. Their types are declared here, as protocols
# the higher layers implement, so that this layer never names a type from above; where a
# parameter's type lives above (a pool spec, a verify row), it is Any here and the implementing
# layer's own protocol states it (symcomp.data.generate.generate, symcomp.verify.Checker).


class PoolWriter(Protocol):
    """Writes a pool of ``language`` into ``out`` as ``spec`` (a
    :class:`symcomp.data.generate.PoolSpec`) says; returns the manifest. ``jobs`` is a number
    of worker processes or an executor (:data:`symcomp.data.parallel.Jobs`)."""

    def __call__(
        self,
        language: Language,
        out: Path,
        spec: Any,
        *,
        jobs: Any = 1,
        overwrite: bool = False,
        progress: Callable[[int], None] | None = None,
    ) -> dict[str, Any]: ...


class Checker(Protocol):
    """Checks rows of one language's data (:class:`symcomp.verify.Checker` states the types:
    a :class:`symcomp.verify.rows.Row` in, a :class:`symcomp.verify.Check` out)."""

    name: str  # shown in the report, e.g. "z3 prover (rlimit 10,000,000 units per pair)"
    columns: tuple[str, ...]  # column order of a TSV without header

    def check(self, row: Any, *, cross_check: bool = False) -> Any:
        """Check one row; never raises for a bad row (report it in the result)."""
        ...


class Language:
    """A language symcomp can sample, parse, interpret and split.

    Parameters
    ----------
    name : str
        Registry name (``pcfg-set``, ``scan``, ...).
    grammar : Grammar
        The validated grammar and sidecar.
    semantics : Semantics subclass or instance
        Methods named after the grammar's aliases (see :mod:`symcomp.core.semantics`).
    description : str, optional
        One line for ``symcomp languages``; default: the sidecar's description.
    """

    def __init__(
        self,
        name: str,
        grammar: Grammar,
        semantics: type[Semantics] | Semantics,
        description: str | None = None,
    ) -> None:
        self.name = name
        self.grammar = grammar
        self.semantics = semantics() if isinstance(semantics, type) else semantics
        self.description = description if description is not None else grammar.sidecar.description
        self.sampler = Sampler(grammar)
        functions = grammar.sidecar.functions
        self.functions = frozenset(functions) if functions is not None else None
        self.fresh_words: FreshWords | None = None  # set by with_fresh_words
        self._step_finder: StepFinder | None = None  # read from the grammar on first use
        self._check_semantics()

    # -- construction ----------------------------------------------------------------------

    @classmethod
    def from_grammar(
        cls,
        name: str,
        grammar: str | Path,
        *,
        semantics: type[Semantics] | Semantics,
        version: str = "0.1.0",
        description: str = "",
        start: str = "start",
        weights: Mapping[str, float] | None = None,
        lexicon: Mapping[str, Any] | None = None,
        repeat: Mapping[str, Mapping[str, Any]] | None = None,
        limits: Mapping[str, int] | None = None,
        functions: Iterable[str] | None = None,
        unique_tokens_of: Iterable[str] = (),
        naturalize_groups: Iterable[Iterable[str]] = (),
    ) -> Language:
        """Define a language in Python: grammar text (or a ``.lark`` path) plus keywords.

        The keywords mirror the sidecar sections (see :mod:`symcomp.core.sidecar`); a ``.lark``
        path with a ``.toml`` beside it and no keywords uses that sidecar instead.
        """
        if isinstance(grammar, Path):
            toml_path = grammar.with_suffix(".toml")
            if toml_path.is_file() and weights is None and lexicon is None:
                return cls(name, Grammar.from_files(grammar, name=name), semantics, description)
            text, source = read_text(grammar), str(grammar)
        else:
            text, source = grammar, f"<grammar of {name}>"
        data: dict[str, Any] = {
            "language": {"version": version, "description": description, "start": start},
            "weights": dict(weights or {}),
            "lexicon": dict(lexicon or {}),
            "repeat": {key: dict(value) for key, value in (repeat or {}).items()},
            "limits": dict(limits or {}),
            "uniqueness": {"tokens_of": list(unique_tokens_of)},
            "naturalize": {"groups": [list(group) for group in naturalize_groups]},
        }
        if functions is not None:
            data["metrics"] = {"functions": list(functions)}
        sidecar = Sidecar.from_mapping(data, f"<keywords of {name}>")
        return cls(name, Grammar(text, sidecar, name=name, source=source), semantics, description)

    def variant(self, name: str, **changes: Any) -> Language:
        """The same language under another name with some sidecar fields replaced.

        >>> import symcomp
        >>> small = symcomp.get_language("pcfg-let").variant(
        ...     "pcfg-let-3", lexicon={"ITEM": ("1", "2", "3")})
        >>> set(small.sample(seed=0).input.split()) <= set(small.functions) | {"1", "2", "3", ","}
        True
        """
        sidecar = dataclasses.replace(self.grammar.sidecar, **changes)
        grammar = Grammar(self.grammar.text, sidecar, name=name, source=self.grammar.source)
        return type(self)(name, grammar, self.semantics, self.description)

    def __reduce__(self) -> tuple[Any, ...]:
        # rebuilt from its parts in another process (the sampler and parser are compiled again)
        parts = (self.name, self.grammar, self.semantics, self.description)
        return (type(self), parts, {"fresh_words": self.fresh_words})

    # -- identity --------------------------------------------------------------------------

    @property
    def version(self) -> str:
        return self.grammar.version

    def __repr__(self) -> str:
        return f"<Language {self.name} {self.version}>"

    # -- parse and interpret ---------------------------------------------------------------

    def parse(self, text: str) -> Tree[Any]:
        """Parse an input into its derivation tree (errors show the place with a caret)."""
        return self.grammar.parse(text)

    def evaluate(self, tree: Tree[Any]) -> Any:
        """The meaning of a derivation tree (not yet rendered to text)."""
        try:
            return self.semantics.transform(tree)
        except VisitError as error:
            if isinstance(error.orig_exc, SymcompError):
                raise error.orig_exc from None
            raise SemanticsError(
                f"{type(self.semantics).__name__} failed at node {error.rule!r} while "
                f"interpreting a {self.name} tree: {error.orig_exc!r}"
            ) from None

    def meaning(self, text: str) -> Any:
        """The meaning of an input text."""
        return self.evaluate(self.parse(text))

    def render(self, meaning: Any) -> str:
        """The output text of a meaning."""
        return self.semantics.render(meaning)

    def interpret(self, text: str) -> str:
        """The output text of an input text, e.g. ``interpret("copy A1 B1") == "A1 B1"``."""
        return self.render(self.meaning(text))

    def derivation_dag(self, source: str | Tree[Any]) -> nx.DiGraph:
        """The rule-application DAG of an input text or tree (:mod:`symcomp.core.derivation`)."""
        tree = self.parse(source) if isinstance(source, str) else source
        return node_link_to_dag(self.node_link(tree))

    def measure(self, tree: Tree[Any], length: int) -> dict[str, int]:
        """Metadata of a derivation: input length, depth, number of functions."""
        depth, functions = tree_metrics(tree, self.functions)
        return {"length": length, "depth": depth, "functions": functions}

    def example(self, text: str) -> Example:
        """The example of an input text (parsed, interpreted, measured)."""
        tree = self.parse(text)
        return self.example_from_tree(tree, text)

    def example_from_tree(
        self, tree: Tree[Any], text: str, meta: Mapping[str, int] | None = None
    ) -> Example:
        """The example of a derivation whose input text (and maybe measures) are known."""
        output = self.render(self.evaluate(tree))
        measures = dict(meta) if meta is not None else self.measure(tree, len(text.split()))
        measures["output_length"] = len(output.split())
        return Example.create(self.name, self.version, text, output, measures, tree)

    def record(self, example: Example, *, with_dag: bool = False) -> Record:
        """The ``examples.jsonl`` line of an example; ``with_dag`` adds its ``derivation``
        (:meth:`node_link` of its tree)."""
        record = example.to_json()
        if with_dag and example.tree is not None:
            record["derivation"] = self.node_link(example.tree)
        return record

    # -- sampling --------------------------------------------------------------------------

    def sample(
        self,
        seed: Seed = None,
        *,
        max_depth: int | None = None,
        max_length: int | None = None,
    ) -> Example:
        """Draw one example; draws beyond the limits (default: the sidecar's) are redrawn."""
        rng = make_rng(seed)
        limits = self.limits(max_depth=max_depth, max_length=max_length)
        for _ in range(MAX_SAMPLE_ATTEMPTS):
            try:
                derivation = self.draw(rng, limits=limits)
            except Rejected:
                continue
            return self.example_from_tree(derivation.tree, " ".join(derivation.tokens))
        raise GenerationError(
            f"no {self.name} example within the limits {limits} after {MAX_SAMPLE_ATTEMPTS} "
            f"draws; relax max_depth / max_length."
        )

    def limits(
        self, *, max_depth: int | None = None, max_length: int | None = None
    ) -> dict[str, int | None]:
        """The effective limits: explicit values override the sidecar's."""
        sidecar = self.grammar.sidecar
        return {
            "max_depth": max_depth if max_depth is not None else sidecar.max_depth,
            "max_length": max_length if max_length is not None else sidecar.max_length,
        }

    def draw(
        self,
        rng: random.Random,
        *,
        limits: Mapping[str, int | None],
        tables: Mapping[str, Table] | None = None,
        used: AbstractSet[Hashable] = frozenset(),
    ) -> Derivation:
        """One draw within the depth and length limits (raises :class:`Rejected`)."""
        derivation = self.derive(rng, tables=tables, used=used, max_length=limits.get("max_length"))
        max_depth = limits.get("max_depth")
        if max_depth is not None and tree_metrics(derivation.tree, self.functions)[0] > max_depth:
            raise Rejected("depth")
        return derivation

    def derive(
        self,
        rng: random.Random,
        *,
        tables: Mapping[str, Table] | None = None,
        used: AbstractSet[Hashable] = frozenset(),
        max_length: int | None = None,
    ) -> Derivation:
        """The generative step: one derivation, by default drawn top-down from the grammar.

        Override for languages generated another way (CobA draws a value and decomposes it);
        the result must be the tree the grammar's parser builds for its tokens. Raise
        :class:`Rejected` for a draw over ``max_length``.
        """
        return self.sampler.sample(rng, tables=tables, used=used, max_length=max_length)

    def uniqueness_keys(self, tree: Tree[Any], text: str) -> Iterable[Hashable]:
        """Keys that must be new in a pool for an example to join it (beyond its input).

        Override to express a language's uniqueness rule (PCFG-LET: a function is never applied
        twice to the same literal list). The input text itself is always unique in a pool.
        """
        return ()

    def random_weights(self, rng: random.Random) -> dict[str, float]:
        """Per-example random alternative probabilities, for naturalised sampling.

        Every rule with several alternatives gets probabilities drawn uniformly from the
        simplex over its *units*: the sidecar's ``[naturalize] groups`` (members share their
        unit's probability equally) and every other alternative on its own. For two units this
        is ``p ~ U(0, 1)``, which is what the PCFG SET generator's ``--random_probs`` does for
        P(unary) and P(function argument). Alternatives with weight 0 stay at 0.
        """
        weights: dict[str, float] = {}
        for units in self._weight_units().values():
            draws = [-math.log(1.0 - rng.random()) for _ in units]
            total = sum(draws)
            for unit, draw in zip(units, draws, strict=True):
                for alias in unit:
                    weights[alias] = draw / total / len(unit)
        return weights

    def _weight_units(self) -> dict[str, list[tuple[str, ...]]]:
        sidecar = self.grammar.sidecar
        grouped = {alias: group for group in sidecar.naturalize_groups for alias in group}
        units: dict[str, list[tuple[str, ...]]] = {}
        for info in self.grammar.aliases.values():
            if sidecar.weights.get(info.alias, 1.0) == 0:
                continue
            unit = grouped.get(info.alias, (info.alias,))
            rule_units = units.setdefault(info.rule, [])
            if unit not in rule_units:
                rule_units.append(unit)
        return {rule: rule_units for rule, rule_units in units.items() if len(rule_units) > 1}

    # -- hooks: what generic code asks a language (override to change) --------------------

    def node_link(self, tree: Tree[Any]) -> Record:
        """The rule-application DAG of a derivation, in node-link form.

        Every DAG symcomp builds goes through here: ``--with-dag`` derivations, DBCA atoms and
        compounds of parsed inputs, :meth:`derivation_dag`. The default is the derivation tree
        (:func:`symcomp.core.derivation.tree_to_node_link`); a language whose meaning adds rule
        applications (cfq's knowledge and resolution rules) returns a larger DAG in the same
        schema.
        """
        return tree_to_node_link(tree)

    def pattern_abstraction(self) -> PatternAbstraction | None:
        """The word classes of the language's input and output patterns (Keysers et al. 2020,
        §4), or None: splits then use the generic filler patterns of
        :mod:`symcomp.dbca.patterns`. SCAN merges its primitives, directions, ``around`` and
        ``opposite``, ``twice`` and ``thrice``."""
        return None

    def pool_writer(self) -> PoolWriter | None:
        """How ``symcomp generate`` writes a pool of this language; None: the generic writer
        (:func:`symcomp.data.generate.generate`). A language whose pools are drawn another way
        (cfq subsamples by complexity) or whose records have another shape (NLI pairs) returns
        its own function with the same signature."""
        return None

    def make_checker(self, options: Any) -> Checker | None:
        """How ``symcomp verify`` checks a row of this language, with ``options`` (a
        :class:`symcomp.verify.VerifyOptions`); None: recompute the output
        (``output == interpret(input)``). NLI languages prove labels, numeric ones compare
        values. The checker must be a pure function of the row and ``options``."""
        return None

    def suite_builder(self) -> SuiteBuilder | None:
        """The language's test suite (``symcomp suite NAME``), or None when it has none."""
        return None

    def suite_importer(self) -> SuiteImporter | None:
        """The importer of the language's published data (``symcomp suite import NAME``):
        its suite builder's, or None. A language may have one without a suite of its own."""
        builder = self.suite_builder()
        return None if builder is None else builder.importer

    def output_formats(self) -> tuple[str, ...]:
        """The output formats :meth:`with_output` offers, the default first; () when the
        language writes one format only."""
        return ()

    def with_output(self, output: str) -> Language:
        """The language writing its outputs in ``output`` (one of :meth:`output_formats`).

        >>> import symcomp
        >>> symcomp.get_language("scan").with_output("cogs")
        Traceback (most recent call last):
        ...
        symcomp.errors.DataError: scan has no output format 'cogs'; it writes one format only.
        """
        formats = self.output_formats()
        if formats and output == formats[0]:
            return self
        if output not in formats:
            offered = f"formats: {', '.join(formats)}" if formats else "it writes one format only"
            raise DataError(f"{self.name} has no output format {output!r}; {offered}.")
        raise NotImplementedError(f"{type(self).__name__} lists {output!r} but cannot write it")

    def has_steps(self) -> bool:
        """True when :meth:`steps` writes worked steps: by default, when a constituent of an
        input can itself be an input (:attr:`StepFinder.has_steps`). A language that
        overrides :meth:`steps` says here whether it has them."""
        return self._steps().has_steps

    def steps(self, text: str) -> list[Step]:
        """The worked steps of an input: the constituents of its parse that are inputs
        themselves, innermost first, each with its meaning as an input in the output format,
        the last being ``text`` and its output (:mod:`symcomp.core.constituents`; callers
        ask :func:`symcomp.core.steps.steps_of`, which refuses a language without steps).

        The default is derived from the grammar and the semantics and needs a semantics that
        composes bottom-up; override where a language defines its sub-problems otherwise.

        >>> import symcomp
        >>> [(s.input, s.output) for s in symcomp.get_language("arithmetic").steps("× 2 + 14 3")]
        [('+ 14 3', '17'), ('× 2 + 14 3', '34')]
        """
        return self._steps().steps(text)

    def _steps(self) -> StepFinder:
        if self._step_finder is None:
            plans = self.sampler.plans
            finder = StepFinder(self.grammar, plans, self.semantics, self.evaluate, self.render)
            self._step_finder = finder
        return self._step_finder

    def renamable(self) -> Renamable | None:
        """The word classes fresh words may replace (:mod:`symcomp.core.fresh_strings`), or None
        when the language lets none be renamed."""
        return None

    def renamed_semantics(self, fresh: FreshWords) -> Semantics:
        """The semantics of the renamed language: by default the same (a semantics that reads
        its words from the tree names the fresh ones); override where a meaning names a word
        by itself (SCAN's ``I_JUMP``, COGS's lemmas of verb forms)."""
        return self.semantics

    def with_fresh_words(self, fresh: FreshWords | int) -> Language:
        """The language with its renamable words replaced by fresh ones (drawn with ``fresh``
        as a seed, or the given renaming): its grammar's lexicons and literals renamed, so its
        own parser and semantics run on the new words.

        >>> import symcomp
        >>> symcomp.get_language("pcfg-set").with_fresh_words(0)
        Traceback (most recent call last):
        ...
        symcomp.errors.DataError: pcfg-set declares no word classes to rename.
        """
        spec = self._renamable()
        if isinstance(fresh, int):
            fresh = self.draw_fresh_words(fresh)
        elif tuple(fresh.classes) != spec.classes:
            raise DataError(
                f"the renaming is of classes {list(fresh.classes)}; {self.name} renames "
                f"{list(spec.classes)}."
            )
        grammar = _renamed_grammar(self.grammar, fresh.mapping)
        renamed = type(self)(self.name, grammar, self.renamed_semantics(fresh), self.description)
        renamed.fresh_words = fresh
        return renamed

    def draw_fresh_words(self, seed: int) -> FreshWords:
        """A fresh word for every word of the renamable classes (:func:`~.fresh_strings.draw`):
        never a word or literal of the language, never a reserved output token."""
        spec = self._renamable()
        words = {name: class_words(self.grammar, name) for name in spec.classes}
        every = [w for ws in self.grammar.sidecar.lexicon.values() for w in ws]
        return draw_fresh(words, spec, reserved={*every, *literals(self.grammar)}, seed=seed)

    def _renamable(self) -> Renamable:
        if self.fresh_words is not None:
            raise DataError(f"this {self.name} is already renamed; rename the original.")
        spec = self.renamable()
        if spec is None:
            # symcomp.core.fresh_words.renamed_language names the languages that can be renamed
            raise DataError(f"{self.name} declares no word classes to rename.")
        return spec

    # -- finite languages ------------------------------------------------------------------

    def is_finite(self) -> bool:
        return self.sampler.is_finite()

    def enumerate(self) -> Iterator[Derivation]:
        """Every derivation of a finite language (see :meth:`Sampler.enumerate`)."""
        return self.sampler.enumerate()

    # -- checks ----------------------------------------------------------------------------

    def _check_semantics(self) -> None:
        """Every tree label needs a method unless all its expansions keep exactly one child."""
        single_child: dict[str, bool] = {}
        for plans in self.sampler.plans.values():
            for plan in plans:
                if plan.label is None:
                    continue
                kept = [(kind, payload) for kind, payload, keep in plan.symbols if keep]
                # a spliced `_rule` or a repetition may contribute any number of children
                passes = len(kept) == 1 and (
                    kept[0][0] in (LITERAL, SLOT, WORD)
                    or (kept[0][0] == NONTERMINAL and not str(kept[0][1]).startswith("_"))
                )
                single_child[plan.label] = single_child.get(plan.label, True) and passes
        missing = sorted(
            label
            for label, passes in single_child.items()
            if not passes and not callable(getattr(self.semantics, label, None))
        )
        if missing:
            lines = ", ".join(
                f"{label} ({self.grammar.source}:{self.grammar.aliases[label].line})"
                if label in self.grammar.aliases
                else label
                for label in missing
            )
            raise SemanticsError(
                f"{type(self.semantics).__name__} has no method for {lines}; every alias whose "
                f"node can have other than one child needs `def <alias>(self, children)`."
            )
