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

import array
import functools
import logging
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Literal, TypeVar

import numpy as np
import numpy.typing as npt

from symcomp._util import did_you_mean
from symcomp.data.artifacts import (
    MANIFEST,
    examples_path,
    parse_examples,
    read_examples,
    read_manifest,
)
from symcomp.data.safe_paths import confined
from symcomp.dbca.compounds import CompoundSpec, Dag
from symcomp.dbca.extractors.base import FIELDS, available_extractors, get_extractor, text_of
from symcomp.dbca.extractors.ngrams import ngrams
from symcomp.dbca.features import (
    DEFAULT_TOP_K,
    WEIGHTINGS,
    Features,
    check_atom_frequency,
    check_ngram,
    dag_features,
    ngram_description,
    set_features,
)
from symcomp.errors import DataError, SymcompError

if TYPE_CHECKING:
    from symcomp.core.language import Language

LOG = logging.getLogger(__name__)
COMPOUND_MODES = ("auto", "dag", "pairs", "ngrams")  # or an extractor spec (tree:funql, ...)
# record fields that are read again from the file, one line at a time, when features are
# computed, instead of being held for every example (a stored DAG is ~30 times the rest)
STREAMED_FIELDS = ("derivation", "syntax")
TopK = int | None | Literal["auto"]


@dataclass(frozen=True)
class FeatureOptions:
    """How atoms and compounds are read from a pool (recorded in split meta).

    Parameters
    ----------
    compounds : {"auto", "dag", "pairs", "ngrams"} or an extractor spec
        DAG subgraphs (DBCA), parent-child pairs of the DAG (TMCD), n-grams, or an extractor
        (:mod:`symcomp.dbca.extractors`: ``tree:funql``, ``conllu``, ``grammar:FILE.lark``,
        ``python:MODULE:FUNCTION``). ``auto``: the pool's own, i.e. the extractor an imported
        pool's manifest names, else ``dag``.
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
    on : {"input", "output"} or None
        The field n-grams and extractors read (None: the extractor's default).
    extractor_options : tuple of (key, value) pairs
        Options of the extractor (``relation_subtypes=false`` for ``conllu``).
    """

    compounds: str = "auto"
    spec: CompoundSpec = field(default_factory=CompoundSpec)
    weighting: str = "dbca"
    top_k: TopK = "auto"
    ngram: int = 2
    atom_frequency: str = "example"
    on: str | None = None
    extractor_options: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        if self.compounds not in COMPOUND_MODES:
            name = self.compounds.partition(":")[0]
            known = available_extractors()
            if name not in known or name == "ngrams":
                raise DataError(
                    f"unknown `compounds` {self.compounds!r}{did_you_mean(name, known)}; choose "
                    f"one of {', '.join(COMPOUND_MODES)} or an extractor: {', '.join(known)}."
                )
        if self.on is not None and self.on not in FIELDS:
            raise DataError(f"`on` must be one of {', '.join(FIELDS)}, got {self.on!r}.")
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
            on=None if data.get("on") is None else str(data["on"]),
            extractor_options=_option_pairs(data.get("extractor_options") or {}),
        )

    def describe(self) -> dict[str, Any]:
        described = {
            "compounds": self.compounds,
            "spec": self.spec.describe(),
            "weighting": self.weighting,
            "top_k": self.kept,
            "ngram": self.ngram,
            "atom_frequency": self.atom_frequency,
        }
        if self.on is not None:
            described["on"] = self.on
        if self.extractor_options:
            described["extractor_options"] = dict(self.extractor_options)
        return described

    @property
    def uses_extractor(self) -> bool:
        """True when compounds come from an extractor (not the DAG or n-grams)."""
        return self.compounds not in COMPOUND_MODES

    def for_pool(self, manifest: Mapping[str, Any] | None, folder: Path) -> FeatureOptions:
        """``auto`` resolved for a pool: the extractor its manifest names (an imported pool),
        else ``dag``. A grammar recorded at import is the copy in the pool's folder; a
        ``python:`` extractor is never run because a manifest names it (that would run code
        named by a file), so it must be given again.

        >>> FeatureOptions().for_pool({"language": "scan"}, Path(".")).compounds
        'dag'
        """
        if self.compounds != "auto":
            return self
        recorded = (manifest or {}).get("extractor")
        if not isinstance(recorded, Mapping):
            return replace(self, compounds="dag")
        name = str(recorded.get("name", ""))
        if name.startswith("python:"):
            raise DataError(
                f"{folder / MANIFEST}: the pool's compounds come from {name}, which runs Python "
                f"code; symcomp never runs code because a file names it. Name it yourself: "
                f"`compounds` {name}."
            )
        if name.startswith("grammar:"):
            file = confined(
                folder, recorded.get("file"), what="grammar", source=str(folder / MANIFEST)
            )
            name = f"grammar:{file}"
        on = recorded.get("on")
        return replace(
            self,
            compounds=name,
            on=self.on or (str(on) if on in FIELDS else None),
            extractor_options=self.extractor_options
            or _option_pairs(recorded.get("options") or {}),
        )


