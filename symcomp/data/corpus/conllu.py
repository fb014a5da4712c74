"""Reading a CoNLL-U treebank (Universal Dependencies), one example record per sentence.

:func:`read_conllu` streams the file: it holds one sentence at a time, so a file of any size is
read in bounded memory. Each record is::

    {"id": <sent_id, else "<file stem>-<n>" with n counted from 1>,
     "input": <the "text" comment, else the surface tokens joined by single spaces>,
     "line": <1-based line number of the sentence's first line (comment or word line)>,
     "meta": <the other "# key = value" comments, str -> str; a bare "# newdoc" maps to "">,
     "syntax": {"forms": [...], "lemmas": [...], "upos": [...], "heads": [int, ...],
                "deprels": [...], "feats": ["_" or "A=B|C=D", ...]}}

``syntax`` holds the ordinary word lines only (integer IDs, numbered 1..n in order);
multiword-token ranges (``1-2``) and empty nodes (``8.1``) are skipped, but a range's surface
form stands in for its words in the default ``input`` (``don't``, not ``do n't``).

Comment lines are parsed by the ``conllu`` library (its ``key = value`` rules); word lines are
split on TAB here rather than by ``conllu.parse_incr``, which also splits on runs of two spaces,
accepts short lines silently and forgets line numbers, all of which an error message needs.
Every malformed input raises :class:`~symcomp.errors.DataError` as ``FILE:LINE: what; fix``.

>>> import tempfile
>>> from pathlib import Path
>>> with tempfile.TemporaryDirectory() as folder:
...     path = Path(folder) / "tiny.conllu"
...     _ = path.write_text(
...         "# sent_id = s1\\n"
...         "1\\tDogs\\tdog\\tNOUN\\t_\\tNumber=Plur\\t2\\tnsubj\\t_\\t_\\n"
...         "2\\tbark\\tbark\\tVERB\\t_\\t_\\t0\\troot\\t_\\t_\\n\\n",
...         encoding="utf-8",
...     )
...     [record] = read_conllu(path)
>>> record["id"], record["input"], record["line"], record["syntax"]["heads"]
('s1', 'Dogs bark', 1, [2, 0])
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conllu.exceptions import ParseException
from conllu.parser import parse_comment_line, parse_id_value, parse_int_value

from symcomp.errors import DataError

COLUMNS = ("ID", "FORM", "LEMMA", "UPOS", "XPOS", "FEATS", "HEAD", "DEPREL", "DEPS", "MISC")
_HEAD_COLUMN = 7  # 1-based, as users count columns
_BOM = "\ufeff"

Line = tuple[int, str]  # (1-based line number, text without the line break)


@dataclass
class _Sentence:
    """What one block of lines holds, gathered before the sentence-wide checks."""

    first_line: int
    meta: dict[str, str] = field(default_factory=dict)
    columns: list[list[str]] = field(default_factory=list)  # the word lines' ten fields
    lines: list[int] = field(default_factory=list)  # the word lines' line numbers
    ranges: dict[int, tuple[int, str]] = field(default_factory=dict)  # start -> (end, form)


def read_conllu(path: Path) -> Iterator[dict[str, Any]]:
    """Stream the sentences of a CoNLL-U file as example records.

    Parameters
    ----------
    path
        A UTF-8 CoNLL-U file (10 TAB-separated columns, sentences separated by blank lines).

    Yields
    ------
    dict
        One record per sentence, in file order (see the module docstring for its keys).

    Raises
    ------
    DataError
        ``FILE:LINE: ...`` on bytes that are not UTF-8, a file without sentences, a line
        without exactly 10 columns, an empty column, an invalid or out-of-order ID, a HEAD that
        is not an integer or names no word, heads that form a cycle, or a sentence without word
        lines. Records before the faulty sentence have been yielded by then.
    """
    count = 0
    for block in _blocks(_lines(path)):
        count += 1
        yield _record(path, block, count)
    if count == 0:
        raise DataError(
            f"{path}:1: the file holds no sentence; a CoNLL-U file needs at least one block of "
            "word lines (10 TAB-separated columns), sentences separated by blank lines."
        )


def _lines(path: Path) -> Iterator[Line]:
    """Numbered lines of ``path``, decoded one at a time so a bad byte gets its line."""
    offset = 0  # byte offset of the current line's start, for the error message
    with path.open("rb") as handle:
        for number, raw in enumerate(handle, start=1):
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as error:
                raise DataError(
                    f"{path}:{number}: byte 0x{raw[error.start]:02x} at byte offset "
                    f"{offset + error.start} is not valid UTF-8; re-encode the file as UTF-8 "
                    "(e.g. iconv -f LATIN1 -t UTF-8)."
                ) from None
            offset += len(raw)
            if number == 1 and text.startswith(_BOM):
                text = text[1:]  # a byte-order mark is legal UTF-8 but no part of the data
            yield number, text.rstrip("\r\n")


def _blocks(lines: Iterator[Line]) -> Iterator[list[Line]]:
    """Runs of non-blank lines (one per sentence), as ``conllu.parse_sentences`` cuts them."""
    block: list[Line] = []
    for number, text in lines:
        if text.strip():
            block.append((number, text))
        elif block:
            yield block
            block = []
    if block:
        yield block


def _record(path: Path, block: list[Line], count: int) -> dict[str, Any]:
    """The example record of one block, after every check."""
    sentence = _gather(path, block)
    heads = _heads(path, sentence)
    _check_tree(path, sentence, heads)
    meta = dict(sentence.meta)
    sent_id = meta.pop("sent_id", "") or f"{path.stem}-{count}"
    text = meta.pop("text", "") or " ".join(_surface(sentence))
    syntax = {
        "forms": [c[1] for c in sentence.columns],
        "lemmas": [c[2] for c in sentence.columns],
        "upos": [c[3] for c in sentence.columns],
        "heads": heads,
        "deprels": [c[7] for c in sentence.columns],
        "feats": [c[5] for c in sentence.columns],
    }
    return {
        "id": sent_id,
        "input": text,
        "line": sentence.first_line,
        "meta": meta,
        "syntax": syntax,
    }


def _gather(path: Path, block: list[Line]) -> _Sentence:
    """Metadata, word lines and multiword ranges of a block; checks columns and IDs."""
    sentence = _Sentence(first_line=block[0][0])
    for number, text in block:
        if text.startswith("#"):
            for key, value in parse_comment_line(text):
                sentence.meta[key] = value or ""  # "# newdoc" carries no value
            continue
        columns = _columns(path, number, text)
        token_id = _token_id(path, number, columns[0])
        if isinstance(token_id, tuple):
            if token_id[1] == "-":
                sentence.ranges[token_id[0]] = (token_id[2], columns[1])
            continue  # ranges and empty nodes are not words of the basic tree
        expected = len(sentence.columns) + 1
        if token_id != expected:
            raise DataError(
                f"{path}:{number}: ID {token_id} where {expected} was expected; number the word "
                "lines 1, 2, 3, ... in order (ranges like 1-2 and empty nodes like 8.1 aside)."
            )
        sentence.columns.append(columns)
        sentence.lines.append(number)
    if not sentence.columns:
        raise DataError(
            f"{path}:{sentence.first_line}: this sentence has no word lines (only comments, "
            "ranges or empty nodes); add its word lines or delete the block."
        )
    return sentence


def _columns(path: Path, number: int, text: str) -> list[str]:
    """The ten fields of a token line."""
    columns = text.split("\t")
    if len(columns) != len(COLUMNS):
        raise DataError(
            f"{path}:{number}: {len(columns)} TAB-separated columns, expected 10; write "
            f"{' '.join(COLUMNS)} separated by single TABs (_ for an empty value)."
        )
    if "" in columns:
        index = columns.index("")
        raise DataError(
            f"{path}:{number}: column {index + 1} ({COLUMNS[index]}) is empty; write _ for an "
            "unspecified value (and check for a doubled TAB)."
        )
    return columns


def _token_id(path: Path, number: int, text: str) -> int | tuple[int, str, int]:
    """The ID column, parsed as the ``conllu`` library does."""
    try:
        token_id = parse_id_value(text)
    except ParseException:
        token_id = None
    if token_id is None:
        raise DataError(
            f"{path}:{number}: ID {text!r} is not a word number (1, 2, ...), a range (1-2) "
            "or an empty node (8.1); fix column 1."
        )
    return token_id


def _heads(path: Path, sentence: _Sentence) -> list[int]:
    """The HEAD column of each word, checked to be 0 or the ID of a word of the sentence."""
    heads = []
    size = len(sentence.columns)
    for columns, number in zip(sentence.columns, sentence.lines, strict=True):
        text = columns[_HEAD_COLUMN - 1]
        try:
            head = parse_int_value(text)
        except ParseException:
            head = None
        if head is None:
            raise DataError(
                f"{path}:{number}: HEAD {text!r} is not an integer; column 7 must hold the "
                "number of the head token (0 for the root)."
            )
        if not 0 <= head <= size:
            raise DataError(
                f"{path}:{number}: HEAD {head} is out of range; column 7 must be 0 (the root) "
                f"or the ID of a word of this sentence (1..{size})."
            )
        heads.append(head)
    return heads


def _check_tree(path: Path, sentence: _Sentence, heads: list[int]) -> None:
    """Raise when following the heads from some word never reaches the root 0."""
    cycle = _find_cycle(heads)
    if cycle is None:
        return
    start = min(cycle)  # report from the smallest ID so the message is the same every time
    cycle = cycle[cycle.index(start) :] + cycle[: cycle.index(start)]
    steps = " -> ".join(f"{i} {sentence.columns[i - 1][1]!r}" for i in [*cycle, start])
    raise DataError(
        f"{path}:{sentence.lines[start - 1]}: the heads form a cycle with no path to the root "
        f"({steps}, each arrow pointing to the word's HEAD); make one of these words depend on "
        "a word outside the cycle or on 0."
    )


def _find_cycle(heads: list[int]) -> list[int] | None:
    """The word IDs of a head cycle in path order, or None when every word reaches 0."""
    reaches_root = [False] * (len(heads) + 1)
    reaches_root[0] = True
    for word in range(1, len(heads) + 1):
        path: list[int] = []
        on_path: dict[int, int] = {}  # word -> its position in path
        node = word
        while not reaches_root[node] and node not in on_path:
            on_path[node] = len(path)
            path.append(node)
            node = heads[node - 1]
        if node in on_path:
            return path[on_path[node] :]
        for visited in path:
            reaches_root[visited] = True
    return None


def _surface(sentence: _Sentence) -> list[str]:
    """The surface tokens: a multiword range's form replaces the words it spans."""
    tokens = []
    word = 1
    while word <= len(sentence.columns):
        if word in sentence.ranges:
            end, form = sentence.ranges[word]
            tokens.append(form)
            word = max(end, word) + 1
        else:
            tokens.append(sentence.columns[word - 1][1])
            word += 1
    return tokens
