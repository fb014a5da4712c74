"""Exporting a suite: one configuration per test, for every format of
:mod:`symcomp.data.export` (a Hugging Face ``DatasetDict`` folder, a GenBench task, TSV and
``.src``/``.tgt``).

A test's parts are its split's train/dev/test records over the test's pool (oversampled
training examples repeated, as ``symcomp train`` sees them). Nested test names
(``substitutivity/primitive``) become configuration names with ``-`` for ``/``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from symcomp._util import Record
from symcomp.core.fresh_words import rename_records
from symcomp.core.language import Language
from symcomp.core.steps import FIELD, RecordSteps, steps_json
from symcomp.data.export import ExportConfig, ExportSource, write_export
from symcomp.errors import DataError
from symcomp.suites.reading import Suite


def suite_source(
    suite: Path | Suite,
    tests: Sequence[str] | None = None,
    *,
    fresh_words: int | None = None,
    steps: bool = False,
) -> ExportSource:
    """The configurations of a suite's tests (all of them, or ``tests``); with
    ``fresh_words`` every record renamed with the fresh words of that seed (one mapping for
    the whole export, recorded in its manifest; outputs re-interpreted); with ``steps`` every
    record gets its worked ``steps`` (:mod:`symcomp.core.steps`, in the renamed language)."""
    folder = suite if isinstance(suite, Suite) else Suite.read(suite)
    chosen = folder.chosen(tests)
    configs = []
    hasher = hashlib.sha256(b"" if fresh_words is None else f"fresh {fresh_words}\0".encode())
    renaming = None if fresh_words is None else fresh_renaming(folder, fresh_words)
    stepping = RecordSteps(steps_language(folder, fresh_words)) if steps else None
    if steps:
        hasher.update(b"steps\0")
    for name in chosen:
        test = folder.test(name)
        parts: dict[str, Sequence[Record]] = {
            "train": test.train,
            "dev": test.dev,
            "test": test.test,
        }
        if renaming is not None and fresh_words is not None:
            parts = {
                part: rename_records(renaming[0], rows, fresh_words) for part, rows in parts.items()
            }
        if stepping is not None:
            parts = {part: with_steps(stepping, rows) for part, rows in parts.items()}
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
    if renaming is not None:
        header["fresh_words"] = renaming[1]
    if steps:
        header["steps"] = True
    return ExportSource(configs, header, False, hasher.hexdigest())


def fresh_renaming(folder: Suite, seed: int) -> tuple[Language, dict[str, Any]]:
    """How an export of ``folder`` renames its records with the fresh words of ``seed``: the
    suite's language in the output format its records are written in (to pass to
    :func:`~symcomp.core.fresh_words.rename_records`), and the manifest's ``fresh_words``
    entry (the mapping and that format)."""
    from symcomp.core.fresh_words import draw_fresh_words, manifest_entry

    written, output = _as_written(
        folder, "fresh words need a language's grammar to rename and re-interpret its inputs"
    )
    return written, manifest_entry(draw_fresh_words(written, seed), output)


def steps_language(folder: Suite, fresh_words: int | None = None) -> Language:
    """The language whose worked steps an export of ``folder`` shows: the suite's, in the
    output format its records are written in, in the fresh words of ``fresh_words`` when
    given (:class:`~symcomp.core.steps.RecordSteps` refuses one without steps); a
    :class:`DataError` for a suite without a language."""
    written, _ = _as_written(folder, "worked steps need a language's parser and semantics")
    return written if fresh_words is None else written.with_fresh_words(fresh_words)


def _as_written(folder: Suite, why: str) -> tuple[Language, str | None]:
    """The suite's language in the output format its records are written in, and that
    format; a suite over an imported pool is a :class:`DataError` saying ``why`` it needs
    one."""
    from symcomp.core.fresh_words import as_written

    language = folder.load_language()
    if language is None:
        raise DataError(f"{folder.root} is a suite over an imported pool (no language): {why}.")
    return as_written(language, folder.pool(next(iter(folder.tests))))


def with_steps(steps: RecordSteps, records: Sequence[Record]) -> list[Record]:
    """The records, each with its worked ``steps`` (JSON; null where its output is not the
    language's interpretation of its input)."""
    return [{**r, FIELD: steps_json(steps(r))} for r in records]


def export_suite(
    suite: Path,
    fmt: str,
    out: Path | None = None,
    *,
    tests: Sequence[str] | None = None,
    join_lines: bool = False,
    overwrite: bool = False,
    fresh_words: int | None = None,
    steps: bool = False,
    progress: Callable[[int], None] | None = None,
) -> Path:
    """Export the tests of ``suite`` (all, or ``tests``) in ``fmt`` into ``out``; return the
    folder. The default, ``SUITE.<fmt>`` beside the suite, keeps the suite's own files (whose
    sha256 its manifest records) untouched."""
    folder = Suite.read(suite)
    target = out or folder.root.with_name(f"{folder.root.name}.{fmt}")
    return write_export(
        suite_source(folder, tests, fresh_words=fresh_words, steps=steps),
        fmt,
        target,
        join_lines=join_lines,
        overwrite=overwrite,
        progress=progress,
    )
