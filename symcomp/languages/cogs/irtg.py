"""Reading the content of SLOG's IRTG transcription of the COGS grammar (Li et al. 2023, MIT).

``bingzhilee/SLOG`` (``generation_scripts/grammars/``) holds the COGS grammar as Alto IRTG
files with Jinja templates: ``main-grammar.irtg`` ("From Najoung's grammar": rules with their
probabilities), ``lexicon.irtg`` (the word lists, each drawn Zipf(1.4) over list order), and
one variant per structural generalisation case. This module reads what symcomp needs from
them — each rule's left side, right side and weight, each lexical category's words and the
verb lemmas — without running Jinja or Alto. Only :mod:`symcomp.languages.cogs.make_grammar`
uses it, to write ``grammars/cogs.lark`` and ``grammars/cogs.toml``.

>>> text = 'S! -> r{{ cnt.next() }}(NP, VP) [0.49]\\n[english] *(?1, ?2)\\n'
>>> read_rules(text)
{'S -> NP VP': 0.49}
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

from symcomp.errors import GrammarError

_RULE = re.compile(
    r"^(?P<lhs>[A-Za-z_]+)!?\s*->\s*[^\s(\[]*\s*(?:\((?P<rhs>[^)]*)\))?\s*\[(?P<w>[0-9.eE-]+)\]",
    re.M,
)
_SET = re.compile(r"\{%\s*set\s+(?P<name>\w+)\s*=\s*(?P<value>[\[{].*?[\]}])\s*%\}", re.S)
_LOOP = re.compile(
    r"\{%\s*for word, prob in (?P<list>\w+)\|zipf\s*-?%\}\s*"
    r"(?:\{%\s*for cat in (?P<cats>\[[^\]]*\])\s*-?%\}\s*\{\{\s*cat\s*\}\}|(?P<cat>\w+))"
    r"\s*->[^\n]*\n\[english\]\s*\{\{\s*(?P<english>[^}]*?)\s*\}\}",
)
_FIXED = re.compile(
    r"^(?P<cat>\w+)\s*->\s*r\{\{[^}]*\}\}\s*\[(?P<w>[0-9.]+)\]\s*\n\[english\]\s*(?P<word>\S+)",
    re.M,
)


def _plain(text: str) -> str:
    """The text without Jinja comments and expressions (rule labels use ``{{ cnt.next() }}``)."""
    text = re.sub(r"\{#.*?#\}", "", text, flags=re.S)
    return re.sub(r"\{\{.*?\}\}", "", text)


def read_rules(text: str) -> dict[str, float]:
    """Every rule of an IRTG grammar as ``"LHS -> RHS1 RHS2"`` with its weight (``S!`` is
    ``S``); a rule written twice is an error."""
    rules: dict[str, float] = {}
    for lhs, rhs, weight in rule_list(text):
        key = f"{lhs} -> {' '.join(rhs)}".strip()
        if key in rules:
            raise GrammarError(f"IRTG rule {key!r} is written twice.")
        rules[key] = weight
    return rules


def rule_list(text: str) -> list[tuple[str, tuple[str, ...], float]]:
    """Every rule of an IRTG grammar in file order as ``(lhs, rhs, weight)`` (``S!`` is ``S``),
    a rule written twice (with two semantics) listed twice.

    >>> rule_list('S! -> r1(NP, VP) [0.49]\\nNP -> r2(Det, N) [1]\\n')
    [('S', ('NP', 'VP'), 0.49), ('NP', ('Det', 'N'), 1.0)]
    """
    found = []
    for match in _RULE.finditer(_plain(text)):
        parts = (match.group("rhs") or "").split(",")
        rhs = tuple(part.strip().rstrip("!") for part in parts if part.strip())
        found.append((match.group("lhs"), rhs, float(match.group("w"))))
    return found


@dataclass(frozen=True)
class Category:
    """The words of one lexical category, in list order, and how they are weighted."""

    words: tuple[str, ...]
    zipf: bool  # True: Zipf(1.4) over list order (SLOG's `|zipf` filter); False: weights given
    weights: tuple[float, ...] = ()


@dataclass(frozen=True)
class Lexicon:
    """The lexical categories of ``lexicon.irtg`` and its verb lemma table."""

    categories: dict[str, Category]
    lemmas: dict[str, str]


def read_lexicon(text: str) -> Lexicon:
    """The categories (Zipf loops and fixed closed-class rules) and lemmas of ``lexicon.irtg``."""
    lists = {m.group("name"): ast.literal_eval(m.group("value")) for m in _SET.finditer(text)}
    lemmas = lists.get("verbs_lemmas")
    if not isinstance(lemmas, dict):
        raise GrammarError("lexicon.irtg: no `verbs_lemmas` table found; is this SLOG's file?")
    categories: dict[str, Category] = {}
    for loop in _LOOP.finditer(text):
        words = tuple(lists[loop.group("list")])
        if loop.group("english").startswith("verbs_lemmas"):
            words = tuple(lemmas[word] for word in words)  # the *_inf categories
        names = ast.literal_eval(loop.group("cats")) if loop.group("cats") else [loop.group("cat")]
        for name in names:
            categories[name] = Category(words, zipf=True)
    fixed: dict[str, list[tuple[str, float]]] = {}
    for rule in _FIXED.finditer(_plain_keep_rules(text)):
        fixed.setdefault(rule.group("cat"), []).append((rule.group("word"), float(rule.group("w"))))
    for name, entries in fixed.items():
        if name not in categories:
            categories[name] = Category(
                tuple(w for w, _ in entries), zipf=False, weights=tuple(p for _, p in entries)
            )
    return Lexicon(categories, dict(lemmas))


def _plain_keep_rules(text: str) -> str:
    """Jinja comments and loops removed, rule labels kept (fixed rules are outside loops)."""
    text = re.sub(r"\{#.*?#\}", "", text, flags=re.S)
    return re.sub(r"\{%\s*for.*?\{%\s*endfor\s*%\}", "", text, flags=re.S)


def read_irtg_file(path: Path) -> str:
    """The text of one of SLOG's grammar files; a file that cannot be read is a
    :class:`~symcomp.errors.GrammarError` saying which folder to give."""
    try:
        return path.read_text(encoding="utf-8")
    except OSError as error:
        raise GrammarError(
            f"{path}: cannot read ({error.strerror or error}); give the folder "
            "generation_scripts/grammars of bingzhilee/SLOG."
        ) from None
