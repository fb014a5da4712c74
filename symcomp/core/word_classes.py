"""Words in several classes: the parser's view of lexicons that share words.

A sidecar may list one word under several terminals (``liked`` is a transitive verb, a verb
taking a clause and a verb taking an infinitive; ``box`` is a thing and a place). The sampler
draws from each terminal's own list, with its own weights; but a lexer cannot tell which of
those terminals a shared word is, so the parser gets a rewritten grammar instead: every word
goes into exactly one *signature terminal* (the words that belong to the same set of classes),
and every lexicon terminal ``T`` becomes an inlined rule ``_symcomp_lex_t`` over the signature
terminals of its words. The parser then decides the class from the context (for LALR: the next
token), and because the rule is inlined the tree has the word where ``T`` stood, as the
sampler writes it. A grammar whose lexicons are disjoint is left exactly as written.

>>> lexicon = {"NOUN": ("box", "cat"), "PLACE": ("box", "room")}
>>> text = 'start: NOUN "in" PLACE\\nNOUN: /[a-z]+/\\nPLACE: /[a-z]+/\\n%ignore " "\\n'
>>> print(parser_text(text, lexicon).split("\\n", 1)[0])
start: _symcomp_lex_noun "in" _symcomp_lex_place
>>> shares_words({"A": ("x",), "B": ("y",)})
False
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from symcomp.core.grammar_source import _TOKEN
from symcomp.errors import GrammarError

PREFIX_RULE = "_symcomp_lex_"
PREFIX_TERMINAL = "SYMCOMP_WORDS_"


def shares_words(lexicon: Mapping[str, Iterable[str]]) -> bool:
    """True when some word is listed under two terminals."""
    seen: set[str] = set()
    for words in lexicon.values():
        unique = set(words)
        if seen & unique:
            return True
        seen |= unique
    return False


def signatures(lexicon: Mapping[str, Iterable[str]]) -> dict[frozenset[str], list[str]]:
    """Words grouped by the set of terminals that list them (in first-listed order).

    >>> groups = signatures({"A": ("x", "y"), "B": ("y",)})
    >>> [(sorted(terminals), words) for terminals, words in groups.items()]
    [(['A'], ['x']), (['A', 'B'], ['y'])]
    """
    classes: dict[str, set[str]] = {}
    order: list[str] = []
    for terminal, words in lexicon.items():
        for word in words:
            if word not in classes:
                classes[word] = set()
                order.append(word)
            classes[word].add(terminal)
    groups: dict[frozenset[str], list[str]] = {}
    for word in order:
        groups.setdefault(frozenset(classes[word]), []).append(word)
    return groups


def _pattern(words: Iterable[str]) -> str:
    """A Lark regexp matching exactly these whole words (longest first, then a word end)."""
    ordered = sorted(words, key=lambda word: (-len(word), word))
    body = "|".join(re.escape(word).replace("/", "\\/") for word in ordered)
    return f"/(?:{body})(?![^\\s])/"


def _rule_name(terminal: str) -> str:
    return PREFIX_RULE + terminal.lower()


def parser_text(text: str, lexicon: Mapping[str, Iterable[str]]) -> str:
    """The grammar the parser compiles: lexicon terminals replaced by rules over signature
    terminals (see the module docstring). Raises :class:`GrammarError` when a lexicon terminal
    is used inside another terminal's definition (it would no longer be a terminal)."""
    names = set(lexicon)
    out: list[str] = []
    statement_is_terminal = False
    at_line_start = True
    for match in _TOKEN.finditer(text):
        kind, piece = match.lastgroup, match.group()
        if kind == "newline":
            at_line_start = True
        elif kind not in ("space", "comment") and at_line_start:
            at_line_start = False
            if piece != "|":  # a new statement (a `|` line continues the previous one)
                statement_is_terminal = _starts_terminal(text, match.start())
        if kind == "name" and piece in names and not _is_definition(text, match):
            if statement_is_terminal:
                line = text.count("\n", 0, match.start()) + 1
                raise GrammarError(
                    f"line {line}: terminal {piece} has a word list shared with other terminals, "
                    f"so it cannot be used inside another terminal's definition; use it in a rule."
                )
            piece = _rule_name(piece)
        out.append(piece)
    return "".join(out) + _definitions(lexicon)


def _starts_terminal(text: str, start: int) -> bool:
    head = re.match(r"[?!]*(_*[A-Za-z][A-Za-z0-9_]*)\s*(?:\.\s*-?\d+\s*)?:", text[start:])
    return bool(head) and head.group(1).lstrip("_")[:1].isupper()  # type: ignore[union-attr]


def _is_definition(text: str, match: re.Match[str]) -> bool:
    """True for the name that starts its own definition (``NAME:`` or ``NAME.2:``)."""
    line_start = text.rfind("\n", 0, match.start()) + 1
    if text[line_start : match.start()].strip():
        return False
    return bool(re.match(r"\s*(?:\.\s*-?\d+\s*)?:", text[match.end() :]))


def _definitions(lexicon: Mapping[str, Iterable[str]]) -> str:
    groups = signatures(lexicon)
    names = {signature: f"{PREFIX_TERMINAL}{number}" for number, signature in enumerate(groups)}
    lines = ["", "// words in several classes: generated by symcomp.core.word_classes"]
    for terminal in lexicon:
        members = [names[sig] for sig in groups if terminal in sig]
        lines.append(f"{_rule_name(terminal)}: {' | '.join(members)}")
    for signature, words in groups.items():
        lines.append(f"{names[signature]}: {_pattern(words)}")
    return "\n".join(lines) + "\n"
