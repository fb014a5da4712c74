"""Exporting a pool for other tools: TSV, OpenNMT/fairseq ``.src``/``.tgt``, Hugging Face.

``tsv``
    ``examples.tsv``: ``input<TAB>output`` per line.
``srctgt``
    ``examples.src`` and ``examples.tgt``, line-aligned.
``hf``
    A folder that ``datasets.load_dataset(folder)`` reads with no loading script:
    ``data/train-<hash>.jsonl`` (``id``, ``input``, ``output``, ``meta``) and a ``README.md``
    whose YAML header declares the files. An unsplit pool is one ``train`` split. The file name
    carries the pool's sha256 prefix because ``datasets`` caches local folders by folder name
    and declared files: two exports both named ``hf`` would otherwise share one cache entry.

Each export folder gets its own ``manifest.json`` (source pool and sha256 of every file).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from symcomp.data.artifacts import (
    MANIFEST,
    atomic_writer,
    file_record,
    read_examples,
    read_manifest,
    write_json,
    writing_into,
)
from symcomp.data.safe_paths import confined
from symcomp.errors import DataError

FORMATS = ("tsv", "srctgt", "hf")
_HF_README = """---
configs:
- config_name: default
  data_files:
  - split: train
    path: {path}
---
# {language} pool exported by symcomp

{examples:,} examples of `{language}` (grammar {version}), written by `symcomp export` (hf format).
Load with `datasets.load_dataset("{folder}")`. Fields: `id`, `input`, `output`, `meta`.
"""


def _field(record: Mapping[str, Any], name: str, number: int) -> str:
    text = str(record[name])
    if "\t" in text or "\n" in text:
        raise DataError(
            f"example {number} ({record['id']}): its {name} contains a TAB or newline, which "
            f"the {name} column of a line-based format cannot hold; use the hf format."
        )
    return text


def export(pool: Path, fmt: str, out: Path | None = None, *, overwrite: bool = False) -> Path:
    """Export ``pool`` (a folder with examples.jsonl) in ``fmt``; return the export folder."""
    if fmt not in FORMATS:
        raise DataError(f"unknown export format {fmt!r}; choose one of {', '.join(FORMATS)}.")
    manifest = read_manifest(pool)
    target = out or pool / "export" / fmt
    names = {
        "tsv": ("examples.tsv",),
        "srctgt": ("examples.src", "examples.tgt"),
        "hf": ("README.md", "data"),
    }[fmt]
    with writing_into(target, overwrite=overwrite, names=(*names, MANIFEST)):
        records = read_examples(pool)
        if fmt == "tsv":
            files = [_write_tsv(records, target)]
        elif fmt == "srctgt":
            files = _write_srctgt(records, target)
        else:
            files = _write_hf(records, target, manifest)
        write_json(
            target / MANIFEST,
            {
                "format": f"symcomp.export.{fmt}/1",
                "source": {"pool": str(pool), "manifest": manifest.get("files", {})},
                "language": manifest.get("language"),
                "grammar_version": manifest.get("grammar_version"),
                "files": {str(path.relative_to(target)): file_record(path) for path in files},
            },
        )
    return target


def _previous_files(target: Path) -> list[Path]:
    """The files an earlier export into ``target`` wrote (listed in its manifest)."""
    try:
        files = read_manifest(target).get("files", {})
    except DataError:
        return []
    found = []
    for name in files:
        with contextlib.suppress(DataError):  # a name outside the folder is not ours to delete
            found.append(confined(target, name, what="file", source=str(target / MANIFEST)))
    return found


def _write_tsv(records: Iterable[Mapping[str, Any]], target: Path) -> Path:
    path = target / "examples.tsv"
    with atomic_writer(path) as handle:
        for number, record in enumerate(records, start=1):
            handle.write(f"{_field(record, 'input', number)}\t{_field(record, 'output', number)}\n")
    return path


def _write_srctgt(records: Iterable[Mapping[str, Any]], target: Path) -> list[Path]:
    src, tgt = target / "examples.src", target / "examples.tgt"
    with atomic_writer(src) as sources, atomic_writer(tgt) as targets:
        for number, record in enumerate(records, start=1):
            sources.write(_field(record, "input", number) + "\n")
            targets.write(_field(record, "output", number) + "\n")
    return [src, tgt]


def _write_hf(
    records: Iterable[Mapping[str, Any]], target: Path, manifest: Mapping[str, Any]
) -> list[Path]:
    (target / "data").mkdir(exist_ok=True)
    digest = manifest.get("files", {}).get("examples.jsonl", {}).get("sha256", "")[:12]
    data = target / "data" / (f"train-{digest}.jsonl" if digest else "train.jsonl")
    examples = 0
    with atomic_writer(data) as handle:
        for record in records:
            row = {key: record[key] for key in ("id", "input", "output")}
            row["meta"] = record.get("meta", {})
            handle.write(json.dumps(row, ensure_ascii=False, separators=(",", ":")) + "\n")
            examples += 1
    for stale in _previous_files(target):
        if stale.parent == target / "data" and stale != data:
            stale.unlink(missing_ok=True)  # an earlier export of another pool (overwrite)
    readme = target / "README.md"
    with atomic_writer(readme) as handle:
        handle.write(
            _HF_README.format(
                language=manifest.get("language"),
                version=manifest.get("grammar_version"),
                examples=examples,
                folder=target,
                path=data.relative_to(target).as_posix(),
            )
        )
    return [data, readme]
