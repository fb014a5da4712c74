"""Vocabularies: tokens <-> ids, built from training records, saved with a run.

Inputs and outputs of every symcomp language are whitespace-tokenised. Ids 0..3 are the
specials ``<pad>``, ``<bos>``, ``<eos>``, ``<unk>``; the rest follow first occurrence, so the
same records give the same ids.

>>> vocab = Vocab.build([["jump", "twice"], ["walk"]])
>>> vocab.encode(["walk", "run"])
[6, 3]
>>> vocab.decode([6, 2, 4])
['walk']
>>> Vocab.from_json(vocab.to_json()) == vocab
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from symcomp.errors import DataError

PAD, BOS, EOS, UNK = 0, 1, 2, 3
IGNORE = -100  # target id the losses skip
SPECIALS = ("<pad>", "<bos>", "<eos>", "<unk>")


def tokenize(text: str) -> list[str]:
    """Whitespace tokens (the tokenisation every symcomp language uses)."""
    return text.split()


@dataclass(frozen=True)
class Vocab:
    """An ordered token list; ``index`` maps each token to its id."""

    tokens: tuple[str, ...]
    index: dict[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.tokens[: len(SPECIALS)] != SPECIALS:
            raise DataError(f"a vocabulary starts with {SPECIALS}; got {self.tokens[:4]}.")
        object.__setattr__(self, "index", {t: i for i, t in enumerate(self.tokens)})

    @classmethod
    def build(cls, sequences: Iterable[Sequence[str]]) -> Vocab:
        """Specials, then every token in order of first occurrence."""
        seen = dict.fromkeys(SPECIALS)
        for sequence in sequences:
            seen.update(dict.fromkeys(sequence))
        return cls(tuple(seen))

    def __len__(self) -> int:
        return len(self.tokens)

    def encode(self, tokens: Sequence[str]) -> list[int]:
        """Ids of ``tokens`` (unknown tokens -> ``<unk>``)."""
        return [self.index.get(token, UNK) for token in tokens]

    def decode(self, ids: Iterable[int]) -> list[str]:
        """Tokens of ``ids`` up to the first ``<eos>``, without specials other than ``<unk>``."""
        out = []
        for i in ids:
            if i == EOS:
                break
            if i in (PAD, BOS):
                continue
            out.append(self.tokens[i])
        return out

    def to_json(self) -> list[str]:
        return list(self.tokens)

    @classmethod
    def from_json(cls, data: Any) -> Vocab:
        if not isinstance(data, list) or not all(isinstance(t, str) for t in data):
            raise DataError("a saved vocabulary is a JSON list of token strings.")
        return cls(tuple(data))


@dataclass(frozen=True)
class Labels:
    """Class labels of a classifier (sorted, so ids do not depend on record order).

    >>> labels = Labels.build(["10", "2", "10"])
    >>> labels.names, labels.encode("2")
    (('10', '2'), 1)
    """

    names: tuple[str, ...]
    index: dict[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "index", {name: i for i, name in enumerate(self.names)})

    @classmethod
    def build(cls, values: Iterable[str]) -> Labels:
        return cls(tuple(sorted(set(values))))

    def __len__(self) -> int:
        return len(self.names)

    def encode(self, value: str) -> int:
        """The id of ``value``, or -100 (ignored by the loss) when it was never seen."""
        return self.index.get(value, IGNORE)
