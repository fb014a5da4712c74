"""The sidecar of a grammar: version, sampling weights, repetition, lexicons, limits.

Lark has no syntax for probabilities, so everything the sampler needs besides the syntax lives
in ``grammars/<name>.toml`` (or in keyword arguments of :meth:`symcomp.Language.from_grammar`).
This module reads and type-checks that data; :mod:`symcomp.core.grammar` checks it against the
grammar (unknown aliases, missing lexicons) because only it knows the rules.

Sections
--------
``[language]``
    ``version`` (required), ``description``, ``start`` (default ``"start"``).
``[weights]``
    ``alias = weight``; weights of the alternatives of one rule are normalised within the rule.
    A rule without weights samples its alternatives uniformly; a weight of 0 keeps an
    alternative parseable but never sampled.
``[repeat.<alias-or-rule>]``
    Length distribution of the ``x+`` / ``x*`` repetitions inside that alternative or rule:
    ``min``/``max`` (uniform), ``weights`` (``min``, ``min + 1``, ... items with these relative
    weights), ``p_continue`` (geometric: one more item with that probability) or ``p_split``
    (the PCFG ``X -> X X | x``: number of leaves of a binary branching process).
``[lexicon]``
    ``TERMINAL = [...]`` words for a pattern terminal, or ``{ range = [lo, hi] }`` (integers),
    or ``{ product = [part, ...] }`` (concatenations; each part a list or a range), or
    ``{ words = [...], weights = [...] }`` / ``{ words = [...], zipf = a }`` (weighted words,
    optionally ``unsampled = [...]``: parseable, never drawn). A word may be listed under
    several terminals (:mod:`symcomp.core.word_classes`).
``[depths.<kind>]``, ``[constraints]``, ``[tables.<name>]``
    Recursion kinds with depth caps, words that must differ within one example, named weight
    tables (:mod:`symcomp.core.sampling_rules`).
``[limits]``
    ``max_depth`` (nesting of function nodes), ``max_length`` (input tokens).
``[metrics]``
    ``functions = [...]``: aliases counted as functions for ``depth`` and ``functions``.
``[uniqueness]``
    ``tokens_of = [...]``: aliases whose token content is new in the whole pool (a colliding
    draw is redrawn, keeping the rest of the derivation).
``[naturalize]``
    ``groups = [[alias, ...], ...]``: aliases whose probability is drawn jointly per example;
    ``target = "file.json"``: default (length, depth) histogram, next to the grammar.

>>> text = '[language]\\nversion = "1.0"\\n[weights]\\na = 2\\nb = 1\\n'
>>> spec = Sidecar.from_toml(text, "x.toml")
>>> spec.version, spec.weights["a"], spec.where("weights", "b")
('1.0', 2.0, 'x.toml:5')
"""

from __future__ import annotations

import math
import random
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from symcomp._util import did_you_mean
from symcomp.core.sampling_rules import DepthKind, WeightTable, zipf_weights
from symcomp.errors import GrammarError

MAX_LEXICON = 1_000_000  # words of one terminal's lexicon (every word is kept in memory)
SECTIONS = (
    "language",
    "weights",
    "repeat",
    "lexicon",
    "limits",
    "metrics",
    "uniqueness",
    "naturalize",
    "constraints",
    "depths",
    "tables",
)
_SECTION_KEYS: dict[str, tuple[str, ...] | None] = {
    "language": ("version", "description", "start", "name", "words_in_several_classes"),
    "weights": None,
    "repeat": None,
    "lexicon": None,
    "limits": ("max_depth", "max_length"),
    "metrics": ("functions",),
    "uniqueness": ("tokens_of",),
    "naturalize": ("groups", "target"),
    "constraints": ("distinct",),
    "depths": None,
    "tables": None,
}


