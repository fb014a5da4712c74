"""One example of a language: input, output, metadata, and (optionally) its derivation.

>>> ex = Example.create("toy", "1.0", "walk twice", "WALK WALK", {"length": 2})
>>> ex.id, ex.to_json()["input"]
('5412df1da4150c95', 'walk twice')
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from lark import Tree

from symcomp._util import Record

ID_HEX_DIGITS = 16  # 64 bits: collisions are negligible below billions of examples


def content_id(language: str, version: str, text: str) -> str:
    """Stable id of an input: a hash of language name, grammar version and input text."""
    payload = f"{language}\x1f{version}\x1f{text}".encode()
    return hashlib.sha256(payload).hexdigest()[:ID_HEX_DIGITS]


@dataclass(frozen=True)
class Example:
    """An input with its meaning, as written to ``examples.jsonl``.

    Attributes
    ----------
    id : str
        :func:`content_id` of the input.
    input, output : str
        The input text and the rendered meaning.
    meta : mapping
        ``length`` (input tokens), ``depth`` (nesting of function nodes), ``functions``
        (number of function nodes; every rule application when the language names none).
    tree : lark.Tree or None
        The derivation, when known.
    """

    id: str
    input: str
    output: str
    meta: Mapping[str, Any]
    tree: Tree[Any] | None = field(default=None, compare=False, repr=False)

    @classmethod
    def create(
        cls,
        language: str,
        version: str,
        text: str,
        output: str,
        meta: Mapping[str, Any],
        tree: Tree[Any] | None = None,
    ) -> Example:
        return cls(content_id(language, version, text), text, output, dict(meta), tree)

    def to_json(self) -> Record:
        """The JSON object of one ``examples.jsonl`` line, without its derivation (the
        language adds that: :meth:`symcomp.core.language.Language.record`)."""
        return {"id": self.id, "input": self.input, "output": self.output, "meta": dict(self.meta)}
