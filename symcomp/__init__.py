"""symcomp: build compositional-generalisation benchmarks from grammars, and test models on them.

The public API: languages (built-in or your own), sampling, parsing and interpretation.

>>> import symcomp
>>> scan = symcomp.get_language("scan")
>>> scan.interpret("walk twice")
'I_WALK I_WALK'
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from symcomp.errors import (
    DataError,
    GenerationError,
    GrammarError,
    LanguageNotFoundError,
    OutputError,
    ParseError,
    SemanticsError,
    SymcompError,
)
from symcomp.version import __version__

if TYPE_CHECKING:
    from symcomp.core.example import Example, content_id
    from symcomp.core.grammar import Grammar
    from symcomp.core.language import Language
    from symcomp.core.registry import available, get_language, load_plugins, register
    from symcomp.core.semantics import Semantics
    from symcomp.core.sidecar import Sidecar

# The rest of the API is imported on first use, so `symcomp --help` does not load lark and
# networkx (the CLI lives in the subpackage symcomp.cli, whose import runs this file).
_LAZY = {
    "Example": "symcomp.core.example",
    "content_id": "symcomp.core.example",
    "Grammar": "symcomp.core.grammar",
    "Language": "symcomp.core.language",
    "available": "symcomp.core.registry",
    "get_language": "symcomp.core.registry",
    "load_plugins": "symcomp.core.registry",
    "register": "symcomp.core.registry",
    "Semantics": "symcomp.core.semantics",
    "Sidecar": "symcomp.core.sidecar",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'symcomp' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(__all__)


__all__ = [
    "DataError",
    "Example",
    "GenerationError",
    "Grammar",
    "GrammarError",
    "Language",
    "LanguageNotFoundError",
    "OutputError",
    "ParseError",
    "Semantics",
    "SemanticsError",
    "Sidecar",
    "SymcompError",
    "__version__",
    "available",
    "content_id",
    "get_language",
    "load_plugins",
    "register",
]
