"""Reading TSV corpora: one example per line, TAB-separated columns (COGS, SCAN's own files).

Columns are chosen by 1-based position (default: input 1, output 2) or by header name; a name
(or ``header``) makes the first line a header. Every row must have as many columns as the
first; the columns not chosen go to ``meta`` under their header name (``column3`` without a
header). Blank lines are skipped. Fields are taken as they are: no quoting (TSV as COGS and
the NQG tools write it).

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "cogs.tsv"
>>> _ = path.write_text("A cat ran .\\tcat ( x _ 1 ) AND run ( x _ 2 )\\tin_distribution\\n")
>>> row = next(read_tsv(path))
>>> row.input, row.meta
('A cat ran .', {'column3': 'in_distribution'})
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from symcomp.data.corpus.rows import Row, lines_of
from symcomp.errors import DataError


@dataclass(frozen=True)
class TsvColumns:
    """Which columns hold the input, the output and (optionally) the id."""

    input: str | int = 1
    output: str | int = 2
    id: str | int | None = None
    header: bool = False

    @property
    def named(self) -> bool:
        return self.header or any(isinstance(c, str) for c in (self.input, self.output, self.id))


def read_tsv(path: Path, columns: TsvColumns | None = None) -> Iterator[Row]:
    """Rows of a TSV file (see the module); errors name the file and line."""
    columns = columns or TsvColumns()
    names: list[str] | None = None
    positions: tuple[int, int, int | None] | None = None
    width = 0
    for number, line in lines_of(path):
        if not line.strip():
            continue
        cells = line.split("\t")
        if positions is None:
            width = len(cells)
            if columns.named:
                names = cells
                positions = _positions(columns, names, path, number)
                continue
            names = [f"column{i}" for i in range(1, width + 1)]
            positions = _positions(columns, names, path, number)
        if len(cells) != width:
            raise DataError(
                f"{path}:{number}: has {len(cells)} column{'s' if len(cells) != 1 else ''}, "
                f"{'the header' if columns.named else 'the first row'} has {width}; every row "
                f"needs the same columns (a TAB inside a field splits it)."
            )
        yield _row(cells, names or [], positions, path, number)


def _positions(
    columns: TsvColumns, names: list[str], path: Path, number: int
) -> tuple[int, int, int | None]:
    def index(choice: str | int, role: str) -> int:
        if isinstance(choice, int):
            if choice > len(names):
                raise DataError(
                    f"{path}:{number}: the {role} column is {choice}, but the rows have "
                    f"{len(names)} column{'s' if len(names) != 1 else ''}; choose it with `{role}`."
                )
            return choice - 1
        if choice not in names:
            raise DataError(
                f"{path}:{number}: no column named {choice!r} in the header ({', '.join(names)}); "
                f"choose the {role} column with `{role}` (a name or a position)."
            )
        return names.index(choice)

    chosen_id = None if columns.id is None else index(columns.id, "id")
    return index(columns.input, "input"), index(columns.output, "output"), chosen_id


def _row(
    cells: list[str],
    names: list[str],
    positions: tuple[int, int, int | None],
    path: Path,
    number: int,
) -> Row:
    source, target, identifier = positions
    used = {source, target} | ({identifier} if identifier is not None else set())
    meta = {names[i]: cell for i, cell in enumerate(cells) if i not in used}
    example_id = None if identifier is None else cells[identifier]
    return Row(cells[source], cells[target], str(path), number, example_id, meta)
