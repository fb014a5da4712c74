"""Naturalised sampling: match a target joint distribution of input length and depth.

PCFG SET was "naturalised": programs were generated with random production probabilities per
example, then resampled so that their (length, depth) distribution follows a target. symcomp
does the second step as stratified acceptance: the target histogram fixes, for a pool of ``n``
examples, how many examples each (length bin, depth bin) cell receives (largest-remainder
rounding); draws falling in a full or empty cell are rejected and counted.

The default target of ``pcfg-set`` is the histogram of the published PCFG SET test set
(provenance inside the file); users pass their own file in the same format::

    {"format": "symcomp.length-depth-histogram/1",
     "length_bin": 5, "depth_bin": 1,
     "counts": [{"length": 10, "depth": 2, "count": 37}, ...],
     "provenance": {...}}

where ``length``/``depth`` are the lower edges of the bins.

>>> target = LengthDepthTarget(length_bin=5, depth_bin=1, counts={(0, 1): 1, (5, 2): 3})
>>> target.quotas(8)
{(0, 1): 2, (5, 2): 6}
>>> target.cell(length=7, depth=2)
(5, 2)
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from symcomp.core.language import Language
from symcomp.core.resources import grammar_file
from symcomp.data.artifacts import read_json
from symcomp.errors import DataError

FORMAT = "symcomp.length-depth-histogram/1"
Cell = tuple[int, int]


@dataclass(frozen=True)
class LengthDepthTarget:
    """A target histogram over (length, depth) cells (lower bin edges as keys)."""

    length_bin: int
    depth_bin: int
    counts: Mapping[Cell, int]
    provenance: Mapping[str, Any] = field(default_factory=dict)
    source: str = "<memory>"

    def cell(self, *, length: int, depth: int) -> Cell:
        """The cell (lower edges) that an example of this length and depth falls in."""
        return (length - length % self.length_bin, depth - depth % self.depth_bin)

    def quotas(self, n: int) -> dict[Cell, int]:
        """How many of ``n`` examples each cell receives (largest remainder, ties by cell)."""
        total = sum(self.counts.values())
        exact = {cell: n * count / total for cell, count in sorted(self.counts.items())}
        quotas = {cell: int(value) for cell, value in exact.items()}
        leftover = n - sum(quotas.values())
        by_remainder = sorted(exact, key=lambda cell: (-(exact[cell] - quotas[cell]), cell))
        for cell in by_remainder[:leftover]:
            quotas[cell] += 1
        return quotas

    def describe(self) -> dict[str, Any]:
        """What the manifest records about the target."""
        return {
            "source": self.source,
            "length_bin": self.length_bin,
            "depth_bin": self.depth_bin,
            "cells": len(self.counts),
            "provenance": dict(self.provenance),
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "length_bin": self.length_bin,
            "depth_bin": self.depth_bin,
            "counts": [
                {"length": length, "depth": depth, "count": count}
                for (length, depth), count in sorted(self.counts.items())
            ],
            "provenance": dict(self.provenance),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any], source: str = "<memory>") -> LengthDepthTarget:
        if not isinstance(data, Mapping):
            raise DataError(f"{source}: a length/depth histogram is a JSON object.")
        try:
            if data.get("format") != FORMAT:
                raise DataError(f"format is {data.get('format')!r}, expected {FORMAT!r}")
            counts = {
                (int(row["length"]), int(row["depth"])): int(row["count"]) for row in data["counts"]
            }
            target = cls(
                int(data["length_bin"]),
                int(data["depth_bin"]),
                counts,
                dict(data.get("provenance", {})),
                source,
            )
        except DataError as error:
            raise DataError(f"{source}: not a length/depth histogram: {error}.") from None
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise DataError(
                f"{source}: not a length/depth histogram ({error!r}); see "
                f"symcomp.data.naturalize for the format."
            ) from None
        if target.length_bin < 1 or target.depth_bin < 1 or not counts:
            raise DataError(f"{source}: bins must be >= 1 and counts non-empty.")
        if any(count < 0 for count in counts.values()) or sum(counts.values()) <= 0:
            raise DataError(f"{source}: counts must be >= 0 with a positive total.")
        return target

    @classmethod
    def load(cls, path: Path) -> LengthDepthTarget:
        """The histogram in the JSON file ``path`` (see :meth:`from_json` for the format)."""
        return cls.from_json(read_json(path, what="a target histogram"), str(path))

    @classmethod
    def default_for(cls, language: Language) -> LengthDepthTarget | None:
        """The histogram the language ships (its sidecar's ``naturalize_target``), or None.

        >>> from symcomp.core.registry import get_language
        >>> LengthDepthTarget.default_for(get_language("pcfg-set")).length_bin
        5
        """
        name = language.grammar.sidecar.naturalize_target
        if not name:
            return None
        packaged = grammar_file(name)  # inside the installed package: it may not be a Path
        return cls.from_json(json.loads(packaged.read_text(encoding="utf-8")), str(packaged))


def histogram(
    pairs: Iterable[tuple[int, int]],
    *,
    length_bin: int = 5,
    depth_bin: int = 1,
    provenance: Mapping[str, Any] | None = None,
) -> LengthDepthTarget:
    """The (length, depth) histogram of a collection, as a target for naturalisation."""
    target = LengthDepthTarget(length_bin, depth_bin, {}, dict(provenance or {}))
    counts = Counter(target.cell(length=length, depth=depth) for length, depth in pairs)
    return LengthDepthTarget(length_bin, depth_bin, dict(counts), dict(provenance or {}))
