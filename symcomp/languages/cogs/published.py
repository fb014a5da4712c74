"""The published COGS data as a suite: ``symcomp suite import cogs DIR --out SUITE``.

``DIR`` holds COGS's ``data/`` files (``najoungkim/COGS``): ``train.tsv``, ``dev.tsv``,
``test.tsv``, ``gen.tsv`` and, when present, ``train_100.tsv``; each line is
``sentence<TAB>logical form<TAB>category``. The logical forms may be COGS's, ReCOGS's
positional ones or the variable-free ones: the format is read off the first row, and every row
must be what symcomp's grammar gives for its sentence in that format, so a file with another
number of columns, a sentence outside the grammar or a foreign logical form is an error naming
its file and line. The tests are the generated suite's (``gen``, ``test``, and
``gen_train_100`` when ``train_100.tsv`` is there); the report card breaks gen down by case and
by lexical vs structural case.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from symcomp._util import Record, split_lines
from symcomp.core.language import Language
from symcomp.core.registry import get_language
from symcomp.core.suite_builder import SuiteImporter
from symcomp.data.splits import Split
from symcomp.errors import DataError, SymcompError
from symcomp.languages.cogs.cases import STRUCTURAL
from symcomp.languages.cogs.formats import FORMATS
from symcomp.suites.common import make_record
from symcomp.suites.folder import SuiteWriter, suite_header

FILES = ("train", "dev", "test", "gen")
SOURCE = "the data folder of najoungkim/COGS (train.tsv, dev.tsv, test.tsv, gen.tsv)"


def importer() -> SuiteImporter:
    """``symcomp suite import cogs``."""
    return SuiteImporter(SOURCE, import_published)


def read_rows(path: Path, dataset: str = "COGS") -> list[tuple[int, str, str, str]]:
    """(line, sentence, logical form, category) of a published file; a line without exactly
    three TAB-separated columns is an error naming the file, the line and ``dataset``."""
    rows = []
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise DataError(f"{path}: cannot read ({error.strerror or error}).") from None
    except UnicodeDecodeError as error:
        bad_line = error.object[: error.start].count(b"\n") + 1
        raise DataError(
            f"{path}:{bad_line}: not UTF-8 text (byte {error.object[error.start]:#04x}); give the "
            f"published file unchanged, or convert it (e.g. iconv -f latin1 -t utf-8)."
        ) from None
    for number, line in enumerate(split_lines(text), start=1):
        if not line.strip():
            continue
        columns = line.split("\t")
        if len(columns) != 3:
            raise DataError(
                f"{path}:{number}: {len(columns)} columns; {dataset} files have three, "
                f"sentence<TAB>logical form<TAB>category."
            )
        rows.append((number, columns[0], columns[1], columns[2]))
    return rows


def detect_format(language: Language, path: Path, row: tuple[int, str, str, str]) -> str:
    """The output format the first row is written in."""
    number, sentence, lf, _category = row
    for output in FORMATS:
        if _interpret(language.with_output(output), path, number, sentence) == lf:
            return output
    raise DataError(
        f"{path}:{number}: the logical form is none of symcomp's formats ({', '.join(FORMATS)}) "
        f"for {sentence!r}; expected e.g. {language.interpret(sentence)!r}."
    )


def _interpret(language: Language, path: Path, number: int, sentence: str) -> str:
    try:
        return language.interpret(sentence)
    except SymcompError as error:
        first = str(error).splitlines()[0]
        raise DataError(f"{path}:{number}: {first} (sentence {sentence!r}).") from None


def import_published(
    source: Path,
    out: Path,
    *,
    overwrite: bool = False,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Write the published COGS files in ``source`` as a suite in ``out``; return its manifest."""
    say = progress or (lambda message: None)
    base = get_language("cogs")
    missing = [name for name in FILES if not (source / f"{name}.tsv").is_file()]
    if missing:
        raise DataError(f"{source}: no {', '.join(f'{m}.tsv' for m in missing)}; give {SOURCE}.")
    records: list[Record] = []
    parts: dict[str, list[int]] = {}
    output = None
    for name in (*FILES, "train_100"):
        path = source / f"{name}.tsv"
        if not path.is_file():
            continue
        say(f"reading {path.name}")
        rows = read_rows(path)
        output = output or detect_format(base, path, rows[0])
        language = base.with_output(output)
        parts[name] = list(range(len(records), len(records) + len(rows)))
        records.extend(_records(language, path, name, rows))
    with SuiteWriter(out, overwrite=overwrite, export=False) as writer:
        writer.write_records("examples.jsonl", records, "every published row, file by file")
        writer.add_accuracy_tests(_tests(parts), "examples.jsonl", records)
        header = suite_header(
            "cogs", base, None, {"source": str(source), "output": output}, published=True
        )
        return writer.finish(header, "COGS published data", INTRODUCTION)


def _records(
    language: Language, path: Path, part: str, rows: list[tuple[int, str, str, str]]
) -> list[Record]:
    found = []
    for number, sentence, lf, category in rows:
        expected = _interpret(language, path, number, sentence)
        if expected != lf:
            raise DataError(
                f"{path}:{number}: the logical form of {sentence!r} is not the grammar's: "
                f"got {lf!r}, expected {expected!r}. Is the file from another dataset?"
            )
        meta: dict[str, Any] = {"category": category, "part": part}
        if part == "gen":
            meta["group"] = "structural" if category in STRUCTURAL else "lexical"
        found.append(make_record(language, sentence, lf, meta))
    return found


def _tests(parts: dict[str, list[int]]) -> list[tuple[str, Split, str]]:
    meta = {"method": "published", "breakdown": ["category", "group"]}
    tests = [
        ("gen", Split.of(parts["train"], parts["dev"], parts["gen"], dict(meta)), "published gen"),
        (
            "test",
            Split.of(parts["train"], parts["dev"], parts["test"], dict(meta)),
            "published test",
        ),
    ]
    if "train_100" in parts:
        tests.append(
            (
                "gen_train_100",
                Split.of(parts["train_100"], parts["dev"], parts["gen"], dict(meta)),
                "train_100, dev and gen",
            )
        )
    return tests


INTRODUCTION = (
    "The published COGS files imported by `symcomp suite import cogs`: every row, checked "
    "against the grammar's logical form, with COGS's category in `meta.category`."
)