def _option_pairs(options: Any) -> tuple[tuple[str, str], ...]:
    """Extractor options as sorted (key, text) pairs (booleans as ``true``/``false``).

    >>> _option_pairs({"tokens": True, "start": "lf"})
    (('start', 'lf'), ('tokens', 'true'))
    """
    if not isinstance(options, Mapping):
        raise DataError(f"extractor options must be an object, got {options!r}.")
    return tuple(
        sorted(
            (str(k), str(v).lower() if isinstance(v, bool) else str(v)) for k, v in options.items()
        )
    )


def read_pool(
    pool: Path, *, derivations: bool = True
) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """The example records of a pool (folder or ``examples.jsonl``) and its manifest, if any;
    ``derivations`` False leaves out each record's stored DAG (``derivation``) and syntax
    (``syntax``, of an imported treebank): the fields :data:`STREAMED_FIELDS`."""
    path = examples_path(pool)
    lines = read_examples(pool)
    records = (
        list(lines)
        if derivations
        else [{k: v for k, v in r.items() if k not in STREAMED_FIELDS} for r in lines]
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
    dag = PoolDag(manifest)
    for number, record in enumerate(records, start=1):
        yield dag(record, f"{source}:{number}")


class PoolDag:
    """The DAG of one record of a pool: its stored derivation, or the parse of its input with
    the language the pool's manifest names (loaded at the first record that needs it)."""

    def __init__(self, manifest: Mapping[str, Any] | None) -> None:
        self.manifest = manifest
        self.language: Language | None = None

    def __call__(self, record: Mapping[str, Any], where: str) -> Dag:
        derivation = record.get("derivation")
        if derivation is not None:
            return Dag.from_node_link(derivation, where)
        if self.language is None:
            self.language = _language_of(self.manifest, where)
        try:
            return _rebuilt_dag(self.language, str(record["input"]))
        except SymcompError as error:
            raise DataError(
                f"{where}: has no derivation and its input does not parse as "
                f"{self.language.name}: {error}"
            ) from None


def _rebuilt_dag(language: Language, text: str) -> Dag:
    """The DAG of a parsed input: the language's :meth:`Language.node_link` of its tree."""
    return Dag.from_node_link(language.node_link(language.parse(text)))


def _language_of(manifest: Mapping[str, Any] | None, where: str) -> Language:
    from symcomp.core.fresh_words import language_of

    fix = (
        "regenerate the pool with `with_dag`, load the language with `plugins`, or use "
        "`compounds` ngrams"
    )
    if manifest is None or not manifest.get("language"):
        raise DataError(
            f"{where}: the line has no derivation and the pool has no manifest naming "
            f"its language, so its DAG cannot be rebuilt; {fix}."
        )
    try:
        language = language_of(manifest, where)  # in fresh words when the pool was renamed
    except SymcompError as error:
        raise DataError(
            f"{where}: the line has no derivation and the pool's language cannot be "
            f"loaded ({error}); {fix}."
        ) from None
    assert language is not None  # the manifest names one
    return language


def features_of_records(
    records: Iterable[Mapping[str, Any]],
    manifest: Mapping[str, Any] | None,
    options: FeatureOptions,
    source: str = "pool",
) -> Features:
    """Atom and compound features of pool records, as ``options`` say (``auto`` resolved for
    the pool whose ``examples.jsonl`` is ``source``)."""
    plan = feature_plan(manifest, options, source)
    return plan.finish(plan.compute(records))


@dataclass(frozen=True)
class FeaturePlan:
    """How the features of a pool are made: the options as used (recorded in split meta),
    whether each record gives a DAG (``dag``) or lists of atoms and compounds (``sets``), and
    the function from one record (and where it is, for messages) to those. Made by
    :func:`feature_plan` from the pool's manifest, the options and the pool file ``source``,
    which is all a worker process needs to make it again; computed in memory
    (:meth:`compute`) or extracted into feature shards (:mod:`symcomp.dbca.extraction`)."""

    options: FeatureOptions
    kind: Literal["dag", "sets"]
    spec: CompoundSpec
    item: Callable[[Mapping[str, Any], str], Any]
    extractor: dict[str, Any] = field(default_factory=dict)  # {"extractor": its description}
    ngram: int | None = None  # n of n-gram compounds (their description is their own)
    manifest: Mapping[str, Any] | None = None
    source: str = "pool"

    def items(self, records: Iterable[Mapping[str, Any]], start: int = 1) -> Iterator[Any]:
        """What :attr:`item` makes of every record (numbered from ``start`` in messages)."""
        for number, record in enumerate(records, start=start):
            yield self.item(record, f"{self.source}:{number}")

    def compute(self, records: Iterable[Mapping[str, Any]]) -> Features:
        """The features of ``records``, computed in memory."""
        if self.kind == "dag":
            return dag_features(
                self.items(records),
                self.spec,
                weighting=self.options.weighting,
                top_k=self.options.kept,
                atom_frequency=self.options.atom_frequency,
            )
        return set_features(self.items(records), atom_frequency=self.options.atom_frequency)

    def compute_file(self, path: Path) -> tuple[Features, npt.NDArray[np.int64]]:
        """The features of the pool file ``path`` computed in memory in one pass over it,
        and per example its line's byte offset and its input and output length (as feature
        shards record them): what a split needs of a pool without holding its records.

        Raises
        ------
        DataError
            For an empty pool, and a line that is not an example (naming it).
        """
        offsets: array.array[int] = array.array("q")
        lengths: array.array[int] = array.array("q")
        with path.open("rb") as handle:
            records = parse_examples(_offset_lines(handle, offsets), self.source)
            features = self.compute(_with_lengths(records, lengths))
        if not offsets:
            raise DataError(f"{path} holds no examples; a split needs a non-empty pool.")
        lines = np.empty((len(offsets), 3), dtype=np.int64)
        lines[:, 0] = offsets
        lines[:, 1:] = np.frombuffer(lengths, dtype=np.int64).reshape(-1, 2)
        return features, lines

    def finish(self, features: Features) -> Features:
        """``features`` with the description every split records."""
        LOG.info(
            "features of %d examples: %d atoms, %d compounds",
            len(features),
            len(features.atom_names),
            len(features.compound_names),
        )
        own = (
            ngram_description(self.ngram, self.options.atom_frequency)
            if self.ngram is not None
            else features.description
        )
        description = {
            **self.options.describe(),
            **own,
            **self.extractor,
            "compounds": self.options.compounds,
        }
        return features.with_description(description)


def _offset_lines(handle: IO[bytes], offsets: array.array[int]) -> Iterator[str]:
    """The lines of ``handle`` as text, the byte offset of each appended to ``offsets``."""
    offset = 0
    for line in handle:
        offsets.append(offset)
        offset += len(line)
        yield line.decode("utf-8")


def _with_lengths(
    records: Iterable[dict[str, Any]], lengths: array.array[int]
) -> Iterator[dict[str, Any]]:
    """``records``, the input and output length of each appended to ``lengths``."""
    for record in records:
        lengths.append(record_length(record, "length", "input"))
        lengths.append(record_length(record, "output_length", "output"))
        yield record


def feature_plan(
    manifest: Mapping[str, Any] | None, options: FeatureOptions, source: str = "pool"
) -> FeaturePlan:
    """The :class:`FeaturePlan` of ``options`` for the pool whose ``examples.jsonl`` is
    ``source`` (``auto`` resolved for it). Made again from its own ``manifest``, ``options``
    and ``source``, a plan is the same plan (what worker processes do).

    >>> plan = feature_plan(None, FeatureOptions(compounds="ngrams"))
    >>> plan.kind, feature_plan(plan.manifest, plan.options, plan.source).options == plan.options
    ('sets', True)
    """
    options = options.for_pool(manifest, Path(source).parent)
    recipe: dict[str, Any] = {"manifest": manifest, "source": source}
    if options.compounds == "ngrams":
        check_ngram(options.ngram)
        on, n = options.on or "input", options.ngram

        def texts(record: Mapping[str, Any], where: str) -> Any:
            return ngrams(text_of(record, on, where), n)

        return FeaturePlan(options, "sets", options.spec, texts, ngram=n, **recipe)
    if options.uses_extractor:
        extractor = get_extractor(options.compounds, options.on, dict(options.extractor_options))
        described = {"extractor": extractor.describe()}
        if extractor.dag is not None:
            dag = functools.partial(extracted, extract=extractor.dag)
            return FeaturePlan(options, "dag", options.spec, dag, described, **recipe)
        assert extractor.sets is not None
        sets = functools.partial(extracted, extract=extractor.sets)
        counted = replace(options, weighting="counts", top_k=None)
        return FeaturePlan(counted, "sets", options.spec, sets, described, **recipe)
    spec = options.spec
    if options.compounds == "pairs":
        spec = CompoundSpec(max_nodes=2, max_branching=1, chains=False)
        options = replace(options, weighting="counts")
    return FeaturePlan(options, "dag", spec, PoolDag(manifest), **recipe)


T = TypeVar("T")


def extracted(
    record: Mapping[str, Any], where: str, extract: Callable[[Mapping[str, Any]], T]
) -> T:
    """What ``extract`` makes of a record; a failure names where the record is."""
    try:
        return extract(record)
    except SymcompError as error:
        raise DataError(f"{where}: {error}") from None


def record_length(record: Mapping[str, Any], key: str, text: str) -> int:
    """The length of a record: ``meta[key]`` when it is a number, else the tokens of
    ``record[text]``.

    >>> record_length({"input": "a b c", "meta": {}}, "length", "input")
    3
    """
    meta = record.get("meta")
    if isinstance(meta, Mapping) and isinstance(meta.get(key), int):
        return int(meta[key])
    return len(str(record[text]).split())
