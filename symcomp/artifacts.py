"""Artifacts on disk: atomic writes, manifests with checksums, reading ``examples.jsonl``.

Every output file is written to a temporary file beside its destination and renamed into place
only when complete, so an interrupted run never leaves half a file, and an existing file is
replaced only by a complete new one. Every artifact folder has a ``manifest.json`` recording
how it was made and the sha256 of each file.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import IO, Any

from symcomp.errors import DataError, OutputError

EXAMPLES = "examples.jsonl"
MANIFEST = "manifest.json"


def prepare_output_dir(path: Path, *, overwrite: bool, names: tuple[str, ...]) -> bool:
    """Make sure ``path`` is a writable folder; return True when this call created it.

    Raises
    ------
    OutputError
        When ``path`` is a file, cannot be created or written, or already holds one of
        ``names`` and ``overwrite`` is false.
    """
    if path.exists() and not path.is_dir():
        raise OutputError(f"--out {path} is a file; give a folder.")
    created = not path.exists()
    try:
        path.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path, prefix=".symcomp-probe-"):
            pass
    except OSError as error:
        raise OutputError(
            f"cannot write to {path}: {error.strerror or error}. Choose a folder you can write."
        ) from None
    existing = [name for name in names if (path / name).exists()]
    if existing and not overwrite:
        raise OutputError(
            f"{path} already holds {', '.join(existing)}; pass --overwrite to replace "
            f"(the old files stay until the new ones are complete) or choose another folder."
        )
    return created


@contextlib.contextmanager
def atomic_writer(path: Path) -> Iterator[IO[str]]:
    """Open a text file that appears at ``path`` only if the block completes."""
    # not a `with`: the file must outlive the block to be renamed into place
    handle = tempfile.NamedTemporaryFile(  # noqa: SIM115
        "w",
        encoding="utf-8",
        dir=path.parent,
        prefix=f".{path.name}.",
        suffix=".tmp",
        delete=False,
        newline="\n",
    )
    try:
        with handle:
            yield handle
        os.replace(handle.name, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(handle.name)
        raise


def write_json(path: Path, data: Any, *, sort_keys: bool = True) -> None:
    """Write JSON atomically, pretty-printed (sorted keys unless the order carries meaning)."""
    with atomic_writer(path) as handle:
        json.dump(data, handle, indent=2, sort_keys=sort_keys, ensure_ascii=False)
        handle.write("\n")


def file_record(path: Path) -> dict[str, Any]:
    """sha256, size and line count of a file, as recorded in manifests."""
    digest, size, lines = hashlib.sha256(), 0, 0
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
            size += len(block)
            lines += block.count(b"\n")
    return {"sha256": digest.hexdigest(), "bytes": size, "lines": lines}


def read_manifest(folder: Path) -> dict[str, Any]:
    """The manifest of an artifact folder."""
    path = folder / MANIFEST
    if not path.is_file():
        raise DataError(
            f"{folder} has no {MANIFEST}; point to a folder written by symcomp "
            f"(e.g. `symcomp generate ... --out {folder}`)."
        )
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise DataError(f"{path}:{error.lineno}: not valid JSON: {error.msg}.") from None
    if not isinstance(data, dict):
        raise DataError(f"{path}: a manifest must be a JSON object.")
    return data


def examples_path(location: Path) -> Path:
    """``examples.jsonl`` of a folder, or the file itself."""
    path = location / EXAMPLES if location.is_dir() else location
    if not path.is_file():
        raise DataError(
            f"{location}: no {EXAMPLES} found; generate a pool first "
            f"(`symcomp generate LANG --n N --out {location}`)."
        )
    return path


def read_examples(location: Path) -> Iterator[dict[str, Any]]:
    """The example records of ``examples.jsonl`` (in a folder, or the file), in order.

    Raises
    ------
    DataError
        On the first malformed line, naming file and line number.
    """
    path = examples_path(location)
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            try:
                record = json.loads(line)
            except json.JSONDecodeError as error:
                raise DataError(
                    f"{path}:{number}: not valid JSON ({error.msg} at column {error.colno})."
                ) from None
            if not isinstance(record, Mapping):
                raise DataError(f"{path}:{number}: an example must be a JSON object.")
            missing = [key for key in ("id", "input", "output") if key not in record]
            if missing:
                raise DataError(
                    f"{path}:{number}: an example needs id, input and output (missing "
                    f"{', '.join(missing) or 'all'})."
                )
            yield dict(record)
