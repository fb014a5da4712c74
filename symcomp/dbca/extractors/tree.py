"""TMCD atoms and compounds of FunQL and s-expression trees, as NQG defines them.

Shaw et al. (2021), *Compositional Generalization and Natural Language Variation*, build their
GeoQuery TMCD split from the FunQL target of each example. Their definitions live in
``language/compgen/nqg/tasks/geoquery/tmcd_utils.py`` of ``google-research/language`` (read at
commit ``865fae65f63ef7e6b2989d4ff8b47f61750415a8``; the file last changed in ``13fd14e``):

* **Atoms** (``get_atoms``): the set of whitespace-separated tokens of the target other than
  ``(``, ``)`` and ``,``. Function names and constants alike are atoms, whatever their arity
  (arity-tagged atoms, ``get_atoms_with_num_arguments``, are an option that is off by default).
  ``_`` is an ordinary atom. A multi-word constant gives one atom per word.
* **Compounds** (``get_compounds``): a ``Counter`` with one entry per parent-child edge: the
  parent's name with its argument list, every argument replaced by the placeholder ``__``
  except the child's position, which holds the child's name (only its name, not its own
  arguments), formatted ``"%s( %s )" % (parent, " , ".join(arguments))``, e.g.
  ``most( __ , loc_1 , __ )``. A leaf (arity 0) is the child of compounds but has none of its own.
  Repeated edges are counted.
* **Tokenisation**: NQG's targets are pre-processed (``xml_file_utils.process_funql`` and
  ``funql_normalization.add_space_separation``): quotes are deleted and ``(``, ``)``, ``,`` are
  surrounded by spaces, so ``cityid('new york', _)`` becomes ``cityid ( new york , _ )``. Its
  parser splits arguments at top-level commas and takes the text before the first ``(`` as the
  name, so the compound child of that example is ``new york`` while its atoms are ``new`` and
  ``york``.

Both functions here give exactly NQG's atoms (as a list of distinct atoms in order of first
appearance) and compounds (one string per occurrence, in NQG's order), for the compact
(``f(a,b)``) and the spaced (``f ( a , b )``) FunQL forms alike. They differ only where NQG's
ad-hoc parser has no sensible answer: a quoted constant (``'...'`` or ``"..."``, no escapes) is
one symbol even when it holds ``(``, ``)`` or ``,`` (NQG deletes single quotes first and would
split there; it keeps double quotes as characters); runs of whitespace inside a name become one
space; and text NQG would silently mis-read (unbalanced parentheses, ``f()``, empty arguments,
trailing text, an unterminated quote, an empty text) is a :class:`~symcomp.errors.DataError`
whose message shows the place with a caret. As in NQG, a symbol spelled ``__`` cannot be told
from the placeholder.

An s-expression ``(answer (population_1 (cityid austin _)))`` is read as the same tree: the
head of a list is the parent, its other elements are the children in positions 0..n-1, so a
FunQL string and its s-expression rendering have the same atoms and compounds. In s-expressions
commas are ordinary characters, a constant with spaces must be quoted, and ``(f)`` is ``f``
with no arguments.

>>> atoms, compounds = funql_atoms_compounds("answer(population_1(cityid('new york', _)))")
>>> atoms
['answer', 'population_1', 'cityid', 'new', 'york', '_']
>>> compounds  # doctest: +NORMALIZE_WHITESPACE
['answer( population_1 )', 'population_1( cityid )', 'cityid( new york , __ )',
 'cityid( __ , _ )']
>>> sexpr_atoms_compounds("(answer (population_1 (cityid 'new york' _)))") == (atoms, compounds)
True
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from symcomp.dbca.extractors.base import AtomsAndCompounds, Extractor, no_options, text_of
from symcomp.errors import DataError

# NQG's placeholder for the argument positions a compound leaves open (tmcd_utils._PLACEHOLDER).
PLACEHOLDER = "__"

# A quoted constant is tried before a lone quote, which is then an unterminated one.
_FUNQL_TOKENS = re.compile(
    r"""\s+|'(?P<q1>[^']*)'|"(?P<q2>[^"]*)"|(?P<punct>[(),])|(?P<quote>['"])|(?P<word>[^\s(),'"]+)"""
)
# S-expressions have no argument separator: a comma is part of a word.
_SEXPR_TOKENS = re.compile(
    r"""\s+|'(?P<q1>[^']*)'|"(?P<q2>[^"]*)"|(?P<punct>[()])|(?P<quote>['"])|(?P<word>[^\s()'"]+)"""
)
# Characters of context shown on each side of the caret; long targets are cut around it.
_CONTEXT = 60


@dataclass(frozen=True)
class _Token:
    kind: str  # "(", ")", ",", "word" or "quoted"
    text: str  # a quoted constant's content, otherwise as written
    raw: str  # as written, for messages
    index: int  # 0-based offset in the text, for the caret


@dataclass
class _Node:
    name: str
    children: list[_Node] = field(default_factory=list)


def funql_atoms_compounds(text: str) -> tuple[list[str], list[str]]:
    """NQG's TMCD atoms and compounds of a FunQL target.

    Parameters
    ----------
    text
        A FunQL term, compact (``answer(cityid('austin', _))``) or spaced as in NQG's TSV files
        (``answer ( cityid ( austin , _ ) )``).

    Returns
    -------
    tuple of (list of str, list of str)
        The distinct atoms in order of first appearance, and one compound string per
        parent-child edge (``parent( __ , child )``), in NQG's order.

    Raises
    ------
    DataError
        If ``text`` is not one well-formed FunQL term; the message shows the place with a caret.

    Examples
    --------
    >>> funql_atoms_compounds("f(g(x), g(x))")
    (['f', 'g', 'x'], ['f( g , __ )', 'g( x )', 'f( __ , g )', 'g( x )'])
    """
    return _atoms_compounds(_FunqlParser(text).parse())


def sexpr_atoms_compounds(text: str) -> tuple[list[str], list[str]]:
    """NQG's TMCD atoms and compounds of a tree written as an s-expression.

    Parameters
    ----------
    text
        An s-expression such as ``(answer (population_1 (cityid austin _)))``; the head of each
        list is the parent, the other elements are its arguments in order.

    Returns
    -------
    tuple of (list of str, list of str)
        As :func:`funql_atoms_compounds` for the same tree.

    Raises
    ------
    DataError
        If ``text`` is not one well-formed s-expression; the message shows the place with a caret.

    Examples
    --------
    >>> sexpr_atoms_compounds("(most state loc_1 city)")[1]
    ['most( state , __ , __ )', 'most( __ , loc_1 , __ )', 'most( __ , __ , city )']
    """
    return _atoms_compounds(_SexprParser(text).parse())


def _atoms_compounds(root: _Node) -> tuple[list[str], list[str]]:
    """Atoms and compounds in pre-order, the order of NQG's recursion and of the text."""
    atoms: dict[str, None] = {}  # an insertion-ordered set
    compounds: list[str] = []
    # an explicit stack instead of recursion (deep trees must not hit Python's recursion limit);
    # an edge's compound is emitted when its child is visited, as in NQG's recursion
    stack: list[tuple[_Node, _Node | None, int]] = [(root, None, 0)]
    while stack:
        node, parent, position = stack.pop()
        atoms.update(dict.fromkeys(node.name.split()))
        if parent is not None:
            compounds.append(_compound(parent.name, len(parent.children), node.name, position))
        stack.extend((child, node, i) for i, child in reversed(list(enumerate(node.children))))
    return list(atoms), compounds


