"""Importing a corpus as a pool whose atoms and compounds come from an extractor.

:func:`import_pool` is what ``symcomp import`` runs: it reads the files
(:mod:`symcomp.data.corpus.importer`), reads every row with the pool's extractor
(:mod:`symcomp.dbca.extractors`), a chunk of rows per task on one process, several or a Ray
cluster, and records the extractor in the manifest, so every later command measures and
splits the pool with it unless told otherwise. What the extractor finds is kept as the pool's
own feature shards (``features/``, :mod:`symcomp.dbca.shards`), which a split of the pool
reads instead of extracting the features again. A grammar
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

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from symcomp.data.artifacts import MANIFEST, file_record
from symcomp.data.corpus.importer import (
    ImportOptions,
    PoolExtractor,
    Source,
    format_of,
    import_corpus,
)
from symcomp.data.line_chunks import LineChunk
from symcomp.data.parallel import Jobs
from symcomp.dbca.extraction import ShardExtraction
from symcomp.dbca.extractors.base import get_extractor
from symcomp.dbca.pool import FeatureOptions, FeaturePlan, feature_plan
from symcomp.dbca.shard_layout import POOL_FEATURES as FEATURES
from symcomp.dbca.shard_layout import SHARD_SIZE
from symcomp.dbca.shard_parts import PartResult
from symcomp.errors import DataError

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
    compounds: str,
    on: str | None = None,
    options: Mapping[str, str] | None = None,
    *,
    features: bool = True,
    shard_size: int = SHARD_SIZE,
) -> PoolExtractor:
    """The extractor a pool records, with the reader of every imported row: it extracts the
    rows' features into the pool's feature shards (``features``) or only checks them."""
    extractor = get_extractor(compounds, on, options)
    description = extractor.describe()
    files: dict[str, bytes] = {}
    if compounds.startswith("grammar:"):
        files[GRAMMAR_FILE] = Path(compounds.partition(":")[2]).read_bytes()
        description["file"] = GRAMMAR_FILE
    given = FeatureOptions(
        compounds=compounds, on=on, extractor_options=tuple(sorted((options or {}).items()))
    )
    reader = _ImportReader(description, given, shard_size, features)
    return PoolExtractor(description, reader, files)


@dataclass
class _ImportReader:
    """Reads the imported rows with the pool's extractor as a split reads the pool (the plan
    of the pool's recorded extractor and default options), and keeps their features as the
    pool's own feature shards, ``features/`` (unless ``keep`` is False). A ``python:``
    extractor, which a split never runs because a pool names it, only checks the rows."""

    description: Mapping[str, Any]
    given: FeatureOptions
    chunk_size: int
    keep: bool
    extraction: ShardExtraction | None = field(default=None, init=False)

    @property
    def outputs(self) -> tuple[str, ...]:
        return (FEATURES,) if self.keep else ()

    def _plan(self, pool: Path) -> tuple[FeaturePlan, bool]:
        """The default options resolved for the pool as a split resolves them (its recorded
        extractor, field and options), but a grammar read from the user's file, which
        messages about rows it does not parse name (the pool's copy has the same sha256)."""
        manifest = {"extractor": dict(self.description)}
        try:
            options = FeatureOptions().for_pool(manifest, pool.parent)
        except DataError:  # a python: extractor, which a split never runs because a pool names it
            return feature_plan(None, self.given, str(pool)), False
        if options.compounds.startswith("grammar:"):
            options = replace(options, compounds=self.given.compounds)
        return feature_plan(None, options, str(pool)), self.keep

    def read(self, pool: Path, chunks: Iterable[LineChunk], jobs: Jobs) -> Iterator[PartResult]:
        plan, keep = self._plan(pool)
        folder = pool.parent / FEATURES
        self.extraction = ShardExtraction(plan, folder, folder, self.chunk_size, keep)
        yield from self.extraction.read(pool, chunks, jobs, skip_unreadable=True)

    def finish(self, pool: Path, record: Mapping[str, Any], jobs: Jobs) -> dict[str, Any]:
        if self.extraction is None or not self.extraction.keep:
            return {}
        manifest = self.extraction.finish(pool, record, jobs)
        folder = pool.parent / FEATURES
        files = {f"{FEATURES}/{name}": entry for name, entry in manifest["files"].items()}
        return {**files, f"{FEATURES}/{MANIFEST}": file_record(folder / MANIFEST)}


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
    jobs: Jobs = 1,
    features: bool = True,
    shard_size: int = SHARD_SIZE,
) -> dict[str, Any]:
    """Import ``sources`` into the pool folder ``out`` with an extractor (default: ``conllu``
    for CoNLL-U, else input ``ngrams``; ``dag`` records none: the stored derivations are
    used), reading the rows on ``jobs`` (worker processes or an executor) and, with
    ``features``, writing their feature shards into ``out/features`` (``shard_size`` rows a
    shard), which splits of the pool then read; return the manifest."""
    options = options or ImportOptions()
    chosen = compounds or default_compounds(sources, options)
    extractor = (
        None
        if chosen in NO_EXTRACTOR
        else pool_extractor(chosen, on, extractor_options, features=features, shard_size=shard_size)
    )
    return import_corpus(
        sources,
        out,
        options,
        extractor=extractor,
        overwrite=overwrite,
        progress=progress,
        jobs=jobs,
    )
