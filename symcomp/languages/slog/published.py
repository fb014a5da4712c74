"""The published SLOG data as a suite: ``symcomp suite import slog DIR --out SUITE``.

``DIR`` is SLOG's ``data/`` folder (``bingzhilee/SLOG``): ``varfree_LF/train.tsv`` (train is
published in the variable-free format only), ``cogs_LF/`` and ``varfree_LF/`` with ``dev.tsv``
and ``test.tsv``, and ``generalization_sets/`` with ``gen_cogsLF.tsv`` and
``gen_varfreeLF.tsv``, unpacked by the user from the password-protected
``generalization_sets.zip``. Each line is ``sentence<TAB>logical form<TAB>category``.

The suite writes one output format (``cogs``, the default, or ``varfree``). Each part is read
from the file in that format when there is one, else from the other (train: always
``varfree_LF/train.tsv``); a file's format is read off its first row, and every row must be
what symcomp's grammar gives for its sentence in that format. A row read in the other format is
written in the suite's by symcomp: the COGS-format train is symcomp's rendering, since SLOG
publishes none. The one difference accepted is SLOG's by-phrase attachment ambiguity
(:mod:`symcomp.languages.slog.attachment`): such a row keeps its published logical form and is
counted in the manifest (``published_reading_kept``). A missing file, an unpacked zip, another
number of columns, an unknown category, a sentence outside the grammar or a foreign logical
form is an error naming its file and line.

The tests are ``gen`` (train, dev, gen) and ``test`` (train, dev, test); every record's meta
names its ``category``, and a gen record its ``group``: the 17 cases as SLOG groups them
(:data:`~symcomp.languages.slog.cases.GROUPS`), which the report card breaks gen down by.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from symcomp._util import Record
from symcomp.core.language import Language
from symcomp.core.registry import get_language
from symcomp.core.suite_builder import SuiteImporter
from symcomp.data.safe_paths import resolves_inside
from symcomp.data.splits import Split
from symcomp.errors import DataError, SymcompError
from symcomp.languages.cogs.published import read_rows
from symcomp.languages.slog.attachment import is_outer_by_phrase
from symcomp.languages.slog.cases import GROUPS
from symcomp.suites.common import make_record
from symcomp.suites.folder import SuiteWriter, suite_header

SOURCE = (
    "the data folder of bingzhilee/SLOG (varfree_LF/, cogs_LF/, and generalization_sets/ "
    "unpacked from generalization_sets.zip)"
)
OUTPUTS = ("cogs", "varfree")
PARTS = ("train", "dev", "test", "gen")
FOLDERS = {"cogs": "cogs_LF", "varfree": "varfree_LF"}
GEN_FILES = {"cogs": "gen_cogsLF.tsv", "varfree": "gen_varfreeLF.tsv"}
GEN_FOLDER = "generalization_sets"

_EXPOSURES = [
    "active",
    "do_dative",
    "obj_common",
    "obj_omitted_transitive",
    "obj_proper",
    "passive",
    "pp_dative",
    "subj_common",
    "subj_proper",
    "transitive_subj",
    "unacc",
    "unacc_subj",
]
#: The categories of train, dev and test (COGS's, SLOG's additions, COGS's exposure rows).
CATEGORIES = frozenset(
    {
        "in_distribution",
        "object_modifying_RC",
        "wh_Q_simple_trans",
        "pp_4",
        "cp_4",
        "center_embed_2",
        "center_embed_4",
        "standalone_NP_PP",
        "standalone_NP_RC",
        "primitive",
        *(f"exposure_example_{name}" for name in _EXPOSURES),
    }
)


def importer() -> SuiteImporter:
    """``symcomp suite import slog``: SLOG's data folder, written in one of :data:`OUTPUTS`.

    >>> importer().outputs
    ('cogs', 'varfree')
    """
    return SuiteImporter(SOURCE, import_published, outputs=OUTPUTS)


@dataclass
class _Part:
    """One published file read into records."""

    name: str
    path: Path
    format: str = ""
    records: list[Record] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)  # file:line of published readings kept


def import_published(
    source: Path,
    out: Path,
    *,
    output: str = "cogs",
    overwrite: bool = False,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Write the published SLOG files in ``source`` as a suite in ``out`` with logical forms in
    ``output``; return its manifest."""
    say = progress or (lambda message: None)
    if output not in OUTPUTS:
        raise DataError(f"unknown SLOG output {output!r}; choose from {', '.join(OUTPUTS)}.")
    base = get_language("slog")
    paths = {name: _find_file(source, name, output) for name in PARTS}
    parts = []
    for name, path in paths.items():
        say(f"reading {path.relative_to(source)}")
        parts.append(_read_part(base, name, path, output))
    return _write(base, source, out, output, parts, overwrite)


