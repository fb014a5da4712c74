"""A suite in fresh words: a built suite folder rewritten with its language's open-class words
renamed (:mod:`symcomp.core.fresh_strings`).

Every pool (and every auxiliary file of examples) is renamed with one renaming, so a test item
and its demonstrations share it; each renamed output is the renamed language's interpretation
of the renamed input (:func:`symcomp.core.fresh_words.rename_records`). Splits are kept as they
are (they index the pools), exports and the README are written again, other text files are
renamed word by word (COGS's ``targets.txt``), and the manifest gains a ``fresh_words`` entry
(the seed, the classes, the mapping and the output format) from which
:func:`symcomp.core.fresh_words.language_of` rebuilds the renamed language.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from symcomp._util import Record, split_lines
from symcomp.core.fresh_strings import FreshWords
from symcomp.core.fresh_words import (
    FIELD,
    as_written,
    manifest_entry,
    output_tokens,
    rename_record,
    renamed_language,
)
from symcomp.core.language import Language
from symcomp.core.registry import get_language
from symcomp.data.artifacts import MANIFEST, parse_json_lines
from symcomp.errors import DataError
from symcomp.suites.folder import SuiteWriter
from symcomp.suites.reading import Suite

FORMAT_KEYS = ("format", "symcomp_version", "tests", "files")  # written by SuiteWriter.finish
DESCRIBED = re.compile(r"^\* `(?P<path>[^`]+)`: (?P<text>.*)$")


def rename_suite(
    source: Path,
    out: Path,
    fresh: FreshWords | int,
    *,
    overwrite: bool = False,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Write the suite in ``source`` into ``out`` in fresh words (a seed or a renaming);
    return the new manifest. ``source`` is left as it was."""
    suite = Suite.read(source)
    if suite.language is None:
        raise DataError(f"{source} is a suite over an imported pool; it has no words to rename.")
    say = progress or (lambda message: None)
    pools = list(dict.fromkeys(posixpath.normpath(e.pool) for e in suite.tests.values()))
    first = suite.pool(next(iter(suite.tests)))
    base = get_language(suite.language)
    written, output = as_written(base, first)
    language = renamed_language(written, fresh)
    assert language.fresh_words is not None
    renamed = _Renamer(language)
    files = suite.manifest.get("files", {})
    export = any("/export/" in str(name) for name in files)
    title, introduction, descriptions = _readme(source / "README.md")
    with SuiteWriter(out, overwrite=overwrite, export=export) as writer:
        records: dict[str, list[Record]] = {}
        for relative in pools:
            say(f"renaming {relative}")
            lines = suite.read_lines(relative, "pool")
            records[relative] = renamed.lines(lines, str(source / relative))
            writer.write_records(relative, records[relative], descriptions.get(relative, "pool"))
        _aux_and_text(suite, writer, renamed, set(pools), descriptions)
        for name, entry in suite.tests.items():
            writer.add_test(
                name,
                kind=entry.kind,
                split=suite.split(name),
                pool=entry.pool,
                records=records[posixpath.normpath(entry.pool)],
                description=entry.description,
                aux=entry.aux,
            )
        header = {k: v for k, v in suite.manifest.items() if k not in FORMAT_KEYS}
        header[FIELD] = manifest_entry(language.fresh_words, output)
        note = (
            f" Its open-class words are renamed to fresh words (seed "
            f"{language.fresh_words.seed}; the mapping is `{FIELD}` in {MANIFEST})."
        )
        return writer.finish(header, title, introduction + note)


class _Renamer:
    """Renames JSON lines and text lines in one language's fresh words."""

    def __init__(self, language: Language) -> None:
        self.language = language
        self.outputs = output_tokens(language)
        assert language.fresh_words is not None
        self.fresh = language.fresh_words

    def lines(self, lines: list[str], source: str) -> list[Record]:
        return [self.record(record) for record in parse_json_lines(lines, source)]

    def record(self, record: Mapping[str, Any]) -> Record:
        return rename_record(self.language, record, self.outputs)

    def text(self, line: str) -> str:
        return self.fresh.rename_text(line)


def _aux_and_text(
    suite: Suite,
    writer: SuiteWriter,
    renamed: _Renamer,
    pools: set[str],
    descriptions: Mapping[str, str],
) -> None:
    """Auxiliary files (JSON lines of records with inputs) and other text files, renamed."""
    aux = {posixpath.normpath(p) for e in suite.tests.values() for p in e.aux.values()}
    splits = {posixpath.normpath(e.split) for e in suite.tests.values()}
    for relative in suite.manifest.get("files", {}):
        key = posixpath.normpath(str(relative))
        if key in pools or key in splits or "/export/" in key or key == "README.md":
            continue
        lines = suite.read_lines(key, "file")
        text = descriptions.get(key, "")
        if key.endswith(".jsonl"):
            writer.write_records(key, renamed.lines(lines, str(suite.root / key)), text)
        elif key.endswith(".txt"):
            writer.write_text(key, [renamed.text(line) for line in lines], text)
        elif key in aux:
            raise DataError(
                f"{suite.root / key}: an auxiliary file that is not JSON lines or text."
            )
        else:
            writer.write_text(key, lines, text)


def _readme(path: Path) -> tuple[str, str, dict[str, str]]:
    """The title, introduction and file descriptions of a suite's README."""
    lines = split_lines(path.read_text(encoding="utf-8")) if path.is_file() else []
    title = lines[0].removeprefix("# ") if lines else "Test suite"
    end = lines.index("## Tests") if "## Tests" in lines else len(lines)
    introduction = "\n".join(lines[1:end]).strip()
    descriptions = {
        match["path"]: match["text"] for line in lines if (match := DESCRIBED.match(line))
    }
    return title, introduction, descriptions
