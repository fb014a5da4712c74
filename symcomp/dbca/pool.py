"""Reading a pool for DBCA: its examples, their DAGs, and their atom/compound features.

A pool line's DAG is its ``derivation`` (pools written with ``--with-dag``) or, when absent, is
rebuilt by parsing ``input`` with the language named in the pool's ``manifest.json``
(``Language.node_link``). A line that has neither is a :class:`DataError` naming the line.

>>> import symcomp
>>> options = FeatureOptions(compounds="ngrams")
>>> options.describe()["compounds"]
'ngrams'
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from symcomp.data.artifacts import MANIFEST, examples_path, read_examples, read_manifest
from symcomp.dbca.compounds import CompoundSpec, Dag
from symcomp.dbca.features import (
    DEFAULT_TOP_K,
    WEIGHTINGS,
    Features,
    check_atom_frequency,
    dag_features,
    ngram_features,
)
from symcomp.errors import DataError, SymcompError

if TYPE_CHECKING:
    from symcomp.core.language import Language

LOG = logging.getLogger(__name__)
COMPOUND_MODES = ("dag", "pairs", "ngrams")
TopK = int | None | Literal["auto"]


@dataclass(frozen=True)
class FeatureOptions:
    """How atoms and compounds are read from a pool (recorded in split meta).

    Parameters
    ----------
    compounds : {"dag", "pairs", "ngrams"}
        DAG subgraphs (DBCA), parent-child pairs of the DAG (TMCD), or input n-grams.
    spec : CompoundSpec
        Subgraph bounds for ``dag``.
    weighting : {"dbca", "counts"}
        DBCA weights or raw counts (``pairs`` and ``ngrams`` always count).
    top_k : int, None or "auto"
        Compounds kept by total weight; None keeps all. ``auto``: the paper's 100,000 for DBCA
        weights, all for raw counts (so ``counts`` equals the NQG code on any pool).
    ngram : int
        n for ``ngrams``.
    atom_frequency : {"example", "occurrence"}
        An atom counts once per example that holds it (default: as DBCA weighs a compound at
        most once per sample and NQG/TMCD count atom sets), or once per occurrence.
    """

    compounds: str = "dag"
    spec: CompoundSpec = field(default_factory=CompoundSpec)
    weighting: str = "dbca"
    top_k: TopK = "auto"
    ngram: int = 2
    atom_frequency: str = "example"

    def __post_init__(self) -> None:
        if self.compounds not in COMPOUND_MODES:
            raise DataError(
                f"unknown compound mode {self.compounds!r}; choose one of "
                f"{', '.join(COMPOUND_MODES)}."
            )
        if self.weighting not in WEIGHTINGS:
            raise DataError(
                f"unknown weighting {self.weighting!r}; choose one of {', '.join(WEIGHTINGS)}."
            )
        check_atom_frequency(self.atom_frequency)
        if self.top_k != "auto" and self.top_k is not None and self.top_k < 1:
            raise DataError(f"`top_k` must be at least 1, got {self.top_k}.")

    @property
    def kept(self) -> int | None:
        """The number of compounds kept (None: all), ``auto`` resolved by the weighting.

        >>> FeatureOptions(weighting="counts").kept is None, FeatureOptions().kept
        (True, 100000)
        """
        if self.top_k == "auto":
            return DEFAULT_TOP_K if self.weighting == "dbca" else None
        return self.top_k

    @classmethod
    def from_description(cls, data: Mapping[str, Any]) -> FeatureOptions:
        """The options recorded by :meth:`describe` (e.g. in a split's meta); a description
        without ``atom_frequency`` was measured per occurrence, before that option existed.

        >>> FeatureOptions.from_description({"compounds": "dag"}).atom_frequency
        'occurrence'
        """
        spec = data.get("spec") or {}
        return cls(
            compounds=str(data.get("compounds", "dag")),
            spec=CompoundSpec(**spec) if isinstance(spec, Mapping) else CompoundSpec(),
            weighting=str(data.get("weighting", "dbca")),
            top_k=data.get("top_k", "auto"),
            ngram=int(data.get("ngram", 2)),
            atom_frequency=str(data.get("atom_frequency", "occurrence")),
        )

    def describe(self) -> dict[str, Any]:
        return {
            "compounds": self.compounds,
            "spec": self.spec.describe(),
            "weighting": self.weighting,
            "top_k": self.kept,
            "ngram": self.ngram,
            "atom_frequency": self.atom_frequency,
        }


def read_pool(
    pool: Path, *, derivations: bool = True
) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """The example records of a pool (folder or ``examples.jsonl``) and its manifest, if any;
    ``derivations`` False leaves out each record's stored DAG (``derivation``)."""
    path = examples_path(pool)
    lines = read_examples(pool)
    records = (
        list(lines)
        if derivations
        else [{k: v for k, v in record.items() if k != "derivation"} for record in lines]
    )
    if not records:
        raise DataError(f"{path} holds no examples; a split needs a non-empty pool.")
    folder = path.parent
    manifest = read_manifest(folder) if (folder / MANIFEST).is_file() else None
    return records, manifest


def pool_dags(
    records: Iterable[Mapping[str, Any]], manifest: Mapping[str, Any] | None, source: str
) -> Iterator[Dag]:
    """The DAG of every record: its stored derivation, or the parse of its input."""
    language: Language | None = None
    for number, record in enumerate(records, start=1):
        derivation = record.get("derivation")
        if derivation is not None:
            yield Dag.from_node_link(derivation, f"{source}:{number}")
            continue
        if language is None:
            language = _language_of(manifest, source, number)
        try:
            yield _rebuilt_dag(language, str(record["input"]))
        except SymcompError as error:
            raise DataError(
                f"{source}:{number}: has no derivation and its input does not parse as "
                f"{language.name}: {error}"
            ) from None


def _rebuilt_dag(language: Language, text: str) -> Dag:
    """The DAG of a parsed input: the language's :meth:`Language.node_link` of its tree."""
    return Dag.from_node_link(language.node_link(language.parse(text)))


def _language_of(manifest: Mapping[str, Any] | None, source: str, number: int) -> Language:
    from symcomp.core.registry import get_language

    fix = (
        "regenerate the pool with `with_dag`, load the language with `plugins`, or use "
        "`compounds` ngrams"
    )
    if manifest is None or not manifest.get("language"):
        raise DataError(
            f"{source}:{number}: the line has no derivation and the pool has no manifest naming "
            f"its language, so its DAG cannot be rebuilt; {fix}."
        )
    try:
        return get_language(str(manifest["language"]))
    except SymcompError as error:
        raise DataError(
            f"{source}:{number}: the line has no derivation and the pool's language cannot be "
            f"loaded ({error}); {fix}."
        ) from None


def features_of_records(
    records: Iterable[Mapping[str, Any]],
    manifest: Mapping[str, Any] | None,
    options: FeatureOptions,
    source: str = "pool",
) -> Features:
    """Atom and compound features of pool records, as ``options`` say."""
    if options.compounds == "ngrams":
        features = ngram_features(
            (str(r["input"]) for r in records),
            options.ngram,
            atom_frequency=options.atom_frequency,
        )
    else:
        spec = options.spec
        if options.compounds == "pairs":
            spec = CompoundSpec(max_nodes=2, max_branching=1, chains=False)
            options = replace(options, weighting="counts")
        features = dag_features(
            pool_dags(records, manifest, source),
            spec,
            weighting=options.weighting,
            top_k=options.kept,
            atom_frequency=options.atom_frequency,
        )
    LOG.info(
        "features of %d examples: %d atoms, %d compounds",
        len(features),
        len(features.atom_names),
        len(features.compound_names),
    )
    description = {**options.describe(), **features.description, "compounds": options.compounds}
    return features.with_description(description)


def pool_features(pool: Path, options: FeatureOptions | None = None) -> Features:
    """Read a pool and compute its features (see :class:`FeatureOptions`)."""
    records, manifest = read_pool(pool)
    return features_of_records(
        records, manifest, options or FeatureOptions(), str(examples_path(pool))
    )
