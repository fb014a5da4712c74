"""``ngrams``: atoms are the whitespace tokens of a text, compounds its distinct n-grams.

The NQG/TMCD test vectors use unigrams and bigram sets; here the text is the input (default)
or the output (``on``) and ``n`` is an option (default 2). The same features as
:func:`symcomp.dbca.features.ngram_features`.

>>> extractor = build(None, "output", {"n": "2"})
>>> extractor.sets({"output": "jump jump jump"})
(['jump', 'jump', 'jump'], ['jump jump'])
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from symcomp.dbca.extractors.base import AtomsAndCompounds, Extractor, no_options, text_of
from symcomp.errors import DataError

VERSION = 1
DEFAULT_N = 2


def ngrams(text: str, n: int) -> AtomsAndCompounds:
    """Tokens (every occurrence) and distinct n-grams (first-seen order) of ``text``.

    >>> ngrams("a b a b", 2)
    (['a', 'b', 'a', 'b'], ['a b', 'b a'])
    """
    tokens = text.split()
    grams = dict.fromkeys(" ".join(tokens[i : i + n]) for i in range(len(tokens) - n + 1))
    return tokens, list(grams)


def build(argument: str | None, on: str | None, options: Mapping[str, str]) -> Extractor:
    """The ``ngrams`` extractor (no argument; option ``n``)."""
    no_options("ngrams", options, ("n",))
    if argument is not None:
        raise DataError(f"extractor ngrams takes no argument, got ngrams:{argument}; use n=N.")
    try:
        n = int(options.get("n", DEFAULT_N))
    except ValueError:
        raise DataError(
            f"extractor ngrams: n must be a whole number, got {options['n']!r}."
        ) from None
    if n < 1:
        raise DataError(f"extractor ngrams: n must be at least 1, got {n}.")
    field = on or "input"

    def sets(record: Mapping[str, Any]) -> AtomsAndCompounds:
        return ngrams(text_of(record, field), n)

    return Extractor("ngrams", VERSION, field, sets=sets, options={"n": n})
