"""Importing a corpus as a pool whose atoms and compounds come from an extractor.

:func:`import_pool` is what ``symcomp import`` runs: it reads the files
(:mod:`symcomp.data.corpus.importer`), checks that the pool's extractor
(:mod:`symcomp.dbca.extractors`) reads every row, and records the extractor in the manifest,
so every later command measures and splits the pool with it unless told otherwise. A grammar
extractor's ``.lark`` file is copied into the pool (``grammar.lark``): the pool stays whole
when the original moves, and a manifest never sends symcomp to read a file outside its folder.

>>> import tempfile
>>> folder = Path(tempfile.mkdtemp())
>>> _ = (folder / "geo.tsv").write_text("how big is texas\\tanswer(size(stateid(texas)))\\n")
>>> manifest = import_pool([Source(folder / "geo.tsv")], folder / "pool", compounds="tree:funql")
>>> manifest["extractor"]["name"], manifest["imported"]["rows"]
('tree:funql', 1)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from symcomp.data.corpus.importer import (
    ImportOptions,
    PoolExtractor,
    Source,
    format_of,
    import_corpus,
)
from symcomp.dbca.extractors.base import Extractor, get_extractor

GRAMMAR_FILE = "grammar.lark"
NO_EXTRACTOR = ("dag", "auto")  # compounds from stored derivations: nothing to record


def default_compounds(sources: Sequence[Source], options: ImportOptions) -> str:
    """``conllu`` for treebanks, else ``ngrams``.

    >>> default_compounds([Source(Path("ewt.conllu"))], ImportOptions())
    'conllu'
    """
    formats = {format_of(source, options.format) for source in sources}
    return "conllu" if formats == {"conllu"} else "ngrams"


def pool_extractor(
    compounds: str, on: str | None = None, options: Mapping[str, str] | None = None
) -> PoolExtractor:
    """The extractor a pool records, with the check every imported row must pass."""
    extractor = get_extractor(compounds, on, options)
    description = extractor.describe()
    files: dict[str, bytes] = {}
    if compounds.startswith("grammar:"):
        files[GRAMMAR_FILE] = Path(compounds.partition(":")[2]).read_bytes()
        description["file"] = GRAMMAR_FILE
    return PoolExtractor(description, _check(extractor), files)


def _check(extractor: Extractor) -> Callable[[Mapping[str, Any]], None]:
    def check(record: Mapping[str, Any]) -> None:
        if extractor.sets is not None:
            extractor.sets(record)
        elif extractor.dag is not None:
            extractor.dag(record)

    return check


def import_pool(
    sources: Sequence[Source],
    out: Path,
    options: ImportOptions | None = None,
    *,
    compounds: str | None = None,
    on: str | None = None,
    extractor_options: Mapping[str, str] | None = None,
    overwrite: bool = False,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Import ``sources`` into the pool folder ``out`` with an extractor (default: ``conllu``
    for CoNLL-U, else input ``ngrams``; ``dag`` records none: the stored derivations are
    used); return the manifest."""
    options = options or ImportOptions()
    chosen = compounds or default_compounds(sources, options)
    extractor = None if chosen in NO_EXTRACTOR else pool_extractor(chosen, on, extractor_options)
    return import_corpus(
        sources, out, options, extractor=extractor, overwrite=overwrite, progress=progress
    )
