"""Shortcut rules that a model could learn instead of composing polarity.

The *main-quantifier rule* labels a pair from the outermost quantifier on the path to the
replaced word and the direction of the replacement alone, as if that quantifier decided the
polarity. It is right exactly when the quantifiers below it compose to upward. Where it
scores far above chance, data do not test the composition of embedded quantifiers; on the
published scripts' data (and on ``profile`` paper pools) it scores about 50 % at depths >= 2.

>>> record = {"label": "entailment", "meta": {"path": ["no", "some"], "position": "subject",
...           "direction": "specific", "depth": 2}}
>>> main_quantifier_rule(record)
'entailment'
>>> main_quantifier_table([record])
{2: {'pairs': 1, 'correct': 1, 'accuracy': 1.0}}
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from symcomp.languages.monotonicity.lexicon import MONOTONICITY, entailment_label


def main_quantifier_rule(record: Mapping[str, Any]) -> str:
    """The label the main-quantifier rule gives a pool record (see the module docstring)."""
    meta = record["meta"]
    restrictor, scope = MONOTONICITY[str(meta["path"][0])]
    polarity = restrictor if meta["position"] == "subject" else scope
    return entailment_label(polarity, str(meta["direction"]))


def main_quantifier_table(records: Iterable[Mapping[str, Any]]) -> dict[int, dict[str, Any]]:
    """Per depth: pairs, pairs the rule labels correctly, and its accuracy."""
    pairs: Counter[int] = Counter()
    correct: Counter[int] = Counter()
    for record in records:
        depth = int(record["meta"]["depth"])
        pairs[depth] += 1
        correct[depth] += main_quantifier_rule(record) == record["label"]
    return {
        depth: {
            "pairs": pairs[depth],
            "correct": correct[depth],
            "accuracy": round(correct[depth] / pairs[depth], 4),
        }
        for depth in sorted(pairs)
    }