def _compound(parent: str, arity: int, child: str, position: int) -> str:
    """NQG's ``_get_compound_string``: the child's name in its position, ``__`` elsewhere."""
    arguments = [PLACEHOLDER] * arity
    arguments[position] = child
    return f"{parent}( {' , '.join(arguments)} )"


def _caret_error(problem: str, text: str, index: int) -> DataError:
    """A DataError naming the problem, with the text on one line and ``^`` under ``index``."""
    # every whitespace character becomes one space so that the caret column stays right
    flat = "".join(" " if char.isspace() else char for char in text)
    start = max(0, index - _CONTEXT)
    end = index + _CONTEXT
    shown = ("..." if start else "") + flat[start:end] + ("..." if end < len(flat) else "")
    offset = index - start + (3 if start else 0)
    return DataError(f"{problem} at column {index + 1}:\n  {shown}\n  {' ' * offset}^")


def _tokenise(text: str, pattern: re.Pattern[str]) -> list[_Token]:
    tokens = []
    for match in pattern.finditer(text):
        kind, raw = match.lastgroup, match.group()
        if kind == "quote":
            raise _caret_error(f"unterminated quote {raw}", text, match.start())
        if kind in ("q1", "q2"):
            tokens.append(_Token("quoted", match.group(kind), raw, match.start()))
        elif kind is not None:  # None: whitespace
            tokens.append(_Token(raw if kind == "punct" else kind, raw, raw, match.start()))
    return tokens


class _Parser:
    """What both syntaxes share: the token cursor, names, the end of the text and errors."""

    def __init__(self, text: str, pattern: re.Pattern[str], syntax: str) -> None:
        self.text = text
        self.tokens = _tokenise(text, pattern)
        self.position = 0
        if not self.tokens:
            raise _caret_error(f"empty {syntax} text", text, 0)

    def peek(self) -> _Token | None:
        return self.tokens[self.position] if self.position < len(self.tokens) else None

    def error(self, problem: str, token: _Token | None) -> DataError:
        return _caret_error(problem, self.text, len(self.text) if token is None else token.index)

    def name(self, token: _Token) -> str:
        """The symbol of a word or quoted token: NQG deletes quotes and strips spaces."""
        name = " ".join(token.text.split())
        if not name:
            raise self.error("empty quoted constant", token)
        return name

    def finish(self, root: _Node) -> _Node:
        token = self.peek()
        if token is None:
            return root
        if token.kind == ")":
            raise self.error("unbalanced ')'", token)
        if token.kind == ",":
            raise self.error("',' outside an argument list", token)
        raise self.error(f"trailing text {token.raw!r} after the end of the term", token)


