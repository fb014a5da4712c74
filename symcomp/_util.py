"""Small helpers with one copy each, used across the layers (imports nothing of symcomp).

>>> did_you_mean("apend", ["append", "prepend"])
" (did you mean 'append'?)"
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from typing import Any

Record = dict[str, Any]
"""One JSON object of an ``examples.jsonl`` (or pair/auxiliary) file, as read or written:
``id``, ``input``, ``output``, ``meta`` and, when written with DAGs, ``derivation``; NLI pair
records add ``premise``, ``hypothesis`` and ``label``. Records are plain dicts so they
round-trip through JSON unchanged."""


def did_you_mean(word: str, candidates: Iterable[str]) -> str:
    """Return ``" (did you mean 'x'?)"`` for the closest candidate, or ``""``."""
    close = difflib.get_close_matches(word, sorted(candidates), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""
