"""Fresh words (Kim, Linzen & Smolensky 2022, arXiv 2212.10769): records and manifests in a
language's fresh words (the strings and the renamed grammar: :mod:`symcomp.core.fresh_strings`).
Examples are renamed with the language's own parser and semantics, and a renamed language is
rebuilt from the manifest entry that records its renaming.

A renamed record's output is never a substitution: it is the renamed language's
interpretation of the renamed input. Substitution is the check: the original output with its
words' output tokens renamed must be that interpretation, or the record is refused.

>>> from symcomp.core.registry import get_language
>>> scan = get_language("scan")
>>> [record] = rename_records(scan, [scan.record(scan.example("jump twice"))], 0)
>>> record["input"] == f"{scan.draw_fresh_words(0).mapping['jump']} twice"
True
>>> record["output"] == " ".join(["I_" + record["input"].split()[0].upper()] * 2)
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from symcomp._util import Record
from symcomp.core.fresh_strings import FreshWords, Renamable
from symcomp.core.language import Language
from symcomp.core.registry import available, get_language
from symcomp.errors import DataError, SymcompError

__all__ = [
    "FreshWords",
    "Renamable",
    "as_written",
    "check_renamable",
    "draw_fresh_words",
    "language_of",
    "manifest_entry",
    "output_format",
    "renamable_languages",
    "rename_record",
    "rename_records",
    "renamed_language",
]

FIELD = "fresh_words"  # the manifest entry
TEXTS = ("input", "premise", "hypothesis")  # the fields of a record that hold input text


def renamable_languages() -> list[str]:
    """The registered languages that declare word classes to rename."""
    return [name for name in available() if get_language(name).renamable() is not None]


def renamed_language(language: Language, fresh: FreshWords | int) -> Language:
    """``language`` in fresh words (:meth:`Language.with_fresh_words`); a language that
    declares no renamable classes is a :class:`DataError` naming those that do.

    >>> renamed_language(get_language("pcfg-set"), 0)
    Traceback (most recent call last):
    ...
    symcomp.errors.DataError: pcfg-set declares no word classes to rename (fresh words rename ...
    """
    check_renamable(language)
    return language.with_fresh_words(fresh)


def draw_fresh_words(language: Language, seed: int) -> FreshWords:
    """The fresh words of ``language`` drawn with ``seed`` (:meth:`Language.draw_fresh_words`);
    a language that declares no renamable classes is a :class:`DataError` naming those that
    do."""
    check_renamable(language)
    return language.draw_fresh_words(seed)


def check_renamable(language: Language) -> None:
    """A :class:`DataError` naming the languages that can be renamed, unless ``language`` is
    one."""
    if language.renamable() is None:
        raise DataError(
            f"{language.name} declares no word classes to rename (fresh words rename the "
            f"open-class words of: {', '.join(renamable_languages()) or 'no language'})."
        )


def rename_records(
    language: Language, records: Iterable[Mapping[str, Any]], fresh: FreshWords | int
) -> list[Record]:
    """The records in fresh words: each text field (``input``; ``premise`` and
    ``hypothesis`` of a pair) renamed, ``output`` the renamed language's interpretation of the
    renamed input; ``id`` and ``meta`` kept, ``derivation`` dropped (it named the old words).

    ``language`` writes the records' output format (pass ``language.with_output(...)`` for
    another). ``fresh`` is a seed or a :class:`FreshWords`; the same for every record, so a
    test item and its demonstrations are renamed alike. Raises :class:`DataError` for a
    record whose renamed input the renamed language cannot interpret, or whose interpretation
    is not its output with the words renamed (an output that is not the language's).
    """
    renamed = renamed_language(language, fresh)
    outputs = output_tokens(renamed)
    return [rename_record(renamed, record, outputs) for record in records]


def output_tokens(renamed: Language) -> dict[str, str]:
    """Output token -> its renamed token, in ``renamed``'s renaming (a language from
    :func:`renamed_language`)."""
    fresh, spec = renamed.fresh_words, renamed.renamable()
    if fresh is None or spec is None:
        raise DataError(f"this {renamed.name} is not renamed; use renamed_language first.")
    return fresh.output_mapping(spec.outputs)


def rename_record(
    renamed: Language, record: Mapping[str, Any], outputs: Mapping[str, str]
) -> Record:
    """One record in the words of ``renamed`` (a language from :func:`renamed_language`;
    ``outputs`` its :func:`output_tokens`)."""
    fresh = renamed.fresh_words
    assert fresh is not None
    new: Record = {key: value for key, value in record.items() if key != "derivation"}
    for key in TEXTS:
        if isinstance(record.get(key), str):
            new[key] = fresh.rename_text(record[key])
    if "input" not in record or "output" not in record:
        return new
    where = f"record {record.get('id', '?')} ({record['input']!r})"
    try:
        new["output"] = renamed.interpret(new["input"])
    except SymcompError as error:
        raise DataError(f"{where} does not re-interpret in fresh words: {error}") from None
    expected = " ".join(outputs.get(token, token) for token in str(record["output"]).split(" "))
    if new["output"] != expected:
        raise DataError(
            f"{where}: in fresh words it means {new['output']!r}, not its output renamed "
            f"({expected!r}); the record's output is not {renamed.name}'s."
        )
    return new


def output_format(language: Language, records: Sequence[Mapping[str, Any]]) -> str | None:
    """The output format (:meth:`Language.output_formats`) the records are written in: the
    first that gives the outputs of the first records; None when the language has one."""
    formats = language.output_formats()
    if not formats:
        return None
    sample = [r for r in records[:20] if "input" in r and "output" in r]
    for output in formats:
        formatted = language.with_output(output)
        if all(_means(formatted, r) for r in sample):
            return output
    raise DataError(
        f"the records' outputs are in none of {language.name}'s formats ({', '.join(formats)})."
    )


def as_written(
    language: Language, records: Sequence[Mapping[str, Any]]
) -> tuple[Language, str | None]:
    """``language`` in the output format ``records`` are written in (:func:`output_format`),
    and that format's name (None when the language has one): the language to rename them
    with, and the manifest entry's ``output``."""
    output = output_format(language, records)
    return (language if output is None else language.with_output(output)), output


def _means(language: Language, record: Mapping[str, Any]) -> bool:
    try:
        return bool(language.interpret(str(record["input"])) == record["output"])
    except SymcompError:
        return False


def manifest_entry(fresh: FreshWords, output: str | None) -> dict[str, Any]:
    """The manifest's ``fresh_words`` entry: the renaming and the output format it was
    interpreted in (None: the language's only one)."""
    return {**fresh.to_json(), "output": output}


def language_of(manifest: Mapping[str, Any], source: str) -> Language | None:
    """The language of a manifest (None when it names none, as an imported pool's): the
    registered language, renamed as its ``fresh_words`` entry says (in that entry's output
    format)."""
    name = manifest.get("language")
    if not name:
        return None
    language = get_language(str(name))
    entry = manifest.get(FIELD)
    if entry is None:
        return language
    output = entry.get("output") if isinstance(entry, Mapping) else None
    if output is not None:
        language = language.with_output(str(output))
    return renamed_language(language, FreshWords.from_json(entry, source))
