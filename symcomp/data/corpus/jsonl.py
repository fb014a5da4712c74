"""Reading JSON-lines corpora: one object per line, input and output chosen by field name.

Fields not chosen go to ``meta`` (a ``meta`` object is merged into it); NLI fields
(``premise``, ``hypothesis``, ``label``), a stored ``derivation`` and a treebank's ``syntax``
stay at the top level, so an exported symcomp pool (``examples.jsonl``) imports back whole.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "geo.jsonl"
>>> line = '{"question": "how big is texas", "funql": "answer(size(stateid(texas)))"}'
>>> _ = path.write_text(line + "\\n")
>>> row = next(read_jsonl(path, JsonFields(input="question", output="funql")))
>>> row.input, row.output, row.meta
('how big is texas', 'answer(size(stateid(texas)))', {})
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from symcomp.data.artifacts import json_object
from symcomp.data.corpus.rows import Row, lines_of, split_fields
from symcomp.errors import DataError


@dataclass(frozen=True)
class JsonFields:
    """The field names of the input, the output and the id (``id`` is used when present)."""

    input: str = "input"
    output: str = "output"
    id: str = "id"


def read_jsonl(path: Path, fields: JsonFields | None = None) -> Iterator[Row]:
    """Rows of a JSON-lines file; blank lines are skipped; errors name the file and line."""
    fields = fields or JsonFields()
    for number, text in lines_of(path):
        if not text.strip():
            continue
        yield record_row(json_object(text, f"{path}:{number}"), fields, path, number)


def record_row(record: dict[str, Any], fields: JsonFields, path: Path, number: int) -> Row:
    """The row of one JSON object (line ``number`` of ``path``)."""
    missing = [name for name in (fields.input, fields.output) if name not in record]
    if missing:
        have = ", ".join(sorted(record)) or "none"
        raise DataError(
            f"{path}:{number}: no field {' or '.join(repr(m) for m in missing)} (fields: {have}); "
            f"choose the fields with `input` and `output`."
        )
    texts = [record[fields.input], record[fields.output]]
    wrong = [
        name
        for name, value in zip((fields.input, fields.output), texts, strict=True)
        if not isinstance(value, str)
    ]
    if wrong:
        raise DataError(
            f"{path}:{number}: field {wrong[0]!r} is not a string; input and output are text."
        )
    identifier = record.get(fields.id)
    meta, kept = split_fields(record, {fields.input, fields.output, fields.id})
    example_id = None if identifier is None else str(identifier)
    return Row(str(texts[0]), str(texts[1]), str(path), number, example_id, meta, kept)