class _FunqlParser(_Parser):
    """``term := name ['(' term (',' term)* ')']``, ``name := quoted | word+``."""

    def __init__(self, text: str) -> None:
        super().__init__(text, _FUNQL_TOKENS, "FunQL")

    def parse(self) -> _Node:
        return self.finish(self.term())

    def term(self) -> _Node:
        root = _Node(self.symbol(None))
        last: _Node | None = root
        # an explicit stack of open calls and their '(' instead of recursion: any depth works
        calls: list[tuple[_Node, _Token]] = []
        while True:
            token = self.peek()
            kind = None if token is None else token.kind
            if token is not None and kind == "(" and last is not None:
                calls.append((last, token))
            elif calls and kind == ")":
                calls.pop()
                self.position += 1
                last = None  # a closed call takes no '(' after it
                continue
            elif calls and kind != ",":
                raise self.unexpected(token, calls[-1][1])
            elif not calls:
                return root  # finish() reports what follows, if anything
            self.position += 1
            last = _Node(self.symbol(token))
            calls[-1][0].children.append(last)

    def unexpected(self, token: _Token | None, opening: _Token) -> DataError:
        if token is None:
            return self.error("unbalanced '(' (never closed)", opening)
        return self.error(f"expected ',' or ')' after an argument, got {token.raw!r}", token)

    def symbol(self, before: _Token | None) -> str:
        """A name: one quoted constant or a run of words (NQG keeps multi-word names whole)."""
        token = self.peek()
        if token is None:
            raise self.error("unexpected end of text: expected a symbol", None)
        if token.kind == "quoted":
            self.position += 1
            return self.name(token)
        if token.kind != "word":
            raise self.error(self.not_a_symbol(before, token), token)
        words = []
        while token is not None and token.kind == "word":
            words.append(token.text)
            self.position += 1
            token = self.peek()
        return " ".join(words)

    @staticmethod
    def not_a_symbol(before: _Token | None, token: _Token) -> str:
        if before is None and token.kind == ")":
            return "unbalanced ')'"
        if before is not None and before.kind == "(" and token.kind == ")":
            return "empty argument list '()'"
        if before is not None and token.kind in (",", ")"):
            return "empty argument"
        return f"expected a symbol, got {token.raw!r}"


class _SexprParser(_Parser):
    """``term := atom | '(' atom term* ')'``, ``atom := word | quoted``."""

    def __init__(self, text: str) -> None:
        super().__init__(text, _SEXPR_TOKENS, "s-expression")

    def parse(self) -> _Node:
        return self.finish(self.term())

    def term(self) -> _Node:
        # an explicit stack of open lists and their '(' instead of recursion: any depth works
        lists: list[tuple[_Node, _Token]] = []
        while True:
            token = self.peek()
            if token is None:  # the text is not empty and a complete term returns at once
                raise self.error("unbalanced '(' (never closed)", lists[-1][1])
            self.position += 1
            if token.kind == ")":
                if not lists:
                    raise self.error("unbalanced ')'", token)
                node = lists.pop()[0]
                if not lists:
                    return node
                continue
            node = _Node(self.head(token) if token.kind == "(" else self.name(token))
            if lists:
                lists[-1][0].children.append(node)
            if token.kind == "(":
                lists.append((node, token))
            elif not lists:
                return node

    def head(self, opening: _Token) -> str:
        token = self.peek()
        if token is None:
            raise self.error("unbalanced '(' (never closed)", opening)
        if token.kind in ("(", ")"):
            problem = "empty list '()'" if token.kind == ")" else "the head of a list is '('"
            raise self.error(f"{problem}: a list starts with a symbol", token)
        self.position += 1
        return self.name(token)


VERSION = 1
TREE_FORMATS = {"funql": funql_atoms_compounds, "sexpr": sexpr_atoms_compounds}


def build(argument: str | None, on: str | None, options: Mapping[str, str]) -> Extractor:
    """The ``tree:funql`` / ``tree:sexpr`` extractor (reads the output by default: TMCD's
    atoms and compounds are those of the target)."""
    no_options("tree", options)
    if argument not in TREE_FORMATS:
        raise DataError(
            f"extractor tree needs the notation: tree:funql or tree:sexpr, got "
            f"tree:{argument or ''}."
        )
    read = TREE_FORMATS[argument]
    field_name = on or "output"

    def sets(record: Mapping[str, Any]) -> AtomsAndCompounds:
        return read(text_of(record, field_name))

    return Extractor(f"tree:{argument}", VERSION, field_name, sets=sets)
