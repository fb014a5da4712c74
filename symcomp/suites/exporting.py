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

from symcomp.data.export import ExportConfig, ExportSource, write_export
from symcomp.suites.reading import Suite


def suite_source(suite: Path | Suite, tests: Sequence[str] | None = None) -> ExportSource:
    """The configurations of a suite's tests (all of them, or ``tests``)."""
    folder = suite if isinstance(suite, Suite) else Suite.read(suite)
    chosen = list(tests) if tests else list(folder.tests)
    configs = []
    hasher = hashlib.sha256()
    for name in chosen:
        test = folder.test(name)
        parts = {"train": test.train, "dev": test.dev, "test": test.test}
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
    return ExportSource(configs, header, False, hasher.hexdigest())


def export_suite(
    suite: Path,
    fmt: str,
    out: Path | None = None,
    *,
    tests: Sequence[str] | None = None,
    join_lines: bool = False,
    overwrite: bool = False,
    progress: Callable[[int], None] | None = None,
) -> Path:
    """Export the tests of ``suite`` (all, or ``tests``) in ``fmt`` into ``out``; return the
    folder. The default, ``SUITE.<fmt>`` beside the suite, keeps the suite's own files (whose
    sha256 its manifest records) untouched."""
    folder = Suite.read(suite)
    target = out or folder.root.with_name(f"{folder.root.name}.{fmt}")
    return write_export(
        suite_source(folder, tests),
        fmt,
        target,
        join_lines=join_lines,
        overwrite=overwrite,
        progress=progress,
    )
