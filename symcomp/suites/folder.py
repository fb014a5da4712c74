"""Writing a suite folder: pools, splits, auxiliary files, exports, README and manifest.

A suite is one folder::

    SUITE/
      manifest.json            language, seed, parameters, every test, sha256 of every file
      README.md                what each file is
      examples.jsonl           the shared pool
      <test>/split.json        trainIdxs/devIdxs/testIdxs over the pool named in meta["pool"]
      <test>/examples.jsonl    only for tests that rewrite examples (their own pool)
      <test>/...               auxiliary test files (twin pairs, unrolled records, exceptions)
      <test>/export/           train/dev/test as .tsv, .src and .tgt (OpenNMT, fairseq)

The folder is assembled beside its destination and renamed into place when complete, so an
interrupted build leaves nothing behind and an existing suite is replaced only by a complete
new one (with ``overwrite``).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from symcomp.core.language import Language
from symcomp.data.artifacts import (
    MANIFEST,
    atomic_writer,
    file_record,
    folder_mode,
    json_text,
    leaving_no_folder,
    read_manifest,
    remove_temporary,
    write_json,
    writing_beside,
)
from symcomp.data.signals import committing, signals_held
from symcomp.data.splits import PARTS, Split, write_split
from symcomp.errors import DataError, OutputError
from symcomp.suites.format import FORMAT, TestEntry
from symcomp.version import __version__


def suite_header(
    suite: str,
    language: Language,
    seed: int | None,
    parameters: Mapping[str, Any],
    **extra: Any,
) -> dict[str, Any]:
    """The header of a language's suite manifest, for :meth:`SuiteWriter.finish`.

    Every suite of a language records the same facts about how it was made: the suite's name,
    the language, its grammar's version and sha256, the seed and the parameters; ``extra``
    adds what only one suite records (say, the pool it drew from), after those.

    >>> from types import SimpleNamespace
    >>> toy = SimpleNamespace(name="toy", version="1.0", grammar=SimpleNamespace(sha256="ab"))
    >>> header = suite_header("toy-suite", toy, 0, {"n": 1}, pool={"size": 1})
    >>> list(header)
    ['suite', 'language', 'grammar_version', 'grammar_sha256', 'seed', 'parameters', 'pool']
    """
    return {
        "suite": suite,
        "language": language.name,
        "grammar_version": language.version,
        "grammar_sha256": language.grammar.sha256,
        "seed": seed,
        "parameters": dict(parameters),
        **extra,
    }


class SuiteWriter:
    """Assemble a suite in a temporary folder; :meth:`finish` moves it into place.

    Use as a context manager: on an exception the temporary folder is removed.
    """

    def __init__(self, root: Path, *, overwrite: bool, export: bool = True) -> None:
        root = root.resolve()  # `--out .` has no name to build a sibling folder from
        if root.exists() and not root.is_dir():
            raise OutputError(f"`out` {root} is a file; give a folder.")
        # held until the suite is in place: a second command building the same suite is
        # refused instead of one silently replacing the other; a suite that fails leaves no
        # folder made for it
        self._held = contextlib.ExitStack()
        self._held.enter_context(leaving_no_folder(root.parent))
        try:
            root.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            self._held.__exit__(*sys.exc_info())
            raise OutputError(
                f"cannot write to {root.parent}: {error.strerror or error}."
            ) from None
        try:
            # no signal between taking the lock or making the folder and owning their removal
            with signals_held():
                self._held.enter_context(writing_beside(root))
                _check_replaceable(root, overwrite=overwrite)
                self.work = Path(tempfile.mkdtemp(prefix=f".{root.name}.", dir=root.parent))
                self._held.callback(remove_temporary, self.work)
            os.chmod(self.work, folder_mode())  # mkdtemp's folder is private; a suite is not
        except OSError as error:
            self._held.__exit__(*sys.exc_info())
            if isinstance(error, OutputError):
                raise
            raise OutputError(
                f"cannot write to {root.parent}: {error.strerror or error}."
            ) from None
        except BaseException:
            self._held.__exit__(*sys.exc_info())
            raise
        self.root = root
        self.export = export
        self.tests: dict[str, TestEntry] = {}
        self.descriptions: dict[str, str] = {}

    def __enter__(self) -> SuiteWriter:
        return self

    def __exit__(self, kind: Any, value: Any, traceback: Any) -> None:
        # the work folder (if still there), the lock, and on a failure the folders made
        self._held.__exit__(kind, value, traceback)

    # -- files -----------------------------------------------------------------------------

    def path(self, relative: str) -> Path:
        """Absolute path of a file inside the suite under construction (parents created)."""
        path = self.work / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        return path

    def describe(self, relative: str, text: str) -> None:
        """Say in the README what a file or folder is."""
        self.descriptions[relative] = text

    def write_records(self, relative: str, records: Iterable[Mapping[str, Any]], text: str) -> int:
        """Write JSON lines; return how many."""
        count = 0
        with atomic_writer(self.path(relative)) as handle:
            for record in records:
                line = json_text(record, relative, ensure_ascii=False, separators=(",", ":"))
                handle.write(line + "\n")
                count += 1
        self.describe(relative, text)
        return count

    def write_text(self, relative: str, lines: Iterable[str], text: str) -> None:
        """Write lines of text (each given without its newline)."""
        with atomic_writer(self.path(relative)) as handle:
            for line in lines:
                handle.write(line + "\n")
        self.describe(relative, text)

    def write_json(self, relative: str, data: Any, text: str) -> None:
        write_json(self.path(relative), data)
        self.describe(relative, text)

    # -- tests -----------------------------------------------------------------------------

    def add_accuracy_tests(
        self,
        tests: Iterable[tuple[str, Split, str]],
        pool: str,
        records: Sequence[Mapping[str, Any]],
    ) -> None:
        """An accuracy test (:meth:`add_test`) per ``(name, split, description)``, each over
        ``pool``."""
        for name, split, description in tests:
            self.add_test(
                name,
                kind="accuracy",
                split=split,
                pool=pool,
                records=records,
                description=description,
            )

    def add_test(
        self,
        name: str,
        *,
        kind: str,
        split: Split,
        pool: str,
        records: Sequence[Mapping[str, Any]],
        description: str,
        aux: Mapping[str, str] | None = None,
    ) -> TestEntry:
        """Write ``<name>/split.json`` (and its exports) for a split over ``pool``."""
        split.check(len(records), f"{name}/split.json")
        relative_pool = os.path.relpath(pool, name)
        split = split.with_meta(pool=relative_pool)
        write_split(self.path(f"{name}/split.json"), split)
        self.describe(f"{name}/split.json", f"train/dev/test indices into {pool} ({description})")
        entry = TestEntry(
            kind=kind,
            split=f"{name}/split.json",
            pool=pool,
            description=description,
            aux=dict(aux or {}),
            sizes=split.sizes(),
            meta={key: value for key, value in split.meta.items() if key != "pool"},
        )
        self.tests[name] = entry
        if self.export:
            self._export(name, split, records)
        return entry

    def _export(self, name: str, split: Split, records: Sequence[Mapping[str, Any]]) -> None:
        for part in PARTS:
            indices = split.expanded(part)
            if not indices:
                continue
            rows = [records[index] for index in indices]
            base = f"{name}/export/{part}"
            with (
                atomic_writer(self.path(f"{base}.tsv")) as tsv,
                atomic_writer(self.path(f"{base}.src")) as src,
                atomic_writer(self.path(f"{base}.tgt")) as tgt,
            ):
                for row in rows:
                    tsv.write(f"{row['input']}\t{row['output']}\n")
                    src.write(f"{row['input']}\n")
                    tgt.write(f"{row['output']}\n")
        self.describe(
            f"{name}/export/",
            "train/dev/test as `input<TAB>output` (.tsv) and line-aligned .src/.tgt files",
        )

    # -- finish ----------------------------------------------------------------------------

    def finish(self, header: Mapping[str, Any], title: str, introduction: str) -> dict[str, Any]:
        """Write README.md and manifest.json, then move the suite to its destination."""
        self._write_readme(title, introduction)
        files = {
            path.relative_to(self.work).as_posix(): file_record(path)
            for path in sorted(self.work.rglob("*"))
            if path.is_file()
        }
        manifest = {
            "format": FORMAT,
            "symcomp_version": __version__,
            **dict(header),
            "tests": {name: entry.to_json() for name, entry in self.tests.items()},
            "files": files,
        }
        write_json(self.work / MANIFEST, manifest, sort_keys=False)  # tests in suite order
        self._move_into_place()
        return manifest

    def _write_readme(self, title: str, introduction: str) -> None:
        lines = [f"# {title}", "", introduction, "", "## Tests", ""]
        for name, entry in self.tests.items():
            sizes = ", ".join(f"{part} {count:,}" for part, count in entry.sizes.items())
            lines.append(f"* **{name}** ({entry.kind}; {sizes}): {entry.description}")
        lines += ["", "## Files", ""]
        lines += [f"* `{path}`: {text}" for path, text in sorted(self.descriptions.items())]
        lines += [
            "* `manifest.json`: how the suite was made (language, seed, parameters, every test) "
            "and the sha256 of every file",
            "",
        ]
        (self.work / "README.md").write_text("\n".join(lines), encoding="utf-8")

    def _move_into_place(self) -> None:
        with committing(completes=self.root):
            self._swap_in()

    def _swap_in(self) -> None:
        if not self.root.exists():
            os.replace(self.work, self.root)
            return
        if Path.cwd().is_relative_to(self.root):
            # the folder the user stands in stays where it is: swap its contents instead
            for entry in list(self.root.iterdir()):  # all checked to be the old suite's
                if entry.is_dir() and not entry.is_symlink():
                    shutil.rmtree(entry)
                else:
                    entry.unlink()
            for entry in list(self.work.iterdir()):
                os.replace(entry, self.root / entry.name)
            self.work.rmdir()
            return
        old = self.root.with_name(f".{self.root.name}.old-{os.getpid()}")
        os.replace(self.root, old)
        os.replace(self.work, self.root)
        with contextlib.suppress(OSError):
            shutil.rmtree(old)


def _check_replaceable(root: Path, *, overwrite: bool) -> None:
    if root.exists() and any(root.iterdir()):
        foreign = foreign_files(root)
        if foreign:
            more = f" and {len(foreign) - 5} more" if len(foreign) > 5 else ""
            shown = ", ".join(foreign[:5]) + more
            raise OutputError(
                f"{root} holds files that are not part of a symcomp suite ({shown}); symcomp "
                f"never replaces files it did not write. Choose another folder."
            )
        if not overwrite:
            raise OutputError(
                f"{root} already holds a suite; pass `overwrite` to replace it (the old "
                f"suite stays until the new one is complete) or choose another folder."
            )


def foreign_files(root: Path) -> list[str]:
    """Files under ``root`` that its suite manifest does not list (all of them when ``root``
    holds no suite): what replacing the folder would destroy."""
    listed: set[str] = set()
    with contextlib.suppress(DataError):
        manifest = read_manifest(root)
        files = manifest.get("files")
        if manifest.get("format") == FORMAT and isinstance(files, Mapping):
            listed = {MANIFEST, *(str(name) for name in files)}
    return [
        relative
        for path in sorted(root.rglob("*"))
        if (path.is_file() or path.is_symlink())
        and (relative := path.relative_to(root).as_posix()) not in listed
    ]