@dataclass(frozen=True)
class RepeatSpec:
    """How many items an ``x+`` repetition yields.

    >>> RepeatSpec.uniform(2, 5).draw(random.Random(0)) in range(2, 6)
    True
    >>> RepeatSpec.weighted(2, (0.0, 1.0)).draw(random.Random(0))
    3
    """

    kind: str  # "uniform", "weighted", "geometric" or "branching"
    minimum: int = 1
    maximum: int | None = None
    p: float = 0.5
    weights: tuple[float, ...] = ()

    @classmethod
    def uniform(cls, minimum: int, maximum: int) -> RepeatSpec:
        return cls("uniform", minimum, maximum)

    @classmethod
    def weighted(cls, minimum: int, weights: tuple[float, ...]) -> RepeatSpec:
        """``minimum + i`` items with relative weight ``weights[i]``."""
        return cls("weighted", minimum, minimum + len(weights) - 1, weights=tuple(weights))

    def draw(self, rng: random.Random) -> int:
        """Draw a count; uses only ``rng.random()`` so streams are stable across Pythons."""
        if self.kind == "uniform":
            assert self.maximum is not None
            return self.minimum + int(rng.random() * (self.maximum - self.minimum + 1))
        if self.kind == "weighted":
            point = rng.random() * sum(self.weights)
            for offset, weight in enumerate(self.weights):
                point -= weight
                if point < 0:
                    return self.minimum + offset
            return self.minimum + max(i for i, w in enumerate(self.weights) if w > 0)
        if self.kind == "geometric":
            count = self.minimum
            while rng.random() < self.p and (self.maximum is None or count < self.maximum):
                count += 1
            return count
        # branching: expand the leftmost pending X: X -> X X with p, else X -> item.
        pending, count = 1, 0
        while pending:
            if rng.random() < self.p:
                pending += 1
            else:
                pending -= 1
                count += 1
        return count

    def describe(self) -> dict[str, Any]:
        """A JSON-ready description for manifests."""
        if self.kind == "uniform":
            return {"distribution": "uniform", "min": self.minimum, "max": self.maximum}
        if self.kind == "weighted":
            return {"distribution": "weighted", "min": self.minimum, "weights": list(self.weights)}
        key = "p_continue" if self.kind == "geometric" else "p_split"
        return {"distribution": self.kind, "min": self.minimum, key: self.p}


