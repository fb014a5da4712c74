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

from symcomp.core.derivation import tree_to_node_link
from symcomp.core.grammar import Grammar
from symcomp.dbca.compounds import Dag
from symcomp.dbca.extractors.base import Extractor, boolean_option, no_options, text_of
from symcomp.errors import DataError, SymcompError

VERSION = 1


def read_grammar(path: Path, start: str) -> tuple[Grammar, str]:
    """The compiled grammar of a ``.lark`` file and the file's sha256."""
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
    try:
        grammar = Grammar.from_text(
            text, {"language": {"version": "1", "start": start}}, name=path.name, source=str(path)
        )
    except SymcompError as error:
        raise DataError(f"grammar {path} cannot be used: {error}") from None
    return grammar, hashlib.sha256(data).hexdigest()


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
    grammar, sha256 = read_grammar(Path(argument), start)
    field = on or "input"

    def dag(record: Mapping[str, Any]) -> Dag:
        tree = grammar.parse(text_of(record, field))
        return Dag.from_node_link(labelled(tree_to_node_link(tree), tokens))

    return Extractor(
        f"grammar:{argument}",
        VERSION,
        field,
        dag=dag,
        options={"start": start, "tokens": tokens},
        sha256=sha256,
    )
