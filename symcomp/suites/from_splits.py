"""A suite made of split files over one pool: DBCA/MCD, length or random splits become tests
that ``symcomp train`` and ``symcomp evaluate`` take like any suite's.

Each split becomes one test named after it (its file name without ``.json``), indexing a copy
of the pool in the suite. A split that records the sha256 of the pool it was made for
(``meta.pool.sha256``, as ``symcomp split`` writes) must match the pool given: a split of
another pool is refused rather than silently indexing the wrong examples.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from symcomp._util import Record
from symcomp.data.artifacts import examples_path, file_record, read_examples, read_manifest
from symcomp.data.safe_paths import check_name
from symcomp.data.splits import Split, read_split
from symcomp.errors import DataError
from symcomp.suites.folder import SuiteWriter

KINDS = ("accuracy", "value")
OWN_FILES = ("examples.jsonl", "README.md", "manifest.json")  # a suite's top-level files


def _check_test_name(name: str, given: Path | Split) -> None:
    """Refuse a test whose folder would take the place of one of the suite's own files."""
    check_name(name, what="test name", source="splits")
    clash = next((own for own in OWN_FILES if own.casefold() == name.casefold()), None)
    if clash is None:
        return
    where = f"the split file {given}" if isinstance(given, Path) else f"the split {name!r}"
    raise DataError(
        f"{where} names the test {name!r}, whose folder would take the place of the suite's "
        f"own {clash}; rename the split file (a test is named after its split file without "
        f".json). Nothing was written."
    )


def suite_from_splits(
    pool: Path,
    splits: Mapping[str, Path | Split],
    out: Path,
    *,
    kind: str = "accuracy",
    overwrite: bool = False,
    export: bool = True,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Write a suite whose tests are ``splits`` (test name -> split file or split) of ``pool``.

    ``kind`` says how ``evaluate`` scores every test: ``accuracy`` (exact match) or ``value``
    (numeric answers: RMSE). Returns the manifest.

    Raises
    ------
    DataError
        When the pool's manifest names neither a language nor imported files, a split does
        not fit the pool (out of range, or made for a pool with another sha256), a test name
        is not a plain name, or a split has an empty part to train or test on.
    """
    if kind not in KINDS:
        raise DataError(f"`kind` {kind!r}: choose one of {', '.join(KINDS)}.")
    if not splits:
        raise DataError("give at least one split.")
    source = examples_path(pool)
    manifest = _pool_manifest(source)
    language = manifest.get("language")
    records = list(read_examples(source))
    digest = file_record(source)["sha256"]
    for name, given in splits.items():
        _check_test_name(name, given)
    say = progress or (lambda message: None)
    with SuiteWriter(out, overwrite=overwrite, export=export) as writer:
        shutil.copyfile(source, writer.path("examples.jsonl"))
        writer.describe("examples.jsonl", f"the pool the splits index (from {source})")
        for name, given in splits.items():
            check_name(name, what="test name", source="splits")
            say(f"adding {name}")
            _add_test(writer, name, given, records, (source, digest), kind)
        header = {
            "suite": "splits",
            "language": language,
            "grammar_version": manifest.get("grammar_version"),
            "grammar_sha256": manifest.get("grammar_sha256"),
            "seed": manifest.get("seed"),
            "parameters": {"pool": str(source), "pool_sha256": digest, "kind": kind},
        }
        title = f"{language} splits" if language else f"splits of the imported pool {source.parent}"
        return writer.finish(header, title, _INTRODUCTION)


def _pool_manifest(source: Path) -> dict[str, Any]:
    """The manifest of the pool ``source``, which must name its language or its import."""
    manifest = read_manifest(source.parent)
    imported = isinstance(manifest.get("imported"), Mapping)  # `symcomp import`: no language
    if not isinstance(manifest.get("language"), str) and not imported:
        raise DataError(
            f"{source.parent}: the pool's manifest names no language (nor the files it was "
            f"imported from); use a pool written by `symcomp generate` or `symcomp import`."
        )
    return manifest


def _add_test(
    writer: SuiteWriter,
    name: str,
    given: Path | Split,
    records: list[Record],
    pool: tuple[Path, str],
    kind: str,
) -> None:
    """The test ``name``: the split ``given`` (or read from it), checked against the pool."""
    split = given if isinstance(given, Split) else read_split(given, len(records))
    where = f"split {name}" if isinstance(given, Split) else str(given)
    split.check(len(records), where)
    path, digest = pool  # the pool file and its sha256
    split.check_pool(
        digest, where, str(path), base=None if isinstance(given, Split) else given.parent
    )
    writer.add_test(
        name,
        kind=kind,
        split=split,
        pool="examples.jsonl",
        records=records,
        description=str(split.meta.get("method", "split")) + f" split {name}",
    )


_INTRODUCTION = (
    "A suite of split files over one pool (`symcomp suite from-splits`): every test indexes "
    "`examples.jsonl` with its own `split.json` (CFQ layout); the split's `meta` records how "
    "it was made and its measured divergences."
)
