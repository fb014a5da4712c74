"""A language's syntax: a Lark grammar plus its sidecar, validated together, and its parser.

Every alternative of a rule with several alternatives carries an alias (``-> name``). That alias
is the alternative's identity everywhere: tree node label, semantics method, DAG atom, key of
its sampling weight. The loader enforces it and reports problems with file and line.

>>> g = Grammar.from_text(
...     'start: "a" x -> first\\n     | "b" x -> second\\n'
...     'x: WORD\\nWORD: /[a-z]+/\\n%ignore " "\\n',
...     {"language": {"version": "1"}, "lexicon": {"WORD": ["cat", "dog"]}},
...     name="toy",
... )
>>> tree = g.parse("b dog")
>>> str(tree.data), str(tree.children[0].data), tree.children[0].children
('second', 'x', [Token('WORD', 'dog')])
>>> sorted(g.aliases)
['first', 'second']
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import lark
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput
from lark.grammar import Rule

from symcomp._util import did_you_mean
from symcomp.core.grammar_source import RuleSource, scan_rules
from symcomp.core.sidecar import Sidecar
from symcomp.core.word_classes import parser_text, shares_words
from symcomp.errors import GrammarError, ParseError

_AUX_REPEAT = re.compile(r"^__(?P<rule>.+)_(?P<op>plus|star)_\d+$")


@dataclass(frozen=True)
class AliasInfo:
    """Where an alias is defined: its rule and source line."""

    alias: str
    rule: str
    line: int


class Grammar:
    """A validated grammar: Lark rules, the sidecar data, and a parser for the language.

    Parameters
    ----------
    text : str
        The grammar in Lark notation.
    sidecar : Sidecar
        Version, weights, lexicons and limits (see :mod:`symcomp.core.sidecar`).
    name : str
        Language name, used in messages.
    source : str
        Where ``text`` comes from (a path, or ``<string>``), used in messages.
    """

    def __init__(self, text: str, sidecar: Sidecar, *, name: str, source: str = "<string>"):
        self.text = text
        self.sidecar = sidecar
        self.name = name
        self.source = source
        self.rule_sources = scan_rules(text)
        self.aliases = self._check_aliases()
        self.lark, self.parser_kind = self._compile()
        self._positioned: lark.Lark | None = None  # parse_with_positions's parser, made on use
        # with words in several classes the parser compiles a rewritten grammar; the sampler
        # and the checks read the rules and terminals as written
        structure = self._structure() if self.lark_text != text else self.lark
        self.rules: list[Rule] = list(structure.rules)
        self.terminals = {terminal.name: terminal for terminal in structure.terminals}
        self.rule_names = {str(rule.origin.name) for rule in self.rules}
        self._check_compiled()
        self._check_terminating()
        self._check_sidecar()

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # Lark's compiled tables do not survive pickling; another process (a Ray worker)
        # compiles the grammar again from its text and sidecar
        return (_rebuild_grammar, (self.text, self.sidecar, self.name, self.source))

    # -- construction ----------------------------------------------------------------------

    @classmethod
    def from_text(
        cls,
        text: str,
        sidecar: Mapping[str, Any] | Sidecar,
        *,
        name: str,
        source: str = "<string>",
        sidecar_source: str = "<sidecar>",
    ) -> Grammar:
        """Build a grammar from text and sidecar data (a mapping or a :class:`Sidecar`)."""
        if not isinstance(sidecar, Sidecar):
            sidecar = Sidecar.from_mapping(sidecar, sidecar_source)
        return cls(text, sidecar, name=name, source=source)

    @classmethod
    def from_files(cls, lark_path: Path, toml_path: Path | None = None, *, name: str) -> Grammar:
        """Load ``<name>.lark`` and its sidecar ``<name>.toml`` (default: same stem)."""
        toml_path = toml_path or lark_path.with_suffix(".toml")
        sidecar = Sidecar.from_toml(read_text(toml_path), str(toml_path))
        return cls(read_text(lark_path), sidecar, name=name, source=str(lark_path))

    # -- properties ------------------------------------------------------------------------

    @property
    def version(self) -> str:
        return self.sidecar.version

    @property
    def sha256(self) -> str:
        """Hash of the grammar text and the sampling parameters (recorded in manifests)."""
        payload = json.dumps(
            {"grammar": self.text, "version": self.version, "sampling": self.sidecar.describe()},
            sort_keys=True,
        )
        return hashlib.sha256(payload.encode("utf-8")).hexdigest()

    def rules_of(self, name: str) -> list[Rule]:
        """Compiled expansions whose origin is ``name``."""
        return [rule for rule in self.rules if rule.origin.name == name]

    def literal(self, terminal: str) -> str | None:
        """The fixed text of a string terminal, or None for a pattern terminal."""
        pattern = self.terminals[terminal].pattern
        return str(pattern.value) if pattern.type == "str" else None

    # -- parsing ---------------------------------------------------------------------------

    def parse(self, text: str) -> lark.Tree[Any]:
        """Parse ``text`` into a tree; a :class:`ParseError` shows the place with a caret."""
        try:
            return self.lark.parse(text)
        except UnexpectedInput as error:
            raise ParseError(self._describe_parse_error(text, error)) from None

    def _describe_parse_error(self, text: str, error: UnexpectedInput) -> str:
        line = text.splitlines()[error.line - 1] if text and error.line > 0 else text
        column = max(error.column, 1) if error.column and error.column > 0 else len(line) + 1
        caret = " " * (column - 1) + "^"
        if isinstance(error, UnexpectedCharacters):
            position = error.pos_in_stream or 0
            what = f"unexpected character {text[position]!r}"
        elif isinstance(error, UnexpectedEOF):
            what = "the input ends too early"
            caret = " " * len(line) + "^"
        else:
            token = getattr(error, "token", None)
            what = (
                "the input ends too early"
                if token is None or token.type == "$END"
                else f"unexpected {str(token)!r}"
            )
            if token is not None and token.type == "$END":
                caret = " " * len(line) + "^"
        expected = sorted(self._readable(name) for name in (getattr(error, "expected", None) or []))
        hint = f"\nexpected one of: {', '.join(expected)}" if expected else ""
        location = f"line {error.line}, column {error.column}" if error.line > 0 else "the end"
        return (
            f"not valid {self.name} input: {what} at {location}\n    {line}\n    {caret}{hint}\n"
            f"Check the input against the grammar ({self.source})."
        )

    def _readable(self, terminal: str) -> str:
        if terminal in self.terminals and self.terminals[terminal].pattern.type == "str":
            return repr(self.terminals[terminal].pattern.value)
        return terminal

    # -- validation ------------------------------------------------------------------------

    def parse_with_positions(self, text: str) -> lark.Tree[Any]:
        """:meth:`parse`, each node's ``meta`` holding where its text starts and ends in
        ``text`` (``start_pos``, ``end_pos``; keywords the tree drops included): what the
        worked steps of an input (:mod:`symcomp.core.constituents`) cut the input by. The
        parser is compiled on first use; the tree is :meth:`parse`'s."""
        if self._positioned is None:
            options = {**self._options(), "propagate_positions": True}
            self._positioned = lark.Lark(self.lark_text, parser=self.parser_kind, **options)
        try:
            return self._positioned.parse(text)
        except UnexpectedInput as error:
            raise ParseError(self._describe_parse_error(text, error)) from None

    def _at(self, line: int) -> str:
        return f"{self.source}:{line}"

    def _check_aliases(self) -> dict[str, AliasInfo]:
        aliases: dict[str, AliasInfo] = {}
        rule_names = {rule.name: rule for rule in self.rule_sources}
        for rule in self.rule_sources:
            self._check_rule(rule)
            for alternative in rule.alternatives:
                alias = alternative.alias
                if alias is None:
                    continue
                if alias in aliases:
                    first = aliases[alias]
                    raise GrammarError(
                        f"{self._at(alternative.line)}: alias {alias!r} is used twice (first in "
                        f"rule {first.rule!r} at line {first.line}); each alternative needs its "
                        f"own alias because the alias names its semantics method and weight."
                    )
                if alias in rule_names:
                    raise GrammarError(
                        f"{self._at(alternative.line)}: alias {alias!r} is also the name of the "
                        f"rule at line {rule_names[alias].line}; rename one so tree labels are "
                        f"unambiguous."
                    )
                aliases[alias] = AliasInfo(alias, rule.name, alternative.line)
        return aliases

    def _check_rule(self, rule: RuleSource) -> None:
        if rule.has_template_params:
            raise GrammarError(
                f"{self._at(rule.line)}: rule {rule.name!r} is a template; the symcomp sampler "
                f"does not support Lark templates. Write the instances out as rules."
            )
        if len(rule.alternatives) < 2 or rule.inlined:
            return  # Lark forbids aliases on `_rule`s: their alternatives stay unnamed
        for number, alternative in enumerate(rule.alternatives, start=1):
            if alternative.alias is None:
                raise GrammarError(
                    f"{self._at(alternative.line)}: alternative {number} of rule {rule.name!r} "
                    f"({alternative.text!r}) has no alias. Every alternative of a rule with "
                    f"several alternatives needs one, e.g. `{alternative.text} -> "
                    f"{rule.name}_{number}`: it names the semantics method and the weight."
                )

    def _options(self) -> dict[str, Any]:
        return {
            "start": self.sidecar.start,
            "maybe_placeholders": False,  # `[x]` behaves like `x?`: no None children
            "keep_all_tokens": False,
        }

    def _compile(self) -> tuple[lark.Lark, str]:
        options = self._options()
        lexicon = self.sidecar.lexicon
        # only where the sidecar asks: a grammar whose terminals tell shared words apart
        # themselves (case, lookaheads: monotonicity's) must be parsed as written
        rewrite = self.sidecar.words_in_several_classes and shares_words(lexicon)
        self.lark_text = parser_text(self.text, lexicon) if rewrite else self.text
        try:
            return lark.Lark(self.lark_text, parser="lalr", **options), "lalr"
        except LarkError as lalr_error:
            lalr_message = str(lalr_error)
        try:
            return lark.Lark(self.lark_text, parser="earley", **options), "earley"
        except LarkError as error:
            message = str(error).strip() or lalr_message
            raise GrammarError(
                f"{self.source}: Lark cannot compile the grammar: {message}"
            ) from None

    def _structure(self) -> lark.Lark:
        """The grammar as written, compiled without parse tables (rules and terminals only)."""
        try:
            return lark.Lark(self.text, parser="earley", lexer="dynamic", **self._options())
        except LarkError as error:
            raise GrammarError(f"{self.source}: Lark cannot compile the grammar: {error}") from None

    def _check_compiled(self) -> None:
        compiled_aliases = {rule.alias for rule in self.rules if rule.alias}
        unknown = compiled_aliases - set(self.aliases)
        if unknown:
            raise GrammarError(
                f"{self.source}: aliases {sorted(unknown)} come from rules symcomp could not "
                f"read in the source (imported or declared rules?); define them in this file."
            )
        ignored = [self.terminals[name] for name in self.lark.ignore_tokens]
        if not any(re.fullmatch(t.pattern.to_regexp(), " ") for t in ignored):
            raise GrammarError(
                f'{self.source}: the grammar must ignore spaces (add `%ignore " "`, or '
                f"`%import common.WS` and `%ignore WS`): symcomp writes inputs as tokens "
                f"separated by single spaces and parses them back."
            )

    def _check_terminating(self) -> None:
        """Every rule must have a derivation that ends (else sampling would never stop)."""
        productive: set[str] = set()
        grew = True
        while grew:
            grew = False
            for rule in self.rules:
                name = str(rule.origin.name)
                if name not in productive and all(
                    symbol.is_term or str(symbol.name) in productive for symbol in rule.expansion
                ):
                    productive.add(name)
                    grew = True
        endless = sorted(
            name for name in self.rule_names if name not in productive and not name.startswith("__")
        )
        if endless:
            lines = {source.name: source.line for source in self.rule_sources}
            shown = ", ".join(f"{name} ({self.source}:{lines.get(name, '?')})" for name in endless)
            raise GrammarError(
                f"rules {shown} have no derivation that ends: every alternative uses a rule that "
                f"never ends. Give each such rule an alternative made of terminals only (or of "
                f"rules that end)."
            )

    def _check_sidecar(self) -> None:
        self._check_weights(self.sidecar.weights, "weights")
        self._check_sampling_rules()
        self._check_lexicon()
        self._check_names(self.sidecar.repeat, "repeat")
        self._check_names(self.sidecar.unique_tokens_of, "uniqueness")
        self._check_names(self.sidecar.functions or (), "metrics")
        for group in self.sidecar.naturalize_groups:
            self._check_names(group, "naturalize")
            rules = {self.aliases[alias].rule for alias in group if alias in self.aliases}
            if len(rules) > 1:
                raise GrammarError(
                    f"{self.sidecar.where('naturalize', 'groups')}: group {list(group)} mixes "
                    f"alternatives of rules {sorted(rules)}; a group shares one rule's probability."
                )
        if self.sidecar.start not in self.rule_names:
            raise GrammarError(
                f"{self.sidecar.where('language', 'start')}: start rule "
                f"{self.sidecar.start!r} is not in the grammar"
                f"{did_you_mean(self.sidecar.start, self.rule_names)}."
            )

    def _check_sampling_rules(self) -> None:
        """Weight tables, depth kinds and distinct-word groups name what the grammar has."""
        for table in self.sidecar.tables.values():
            # a table may switch a whole rule off where it cannot be reached
            merged = {**self.sidecar.weights, **table.weights}
            self._check_weights(merged, f"tables.{table.name}", positive=False)
            unknown = set(table.depths) - set(self.sidecar.depths)
            if unknown:
                raise GrammarError(
                    f"{self.sidecar.where(f'tables.{table.name}')}: depths {sorted(unknown)} are "
                    f"not recursion kinds; declare them under [depths.<kind>] first."
                )
        for kind_name, spec in self.sidecar.depths.items():
            self._check_names(spec.aliases, f"depths.{kind_name}")
        for group_name, terminals in self.sidecar.distinct.items():
            missing = [name for name in terminals if name not in self.sidecar.lexicon]
            if missing:
                raise GrammarError(
                    f"{self.sidecar.where('constraints', 'distinct')}: distinct.{group_name} names "
                    f"{missing}, which have no word list under [lexicon]."
                )

    def _check_names(self, names: Mapping[str, Any] | tuple[str, ...], section: str) -> None:
        known = set(self.aliases) | self.rule_names
        for name in names:
            if name not in known:
                raise GrammarError(
                    f"{self.sidecar.where(section, name)}: [{section}] names {name!r}, which is "
                    f"neither an alias nor a rule of {self.source}{did_you_mean(name, known)}."
                )

    def _check_weights(
        self, weights: Mapping[str, float], section: str, *, positive: bool = True
    ) -> None:
        for alias in weights:
            if alias not in self.aliases:
                raise GrammarError(
                    f"{self.sidecar.where(section, alias)}: weight for unknown alias "
                    f"{alias!r}{did_you_mean(alias, set(self.aliases))}; weights are keyed by "
                    f"the aliases (`-> name`) of {self.source}."
                )
        by_rule: dict[str, list[str]] = {}
        for info in self.aliases.values():
            by_rule.setdefault(info.rule, []).append(info.alias)
        for rule, aliases in by_rule.items():
            given = [alias for alias in aliases if alias in weights]
            if not given:
                continue
            missing = [alias for alias in aliases if alias not in weights]
            if missing:
                raise GrammarError(
                    f"{self.sidecar.where(section, given[0])}: weights are given for some "
                    f"alternatives of rule {rule!r} but not for {missing}; give every "
                    f"alternative of {rule!r} a weight (0 = parseable but never sampled)."
                )
            if positive and sum(weights[alias] for alias in aliases) <= 0:
                raise GrammarError(
                    f"{self.sidecar.where(section, given[0])}: the weights of rule {rule!r} "
                    f"sum to zero, so it can never be sampled; give one alternative a positive "
                    f"weight."
                )

    def _check_lexicon(self) -> None:
        for terminal, weights in self.sidecar.lexicon_weights.items():
            if len(weights) != len(self.sidecar.lexicon.get(terminal, ())):
                raise GrammarError(
                    f"{self.sidecar.where('lexicon', terminal)}: {terminal} has "
                    f"{len(self.sidecar.lexicon.get(terminal, ()))} words but {len(weights)} "
                    f"weights; replace `lexicon_weights` together with `lexicon`."
                )
        for terminal, words in self.sidecar.lexicon.items():
            if terminal not in self.terminals:
                raise GrammarError(
                    f"{self.sidecar.where('lexicon', terminal)}: lexicon for terminal "
                    f"{terminal!r}, which no rule of {self.source} uses"
                    f"{did_you_mean(terminal, set(self.terminals))}."
                )
            pattern = self.terminals[terminal].pattern
            if pattern.type == "str":
                raise GrammarError(
                    f"{self.sidecar.where('lexicon', terminal)}: {terminal} is the fixed string "
                    f"{pattern.value!r}; lexicons are for pattern terminals only."
                )
            regexp = re.compile(pattern.to_regexp())
            for word in words:
                if not regexp.fullmatch(word):
                    raise GrammarError(
                        f"{self.sidecar.where('lexicon', terminal)}: word {word!r} does not "
                        f"match {terminal}'s pattern /{pattern.value}/, so it could not be "
                        f"parsed back; fix the word or the pattern."
                    )
        for rule in self.rules:
            for symbol in rule.expansion:
                if not symbol.is_term or self.literal(symbol.name) is not None:
                    continue
                if symbol.name not in self.sidecar.lexicon:
                    raise GrammarError(
                        f"{self.sidecar.source}: terminal {symbol.name} (pattern "
                        f"/{self.terminals[symbol.name].pattern.value}/) has no word list; add "
                        f"it under [lexicon] so the sampler knows what to write."
                    )


def aux_repeat(name: str) -> tuple[str, str] | None:
    """For Lark's helper rule of ``x+`` / ``x*`` (``__rule_plus_0``), return (rule, op).

    >>> aux_repeat("__string_plus_3"), aux_repeat("string")
    (('string', 'plus'), None)
    """
    match = _AUX_REPEAT.match(name)
    return (match.group("rule"), match.group("op")) if match else None


def _rebuild_grammar(text: str, sidecar: Sidecar, name: str, source: str) -> Grammar:
    """A pickled :class:`Grammar`, compiled again (see ``Grammar.__reduce__``)."""
    return Grammar(text, sidecar, name=name, source=source)


def read_text(path: Path) -> str:
    """A grammar or sidecar file's text, or a :class:`GrammarError` saying why it has none."""
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise GrammarError(
            f"{path}: no such file; a language needs <name>.lark and <name>.toml."
        ) from None
    except UnicodeDecodeError as error:
        raise GrammarError(
            f"{path}: not UTF-8 text (byte {error.object[error.start]:#04x} at offset "
            f"{error.start}); grammars and sidecars are UTF-8 text files."
        ) from None
    except OSError as error:
        raise GrammarError(f"cannot read {path}: {error.strerror or error}.") from None