def _find_file(source: Path, part: str, output: str) -> Path:
    """The published file of ``part``: the one in ``output`` when there is one."""
    paths = candidates(source, part, output)
    for path in paths:
        if path.is_file():
            return _inside(source, path)
    if not source.is_dir():
        raise DataError(f"{source}: no such folder; give {SOURCE}.")
    names = " or ".join(path.relative_to(source).as_posix() for path in paths)
    if part == "gen" and (source / f"{GEN_FOLDER}.zip").is_file():
        raise DataError(
            f"{source}: no {names}; unpack {GEN_FOLDER}.zip there first (it is "
            f"password-protected: SLOG's README gives the password), so that "
            f"{source / GEN_FOLDER} holds the gen files."
        )
    raise DataError(f"{source}: no {names}; give {SOURCE}.")


def _inside(source: Path, path: Path) -> Path:
    # a published folder is data: a symbolic link must not lead the import out of it
    if not resolves_inside(source, path):
        raise DataError(
            f"{path} leads out of {source} (symbolic links resolve it to "
            f"{os.path.realpath(path)}); symcomp imports only files inside the folder. "
            f"Copy the file into the folder instead of linking it."
        )
    return path


def candidates(source: Path, part: str, output: str) -> list[Path]:
    """The files that may hold ``part`` in SLOG's folder ``source``, the one in ``output`` first.

    >>> [path.as_posix() for path in candidates(Path("data"), "dev", "varfree")]
    ['data/varfree_LF/dev.tsv', 'data/cogs_LF/dev.tsv']
    >>> [path.as_posix() for path in candidates(Path("data"), "train", "cogs")]
    ['data/varfree_LF/train.tsv']
    """
    formats = sorted(OUTPUTS, key=lambda name: name != output)  # the suite's format first
    if part == "gen":
        return [source / GEN_FOLDER / GEN_FILES[name] for name in formats]
    if part == "train":  # SLOG publishes train in the variable-free format only
        return [source / FOLDERS["varfree"] / "train.tsv"]
    return [source / FOLDERS[name] / f"{part}.tsv" for name in formats]


def _read_part(base: Language, name: str, path: Path, output: str) -> _Part:
    """The records of one published file, checked against the grammar, in format ``output``."""
    rows = read_rows(path, "SLOG")
    if not rows:
        raise DataError(f"{path}: no rows; give SLOG's published {path.name}.")
    part = _Part(name, path, _detect_format(base, path, rows[0]))
    theirs, ours = base.with_output(part.format), base.with_output(output)
    for number, sentence, lf, category in rows:
        meta = _meta(path, number, name, category)
        meaning = _meaning(theirs, path, number, sentence)
        grammar_lf = theirs.render(meaning)
        target = ours.render(meaning)
        if grammar_lf != lf:
            _check_other_reading(path, number, sentence, lf, grammar_lf, part.format, output)
            part.kept.append(f"{path.parent.name}/{path.name}:{number}")
            meta["reading"] = "published: the by-phrase on the outer verb"
            target = lf
        part.records.append(make_record(ours, sentence, target, meta))
    return part


