"""Reading a published localism trace: what a model predicted at every unrolled step.

The layout (the published localism predictions of Hupkes et al. 2020) is one record per
unrolled program::

    -----------------------------
    <step source> -> <prediction>        one line per step, earlier outputs substituted
    ...
    <whole input> -> <prediction>        the last arrow line: the whole program
    True                                 whether the two answers agreed (recomputed here)

Records are separated by a line of dashes (before the first record too). Errors name the file
and line: a step line without ``->``, a record without its ``True``/``False`` line, a record
with no step.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "trace.txt"
>>> _ = path.write_text("-----\\ncopy A B -> A B\\nreverse A B -> B A\\n"
...                     "reverse copy A B -> B A\\nTrue\\n")
>>> [trace] = read_trace(path)
>>> trace.steps, trace.prediction, trace.consistent
((('copy A B', 'A B'), ('reverse A B', 'B A')), 'B A', True)
"""

from __future__ import annotations

from pathlib import Path

from symcomp._util import split_lines
from symcomp.errors import DataError
from symcomp.metrics.localism import Trace

ARROW = "->"
VERDICTS = ("True", "False")


def read_trace(path: Path) -> list[Trace]:
    """Every record of a published localism trace file."""
    lines = _lines(path)
    traces: list[Trace] = []
    pairs: list[tuple[str, str]] = []
    start = 0
    for number, line in enumerate(lines, start=1):
        text = line.strip()
        if text.startswith("---"):
            if pairs:
                raise DataError(
                    f"{path}:{number}: the record that starts at line {start} has no "
                    f"`True`/`False` line; every record ends with one."
                )
            continue
        if text in VERDICTS:
            traces.append(_record(path, number, pairs))
            pairs = []
            continue
        if not pairs:
            start = number
        pairs.append(_arrow(path, number, text))
    if pairs:
        raise DataError(
            f"{path}:{len(lines)}: the file ends inside the record that starts at line {start} "
            f"(no `True`/`False` line)."
        )
    if not traces:
        raise DataError(f"{path}: no localism records (expected `source -> prediction` lines).")
    return traces


def _lines(path: Path) -> list[str]:
    try:
        return split_lines(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise DataError(f"cannot read trace {path}: {error.strerror or error}.") from None
    except UnicodeDecodeError:
        raise DataError(
            f"{path}: not UTF-8 text; a trace holds `source -> prediction` lines."
        ) from None


def _arrow(path: Path, number: int, text: str) -> tuple[str, str]:
    source, arrow, prediction = text.partition(ARROW)
    if not arrow or not source.strip():
        raise DataError(
            f"{path}:{number}: expected `source -> prediction`, got {text[:60]!r}; every step "
            f"line of a trace has `->` between the input and the model's output."
        )
    return " ".join(source.split()), " ".join(prediction.split())


def _record(path: Path, number: int, pairs: list[tuple[str, str]]) -> Trace:
    if len(pairs) < 2:
        raise DataError(
            f"{path}:{number}: a record needs at least one step and the whole input before its "
            f"`True`/`False` line, got {len(pairs)} `->` line(s)."
        )
    *steps, (source, prediction) = pairs
    return Trace(tuple(steps), source, prediction)
