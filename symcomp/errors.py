"""The symcomp error hierarchy.

Every error a user can cause derives from :class:`SymcompError` and also from the builtin it
refines, so ``except ValueError`` keeps working for callers who do not know symcomp. Messages
say what was got, what was expected, where (file:line, or a caret under the offending text) and
how to fix it. The CLI turns these into one paragraph on stderr and exit code 2.
"""

from __future__ import annotations


class SymcompError(Exception):
    """Base class of every error symcomp raises on bad input or bad usage."""


class GrammarError(SymcompError, ValueError):
    """A ``.lark`` grammar or its sidecar ``.toml`` is malformed or inconsistent."""


class ParseError(SymcompError, ValueError):
    """An input text is not in the language; the message shows the place with a caret."""


class SemanticsError(SymcompError, ValueError):
    """A semantics class cannot interpret a tree (missing method, or a method failed)."""


class LanguageNotFoundError(SymcompError, KeyError):
    """No language is registered under the requested name."""

    def __str__(self) -> str:
        # KeyError.__str__ quotes its argument; show the message as written.
        return str(self.args[0]) if self.args else ""


class GenerationError(SymcompError, RuntimeError):
    """A pool with the requested properties cannot be produced (nothing is written)."""


class DataError(SymcompError, ValueError):
    """An artifact on disk (examples.jsonl, manifest.json, a TSV) is malformed."""


class OutputError(SymcompError, OSError):
    """An output location cannot be written (permissions, existing files, not a folder)."""