@dataclass(frozen=True)
class Sidecar:
    """Validated sidecar data of one grammar (see the module docstring for the sections)."""

    source: str
    version: str
    description: str = ""
    start: str = "start"
    weights: Mapping[str, float] = field(default_factory=dict)
    repeat: Mapping[str, RepeatSpec] = field(default_factory=dict)
    lexicon: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    max_depth: int | None = None
    max_length: int | None = None
    functions: tuple[str, ...] | None = None
    unique_tokens_of: tuple[str, ...] = ()
    naturalize_groups: tuple[tuple[str, ...], ...] = ()
    naturalize_target: str | None = None
    lines: Mapping[str, int] = field(default_factory=dict)
    lexicon_weights: Mapping[str, tuple[float, ...]] = field(default_factory=dict)
    depths: Mapping[str, DepthKind] = field(default_factory=dict)
    distinct: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    tables: Mapping[str, WeightTable] = field(default_factory=dict)
    # the parser tells shared words' classes apart by context (symcomp.core.word_classes)
    words_in_several_classes: bool = False

    def table(self, name: str) -> WeightTable:
        """A named weight table (``[tables.<name>]``), or a :class:`GrammarError` naming the
        known ones."""
        if name not in self.tables:
            known = ", ".join(sorted(self.tables)) or "none"
            raise GrammarError(
                f"{self.source}: no weight table {name!r}{did_you_mean(name, self.tables)}; "
                f"tables: {known}."
            )
        return self.tables[name]

    def where(self, section: str, key: str | None = None) -> str:
        """``file:line`` of a section or key, as precise as the source allows."""
        line = self.lines.get(f"{section}.{key}") if key else None
        line = line or self.lines.get(section)
        return f"{self.source}:{line}" if line else f"{self.source} [{section}]"

    @classmethod
    def from_toml(cls, text: str, source: str) -> Sidecar:
        """Read a sidecar from TOML text; ``source`` names the file in error messages."""
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as error:
            raise GrammarError(f"{source}: not valid TOML: {error}. Fix the syntax.") from None
        return cls.from_mapping(data, source, _key_lines(text))

    @classmethod
    def from_mapping(
        cls, data: Mapping[str, Any], source: str, lines: Mapping[str, int] | None = None
    ) -> Sidecar:
        """Validate sidecar data given as nested mappings (TOML or Python keywords)."""
        reader = _Reader(source, dict(lines or {}))
        reader.check_sections(data)
        language = reader.table(data, "language")
        version = language.get("version")
        if not isinstance(version, str) or not version:
            raise GrammarError(
                f"{reader.where('language', 'version')}: [language] needs a version string, "
                f'e.g. version = "1.0.0"; it goes into every example id and manifest.'
            )
        limits = reader.table(data, "limits")
        metrics = reader.table(data, "metrics")
        uniqueness = reader.table(data, "uniqueness")
        naturalize = reader.table(data, "naturalize")
        lexicon, lexicon_weights = reader.lexicon(reader.table(data, "lexicon"))
        return cls(
            source=source,
            version=version,
            description=reader.string(language, "language", "description", ""),
            start=reader.string(language, "language", "start", "start"),
            words_in_several_classes=reader.boolean(
                language, "language", "words_in_several_classes"
            ),
            weights=reader.weights(reader.table(data, "weights")),
            repeat=reader.repeats(reader.table(data, "repeat")),
            lexicon=lexicon,
            lexicon_weights=lexicon_weights,
            depths=reader.depths(reader.table(data, "depths")),
            distinct=reader.distinct(reader.table(data, "constraints")),
            tables=reader.tables(reader.table(data, "tables")),
            max_depth=reader.positive_int(limits, "limits", "max_depth"),
            max_length=reader.positive_int(limits, "limits", "max_length"),
            functions=reader.optional_names(metrics, "metrics", "functions"),
            unique_tokens_of=reader.optional_names(uniqueness, "uniqueness", "tokens_of") or (),
            naturalize_groups=reader.groups(naturalize),
            naturalize_target=reader.string(naturalize, "naturalize", "target", "") or None,
            lines=reader.lines,
        )

    def describe(self) -> dict[str, Any]:
        """The sampling parameters as plain JSON data (for manifests)."""
        return {
            "start": self.start,
            "weights": dict(self.weights),
            "repeat": {key: spec.describe() for key, spec in self.repeat.items()},
            "lexicon_sizes": {key: len(words) for key, words in self.lexicon.items()},
            "limits": {"max_depth": self.max_depth, "max_length": self.max_length},
            "unique_tokens_of": list(self.unique_tokens_of),
            **self._describe_rules(),
        }

    def _describe_rules(self) -> dict[str, Any]:
        """The sampling rules beyond weights, only where given (older hashes stay as they were)."""
        rules: dict[str, Any] = {}
        if self.lexicon_weights:
            rules["lexicon_weights"] = {key: list(w) for key, w in self.lexicon_weights.items()}
        if self.depths:
            rules["depths"] = {key: kind.describe() for key, kind in self.depths.items()}
        if self.distinct:
            rules["distinct"] = {key: list(names) for key, names in self.distinct.items()}
        if self.tables:
            rules["tables"] = {key: table.describe() for key, table in self.tables.items()}
        return rules


def _key_lines(text: str) -> dict[str, int]:
    """Map ``section`` and ``section.key`` to the 1-based line where they are written."""
    lines: dict[str, int] = {}
    section = ""
    for number, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.strip()
        header = re.match(r"^\[\s*([A-Za-z0-9_.\-\"' ]+?)\s*\]", stripped)
        if header:
            section = header.group(1).replace('"', "").replace("'", "")
            lines.setdefault(section, number)
            continue
        assignment = re.match(r"^([A-Za-z0-9_\-\"'.]+)\s*=", stripped)
        if assignment and section:
            key = assignment.group(1).strip("\"'")
            lines.setdefault(f"{section}.{key}", number)
    return lines


