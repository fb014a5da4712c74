"""SLOG's by-phrase attachment ambiguity, recognised in a published logical form.

SLOG's question grammar lets a relative clause end in a passive without ``by`` while the outer
passive takes the by-phrase, so ``Who was lent the rose that was painted by the girl ?`` has
two derivations: symcomp's grammar gives the by-phrase to the relative clause's verb, and 5
published rows of the ``Q_modified_NPs`` case give it to the outer verb. An importer keeps such
a row's published logical form as the gold target when :func:`is_outer_by_phrase` says it is
exactly that other reading of the sentence, and refuses any other difference.

>>> ours = "give ( recipient = ? , theme = box ( nmod = hand ( theme = box , agent = boy ) ) )"
>>> theirs = "give ( recipient = ? , theme = box ( nmod = hand ( theme = box ) ) , agent = boy )"
>>> is_outer_by_phrase(ours, theirs, "varfree")
True
"""

from __future__ import annotations

import re
from collections import Counter

# a COGS-format agent conjunct: verb, event index, argument (an index or a proper name)
_AGENT = re.compile(r"(?P<verb>\S+) \. agent \( x _ (?P<event>\d+) , (?P<arg>[^()]+) \)")
# a variable-free form whose last argument is the outer verb's agent
_OUTER_AGENT = re.compile(r"(?P<head>.+ \) \)) , agent = (?P<arg>[^,()=]+) \)")


def is_outer_by_phrase(grammar_lf: str, published_lf: str, output: str) -> bool:
    """True when ``published_lf`` is ``grammar_lf`` (the grammar's reading, by-phrase on the
    relative clause's verb) with that agent moved to the outer verb, in format ``output``
    (``cogs`` or ``varfree``).

    >>> ours = "lend . theme ( x _ 2 , x _ 4 ) AND paint . agent ( x _ 7 , Emma )"
    >>> is_outer_by_phrase(ours, "lend . theme ( x _ 2 , x _ 4 ) AND lend . agent ( x _ 2 , Emma )",
    ...                    "cogs")
    True
    >>> is_outer_by_phrase(ours, "lend . theme ( x _ 2 , x _ 4 ) AND lend . agent ( x _ 2 , Liam )",
    ...                    "cogs")
    False
    """
    if output == "cogs":
        return _cogs_outer(grammar_lf, published_lf)
    if output == "varfree":
        return _varfree_outer(grammar_lf, published_lf)
    return False


def _cogs_outer(grammar_lf: str, published_lf: str) -> bool:
    ours, theirs = _conjuncts(grammar_lf), _conjuncts(published_lf)
    if ours[0] != theirs[0]:  # the definite nouns' preamble does not move
        return False
    only_ours = list((ours[1] - theirs[1]).elements())
    only_theirs = list((theirs[1] - ours[1]).elements())
    if len(only_ours) != 1 or len(only_theirs) != 1:
        return False
    inner, outer = _AGENT.fullmatch(only_ours[0]), _AGENT.fullmatch(only_theirs[0])
    return bool(
        inner
        and outer
        and inner["arg"] == outer["arg"]
        and int(outer["event"]) < int(inner["event"])  # the outer verb comes first
    )


def _conjuncts(lf: str) -> tuple[tuple[str, ...], Counter[str]]:
    *preamble, body = lf.split(" ; ")
    return tuple(preamble), Counter(body.split(" AND "))


def _varfree_outer(grammar_lf: str, published_lf: str) -> bool:
    match = _OUTER_AGENT.fullmatch(published_lf)
    if match is None:
        return False
    # the relative clause's verb and its head noun close the theme or recipient: ") )"
    inner = match["head"][: -len(" ) )")]
    return grammar_lf == f"{inner} , agent = {match['arg']} ) ) )"
