"""symcomp: build compositional-generalisation benchmarks from grammars, and test models on them.

The public API: languages (built-in or your own), sampling, parsing and interpretation.

>>> import symcomp
>>> scan = symcomp.get_language("scan")
>>> scan.interpret("walk twice")
'I_WALK I_WALK'
"""

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
from symcomp.example import Example, content_id
from symcomp.grammar import Grammar
from symcomp.language import Language
from symcomp.registry import available, get_language, load_plugins, register
from symcomp.semantics import Semantics
from symcomp.sidecar import Sidecar
from symcomp.version import __version__

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
