"""Exporting a pool, a pool's splits or a suite's tests for other tools.

An export is a set of *configurations* (one per split, or one per test of a suite; an unsplit
pool is one configuration ``default`` whose only part is ``train``), each with up to three
parts (train, dev, test), written in one of these formats:

``tsv``
    ``input<TAB>output`` per line: ``examples.tsv`` for an unsplit pool, else
    ``<config>/<part>.tsv``.
``srctgt``
    line-aligned ``.src`` and ``.tgt`` files (OpenNMT, fairseq), named as for ``tsv``.
``hf``
    A ``DatasetDict`` folder that ``datasets.load_dataset(folder, config)`` reads with no
    loading script: ``data/<config>/<split>-<hash>.jsonl`` (splits ``train``, ``validation``,
    ``test``) and a dataset card ``README.md`` whose YAML header declares every configuration,
    its files and its features, and names the language, grammar version, seed and the
    measured divergences. Every field of an example is kept: text and numbers as they are,
    structured fields (``meta``, ``derivation``) as JSON text. Pools of NLI pairs (records
    with ``premise``, ``hypothesis`` and ``label``) take the GLUE/MNLI layout: ``premise``,
    ``hypothesis``, ``label`` (a ``ClassLabel``) and ``idx`` first. The file names carry a
    hash of their content's source because ``datasets`` caches local folders by folder name
    and declared files: two exports both named ``hf`` would otherwise share one cache entry.
``genbench``
    A GenBench task (``config.jsonnet`` plus JSON lines with ``input`` and ``target``, and
    ``steps`` where the records have worked steps): one task for one configuration, else a
    task with one subtask folder per configuration.

Line formats cannot hold a TAB or newline inside a field (CFQ's SPARQL spans lines):
``join_lines`` joins every field's lines with single spaces first, as CFQ's preprocessing
does (``" ".join(text.split())``), in every format: the text fields ``input``, ``output``,
``premise`` and ``hypothesis`` of ``hf`` rows, and GenBench's ``input`` of an NLI pair, which
is ``premise ||| hypothesis`` then (symcomp's one-line form of a pair) instead of the two
sentences on two lines. Each export folder gets its own ``manifest.json`` (source,
language, grammar and the sha256 of every file).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from symcomp.data.artifacts import (
    LOCK,
    MANIFEST,
    STAGING,
    assembled,
    atomic_writer,
    examples_path,
    file_record,
    json_text,
    read_examples,
    read_manifest,
    write_json,
)
from symcomp.data.safe_paths import check_name
from symcomp.data.splits import PARTS, Split, read_split
from symcomp.errors import DataError

FORMATS = ("tsv", "srctgt", "hf", "genbench")
HF_SPLITS = {"train": "train", "dev": "validation", "test": "test"}
NLI_FIELDS = ("premise", "hypothesis", "label")
# the text fields ``join_lines`` puts on one line (structured fields are JSON text already)
LINE_FIELDS = ("input", "output", "premise", "hypothesis")
# between premise and hypothesis on one line: the separator of the pools' own `input` and of
# the NLI training tasks (they split `input` at it)
PAIR_SEPARATOR = " ||| "
# GLUE/MNLI's label order, and HANS's two-way one; other vocabularies are sorted
LABEL_SETS = (("entailment", "neutral", "contradiction"), ("entailment", "non-entailment"))
DIVERGENCES = ("atom_divergence", "compound_divergence")


@dataclass(frozen=True)
class ExportConfig:
    """One configuration of an export: its parts (``train``/``dev``/``test`` -> records, in
    order, oversampling applied) and what the card says about it (``meta`` of its split)."""

    name: str
    parts: Mapping[str, Sequence[Mapping[str, Any]]]
    meta: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ExportSource:
    """What an export is made from: the configurations and the header of the source
    (``language``, ``grammar_version``, ``grammar_sha256``, ``seed``, ``source``, ...).
    ``unsplit`` marks a whole pool (line formats then write ``examples.*``)."""

    configs: Sequence[ExportConfig]
    header: Mapping[str, Any]
    unsplit: bool = False
    digest: str = ""  # sha256 of what the configurations were read from

    def records(self) -> Iterable[tuple[str, str, Mapping[str, Any]]]:
        for config in self.configs:
            for part, rows in config.parts.items():
                for row in rows:
                    yield config.name, part, row


def pool_source(pool: Path, splits: Mapping[str, Path | Split] | None = None) -> ExportSource:
    """The configurations of ``pool`` (a folder or its ``examples.jsonl``): one per split
    (name -> split file or split), or the whole pool as ``default``/``train`` without splits.

    Raises
    ------
    DataError
        When the pool has no manifest, a split does not fit it (index out of range, made for a
        pool with another sha256, or an empty train or test part), or a name is not plain.
    """
    source = examples_path(pool)
    manifest = read_manifest(source.parent)
    records = list(read_examples(source))
    digest = file_record(source)["sha256"]
    header = {
        key: manifest.get(key)
        for key in ("language", "grammar_version", "grammar_sha256", "seed", "symcomp_version")
    }
    origin: dict[str, Any] = {"pool": str(source), "sha256": digest}
    header["source"] = origin
    if not splits:
        return ExportSource([ExportConfig("default", {"train": records})], header, True, digest)
    configs = []
    hasher = hashlib.sha256(digest.encode())
    for name, given in splits.items():
        check_name(name, what="split name", source="splits")
        split = given if isinstance(given, Split) else read_split(given)
        where = f"split {name}" if isinstance(given, Split) else str(given)
        split.check(len(records), where)
        base = None if isinstance(given, Split) else given.parent
        split.check_pool(digest, where, str(source), base=base)
        parts = {part: [records[i] for i in split.expanded(part)] for part in PARTS}
        configs.append(ExportConfig(name, parts, dict(split.meta)))
        hasher.update(json.dumps([name, split.to_json()], sort_keys=True).encode())
    origin["splits"] = {
        name: str(given) for name, given in splits.items() if not isinstance(given, Split)
    }
    return ExportSource(configs, header, False, hasher.hexdigest())


def export(
    pool: Path,
    fmt: str,
    out: Path | None = None,
    *,
    splits: Mapping[str, Path | Split] | None = None,
    join_lines: bool = False,
    overwrite: bool = False,
    progress: Callable[[int], None] | None = None,
) -> Path:
    """Export ``pool`` (a folder with examples.jsonl), or its ``splits`` (name -> split file
    or split), in ``fmt``; return the export folder (default ``pool/export/<fmt>``).

    >>> import tempfile, symcomp
    >>> from symcomp.data.generate import PoolSpec, generate
    >>> folder = Path(tempfile.mkdtemp()) / "pool"
    >>> _ = generate(symcomp.get_language("scan"), folder, PoolSpec(n=10, seed=0))
    >>> sorted(p.name for p in export(folder, "tsv").iterdir())
    ['examples.tsv', 'manifest.json']
    """
    _check_format(fmt)
    source = pool_source(pool, splits)
    folder = examples_path(pool).parent
    return write_export(
        source,
        fmt,
        out or folder / "export" / fmt,
        join_lines=join_lines,
        overwrite=overwrite,
        progress=progress,
    )


def _check_format(fmt: str) -> None:
    if fmt not in FORMATS:
        raise DataError(f"unknown export format {fmt!r}; choose one of {', '.join(FORMATS)}.")


def write_export(
    source: ExportSource,
    fmt: str,
    target: Path,
    *,
    join_lines: bool = False,
    overwrite: bool = False,
    progress: Callable[[int], None] | None = None,
) -> Path:
    """Write ``source`` in ``fmt`` into the folder ``target`` (see the module); return it.

    Everything is checked before the first file is written: a field a line format cannot
    hold is an error naming the example, and nothing is left behind. The export is assembled
    in a staging folder inside ``target`` and moved into place when complete, so an
    interrupted export leaves the previous one (or none); with ``overwrite`` every file of
    the previous export (those its manifest lists) is replaced, whatever its format was.
    """
    _check_format(fmt)
    _check_config_names(source, fmt)
    if fmt in ("tsv", "srctgt") and not join_lines:
        _check_line_fields(source)
    step = progress or (lambda count: None)
    names = _top_names(source, fmt)
    transform = _joined if join_lines else _same
    writer = {"tsv": _write_lines, "srctgt": _write_lines, "hf": _write_hf}.get(
        fmt, _write_genbench
    )
    names = (*names, MANIFEST)
    with assembled(target, overwrite=overwrite, names=names, kind="export") as work:
        files = writer(source, work, fmt, transform, step, target)
        write_json(
            work / MANIFEST,
            {
                "format": f"symcomp.export.{fmt}/1",
                **dict(source.header),
                "join_lines": join_lines,
                "configs": {
                    c.name: {part: len(rows) for part, rows in c.parts.items()}
                    for c in source.configs
                },
                "files": {path.relative_to(work).as_posix(): file_record(path) for path in files},
            },
        )
    return target


def _check_config_names(source: ExportSource, fmt: str) -> None:
    """Refuse a configuration whose folder would take the place of a file the export writes
    itself (a split file ``manifest.json.json`` names the configuration ``manifest.json``)."""
    if source.unsplit or fmt == "hf" or (fmt == "genbench" and len(source.configs) == 1):
        return  # no configuration folder beside the export's own files
    own = {MANIFEST, LOCK}
    if fmt == "genbench":
        own |= {"config.jsonnet", "doc.md", *_genbench_files()}
    files = source.header.get("source", {}).get("splits", {})
    for config in source.configs:
        clash = next((name for name in own if name.casefold() == config.name.casefold()), None)
        if clash is None and not config.name.startswith(STAGING):
            continue
        clash = clash or f"{STAGING}* (its staging folder)"
        if config.name in files:
            raise DataError(
                f"the split file {files[config.name]} names the configuration "
                f"{config.name!r}, whose folder would take the place of the export's own "
                f"{clash}; rename the split file (a configuration is named after its split "
                f"file without .json). Nothing was written."
            )
        raise DataError(
            f"the configuration {config.name!r} would take the place of the export's own "
            f"{clash}; rename it. Nothing was written."
        )


def _top_names(source: ExportSource, fmt: str) -> tuple[str, ...]:
    if fmt == "hf":
        return ("README.md", "data")
    configs = tuple(config.name for config in source.configs)
    if fmt == "genbench":
        return ("config.jsonnet", "doc.md", *_genbench_files(), *configs)
    if source.unsplit:
        return ("examples.tsv",) if fmt == "tsv" else ("examples.src", "examples.tgt")
    return configs


def _same(text: str) -> str:
    return text


def _joined(text: str) -> str:
    """The lines (and TAB-separated pieces) of ``text`` joined by single spaces.

    >>> _joined("SELECT ?x0 WHERE {\\n?x0 a ns:film.actor\\n}")
    'SELECT ?x0 WHERE { ?x0 a ns:film.actor }'
    """
    return " ".join(text.split())


def _check_line_fields(source: ExportSource) -> None:
    for config, part, record in source.records():
        for name in ("input", "output"):
            text = str(record[name])
            if "\t" in text or "\n" in text or "\r" in text:
                where = "" if source.unsplit else f" ({config}, {part})"
                raise DataError(
                    f"example {record.get('id')}{where}: its {name} contains a TAB or newline, "
                    f"which a line-based format cannot hold; pass `join_lines` to join its "
                    f"lines with spaces (as CFQ's preprocessing does) or use the hf format."
                )


# -- line formats ------------------------------------------------------------------------------


def _write_lines(
    source: ExportSource,
    target: Path,
    fmt: str,
    transform: Callable[[str], str],
    step: Callable[[int], None],
    final: Path,
) -> list[Path]:
    files: list[Path] = []
    for config in source.configs:
        for part, rows in config.parts.items():
            if not rows:
                continue
            base = target / "examples" if source.unsplit else target / config.name / part
            base.parent.mkdir(parents=True, exist_ok=True)
            pairs = [(transform(str(r["input"])), transform(str(r["output"]))) for r in rows]
            if fmt == "tsv":
                path = base.with_name(base.name + ".tsv")
                with atomic_writer(path) as handle:
                    handle.writelines(f"{a}\t{b}\n" for a, b in pairs)
                files.append(path)
            else:
                src, tgt = base.with_name(base.name + ".src"), base.with_name(base.name + ".tgt")
                with atomic_writer(src) as sources, atomic_writer(tgt) as targets:
                    sources.writelines(f"{a}\n" for a, _ in pairs)
                    targets.writelines(f"{b}\n" for _, b in pairs)
                files += [src, tgt]
            step(len(rows))
    return files


# -- Hugging Face --------------------------------------------------------------------------------


def is_nli(records: Iterable[Mapping[str, Any]]) -> bool:
    """True when every record is an NLI pair (``premise``, ``hypothesis``, ``label``)."""
    found = False
    for record in records:
        if not all(isinstance(record.get(key), str) for key in NLI_FIELDS):
            return False
        found = True
    return found


def label_names(labels: Iterable[str]) -> list[str]:
    """The ClassLabel names of an NLI vocabulary: MNLI's order, HANS's, or sorted.

    >>> label_names(["neutral", "entailment"])
    ['entailment', 'neutral', 'contradiction']
    >>> label_names(["non-entailment", "entailment"])
    ['entailment', 'non-entailment']
    """
    found = set(labels)
    for names in LABEL_SETS:
        if found <= set(names):
            return list(names)
    return sorted(found)


def _dtype(values: Iterable[Any]) -> str:
    """The feature type of a column: string, bool, int64 or float64, else ``json`` (JSON text)."""
    kinds = {type(value) for value in values if value is not None}
    if not kinds:
        return "string"
    if kinds == {str}:
        return "string"
    if kinds == {bool}:
        return "bool"
    if kinds == {int}:
        return "int64"
    if kinds <= {int, float}:
        return "float64"
    return "json"


def _columns(rows: Sequence[Mapping[str, Any]], nli: bool) -> dict[str, str]:
    keys: dict[str, None] = {}
    for row in rows:
        keys.update(dict.fromkeys(row))
    first = ["premise", "hypothesis", "label", "id", "input", "output"] if nli else []
    first += ["id", "input", "output"]
    order = [key for key in dict.fromkeys(first) if key in keys]
    order += [key for key in keys if key not in order]
    return {key: _dtype(row.get(key) for row in rows) for key in order}


def _hf_row(
    record: Mapping[str, Any], columns: Mapping[str, str], labels: Sequence[str] | None, idx: int
) -> dict[str, Any]:
    row: dict[str, Any] = {}
    for key, dtype in columns.items():
        value = record.get(key)
        if labels is not None and key == "label":
            row[key] = labels.index(str(value))
        elif dtype == "json" and value is not None:
            row[key] = json_text(value, f"column {key}", ensure_ascii=False, sort_keys=True)
        else:
            row[key] = value
    if labels is not None:
        row["idx"] = idx
    return row


def _features(columns: Mapping[str, str], labels: Sequence[str] | None) -> list[dict[str, Any]]:
    features: list[dict[str, Any]] = []
    for key, dtype in columns.items():
        if labels is not None and key == "label":
            names = {str(number): name for number, name in enumerate(labels)}
            features.append({"name": key, "dtype": {"class_label": {"names": names}}})
        else:
            features.append({"name": key, "dtype": "string" if dtype == "json" else dtype})
        if labels is not None and key == "label":
            features.append({"name": "idx", "dtype": "int32"})
    return features


def _write_hf(
    source: ExportSource,
    target: Path,
    fmt: str,
    transform: Callable[[str], str],
    step: Callable[[int], None],
    final: Path,
) -> list[Path]:
    data = target / "data"
    data.mkdir(exist_ok=True)
    digest = source.digest[:12]
    files: list[Path] = []
    configs: list[dict[str, Any]] = []
    infos: list[dict[str, Any]] = []
    for number, config in enumerate(source.configs):
        rows = [row for part in config.parts.values() for row in part]
        labels = label_names(str(r["label"]) for r in rows) if is_nli(rows) else None
        columns = _columns(rows, labels is not None)
        folder = data / config.name
        folder.mkdir(parents=True, exist_ok=True)
        declared, splits = [], []
        for part, records in config.parts.items():
            if not records:
                continue
            split = HF_SPLITS[part]
            path = folder / (f"{split}-{digest}.jsonl" if digest else f"{split}.jsonl")
            with atomic_writer(path) as handle:
                for idx, record in enumerate(records):
                    row = _hf_row(_transformed(record, transform), columns, labels, idx)
                    line = json_text(row, str(path), ensure_ascii=False, separators=(",", ":"))
                    handle.write(line + "\n")
            step(len(records))
            files.append(path)
            declared.append({"split": split, "path": path.relative_to(target).as_posix()})
            splits.append(
                {"name": split, "num_bytes": path.stat().st_size, "num_examples": len(records)}
            )
        entry: dict[str, Any] = {"config_name": config.name}
        if number == 0:
            entry["default"] = True
        configs.append({**entry, "data_files": declared})
        infos.append(
            {"config_name": config.name, "features": _features(columns, labels), "splits": splits}
        )
    readme = target / "README.md"
    with atomic_writer(readme) as handle:
        handle.write(_card(source, configs, infos, final))
    return [*files, readme]


def _transformed(record: Mapping[str, Any], transform: Callable[[str], str]) -> dict[str, Any]:
    if transform is _same:
        return dict(record)
    return {
        key: transform(value) if key in LINE_FIELDS and isinstance(value, str) else value
        for key, value in record.items()
    }


def _divergences(meta: Mapping[str, Any]) -> dict[str, Any]:
    found = {key: meta[key] for key in DIVERGENCES if isinstance(meta.get(key), int | float)}
    if "method" in meta:
        found["method"] = meta["method"]
    return found


def _card(
    source: ExportSource,
    configs: list[dict[str, Any]],
    infos: list[dict[str, Any]],
    target: Path,
) -> str:
    header = source.header
    language = header.get("language") or "imported"
    about = {
        key: header.get(key)
        for key in ("language", "grammar_version", "grammar_sha256", "seed", "symcomp_version")
    }
    about["divergences"] = {c.name: _divergences(c.meta) for c in source.configs}
    metadata = {
        "pretty_name": f"{language} (symcomp)",
        "tags": ["symcomp", "compositional-generalization", str(language)],
        "symcomp": about,
        "configs": configs,
        "dataset_info": infos,
    }
    lines = ["---", *_yaml(metadata), "---", f"# {language}, exported by symcomp", ""]
    lines += [
        f"Examples of the `{language}` language (grammar {header.get('grammar_version')}, seed "
        f"{header.get('seed')}), written by `symcomp export` (hf format). Load a "
        f'configuration with `datasets.load_dataset("{target}", "<config>")` (the first is the '
        f"default). Structured fields (`meta`, `derivation`) are JSON text: "
        f"`json.loads(row['meta'])`.",
        "",
        "| configuration | splits | atom divergence | compound divergence |",
        "|---|---|---|---|",
    ]
    for config, info in zip(source.configs, infos, strict=True):
        shown = ", ".join(f"{s['name']} {s['num_examples']:,}" for s in info["splits"])
        values = _divergences(config.meta)
        da, dc = (values.get(key) for key in DIVERGENCES)
        lines.append(
            f"| {config.name} | {shown} | {'' if da is None else f'{da:.4f}'} | "
            f"{'' if dc is None else f'{dc:.4f}'} |"
        )
    lines += ["", "Fields: " + ", ".join(f"`{f['name']}`" for f in infos[0]["features"]), ""]
    return "\n".join(lines)


_PLAIN_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")


def _yaml(value: Any, indent: int = 0) -> list[str]:
    """Block-style YAML of JSON-like data; scalars as JSON (a subset of YAML).

    >>> _yaml({"a": [{"b": 1, "c": "x"}], "d": {}})
    ['a:', '- b: 1', '  c: "x"', 'd: {}']
    """
    pad = " " * indent
    lines: list[str] = []
    if isinstance(value, Mapping):
        for key, item in value.items():
            shown = key if _PLAIN_KEY.fullmatch(str(key)) else json.dumps(str(key))
            if _nested(item):
                lines.append(f"{pad}{shown}:")
                lines += _yaml(item, indent + (0 if isinstance(item, list) else 2))
            else:
                lines.append(f"{pad}{shown}: {_scalar(item)}")
        return lines
    for item in value:
        if _nested(item):
            inner = _yaml(item, indent + 2)
            lines.append(f"{pad}- {inner[0].lstrip()}")
            lines += inner[1:]
        else:
            lines.append(f"{pad}- {_scalar(item)}")
    return lines


def _nested(value: Any) -> bool:
    return isinstance(value, Mapping | list | tuple) and len(value) > 0


def _scalar(value: Any) -> str:
    if isinstance(value, Mapping):
        return "{}"
    if isinstance(value, list | tuple):
        return "[]"
    return json_text(value, "a value")


# -- GenBench ----------------------------------------------------------------------------------

GENBENCH_SPLITS = {"train": "train", "dev": "validation", "test": "test"}
# the exact-match metric GenBench's own sample task names (Hugging Face `evaluate`, pinned)
EXACT_MATCH = {
    "hf_id": "exact_match",
    "git_commit_sha": "758135da6a37ce962b7bc38c6dd5eab672d2b742",
    "best_score": 1.0,
}


def _genbench_files() -> tuple[str, ...]:
    return tuple(f"{split}.jsonl" for split in GENBENCH_SPLITS.values())


def _write_genbench(
    source: ExportSource,
    target: Path,
    fmt: str,
    transform: Callable[[str], str],
    step: Callable[[int], None],
    final: Path,
) -> list[Path]:
    language = source.header.get("language") or "imported"
    files: list[Path] = []
    single = len(source.configs) == 1
    for config in source.configs:
        folder = target if single else target / config.name
        folder.mkdir(exist_ok=True)
        rows = [row for part in config.parts.values() for row in part]
        labels = label_names(str(r["label"]) for r in rows) if is_nli(rows) else None
        urls: dict[str, str] = {}
        # GenBench requires a test set: a whole pool is one
        parts = {"test": rows} if source.unsplit else config.parts
        for part, records in parts.items():
            if not records:
                continue
            path = folder / f"{GENBENCH_SPLITS[part]}.jsonl"
            with atomic_writer(path) as handle:
                for record in records:
                    row = _genbench_row(record, transform, labels)
                    handle.write(json_text(row, str(path), ensure_ascii=False) + "\n")
            step(len(records))
            # the address the file will have once the export is moved into place
            urls[GENBENCH_SPLITS[part]] = (final / path.relative_to(target)).resolve().as_uri()
            files.append(path)
        task = genbench_config(
            f"{language} {config.name}" if not source.unsplit else f"{language}",
            _genbench_description(source, config),
            str(language),
            urls,
            labels,
        )
        path = folder / "config.jsonnet"
        write_json(path, task, sort_keys=False)
        files.append(path)
    if not single:
        path = target / "config.jsonnet"
        write_json(
            path,
            {
                "name": f"{language} (symcomp)",
                "description": f"{len(source.configs)} splits of the {language} language.",
                "keywords": ["symcomp", "compositional generalisation", str(language)],
                "authors": ["symcomp"],
                "subtasks_order": [config.name for config in source.configs],
            },
            sort_keys=False,
        )
        files.append(path)
    doc = target / "doc.md"
    with atomic_writer(doc) as handle:
        handle.write(_genbench_doc(source))
    return [*files, doc]


def _genbench_row(
    record: Mapping[str, Any], transform: Callable[[str], str], labels: Sequence[str] | None
) -> dict[str, Any]:
    if labels is not None:
        premise, hypothesis = (transform(str(record[key])) for key in ("premise", "hypothesis"))
        # the two sentences on two lines, or on one line with the pair separator
        between = "\n" if transform is _same else PAIR_SEPARATOR
        return {
            "input": f"{premise}{between}{hypothesis}",
            "target": labels.index(str(record["label"])),
            "target_options": list(labels),
            "id": record.get("id"),
        }
    row: dict[str, Any] = {
        "input": transform(str(record["input"])),
        "target": transform(str(record["output"])),
        "id": record.get("id"),
    }
    if "steps" in record:  # worked steps (symcomp.core.steps), as they are
        row["steps"] = record["steps"]
    return row


def genbench_config(
    name: str,
    description: str,
    language: str,
    urls: Mapping[str, str],
    labels: Sequence[str] | None,
) -> dict[str, Any]:
    """A GenBench task configuration (``config.jsonnet``; JSON is valid Jsonnet) for data
    files at ``urls`` (split -> file URI): a free-form task, or multiple choice for NLI."""
    task: dict[str, Any] = {
        "name": name,
        "description": description,
        "keywords": ["symcomp", "compositional generalisation", language],
        "authors": ["symcomp"],
        "data_source": {"type": "manual", **urls},
        "has_validation_set": "validation" in urls,
        "has_train_set": "train" in urls,
        "task_type": "free_form" if labels is None else "multiple_choice",
        "evaluation_metrics": [EXACT_MATCH],
        "preparation_strategies": {
            "prompt_based_testing": {
                "prompt_builder": {
                    "instruction_zero_shot": "",
                    "instruction_few_shot": "",
                    "input_prefix": "Q: ",
                    "output_prefix": "\nA: ",
                }
            }
        },
    }
    if labels is None:
        task["free_form_output_regex"] = r"[^\n]*"
    return task


def _genbench_description(source: ExportSource, config: ExportConfig) -> str:
    header = source.header
    text = (
        f"The {header.get('language')} language (grammar {header.get('grammar_version')}, seed "
        f"{header.get('seed')}), made by symcomp"
    )
    if source.unsplit:
        return text + "."
    values = _divergences(config.meta)
    measured = ", ".join(f"{key} {value}" for key, value in values.items())
    return f"{text}: split {config.name}" + (f" ({measured})." if measured else ".")


def _genbench_doc(source: ExportSource) -> str:
    lines = [f"# {source.header.get('language')} (symcomp)", ""]
    lines += [
        f"* {config.name}: {_genbench_description(source, config)}" for config in source.configs
    ]
    return "\n".join([*lines, ""])
