"""Reproductions of the papers symcomp implements: ``symcomp reproduce PAPER``.

Each paper is one module: it builds the paper's data at a scale (``tiny`` for tests, ``small``
for a CPU, ``paper`` for a GPU), trains every model the paper compares over its splits and
seeds (resumable: finished runs are kept), scores them with the models in the loop, and writes
``results.json``, ``report.md`` (the paper's numbers beside symcomp's) and PNG figures.

This layer sits above the languages and the models (it uses both) and below the command line.
A paper is about its language, so the paper modules name the languages they reproduce.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from symcomp._util import did_you_mean
from symcomp.errors import SymcompError

if TYPE_CHECKING:
    from symcomp.papers.plan import Paper

PAPERS = {
    "keysers2020": "symcomp.papers.keysers2020",
    "hupkes2020": "symcomp.papers.hupkes2020",
    "coba": "symcomp.papers.coba",
    "neely2020": "symcomp.papers.neely2020",
    "yanaka2020": "symcomp.papers.yanaka2020",
}


def get_paper(name: str) -> Paper:
    """The reproduction called ``name`` (one of :data:`PAPERS`)."""
    if name not in PAPERS:
        raise SymcompError(
            f"unknown paper {name!r}{did_you_mean(name, PAPERS)}; papers: {', '.join(PAPERS)}."
        )
    paper: Paper = importlib.import_module(PAPERS[name]).PAPER
    return paper
