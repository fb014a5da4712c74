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


def check_relative(value: object, *, what: str, source: str) -> str:
    """``value`` if it is a plain relative POSIX path, else :class:`DataError`.

    Plain: a non-empty string that is not absolute (``/x``, ``C:x``) and has no ``..``, ``.``
    or empty component, no backslash and no NUL or other control character. It says nothing
    about symbolic links: :func:`confined` and :func:`resolves_inside` check those where the
    path meets the file system.

    >>> check_relative("pcfgset/run={run}.txt", what="file", source="manifest.json")
    'pcfgset/run={run}.txt'
    >>> check_relative("../up/run={run}.txt", what="file", source="manifest.json")
    Traceback (most recent call last):
    ...
    symcomp.errors.DataError: manifest.json: file '../up/run={run}.txt' is not a path inside ...
    """
    if not isinstance(value, str) or not value:
        raise DataError(f"{source}: {what} must be a non-empty relative path, got {value!r}.")
    outside = (
        PurePosixPath(value).is_absolute()
        or "\\" in value
        or any(ord(char) < 32 or ord(char) == 127 for char in value)
        or (len(value) > 1 and value[1] == ":")  # a Windows drive
        or any(part in {"", ".", ".."} for part in value.split("/"))
    )
    if outside:
        raise DataError(
            f"{source}: {what} {_shown(value)} is not a path inside the folder (absolute, "
            f"'..', '.', '\\' or control characters); symcomp only reads and writes files inside "
            f"the folder. The file was not written by symcomp or was edited: fix {what} in "
            f"{source} or rebuild the folder."
        )
    return value


def resolves_inside(root: Path, path: Path) -> bool:
    """True when ``path``, symbolic links resolved, is ``root`` or inside it.

    >>> import tempfile
    >>> root = Path(tempfile.mkdtemp())
    >>> resolves_inside(root, root / "a" / "b.txt"), resolves_inside(root, root.parent)
    (True, False)
    """
    base = os.path.realpath(root)
    return os.path.commonpath([base, os.path.realpath(path)]) == base


def confined(root: Path, relative: object, *, what: str, source: str) -> Path:
    """``root / relative`` when that stays inside ``root``, else :class:`DataError`.

    ``relative`` is a POSIX relative path as symcomp writes them (``task/split.json``). Absolute
    paths, ``..`` components, backslashes, NUL and anything that resolves outside ``root``
    through a symbolic link are refused.

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
    check_relative(relative.removeprefix("./"), what=what, source=source)
    path = root / relative
    if not resolves_inside(root, path):
        raise DataError(
            f"{source}: {what} {_shown(relative)} is not a path inside {root} (a symbolic link "
            f"leads out of it); symcomp only reads and writes files inside the folder. Replace "
            f"the link by the file, fix {what} in {source} or rebuild the folder."
        )
    return path


def _shown(value: str) -> str:
    """The value as it appears in a message, shortened when long."""
    return repr(value if len(value) <= 80 else value[:77] + "...")
