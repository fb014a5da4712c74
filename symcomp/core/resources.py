"""Files shipped inside the package: ``symcomp.grammars`` and ``symcomp.provers``.

In the repository they are the top-level ``grammars/`` and ``provers/`` folders; the build maps
them into the wheel, and they are always read through :mod:`importlib.resources` so the same
code works from a checkout, an editable install and a wheel.
"""

from __future__ import annotations

from importlib import resources
from importlib.resources.abc import Traversable

from symcomp.core.grammar import Grammar
from symcomp.core.sidecar import Sidecar
from symcomp.errors import GrammarError


def grammar_file(filename: str) -> Traversable:
    """A file of the packaged ``grammars/`` folder."""
    return resources.files("symcomp.grammars") / filename


def prover_file(path: str) -> Traversable:
    """A file of the packaged ``provers/`` folder (``path`` may contain ``/``)."""
    node = resources.files("symcomp.provers")
    for part in path.split("/"):
        node = node / part
    return node


def load_grammar(name: str, stem: str) -> Grammar:
    """Load the packaged grammar ``<stem>.lark`` with its sidecar ``<stem>.toml``."""
    lark_file, toml_file = grammar_file(f"{stem}.lark"), grammar_file(f"{stem}.toml")
    if not lark_file.is_file() or not toml_file.is_file():
        raise GrammarError(f"packaged grammar {stem}.lark/.toml is missing; reinstall symcomp.")
    sidecar = Sidecar.from_toml(toml_file.read_text(encoding="utf-8"), str(toml_file))
    return Grammar(lark_file.read_text(encoding="utf-8"), sidecar, name=name, source=str(lark_file))
