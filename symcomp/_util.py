"""Small helpers with one copy each, used across the layers (imports nothing of symcomp).

>>> did_you_mean("apend", ["append", "prepend"])
" (did you mean 'append'?)"
>>> make_rng(3).random() == make_rng(make_rng(3)).random()
True
"""

from __future__ import annotations

import difflib
import random
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, TypeAlias

if TYPE_CHECKING:  # numpy is imported where a generator is made, not by every user of _util
    import numpy as np

Record = dict[str, Any]
"""One JSON object of an ``examples.jsonl`` (or pair/auxiliary) file, as read or written:
``id``, ``input``, ``output``, ``meta`` and, when written with DAGs, ``derivation``; NLI pair
records add ``premise``, ``hypothesis`` and ``label``. Records are plain dicts so they
round-trip through JSON unchanged."""


Seed: TypeAlias = int | random.Random | None
"""The ``seed`` of a function that draws with :mod:`random`: an int (the same int, the same
draws), a generator to draw from (a caller's stream, advanced), or None (fresh entropy)."""

GeneratorSeed: TypeAlias = "int | np.random.Generator"
"""The ``seed`` of a function that draws with numpy: an int or a generator to draw from."""


def make_rng(seed: Seed) -> random.Random:
    """A private generator: from an int (or None for fresh entropy), or the given one."""
    return seed if isinstance(seed, random.Random) else random.Random(seed)


def make_generator(seed: GeneratorSeed) -> np.random.Generator:
    """A numpy generator: from an int, or the given one.

    >>> int(make_generator(3).integers(100)) == int(make_generator(make_generator(3)).integers(100))
    True
    """
    import numpy as np

    return seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)


def split_lines(text: str) -> list[str]:
    r"""The lines of a text file's contents, split at line feeds only (a ``\r`` before one
    dropped, no empty line after the last), as JSON lines and TSV files end their lines.

    :meth:`str.splitlines` also splits at U+2028, U+2029, U+0085 and other separators, which a
    JSON string may hold raw (the harness writes its samples with ``ensure_ascii=False``) and
    a TSV field may hold too: a line must end at ``\n`` only.

    >>> split_lines('{"a": "x\u2028y"}\r\n{"b": 1}\n')
    ['{"a": "x\u2028y"}', '{"b": 1}']
    >>> split_lines(""), split_lines("a"), split_lines("a\n\n")
    ([], ['a'], ['a', ''])
    """
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line.removesuffix("\r") for line in lines]


def did_you_mean(word: str, candidates: Iterable[str]) -> str:
    """Return ``" (did you mean 'x'?)"`` for the closest candidate, or ``""``."""
    close = difflib.get_close_matches(word, sorted(candidates), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""