class _Reader:
    """Type checks with messages that name the file and line."""

    def __init__(self, source: str, lines: dict[str, int]) -> None:
        self.source = source
        self.lines = lines

    def where(self, section: str, key: str | None = None) -> str:
        line = self.lines.get(f"{section}.{key}") if key else None
        line = line or self.lines.get(section)
        return f"{self.source}:{line}" if line else f"{self.source} [{section}]"

    def fail(self, section: str, key: str | None, message: str) -> GrammarError:
        return GrammarError(f"{self.where(section, key)}: {message}")

    def check_sections(self, data: Mapping[str, Any]) -> None:
        for name, value in data.items():
            if name not in SECTIONS:
                raise GrammarError(
                    f"{self.source}: unknown section [{name}]{did_you_mean(name, SECTIONS)}; "
                    f"sections are {', '.join(SECTIONS)}."
                )
            allowed = _SECTION_KEYS[name]
            if allowed is None or not isinstance(value, Mapping):
                continue
            for key in value:
                if key not in allowed:
                    raise self.fail(
                        name,
                        key,
                        f"unknown key {key!r} in [{name}]{did_you_mean(key, allowed)}; "
                        f"allowed keys: {', '.join(allowed)}.",
                    )

    def table(self, data: Mapping[str, Any], name: str) -> Mapping[str, Any]:
        value = data.get(name, {})
        if not isinstance(value, Mapping):
            raise self.fail(name, None, f"[{name}] must be a table, got {value!r}.")
        return value

    def string(self, table: Mapping[str, Any], section: str, key: str, default: str) -> str:
        value = table.get(key, default)
        if not isinstance(value, str):
            raise self.fail(section, key, f"{key} must be a string, got {value!r}.")
        return value

    def boolean(self, table: Mapping[str, Any], section: str, key: str) -> bool:
        value = table.get(key, False)
        if not isinstance(value, bool):
            raise self.fail(section, key, f"{key} must be true or false, got {value!r}.")
        return value

    def positive_int(self, table: Mapping[str, Any], section: str, key: str) -> int | None:
        value = table.get(key)
        if value is None:
            return None
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise self.fail(section, key, f"{key} must be a positive integer, got {value!r}.")
        return value

    def optional_names(
        self, table: Mapping[str, Any], section: str, key: str
    ) -> tuple[str, ...] | None:
        value = table.get(key)
        if value is None:
            return None
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            raise self.fail(section, key, f"{key} must be a list of names, got {value!r}.")
        return tuple(value)

    def weights(self, table: Mapping[str, Any]) -> dict[str, float]:
        weights = {}
        for alias, value in table.items():
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise self.fail("weights", alias, f"weight of {alias!r} must be a number.")
            if not math.isfinite(value) or value < 0:
                raise self.fail(
                    "weights",
                    alias,
                    f"weight of {alias!r} is {value}; weights must be finite and >= 0 "
                    f"(use 0 to keep an alternative parseable but never sampled).",
                )
            weights[alias] = float(value)
        return weights

    def repeats(self, table: Mapping[str, Any]) -> dict[str, RepeatSpec]:
        return {key: self.repeat(key, spec) for key, spec in table.items()}

    def repeat(self, key: str, spec: Any) -> RepeatSpec:
        section = f"repeat.{key}"
        if not isinstance(spec, Mapping):
            raise self.fail(section, None, f"[repeat.{key}] must be a table.")
        unknown = set(spec) - {"min", "max", "weights", "p_continue", "p_split"}
        if unknown:
            raise self.fail(
                section,
                None,
                f"unknown keys {sorted(unknown)}; use min, max, weights, p_continue, p_split.",
            )
        minimum = spec.get("min", 1)
        maximum = spec.get("max")
        if not isinstance(minimum, int) or minimum < 1:
            raise self.fail(section, "min", "min must be an integer >= 1.")
        if maximum is not None and (not isinstance(maximum, int) or maximum < minimum):
            raise self.fail(section, "max", f"max must be an integer >= min ({minimum}).")
        if "weights" in spec:
            return self.weighted_repeat(section, spec, minimum)
        probabilities = [name for name in ("p_continue", "p_split") if name in spec]
        if len(probabilities) > 1:
            raise self.fail(section, None, "give either p_continue or p_split, not both.")
        if not probabilities:
            if maximum is None:
                raise self.fail(
                    section, None, "give max (uniform min..max), p_continue or p_split."
                )
            return RepeatSpec("uniform", minimum, maximum)
        name = probabilities[0]
        p = spec[name]
        if not isinstance(p, int | float) or not 0 <= p < 1:
            raise self.fail(section, name, f"{name} must be a probability in [0, 1).")
        if name == "p_split" and p >= 0.5:
            raise self.fail(
                section, name, "p_split >= 0.5 makes lists infinite with positive probability."
            )
        if name == "p_split" and (minimum != 1 or maximum is not None):
            raise self.fail(section, name, "p_split fixes the distribution; drop min and max.")
        kind = "geometric" if name == "p_continue" else "branching"
        return RepeatSpec(kind, minimum, maximum, float(p))

    def weighted_repeat(self, section: str, spec: Mapping[str, Any], minimum: int) -> RepeatSpec:
        weights = spec["weights"]
        if set(spec) - {"min", "weights"}:
            raise self.fail(section, "weights", "weights fix the distribution; give only min.")
        if (
            not isinstance(weights, list)
            or not weights
            or not all(isinstance(w, int | float) and math.isfinite(w) and w >= 0 for w in weights)
            or not sum(weights) > 0
        ):
            raise self.fail(
                section, "weights", "weights must be a list of numbers >= 0 with a positive sum."
            )
        return RepeatSpec.weighted(minimum, tuple(float(w) for w in weights))

    def lexicon(
        self, table: Mapping[str, Any]
    ) -> tuple[dict[str, tuple[str, ...]], dict[str, tuple[float, ...]]]:
        lexicon, weighted = {}, {}
        for terminal, spec in table.items():
            if isinstance(spec, Mapping) and "words" in spec:
                words, weights = self.weighted_words(terminal, spec)
                weighted[terminal] = weights
            else:
                words = self.words(terminal, spec)
            if not words:
                raise self.fail("lexicon", terminal, f"lexicon of {terminal} is empty.")
            if len(set(words)) != len(words):
                raise self.fail("lexicon", terminal, f"lexicon of {terminal} repeats a word.")
            lexicon[terminal] = words
        return lexicon, weighted

    def weighted_words(
        self, terminal: str, spec: Mapping[str, Any]
    ) -> tuple[tuple[str, ...], tuple[float, ...]]:
        unknown = set(spec) - {"words", "weights", "zipf", "unsampled"}
        if unknown or ("weights" in spec and "zipf" in spec):
            raise self.fail(
                "lexicon",
                terminal,
                f"a weighted lexicon has `words` and either `weights` or `zipf` (plus optional "
                f"`unsampled`); got keys {sorted(spec)}.",
            )
        words = self.words(terminal, spec["words"])
        unsampled = self.words(terminal, spec.get("unsampled", [])) if spec.get("unsampled") else ()
        if "zipf" in spec:
            a = spec["zipf"]
            if isinstance(a, bool) or not isinstance(a, int | float) or not a > 1:
                raise self.fail("lexicon", terminal, f"zipf must be a number > 1, got {a!r}.")
            weights = zipf_weights(len(words), float(a))
        elif "weights" in spec:
            weights = self.word_weights(terminal, spec["weights"], len(words))
        else:
            weights = tuple(1.0 for _ in words)
        return words + unsampled, weights + tuple(0.0 for _ in unsampled)

    def word_weights(self, terminal: str, given: Any, count: int) -> tuple[float, ...]:
        if (
            not isinstance(given, list)
            or len(given) != count
            or not all(
                isinstance(w, int | float)
                and not isinstance(w, bool)
                and math.isfinite(w)
                and w >= 0
                for w in given
            )
            or not sum(given) > 0
        ):
            raise self.fail(
                "lexicon",
                terminal,
                f"weights must be {count} numbers >= 0 (one per word) with a positive sum.",
            )
        return tuple(float(w) for w in given)

    def depths(self, table: Mapping[str, Any]) -> dict[str, DepthKind]:
        kinds = {}
        for kind, spec in table.items():
            section = f"depths.{kind}"
            if not isinstance(spec, Mapping) or set(spec) - {"aliases", "min", "max"}:
                raise self.fail(section, None, f"[{section}] takes aliases, min and max.")
            aliases = self.optional_names(spec, section, "aliases")
            if not aliases:
                raise self.fail(section, "aliases", "aliases must name the nodes that count.")
            minimum, maximum = self.window(section, spec)
            kinds[kind] = DepthKind(aliases, minimum, maximum)
        return kinds

    def window(self, section: str, spec: Mapping[str, Any]) -> tuple[int, int | None]:
        minimum, maximum = spec.get("min", 0), spec.get("max")
        if isinstance(minimum, bool) or not isinstance(minimum, int) or minimum < 0:
            raise self.fail(section, "min", f"min must be an integer >= 0, got {minimum!r}.")
        if maximum is not None and (
            isinstance(maximum, bool) or not isinstance(maximum, int) or maximum < minimum
        ):
            raise self.fail(section, "max", f"max must be an integer >= min, got {maximum!r}.")
        return minimum, maximum

    def distinct(self, table: Mapping[str, Any]) -> dict[str, tuple[str, ...]]:
        groups = table.get("distinct", {})
        if not isinstance(groups, Mapping) or not all(
            isinstance(names, list) and names and all(isinstance(n, str) for n in names)
            for names in groups.values()
        ):
            raise self.fail(
                "constraints",
                "distinct",
                'distinct must map a name to terminals, e.g. distinct = { nouns = ["N", "NAME"] }.',
            )
        return {name: tuple(names) for name, names in groups.items()}

    def tables(self, table: Mapping[str, Any]) -> dict[str, WeightTable]:
        tables = {}
        for name, spec in table.items():
            section = f"tables.{name}"
            if not isinstance(spec, Mapping) or set(spec) - {"weights", "depths", "description"}:
                raise self.fail(section, None, f"[{section}] takes weights, depths, description.")
            depths = {}
            for kind, window in self.table(spec, "depths").items():
                if not isinstance(window, Mapping) or set(window) - {"min", "max"}:
                    raise self.fail(section, "depths", f"depths.{kind} takes min and max.")
                depths[kind] = self.window(section, window)
            tables[name] = WeightTable(
                name,
                self.weights(self.table(spec, "weights")),
                depths,
                self.string(spec, section, "description", ""),
            )
        return tables

    def words(self, terminal: str, spec: Any) -> tuple[str, ...]:
        if isinstance(spec, list):
            if not all(isinstance(word, str) and word for word in spec):
                raise self.fail(
                    "lexicon", terminal, "a word list must hold non-empty strings only."
                )
            return tuple(spec)
        if isinstance(spec, Mapping) and set(spec) == {"range"}:
            bounds = spec["range"]
            if (
                not isinstance(bounds, list)
                or len(bounds) != 2
                or not all(isinstance(b, int) for b in bounds)
                or bounds[0] > bounds[1]
            ):
                raise self.fail(
                    "lexicon", terminal, "range must be [lo, hi] with integers lo <= hi."
                )
            self.check_size(terminal, bounds[1] - bounds[0] + 1)
            return tuple(str(i) for i in range(bounds[0], bounds[1] + 1))
        if isinstance(spec, Mapping) and set(spec) == {"product"}:
            parts = spec["product"]
            if not isinstance(parts, list) or not parts:
                raise self.fail("lexicon", terminal, "product must be a non-empty list of parts.")
            choices = [self.words(terminal, part) for part in parts]
            self.check_size(terminal, math.prod(len(part) for part in choices))
            words: tuple[str, ...] = ("",)
            for part_words in choices:
                words = tuple(prefix + word for prefix in words for word in part_words)
            return words
        raise self.fail(
            "lexicon",
            terminal,
            f"lexicon of {terminal} must be a list of words, {{ range = [lo, hi] }} or "
            f"{{ product = [...] }}, got {spec!r}.",
        )

    def check_size(self, terminal: str, size: int) -> None:
        if size > MAX_LEXICON:
            raise self.fail(
                "lexicon",
                terminal,
                f"the lexicon of {terminal} would hold {size:,} words, more than {MAX_LEXICON:,} "
                f"symcomp keeps in memory; use a smaller range or product, or a terminal pattern "
                f"without a lexicon.",
            )

    def groups(self, table: Mapping[str, Any]) -> tuple[tuple[str, ...], ...]:
        groups = table.get("groups", [])
        if not isinstance(groups, list) or not all(
            isinstance(group, list) and group and all(isinstance(a, str) for a in group)
            for group in groups
        ):
            raise self.fail(
                "naturalize", "groups", "groups must be a list of non-empty lists of aliases."
            )
        return tuple(tuple(group) for group in groups)
