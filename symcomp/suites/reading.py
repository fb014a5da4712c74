"""Reading a test of a suite: its pool, split and the records of each part.

>>> import tempfile, pathlib
>>> from symcomp.suites.scan import ScanSuiteSpec, build
>>> folder = pathlib.Path(tempfile.mkdtemp()) / "scan"
>>> _ = build(folder, ScanSuiteSpec(export=False))
>>> data = read_test(folder / "addprim_jump")
>>> data.name, len(data.train), len(data.test)
('addprim_jump', 14670, 7706)
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from symcomp.artifacts import MANIFEST, read_examples, read_manifest
from symcomp.errors import DataError
from symcomp.splits import Split, read_split

Record = dict[str, Any]


@dataclass(frozen=True)
class SuiteTest:
    """One test of a suite, loaded: parts hold records, training oversampling applied."""

    suite: Path
    name: str
    kind: str
    entry: dict[str, Any]
    manifest: dict[str, Any]
    split: Split
    pool: list[Record]
    train: list[Record]
    dev: list[Record]
    test: list[Record]

    @property
    def language(self) -> str:
        return str(self.manifest["language"])


def locate(path: Path, test: str | None = None) -> tuple[Path, str]:
    """(suite folder, test name) for ``SUITE/<test>`` or ``SUITE`` plus a test name."""
    path = path.resolve()
    if test is not None:
        return path, test
    for folder in (path, *path.parents):
        if (folder / MANIFEST).is_file() and "tests" in read_manifest(folder):
            name = path.relative_to(folder).as_posix()
            if name == ".":
                raise DataError(f"{path} is a suite; name one of its tests (SUITE/<test>).")
            return folder, name
    raise DataError(f"{path} is not inside a suite folder (no manifest.json with tests above it).")


def read_test(path: Path, test: str | None = None) -> SuiteTest:
    """Load ``SUITE/<test>`` (or ``path`` = SUITE with ``test``)."""
    suite, name = locate(path, test)
    manifest = read_manifest(suite)
    if name not in manifest["tests"]:
        raise DataError(f"{suite}: no test named {name!r}; tests: {', '.join(manifest['tests'])}.")
    entry = manifest["tests"][name]
    pool = list(read_examples(suite / entry["pool"]))
    split = read_split(suite / entry["split"], pool_size=len(pool))
    parts = {part: [pool[i] for i in split.expanded(part)] for part in ("train", "dev", "test")}
    return SuiteTest(
        suite,
        name,
        str(entry["kind"]),
        entry,
        manifest,
        split,
        pool,
        parts["train"],
        parts["dev"],
        parts["test"],
    )
