"""Exporting a suite: one configuration per test, for every format of
:mod:`symcomp.data.export` (a Hugging Face ``DatasetDict`` folder, a GenBench task, TSV and
``.src``/``.tgt``).

A test's parts are its split's train/dev/test records over the test's pool (oversampled
training examples repeated, as ``symcomp train`` sees them). Nested test names
(``substitutivity/primitive``) become configuration names with ``-`` for ``/``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from symcomp._util import Record
from symcomp.core.language import Language
from symcomp.data.export import ExportConfig, ExportSource, write_export
from symcomp.errors import DataError
from symcomp.suites.reading import Suite


def suite_source(
    suite: Path | Suite, tests: Sequence[str] | None = None, *, fresh_words: int | None = None
) -> ExportSource:
    """The configurations of a suite's tests (all of them, or ``tests``); with
    ``fresh_words`` every record renamed with the fresh words of that seed (one mapping for
    the whole export, recorded in its manifest; outputs re-interpreted)."""
    folder = suite if isinstance(suite, Suite) else Suite.read(suite)
    chosen = list(tests) if tests else list(folder.tests)
    configs = []
    hasher = hashlib.sha256(b"" if fresh_words is None else f"fresh {fresh_words}\0".encode())
    for name in chosen:
        test = folder.test(name)
        parts: dict[str, Sequence[Record]] = {
            "train": test.train,
            "dev": test.dev,
            "test": test.test,
        }
        if fresh_words is not None:
            parts = _in_fresh_words(folder, test.pool, parts, fresh_words)
        configs.append(ExportConfig(name.replace("/", "-"), parts, dict(test.entry.meta)))
        hasher.update(f"{name}\0{test.digest}\0".encode())
    manifest = folder.manifest
    header = {
        key: manifest.get(key)
        for key in ("language", "grammar_version", "grammar_sha256", "seed", "symcomp_version")
    }
    header["source"] = {"suite": str(folder.root), "suite_kind": manifest.get("suite")}
    if "fresh_words" in manifest:  # the renaming that rebuilds the language of a renamed suite
        header["fresh_words"] = manifest["fresh_words"]
    if fresh_words is not None:
        header["fresh_words"] = _fresh_entry(folder, fresh_words)
    return ExportSource(configs, header, False, hasher.hexdigest())


def _written_language(folder: Suite, records: Sequence[Record]) -> Language:
    """The suite's language in the output format its records are written in."""
    from symcomp.core.fresh_words import output_format

    language = folder.load_language()
    if language is None:
        raise DataError(
            f"{folder.root} is a suite over an imported pool (no language): fresh words need "
            f"a language's grammar to rename and re-interpret its inputs."
        )
    found = output_format(language, records)
    return language if found is None else language.with_output(found)


def _in_fresh_words(
    folder: Suite,
    pool: Sequence[Record],
    parts: Mapping[str, Sequence[Record]],
    seed: int,
) -> dict[str, Sequence[Record]]:
    from symcomp.core.fresh_words import rename_records

    language = _written_language(folder, pool)
    return {part: rename_records(language, records, seed) for part, records in parts.items()}


def _fresh_entry(folder: Suite, seed: int) -> dict[str, Any]:
    """The manifest's ``fresh_words`` entry of an export renamed with ``seed``."""
    from symcomp.core.fresh_words import manifest_entry, output_format

    pool = folder.pool(next(iter(folder.tests)))
    language = _written_language(folder, pool)
    return manifest_entry(language.draw_fresh_words(seed), output_format(language, pool))


def export_suite(
    suite: Path,
    fmt: str,
    out: Path | None = None,
    *,
    tests: Sequence[str] | None = None,
    join_lines: bool = False,
    overwrite: bool = False,
    fresh_words: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> Path:
    """Export the tests of ``suite`` (all, or ``tests``) in ``fmt`` into ``out``; return the
    folder. The default, ``SUITE.<fmt>`` beside the suite, keeps the suite's own files (whose
    sha256 its manifest records) untouched."""
    folder = Suite.read(suite)
    target = out or folder.root.with_name(f"{folder.root.name}.{fmt}")
    return write_export(
        suite_source(folder, tests, fresh_words=fresh_words),
        fmt,
        target,
        join_lines=join_lines,
        overwrite=overwrite,
        progress=progress,
    )
