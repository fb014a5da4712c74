"""Reading a suite folder: the one reader of its manifest, pools, splits and auxiliary files.

Everything a suite names is checked before it is used: test names are plain names, file paths
stay inside the suite, and every file read must match the sha256 the manifest recorded (an
edited pool is an error, not a silently different score).

>>> import tempfile, pathlib
>>> from symcomp.languages.scan.suite import ScanSuiteSpec, build
>>> folder = pathlib.Path(tempfile.mkdtemp()) / "scan"
>>> _ = build(folder, ScanSuiteSpec(export=False))
>>> data = read_test(folder / "addprim_jump")
>>> data.name, len(data.train), len(data.test)
('addprim_jump', 14670, 7706)
"""

from __future__ import annotations

import hashlib
import posixpath
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from symcomp._util import Record, split_lines
from symcomp.data.artifacts import MANIFEST, parse_examples, parse_json_lines, read_manifest
from symcomp.data.safe_paths import confined
from symcomp.data.splits import Split
from symcomp.errors import DataError
from symcomp.suites.format import TestEntry

if TYPE_CHECKING:
    from symcomp.core.language import Language


@dataclass(frozen=True)
class SuiteTest:
    """One test of a suite, loaded: parts hold records, training oversampling applied."""

    __test__ = False  # not a pytest test class, despite the name

    suite: Path
    name: str
    kind: str
    entry: TestEntry
    language: str | None  # None: a suite over an imported pool (no grammar)
    digest: str  # sha256 of the split file and the pool: the test as a whole
    training_digest: str  # sha256 of the pool, train and dev parts: what a model trained on
    split: Split
    pool: list[Record]
    train: list[Record]
    dev: list[Record]
    test: list[Record]
    # the suite's fresh-words entry (its language renamed: core.fresh_words.language_of)
    fresh_words: Mapping[str, Any] | None = None

    def language_entry(self) -> dict[str, Any]:
        """What names the test's language: ``language`` and ``fresh_words``, as a manifest
        writes them (:func:`~symcomp.core.fresh_words.language_of` rebuilds it)."""
        return {"language": self.language, "fresh_words": self.fresh_words}