def _detect_format(base: Language, path: Path, row: tuple[int, str, str, str]) -> str:
    number, sentence, lf, _category = row
    meaning = _meaning(base, path, number, sentence)
    for output in OUTPUTS:
        if base.with_output(output).render(meaning) == lf:
            return output
    raise DataError(
        f"{path}:{number}: the logical form is in none of SLOG's formats ({', '.join(OUTPUTS)}) "
        f"for {sentence!r}: got {lf!r}, expected e.g. {base.render(meaning)!r}. Is the file "
        f"from another dataset?"
    )


def _meaning(language: Language, path: Path, number: int, sentence: str) -> Any:
    try:
        return language.meaning(sentence)
    except SymcompError as error:
        first = str(error).splitlines()[0]
        raise DataError(
            f"{path}:{number}: {first} (sentence {sentence!r}); SLOG's files hold only "
            f"sentences of its grammar: is the file from another dataset?"
        ) from None


def _meta(path: Path, number: int, part: str, category: str) -> dict[str, Any]:
    known = GROUPS if part == "gen" else CATEGORIES
    if category not in known:
        raise DataError(
            f"{path}:{number}: unknown category {category!r} in SLOG's {part} file; "
            f"known: {', '.join(sorted(known))}. Give SLOG's published file unchanged."
        )
    meta: dict[str, Any] = {"category": category, "part": part}
    if part == "gen":
        meta["group"] = GROUPS[category]
    return meta


def _check_other_reading(
    path: Path, number: int, sentence: str, lf: str, grammar_lf: str, file_format: str, output: str
) -> None:
    if not is_outer_by_phrase(grammar_lf, lf, file_format):
        raise DataError(
            f"{path}:{number}: the logical form of {sentence!r} is not the grammar's: got "
            f"{lf!r}, expected {grammar_lf!r}. Is the file from another dataset?"
        )
    if file_format != output:
        raise DataError(
            f"{path}:{number}: the published reading of {sentence!r} (the by-phrase on the "
            f"outer verb) cannot be written in {output}; give the file in {output}."
        )


def _write(
    base: Language, source: Path, out: Path, output: str, parts: list[_Part], overwrite: bool
) -> dict[str, Any]:
    records: list[Record] = []
    indices: dict[str, list[int]] = {}
    for part in parts:
        indices[part.name] = list(range(len(records), len(records) + len(part.records)))
        records.extend(part.records)
    with SuiteWriter(out, overwrite=overwrite, export=False) as writer:
        writer.write_records("examples.jsonl", records, "every published row, file by file")
        writer.add_accuracy_tests(_tests(indices), "examples.jsonl", records)
        header = suite_header(
            "slog",
            base,
            None,
            {"source": str(source), "output": output},
            published=True,
            published_files=_files(source, output, parts),
            published_reading_kept=[kept for part in parts for kept in part.kept],
        )
        return writer.finish(header, "SLOG published data", INTRODUCTION)


def _files(source: Path, output: str, parts: list[_Part]) -> dict[str, Any]:
    return {
        part.name: {
            "file": part.path.relative_to(source).as_posix(),
            "format": part.format,
            "rows": len(part.records),
            "logical_forms": "published" if part.format == output else "symcomp's",
        }
        for part in parts
    }


def _tests(parts: dict[str, list[int]]) -> list[tuple[str, Split, str]]:
    meta = {"method": "published", "breakdown": ["category", "group"]}
    return [
        ("gen", Split.of(parts["train"], parts["dev"], parts["gen"], dict(meta)), "published gen"),
        (
            "test",
            Split.of(parts["train"], parts["dev"], parts["test"], dict(meta)),
            "published test",
        ),
    ]


INTRODUCTION = (
    "The published SLOG files imported by `symcomp suite import slog`: every row, checked "
    "against the grammar's logical form, with SLOG's category in `meta.category` and, for gen, "
    "the case's group in `meta.group`. SLOG publishes train in the variable-free format only: "
    "a suite in another format has symcomp's logical forms for train "
    "(`published_files` in the manifest says which part is whose)."
)
