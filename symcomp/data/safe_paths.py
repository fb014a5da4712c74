"""Names and paths read from data files, checked before they touch the file system.

Suite manifests name tests and the files of each test, run sets name their runs, splits name
their pool. Every such value comes from a file a user may have been sent, so it is checked
here, once, before it is joined to a folder: a *name* is one path component, a *relative path*
must stay inside the folder it is relative to (symbolic links included).

>>> check_name("addprim_jump", what="test name", source="manifest.json")
'addprim_jump'
>>> check_name("../../etc", what="test name", source="manifest.json")
Traceback (most recent call last):
...
symcomp.errors.DataError: manifest.json: test name '../../etc' is not a plain name ...
"""

from __future__ import annotations

import os
from pathlib import Path, PurePosixPath

from symcomp.errors import DataError

_MAX_NAME = 255  # the longest file name common file systems accept


def check_name(value: object, *, what: str, source: str, nested: bool = False) -> str:
    """``value`` if it is a safe file or folder name, else :class:`DataError`.

    Safe: a non-empty string of at most 255 characters, without path separators (``/`` or
    ``\\``), NUL or other control characters, and not ``.`` or ``..``. With ``nested``, names
    joined by ``/`` (``substitutivity/primitive``), each safe, are accepted too.

    >>> check_name("substitutivity/primitive", what="test name", source="m", nested=True)
    'substitutivity/primitive'
    """
    if not isinstance(value, str) or not value:
        raise DataError(f"{source}: {what} must be a non-empty string, got {value!r}.")
    parts = value.split("/") if nested else [value]
    bad = len(value) > 4 * _MAX_NAME or any(
        len(part) > _MAX_NAME
        or part in {"", ".", ".."}
        or any(sep in part for sep in ("/", "\\"))
        or any(ord(char) < 32 or ord(char) == 127 for char in part)
        for part in parts
    )
    if bad:
        raise DataError(
            f"{source}: {what} {_shown(value)} is not a plain name (no '/', '\\', '..', control "
            f"characters, at most {_MAX_NAME} characters); the file was not written by symcomp "
            f"or was edited. Rename it in {source} or rebuild the folder."
        )
    return value


def confined(root: Path, relative: object, *, what: str, source: str) -> Path:
    """``root / relative`` when that stays inside ``root``, else :class:`DataError`.

    ``relative`` is a POSIX relative path as symcomp writes them (``task/split.json``,
    ``../examples.jsonl`` from a test folder). Absolute paths, backslashes, NUL and anything
    that resolves outside ``root`` (through ``..`` or a symbolic link) are refused.

    >>> import tempfile
    >>> root = Path(tempfile.mkdtemp())
    >>> confined(root, "task/split.json", what="split", source="manifest.json").name
    'split.json'
    >>> confined(root, "/etc/passwd", what="pool", source="manifest.json")
    Traceback (most recent call last):
    ...
    symcomp.errors.DataError: manifest.json: pool '/etc/passwd' is not a path inside ...
    """
    if not isinstance(relative, str) or not relative:
        raise DataError(f"{source}: {what} must be a non-empty relative path, got {relative!r}.")
    pure = PurePosixPath(relative)
    outside = (
        pure.is_absolute()
        or "\\" in relative
        or any(ord(char) < 32 or ord(char) == 127 for char in relative)
        or (len(relative) > 1 and relative[1] == ":")  # a Windows drive
    )
    path = root / relative
    if not outside:
        base = os.path.realpath(root)
        outside = os.path.commonpath([base, os.path.realpath(path)]) != base
    if outside:
        raise DataError(
            f"{source}: {what} {_shown(relative)} is not a path inside {root}; symcomp only "
            f"reads and writes files inside the folder. The file was not written by symcomp or "
            f"was edited: fix {what} in {source} or rebuild the folder."
        )
    return path


def _shown(value: str) -> str:
    """The value as it appears in a message, shortened when long."""
    return repr(value if len(value) <= 80 else value[:77] + "...")