class Suite:
    """A suite folder, its manifest checked; files are read (and verified) on demand."""

    def __init__(self, root: Path, manifest: dict[str, Any]) -> None:
        self.root = root
        self.manifest = manifest
        source = str(root / MANIFEST)
        tests = manifest.get("tests")
        if not isinstance(tests, Mapping):
            raise DataError(f"{root} is not a suite folder (its {MANIFEST} lists no tests).")
        language = manifest.get("language")
        if not isinstance(language, str) and language is not None:
            raise DataError(
                f"{source}: 'language' must be a language name (or null for imported data)."
            )
        self.tests = {name: TestEntry.from_json(name, e, source) for name, e in tests.items()}
        files = manifest.get("files", {})
        self._files: Mapping[str, Any] = files if isinstance(files, Mapping) else {}
        self._bytes: dict[str, bytes] = {}
        self._pools: dict[str, list[Record]] = {}
        self._training_digests: dict[str, str] = {}
        self._digests: dict[str, str] = {}
        self._pool_digests: dict[str, str] = {}

    @classmethod
    def read(cls, path: Path) -> Suite:
        """The suite in folder ``path`` (:class:`DataError` when it is none)."""
        root = path.resolve()
        return cls(root, read_manifest(root))

    @staticmethod
    def is_suite(path: Path) -> bool:
        """True when ``path`` holds a manifest that lists tests (it may still be malformed);
        a manifest that cannot be read (damaged, cut short) is a :class:`DataError` saying
        so: whether the folder is a suite cannot be told, and "not a suite" would mislead."""
        if not (path / MANIFEST).is_file():
            return False
        return "tests" in read_manifest(path)

    @property
    def language(self) -> str | None:
        """The language of the suite's pool (None: an imported pool, which has none)."""
        language = self.manifest["language"]
        return None if language is None else str(language)

    def load_language(self) -> Language | None:
        """The suite's language, built (None for an imported pool): renamed as the manifest's
        ``fresh_words`` entry says, when it has one (:func:`~symcomp.core.fresh_words.language_of`).
        """
        from symcomp.core.fresh_words import language_of

        return language_of(self.manifest, str(self.root / MANIFEST))

    def entry(self, name: str) -> TestEntry:
        """The manifest entry of test ``name``."""
        if name not in self.tests:
            raise DataError(
                f"{self.root}: no test named {name!r}; tests: {', '.join(self.tests) or 'none'}."
            )
        return self.tests[name]

    def chosen(self, tests: Sequence[str] | None = None) -> list[str]:
        """The tests named by ``tests`` (every test when it names none), each known and named
        once."""
        if not tests:
            return list(self.tests)
        for name in tests:
            self.entry(name)
        twice = next((name for i, name in enumerate(tests) if name in tests[:i]), None)
        if twice is not None:
            raise DataError(f"test {twice!r} is given twice in `tests`; give each test once.")
        return list(tests)

    # -- files ---------------------------------------------------------------------------------

    def file(self, relative: str, what: str) -> Path:
        """The path of a file the manifest names, confined to the suite."""
        return confined(self.root, relative, what=what, source=str(self.root / MANIFEST))

    def read_bytes(self, relative: str, what: str) -> bytes:
        """The bytes of a suite file, checked against the sha256 in the manifest."""
        key = posixpath.normpath(relative)
        if key not in self._bytes:
            self._bytes[key] = self._checked_bytes(relative, what)
        return self._bytes[key]

    def verify(self) -> None:
        """Check every file the tests name (pools, splits, auxiliary files) against the
        manifest, as reading them would: a command that will read them later finds an edited
        suite before it writes anything. Nothing is kept in memory.

        Raises
        ------
        DataError
            When a file is missing, is not listed in the manifest, or has another sha256.
        """
        seen: set[str] = set(self._bytes)
        for entry in self.tests.values():
            named = [(entry.split, "split"), (entry.pool, "pool")]
            named += [(relative, f"{role} file") for role, relative in entry.aux.items()]
            for relative, what in named:
                key = posixpath.normpath(relative)
                if key not in seen:
                    self._checked_bytes(relative, what)
                    seen.add(key)

    def _checked_bytes(self, relative: str, what: str) -> bytes:
        key = posixpath.normpath(relative)
        path = self.file(relative, what)
        try:
            data = path.read_bytes()
        except OSError as error:
            raise DataError(
                f"{self.root}: cannot read {what} {relative} ({error.strerror or error}); the "
                f"suite is incomplete: rebuild it."
            ) from None
        recorded = self._files.get(key)
        if self._files and not isinstance(recorded, Mapping):
            raise DataError(
                f"{self.root}: {what} {relative} is not listed in {MANIFEST}; the manifest was "
                f"edited: rebuild the suite."
            )
        if isinstance(recorded, Mapping) and hashlib.sha256(data).hexdigest() != recorded.get(
            "sha256"
        ):
            raise DataError(
                f"{path} has changed since the suite was written (its sha256 differs from the "
                f"one in {MANIFEST}); scores on it would not be the suite's. Restore the file "
                f"or rebuild the suite."
            )
        return data

    def read_lines(self, relative: str, what: str) -> list[str]:
        data = self.read_bytes(relative, what)
        try:
            return split_lines(data.decode("utf-8"))
        except UnicodeDecodeError as error:
            raise DataError(f"{self.root / relative}: not UTF-8 text ({error.reason}).") from None

    # -- tests ---------------------------------------------------------------------------------

    def pool(self, name: str) -> list[Record]:
        """The example records of the pool test ``name`` indexes (shared pools read once)."""
        relative = self.entry(name).pool
        key = posixpath.normpath(relative)
        if key not in self._pools:
            lines = self.read_lines(relative, "pool")
            self._pools[key] = list(parse_examples(lines, str(self.root / relative)))
        return self._pools[key]

    def split(self, name: str) -> Split:
        """The split of test ``name``, checked against its pool."""
        import json

        relative = self.entry(name).split
        source = str(self.root / relative)
        try:
            data = json.loads(self.read_bytes(relative, "split"))
        except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
            raise DataError(f"{source}: not a valid JSON split file; rebuild the suite.") from None
        split = Split.from_json(data, source)
        split.check(len(self.pool(name)), source)
        return split

    def aux_path(self, name: str, role: str) -> Path | None:
        """The path of an auxiliary file of test ``name`` (None when it has no such role)."""
        relative = self.entry(name).aux.get(role)
        return None if relative is None else self.file(relative, f"{role} file")

    def aux_records(self, name: str, role: str, *, examples: bool = False) -> list[Record]:
        """The JSON lines of an auxiliary file (e.g. substitutivity pairs); with ``examples``
        each must be an example (id, input, output)."""
        relative = self._aux(name, role)
        lines = self.read_lines(relative, f"{role} file")
        parse = parse_examples if examples else parse_json_lines
        return list(parse(lines, str(self.root / relative)))

    def aux_lines(self, name: str, role: str) -> list[str]:
        """The lines of an auxiliary text file (e.g. unrolled localism records)."""
        return self.read_lines(self._aux(name, role), f"{role} file")

    def _aux(self, name: str, role: str) -> str:
        relative = self.entry(name).aux.get(role)
        if relative is None:
            raise DataError(f"{self.root}: test {name!r} has no {role} file in {MANIFEST}.")
        return relative

    def digest(self, name: str) -> str:
        """sha256 of the test's split file and pool: the test as a whole (e.g. for exports;
        computed once: a harness's sample file asks it for every line)."""
        if name not in self._digests:
            entry = self.entry(name)
            digest = hashlib.sha256()
            digest.update(self.read_bytes(entry.split, "split"))
            digest.update(self.read_bytes(entry.pool, "pool"))
            self._digests[name] = digest.hexdigest()
        return self._digests[name]

    def training_digest(self, name: str) -> str:
        """sha256 of the pool and the train and dev parts: what a run trained on the test saw.

        Tests that differ only in their test part (e.g. Yanaka's Protocol I variants) have
        the same training digest, so one run serves them all."""
        # asked for every test whenever a run is matched to the tests it serves (a paper's
        # reproduction: every run); the files behind it are read once per Suite anyway
        if name not in self._training_digests:
            self._training_digests[name] = self._training_digest(name, self.split(name))
        return self._training_digests[name]

    def _training_digest(self, name: str, split: Split) -> str:
        import json

        parts = [split.expanded("train"), split.expanded("dev")]
        digest = hashlib.sha256(self._pool_sha256(self.entry(name).pool).encode())
        digest.update(json.dumps(parts, separators=(",", ":")).encode())
        return digest.hexdigest()

    def _pool_sha256(self, relative: str) -> str:
        """sha256 of a pool file, computed once (tests share pools; a suite may have many)."""
        key = posixpath.normpath(relative)
        if key not in self._pool_digests:
            self._pool_digests[key] = hashlib.sha256(self.read_bytes(relative, "pool")).hexdigest()
        return self._pool_digests[key]

    def test(self, name: str) -> SuiteTest:
        """Test ``name`` loaded: its pool, split and the records of each part."""
        entry = self.entry(name)
        pool = self.pool(name)
        split = self.split(name)
        parts = {part: [pool[i] for i in split.expanded(part)] for part in ("train", "dev", "test")}
        return SuiteTest(
            self.root,
            name,
            entry.kind,
            entry,
            self.language,
            self.digest(name),
            self._training_digest(name, split),
            split,
            pool,
            parts["train"],
            parts["dev"],
            parts["test"],
            self.manifest.get("fresh_words"),
        )


def locate(path: Path, test: str | None = None) -> tuple[Path, str]:
    """(suite folder, test name) for ``SUITE/<test>`` or ``SUITE`` plus a test name."""
    path = path.resolve()
    if test is not None:
        return path, test
    for folder in (path, *path.parents):
        if Suite.is_suite(folder):
            name = path.relative_to(folder).as_posix()
            if name == ".":
                raise DataError(f"{path} is a suite; name one of its tests (SUITE/<test>).")
            return folder, name
    raise DataError(f"{path} is not inside a suite folder (no manifest.json with tests above it).")


def read_test(path: Path, test: str | None = None) -> SuiteTest:
    """Load ``SUITE/<test>`` (or ``path`` = SUITE with ``test``)."""
    suite, name = locate(path, test)
    return Suite.read(suite).test(name)
