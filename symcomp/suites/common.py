"""Helpers shared by the suite builders: records, derived random streams, token tests, stats.

>>> rng_for(0, "task").random() == rng_for(0, "task").random() != rng_for(0, "other").random()
True
>>> has_adjacent("append repeat A1 , B1".split(), {("append", "repeat")})
True
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from symcomp._util import Record
from symcomp.core.example import content_id
from symcomp.core.language import Language
from symcomp.data.artifacts import read_examples

MEASURES = ("length", "depth", "functions")


def rng_for(seed: int, purpose: str) -> random.Random:
    """An independent random stream per purpose, derived from the suite seed.

    Each part of a suite draws from its own stream, so changing one part (say, the number of
    exception ratios) does not change the others.
    """
    return random.Random(f"symcomp-suite:{seed}:{purpose}")


def load_records(path: Path) -> list[Record]:
    """All example records of a pool file."""
    return list(read_examples(path))


def make_record(language: Language, text: str, output: str, meta: Mapping[str, Any]) -> Record:
    """A pool record for an input built by a suite (its id is the usual content id)."""
    return {
        "id": content_id(language.name, language.version, text),
        "input": text,
        "output": output,
        "meta": dict(meta),
    }


def tokens(record: Mapping[str, Any]) -> list[str]:
    return str(record["input"]).split()


def contains_any(record: Mapping[str, Any], words: Iterable[str]) -> bool:
    """True when the input contains one of ``words`` as a token."""
    wanted = set(words)
    return any(token in wanted for token in tokens(record))


def has_adjacent(sequence: Sequence[str], pairs: set[tuple[str, str]]) -> bool:
    """True when two consecutive tokens form one of ``pairs``."""
    return any(pair in pairs for pair in itertools.pairwise(sequence))


def part_statistics(records: Sequence[Mapping[str, Any]], indices: Iterable[int]) -> dict[str, Any]:
    """min / max / mean of length, depth and number of functions (the paper's Table 3)."""
    rows = [records[index]["meta"] for index in indices]
    statistics: dict[str, Any] = {"examples": len(rows)}
    for measure in MEASURES:
        values = [row[measure] for row in rows if measure in row]
        if values:
            statistics[measure] = {
                "min": min(values),
                "max": max(values),
                "mean": round(sum(values) / len(values), 2),
            }
    return statistics
