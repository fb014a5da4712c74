"""Reading a Hugging Face dataset folder: symcomp's own ``hf`` export and ``datasets`` layouts.

Three layouts are read:

* JSON lines under ``data/`` (symcomp's export, and hub folders in JSON lines):
  ``data/<config>/<split>-<hash>.jsonl`` or ``data/<split>.jsonl``; read directly, line by
  line. A folder with several configurations needs ``config``.
* A folder written by ``DatasetDict.save_to_disk`` (``dataset_dict.json``), read with
  ``datasets.load_from_disk``.
* Any other folder ``datasets.load_dataset`` reads (parquet or CSV files by split).

Each dataset split is a part (``validation`` becomes ``dev``). A ``meta`` column holding JSON
text (as symcomp exports it) is decoded back into an object.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from symcomp.data.artifacts import json_object, temporary_folder
from symcomp.data.corpus.jsonl import JsonFields, record_row
from symcomp.data.corpus.rows import Row, lines_of
from symcomp.errors import DataError

PART_NAMES = {"validation": "dev", "valid": "dev", "dev": "dev"}


def part_name(split: str) -> str:
    """The symcomp part of a dataset split name.

    >>> part_name("validation"), part_name("train"), part_name("gen")
    ('dev', 'train', 'gen')
    """
    return PART_NAMES.get(split, split)


def read_hf(
    folder: Path, fields: JsonFields | None = None, config: str | None = None
) -> Iterator[tuple[str, Row]]:
    """(part, row) of every example of a dataset folder (see the module)."""
    fields = fields or JsonFields()
    files = sorted((folder / "data").rglob("*.jsonl")) if (folder / "data").is_dir() else []
    if files:
        yield from _json_lines(folder, files, fields, config)
    else:
        yield from _with_datasets(folder, fields, config)


def _json_lines(
    folder: Path, files: list[Path], fields: JsonFields, config: str | None
) -> Iterator[tuple[str, Row]]:
    by_config: dict[str, list[Path]] = {}
    for path in files:
        relative = path.relative_to(folder / "data")
        name = relative.parts[0] if len(relative.parts) > 1 else "default"
        by_config.setdefault(name, []).append(path)
    chosen = _config(folder, sorted(by_config), config)
    for path in by_config[chosen]:
        part = part_name(path.stem.split("-")[0])
        for number, text in lines_of(path):
            if text.strip():
                record = _decoded_meta(json_object(text, f"{path}:{number}"))
                yield part, record_row(record, fields, path, number)


def _config(folder: Path, names: list[str], config: str | None) -> str:
    if config is None:
        if len(names) == 1:
            return names[0]
        raise DataError(
            f"{folder} holds {len(names)} configurations ({', '.join(names)}); choose one with "
            f"`config`."
        )
    if config not in names:
        raise DataError(f"{folder} has no configuration {config!r}; it has {', '.join(names)}.")
    return config


def _decoded_meta(record: dict[str, Any]) -> dict[str, Any]:
    meta = record.get("meta")
    if isinstance(meta, str):
        try:
            value = json.loads(meta)
        except json.JSONDecodeError:
            return record
        if isinstance(value, Mapping):
            record["meta"] = dict(value)
    return record


def _with_datasets(
    folder: Path, fields: JsonFields, config: str | None
) -> Iterator[tuple[str, Row]]:
    try:
        import datasets
    except ImportError:
        raise DataError(
            f"{folder} is not in symcomp's JSON-lines layout (data/**/*.jsonl); reading other "
            f"dataset folders needs the `datasets` package: pip install 'symcomp[hf]'."
        ) from None
    datasets.disable_progress_bars()  # symcomp reports progress itself
    # datasets caches what it converts; a private cache is removed once the rows are read
    with temporary_folder(None, "symcomp-hf-") as cache:
        try:
            if (folder / "dataset_dict.json").is_file():
                loaded = datasets.load_from_disk(str(folder))
            else:
                loaded = datasets.load_dataset(str(folder), name=config, cache_dir=str(cache))
        except Exception as error:  # datasets raises many kinds: all mean "not readable here"
            raise DataError(
                f"{folder}: not a dataset folder `datasets` can read ({type(error).__name__}: "
                f"{error})."
            ) from None
        if not isinstance(loaded, Mapping):
            loaded = {"train": loaded}
        for split, dataset in loaded.items():
            source = folder / str(split)
            for number, record in enumerate(dataset, start=1):
                row = record_row(_decoded_meta(dict(record)), fields, source, number)
                yield part_name(str(split)), row
