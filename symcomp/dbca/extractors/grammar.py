"""``grammar:FILE.lark``: the parse tree of a text under the user's Lark grammar is its
rule-application DAG.

Each rule application (a tree node, named by its alias or rule) is one node; its sub-trees are
its children in argument order, exactly as :func:`symcomp.core.derivation.tree_to_node_link`
builds the DAG of a built-in language's derivation. DBCA compounds, weights and MCD splits then
work as for built-in languages. Tokens are left out of node names (symcomp's own grammars make
every lexical item a rule alias); option ``tokens=true`` names each node by its rule and the
tokens it matched (``pred population_1``), for grammars whose terminals carry the content.

Options: ``start`` (the start rule, default ``start``), ``tokens`` (default false). The grammar
is read once; its sha256 is recorded. A text the grammar does not parse is a
:class:`~symcomp.errors.DataError` showing the place with a caret.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "lf.lark"
>>> _ = path.write_text('start: pred\\npred: "f" "(" pred ")" -> f | "x" -> x\\n%ignore " "\\n')
>>> extractor = build(str(path), None, {})
>>> extractor.dag({"input": "f(f(x))"}).labels
('start', 'f', 'f', 'x')
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from lark import Lark, Tree
from lark.exceptions import LarkError, UnexpectedInput

from symcomp.core.derivation import tree_to_node_link
from symcomp.dbca.compounds import Dag
from symcomp.dbca.extractors.base import Extractor, boolean_option, no_options, text_of
from symcomp.errors import DataError

VERSION = 1


def read_grammar(path: Path, start: str) -> tuple[Lark, str]:
    """The compiled parser of a ``.lark`` file (LALR, else Earley, with the options symcomp's
    own grammars use) and the file's sha256."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise DataError(
            f"grammar {path}: cannot read it ({error.strerror or error}); give the path of a "
            f"Lark grammar (.lark)."
        ) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise DataError(
            f"grammar {path}: byte {error.start} is not UTF-8; save the grammar as UTF-8."
        ) from None
    options: dict[str, Any] = {"start": start, "maybe_placeholders": False}
    try:
        return Lark(text, parser="lalr", **options), hashlib.sha256(data).hexdigest()
    except LarkError:
        pass  # not LALR(1): Earley parses any context-free grammar
    try:
        return Lark(text, parser="earley", **options), hashlib.sha256(data).hexdigest()
    except LarkError as error:
        raise DataError(f"grammar {path}: Lark cannot compile it: {error}".strip()) from None


def parse(parser: Lark, text: str, source: str) -> Tree[Any]:
    """The parse tree of ``text``; a text the grammar does not parse is a :class:`DataError`
    showing the place with a caret (as lark's own messages do)."""
    try:
        return parser.parse(text)
    except UnexpectedInput as error:
        line = text.splitlines()[error.line - 1] if text and error.line > 0 else text
        column = error.column if error.line > 0 and error.column > 0 else len(line) + 1
        expected = sorted(str(name) for name in (getattr(error, "expected", None) or ()))
        hint = f"\n    expected one of: {', '.join(expected[:12])}" if expected else ""
        raise DataError(
            f"not parsed by {source} at column {column}:\n    {line}\n    "
            f"{' ' * (column - 1)}^{hint}"
        ) from None


def labelled(data: Mapping[str, Any], tokens: bool) -> dict[str, Any]:
    """Node-link data whose node names also hold their tokens when ``tokens`` is set."""
    if not tokens:
        return dict(data)
    nodes = [
        {**node, "rule": " ".join([str(node["rule"]), *node.get("tokens", ())])}
        for node in data["nodes"]
    ]
    return {**data, "nodes": nodes}


def build(argument: str | None, on: str | None, options: Mapping[str, str]) -> Extractor:
    """The ``grammar:FILE`` extractor (options ``start``, ``tokens``)."""
    no_options("grammar", options, ("start", "tokens"))
    if not argument:
        raise DataError(
            "extractor grammar needs the grammar file: grammar:PATH.lark (e.g. grammar:lf.lark)."
        )
    start = str(options.get("start", "start"))
    tokens = boolean_option("grammar", options, "tokens", False)
    parser, sha256 = read_grammar(Path(argument), start)
    field = on or "input"
    source = Path(argument).name

    def dag(record: Mapping[str, Any]) -> Dag:
        tree = parse(parser, text_of(record, field), source)
        return Dag.from_node_link(labelled(tree_to_node_link(tree), tokens))

    return Extractor(
        f"grammar:{argument}",
        VERSION,
        field,
        dag=dag,
        options={"start": start, "tokens": tokens},
        sha256=sha256,
    )
