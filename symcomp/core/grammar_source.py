"""Read the rule structure of a ``.lark`` text: rules, their alternatives, aliases and lines.

Lark compiles a grammar into flat rules and forgets where each alternative was written. The
loader needs those places to name file and line in its errors (an alternative without an alias,
an alias used twice), so this module scans the source text itself. It understands exactly as
much of Lark's grammar language as that needs: comments, string and regexp literals, brackets,
``|`` separators, ``->`` aliases, statements and continuation lines. Lark still compiles the
grammar; the loader cross-checks both views.

>>> rules = scan_rules('start: a "x" -> first\\n     | b -> second\\na: "a"\\nb: "b"\\n')
>>> [(r.name, [alt.alias for alt in r.alternatives]) for r in rules]
[('start', ['first', 'second']), ('a', [None]), ('b', [None])]
>>> rules[0].alternatives[1].line
2
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

_TOKEN = re.compile(
    r"""
    (?P<comment>//[^\n]*)
  | (?P<string>"(?:\\.|[^"\\\n])*"i?)
  | (?P<regexp>/(?![/*])(?:\\.|[^/\\\n])+/[imslux]*)
  | (?P<arrow>->)
  | (?P<newline>\n)
  | (?P<space>[ \t\r\f]+)
  | (?P<name>[_a-zA-Z][_a-zA-Z0-9]*)
  | (?P<number>[0-9]+)
  | (?P<punct>\.\.|[|:()\[\]{}.,~*+?!%@=-])
  | (?P<other>.)
    """,
    re.VERBOSE,
)


@dataclass(frozen=True)
class Token:
    """A lexical item of the grammar text, with its 1-based line and column."""

    kind: str
    text: str
    line: int
    column: int


@dataclass(frozen=True)
class Alternative:
    """One ``|``-separated alternative of a rule as written in the source."""

    alias: str | None
    line: int
    column: int
    text: str


@dataclass(frozen=True)
class RuleSource:
    """A rule definition as written: name, modifiers (``?``/``!``), line and alternatives."""

    name: str
    modifiers: str
    line: int
    alternatives: tuple[Alternative, ...]
    has_template_params: bool = False

    @property
    def inlined(self) -> bool:
        """True for ``_rule``: Lark splices its children into the parent's tree node."""
        return self.name.startswith("_")


def tokenize(text: str) -> Iterator[Token]:
    """Yield the tokens of a grammar text, dropping spaces and comments but keeping newlines."""
    line, line_start = 1, 0
    for match in _TOKEN.finditer(text):
        kind = match.lastgroup or "other"
        column = match.start() - line_start + 1
        if kind == "newline":
            yield Token(kind, "\n", line, column)
            line, line_start = line + 1, match.end()
        elif kind not in ("space", "comment"):
            yield Token(kind, match.group(), line, column)


def _lines(tokens: Iterator[Token]) -> Iterator[list[Token]]:
    current: list[Token] = []
    for token in tokens:
        if token.kind == "newline":
            if current:
                yield current
            current = []
        else:
            current.append(token)
    if current:
        yield current


def _statements(text: str) -> Iterator[list[Token]]:
    """Group lines into statements: a line starting with ``|`` continues the previous one."""
    statement: list[Token] = []
    for line in _lines(tokenize(text)):
        if line[0].text == "|" and statement:
            statement.extend(line)
            continue
        if statement:
            yield statement
        statement = list(line)
    if statement:
        yield statement


def _split_alternatives(body: list[Token]) -> list[list[Token]]:
    alternatives: list[list[Token]] = [[]]
    depth = 0
    for token in body:
        if token.text in "([{" and token.kind == "punct":
            depth += 1
        elif token.text in ")]}" and token.kind == "punct":
            depth -= 1
        if token.text == "|" and token.kind == "punct" and depth == 0:
            alternatives.append([])
        else:
            alternatives[-1].append(token)
    return alternatives


def _alternative(tokens: list[Token], fallback: Token) -> Alternative:
    alias = None
    for index, token in enumerate(tokens):
        if token.kind == "arrow" and index + 1 < len(tokens):
            alias = tokens[index + 1].text
    first = tokens[0] if tokens else fallback
    text = " ".join(token.text for token in tokens)
    return Alternative(alias, first.line, first.column, text)


def _rule_header(statement: list[Token]) -> tuple[str, str, int, bool] | None:
    """Return (name, modifiers, index of the colon, has template params) for a rule statement."""
    index, modifiers = 0, ""
    while index < len(statement) and statement[index].text in ("?", "!"):
        modifiers += statement[index].text
        index += 1
    if index >= len(statement) or statement[index].kind != "name":
        return None
    name = statement[index].text
    if not (name[0].islower() or (name[0] == "_" and not name.lstrip("_")[:1].isupper())):
        return None  # a terminal definition (UPPERCASE) or not a definition at all
    index += 1
    templated = index < len(statement) and statement[index].text == "{"
    while index < len(statement) and statement[index].text != ":":
        index += 1  # skip template parameters and priority (`rule.2:`)
    if index >= len(statement):
        return None
    return name, modifiers, index, templated


def scan_rules(text: str) -> list[RuleSource]:
    """Return every rule definition of a Lark grammar text, in source order.

    Parameters
    ----------
    text : str
        The grammar, in Lark's EBNF notation.

    Returns
    -------
    list of RuleSource
        One entry per rule definition (terminals and ``%`` statements are skipped).
    """
    rules = []
    for statement in _statements(text):
        header = _rule_header(statement)
        if header is None:
            continue
        name, modifiers, colon, templated = header
        body = statement[colon + 1 :]
        alternatives = tuple(
            _alternative(alternative, statement[colon]) for alternative in _split_alternatives(body)
        )
        rules.append(RuleSource(name, modifiers, statement[0].line, alternatives, templated))
    return rules
