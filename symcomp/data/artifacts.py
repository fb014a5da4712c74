"""Artifacts on disk: atomic writes, manifests with checksums, reading ``examples.jsonl``.

Every output file is written to a temporary file beside its destination and renamed into place
only when complete, so an interrupted run never leaves half a file, and an existing file is
replaced only by a complete new one. Every artifact folder has a ``manifest.json`` recording
how it was made and the sha256 of each file.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import shutil
import tempfile
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import IO, Any

from symcomp.data.safe_paths import confined
from symcomp.data.signals import committing, signals_held
from symcomp.errors import DataError, OutputError

EXAMPLES = "examples.jsonl"
MANIFEST = "manifest.json"
LOCK = ".symcomp.lock"  # held while a command writes into a folder, removed when it is done
# what each manifest `format` makes a folder: a folder of one kind is only ever replaced by a
# command writing the same kind (an export never replaces a pool's manifest, nor a pool an
# export's)
_KINDS = (
    ("symcomp.pool/", "pool"),
    ("symcomp.nli.entailment-pool/", "pool"),
    ("symcomp.export.", "export"),
    ("symcomp.suite/", "suite"),
    ("symcomp-run", "training run"),
    ("symcomp.reproduction/", "reproduction"),
    ("symcomp.sweep/", "sweep"),
    ("symcomp.features/", "features"),  # feature shards (symcomp.dbca.shards)
)


def manifest_kind(manifest: Mapping[str, Any]) -> str | None:
    """The kind of folder a manifest describes (pool, export, suite, ...), from its ``format``;
    None when it records no format.

    >>> manifest_kind({"format": "symcomp.export.tsv/1"})
    'export'
    >>> manifest_kind({"format": "symcomp.pool/1"})
    'pool'
    """
    fmt = manifest.get("format")
    if not isinstance(fmt, str):
        return None
    for prefix, kind in _KINDS:
        if fmt.startswith(prefix):
            return kind
    return fmt


@contextlib.contextmanager
def writing_into(
    path: Path, *, overwrite: bool, names: tuple[str, ...], kind: str | None = None
) -> Iterator[bool]:
    """Prepare ``path`` (see :func:`prepare_output_dir`) and hold it while the block writes.

    A second command writing into the same folder is refused instead of interleaving its files
    with this one's; temporary files an earlier, killed command left behind are removed; when
    the block fails, a folder this call created is removed again. Yields whether it was created.
    """
    # an interrupt or error before anything was written leaves no folder
    with leaving_no_folder(path):
        created = prepare_output_dir(path, overwrite=overwrite, names=names, kind=kind)
        with _locked(path / LOCK, path):
            # checked again under the lock: a command that held it may have written meanwhile
            prepare_output_dir(path, overwrite=overwrite, names=names, kind=kind)
            _remove_stale_temporaries(path, names)
            yield created


@contextlib.contextmanager
def assembled(path: Path, *, overwrite: bool, names: tuple[str, ...], kind: str) -> Iterator[Path]:
    """Write an output folder of ``kind`` whole: hold ``path`` (:func:`writing_into`), yield a
    staging folder inside it (:func:`staging_in`) for the block to write the new output in
    (its manifest included), and when the block completes, put it in place at once
    (:func:`move_into_place`), replacing the previous output of the same kind. An interrupted
    or failed block leaves the previous output (or none) and no temporary."""
    with writing_into(path, overwrite=overwrite, names=names, kind=kind):
        replaced = previous_output(path, kind)
        with staging_in(path) as work:
            yield work
            move_into_place(work, path, replaced)


@contextlib.contextmanager
def leaving_no_folder(path: Path) -> Iterator[None]:
    """When the block fails, remove the folder ``path`` and those above it that did not
    exist before it (the block makes them), while they are empty: a command that fails or
    is stopped before it wrote anything leaves no folder it made.

    >>> import tempfile
    >>> root = Path(tempfile.mkdtemp())
    >>> try:
    ...     with leaving_no_folder(root / "a" / "b"):
    ...         (root / "a" / "b").mkdir(parents=True)
    ...         raise ValueError("bad input")
    ... except ValueError:
    ...     pass
    >>> list(root.iterdir())
    []
    """
    made = _missing_folders(path)
    try:
        yield
    except BaseException:
        _remove_empty(made)
        raise


def _missing_folders(path: Path) -> list[Path]:
    """``path`` and those of its parents that do not exist (what creating it makes), deepest
    first.

    >>> import tempfile
    >>> root = Path(tempfile.mkdtemp())
    >>> [p.relative_to(root).as_posix() for p in _missing_folders(root / "a" / "b")]
    ['a/b', 'a']
    """
    missing = []
    for folder in (path, *path.parents):
        if folder.exists() or folder.is_symlink():
            break
        missing.append(folder)
    return missing


def _remove_empty(folders: Iterable[Path]) -> None:
    """Remove ``folders`` (deepest first) while they are empty: what a failed command made."""
    with signals_held():
        for folder in folders:
            try:
                folder.rmdir()
            except FileNotFoundError:
                continue  # never made (making those above it succeeded, not it)
            except OSError:
                return  # not empty: it, and those above, stay


def lock_beside(path: Path) -> Path:
    """The lock file of an output that is a single file, or a folder built elsewhere and
    renamed into place: ``.NAME.symcomp.lock`` beside it.

    >>> lock_beside(Path("/data/mcd1.json")).as_posix()
    '/data/.mcd1.json.symcomp.lock'
    """
    return path.parent / f".{path.name}{LOCK}"


@contextlib.contextmanager
def writing_beside(path: Path) -> Iterator[None]:
    """Hold ``path`` (a file, or a folder assembled elsewhere) while the block writes it: a
    second command writing the same ``path`` is refused (:class:`OutputError`) instead of one
    silently replacing the other. The lock file beside it is removed when the block ends."""
    path = Path(os.path.abspath(path))  # `out` and `./out` are one output
    try:
        with _locked(lock_beside(path), path):
            yield
    except FileNotFoundError as error:
        if error.filename != str(lock_beside(path)):
            raise
        raise OutputError(
            f"cannot write {path}: folder {path.parent} does not exist; create it first."
        ) from None


@contextlib.contextmanager
def _locked(lock: Path, what: Path) -> Iterator[None]:
    try:
        import fcntl  # noqa: F401  (whether this platform has advisory locks)
    except ImportError:  # no advisory locks on this platform: write without one
        yield
        return
    handle: IO[str] | None = None
    held = False
    try:
        # a signal between creating the lock file and holding it would leave the file behind
        with signals_held():
            handle = _lock_file(lock, what)
            held = True
        yield
    finally:
        with signals_held():  # nor one between the end and the lock file's removal
            if held:
                with contextlib.suppress(OSError):
                    lock.unlink(missing_ok=True)  # the folder holds only the results
            if handle is not None:
                handle.close()  # which also releases the lock


def _lock_file(lock: Path, what: Path) -> IO[str]:
    """Open and lock ``lock``. A holder removes the file when it is done, so a file opened just
    before that is a dead one: its lock shuts out nobody. Held only once the locked file is
    still the one at ``lock`` (tried again then, a few times)."""
    import fcntl

    for _attempt in range(LOCK_ATTEMPTS):
        handle = lock.open("a")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            if _same_file(handle, lock):
                return handle
        except BlockingIOError:
            handle.close()
            break
        handle.close()
    raise OutputError(
        f"another symcomp command is writing {what}; wait for it to finish or choose another `out`."
    )


def _same_file(handle: IO[str], path: Path) -> bool:
    try:
        return os.path.samestat(os.fstat(handle.fileno()), os.stat(path))
    except FileNotFoundError:
        return False


LOCK_ATTEMPTS = 3  # a lock file replaced more often than this is in heavy contention: refused
STAGING = ".staging-"  # a folder inside an output folder where a new output is assembled


@contextlib.contextmanager
def staging_in(path: Path) -> Iterator[Path]:
    """A temporary folder inside ``path`` (held with :func:`writing_into`) to assemble a whole
    output in; :func:`move_into_place` moves it in, and it is removed when the block ends.

    Writing everything aside first means an interrupted command leaves the previous output
    (or none), never a mixture; staging folders a killed command left are removed first.
    """
    for stale in path.glob(f"{STAGING}*.tmp"):
        remove_temporary(stale)
    with temporary_folder(path, STAGING, ".tmp") as work:
        yield work


@contextlib.contextmanager
def temporary_folder(parent: Path | None, prefix: str, suffix: str = "") -> Iterator[Path]:
    """A new folder in ``parent`` (the system's temporary folder when None), removed with all
    it holds when the block ends, however it ends.

    Made and removed with the stopping signals held (:func:`remove_temporary`): a stop never
    comes between making it and owning its removal, nor in the middle of its removal.

    >>> with temporary_folder(None, "symcomp-doc-") as folder:
    ...     _ = (folder / "file").write_text("x")
    >>> folder.exists()
    False
    """
    work: Path | None = None
    try:
        with signals_held():
            work = Path(tempfile.mkdtemp(prefix=prefix, suffix=suffix, dir=parent))
        yield work
    finally:
        if work is not None:
            remove_temporary(work)


def remove_temporary(path: Path) -> None:
    """Remove a temporary file or folder (with all it holds), if it is there, whole: a stop
    that arrives meanwhile waits until it is gone, so it never leaves part of it behind.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> remove_temporary(folder); remove_temporary(folder); folder.exists()
    False
    """
    with signals_held():
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path, ignore_errors=True)
        else:
            with contextlib.suppress(FileNotFoundError):
                path.unlink()


def move_into_place(work: Path, path: Path, replaced: Iterable[str]) -> None:
    """Replace the files ``replaced`` of ``path`` (an earlier output's manifest and the files
    it lists, as relative paths) by the files in ``work``, the manifest last. Files symcomp
    did not write stay where they are; folders the old files leave empty are removed.

    Termination signals (Ctrl-C, SIGTERM, SIGHUP) wait until the swap is done, so the folder
    holds the old output or the new one, not parts of both; a stop that came before it and
    was lost in a finaliser ends the command here, with the old output in place. The old
    files are then removed, the signals still waiting (none is left aside), and the swap
    completes ``path`` (:func:`symcomp.data.signals.committing`).

    Raises
    ------
    OutputError
        Before anything is moved, when a new file or folder would take the place of a file
        or folder that is not among ``replaced`` (symcomp never replaces files it did not
        write).
    """
    old_files = sorted(set(replaced))
    _check_clashes(work, path, set(old_files))
    with temporary_folder(path, STAGING, ".tmp") as old, committing(completes=path):
        for name in old_files:
            here = path / name
            if here.is_file() or here.is_symlink():
                aside = old / name
                aside.parent.mkdir(parents=True, exist_ok=True)
                os.replace(here, aside)
        folders = {parent for name in old_files for parent in Path(name).parents}
        for folder in sorted(folders, key=lambda item: len(item.parts), reverse=True):
            if folder.parts:
                with contextlib.suppress(OSError):  # not empty: it holds the user's files
                    (path / folder).rmdir()
        _merge(work, path)


def previous_output(path: Path, kind: str) -> list[str]:
    """The files an earlier output of ``kind`` (see :func:`manifest_kind`) wrote into
    ``path``: its manifest and every file it lists, as relative paths, for
    :func:`move_into_place` to replace. A listed name that leads outside the folder is left
    out (not ours to move); a folder of another kind, or without a manifest, gives none.

    >>> import tempfile
    >>> previous_output(Path(tempfile.mkdtemp()), "pool")
    []
    """
    try:
        manifest = read_manifest(path)
    except DataError:
        return []
    if manifest_kind(manifest) != kind:
        return []
    listed = manifest.get("files")
    found = [MANIFEST]
    for name in listed if isinstance(listed, Mapping) else ():
        with contextlib.suppress(DataError):
            file = confined(path, name, what="file", source=str(path / MANIFEST))
            found.append(file.relative_to(path).as_posix())
    return found


def _check_clashes(work: Path, path: Path, replaced: set[str]) -> None:
    for entry in sorted(work.rglob("*")):
        relative = entry.relative_to(work).as_posix()
        there = path / relative
        if not there.exists() and not there.is_symlink():
            continue
        if entry.is_dir() and there.is_dir() and not there.is_symlink():
            continue  # the folders merge; their files are checked one by one
        if relative in replaced and not there.is_dir():
            continue
        raise OutputError(
            f"{there} is in the way of the new output and symcomp did not write it (it is not "
            f"listed in {path / MANIFEST}); symcomp never replaces files it did not write. "
            f"Move it away or choose another `out`."
        )


def _merge(source: Path, target: Path) -> None:
    """Move every entry of ``source`` into ``target``, merging folders; the manifest last."""
    for entry in sorted(source.iterdir(), key=lambda item: item.name == MANIFEST):
        there = target / entry.name
        if entry.is_dir() and there.is_dir() and not there.is_symlink():
            _merge(entry, there)
        else:
            os.replace(entry, there)


def _remove_stale_temporaries(path: Path, names: tuple[str, ...]) -> None:
    """Temporary files of ``names`` left by a command that was killed (SIGKILL, power loss)."""
    for name in names:
        for stale in path.glob(f".{name}.*.tmp"):
            with contextlib.suppress(OSError):
                stale.unlink()


def prepare_output_dir(
    path: Path, *, overwrite: bool, names: tuple[str, ...], kind: str | None = None
) -> bool:
    """Make sure ``path`` is a writable folder; return True when this call created it.

    Only files symcomp wrote are ever replaced: with ``overwrite``, each of ``names`` that
    exists must be listed in the folder's ``manifest.json`` (see :func:`written_by_symcomp`),
    and a folder whose manifest says it is of another ``kind`` than the one to be written
    (see :func:`manifest_kind`: a pool, an export, a suite) is never written into.

    Raises
    ------
    OutputError
        When ``path`` is a file, cannot be created or written, is a folder of another kind,
        or already holds one of ``names`` and ``overwrite`` is false or the file is not
        symcomp's.
    """
    if path.exists() and not path.is_dir():
        raise OutputError(f"`out` {path} is a file; give a folder.")
    created = not path.exists()
    try:
        path.mkdir(parents=True, exist_ok=True)
        with signals_held(), tempfile.NamedTemporaryFile(dir=path, prefix=".symcomp-probe-"):
            pass  # made and removed with no stop between
    except OSError as error:
        raise OutputError(
            f"cannot write to {path}: {error.strerror or error}. Choose a folder you can write."
        ) from None
    if kind is not None:
        _check_kind(path, kind)
    existing = [name for name in names if (path / name).exists()]
    if not existing:
        return created
    foreign = [name for name in existing if not written_by_symcomp(path, name)]
    if foreign:
        raise OutputError(
            f"{path} already holds {', '.join(foreign)}, which symcomp did not write (they are "
            f"not listed in {path / MANIFEST}); symcomp never replaces files it did not write. "
            f"Move them away or choose another folder."
        )
    if not overwrite:
        raise OutputError(
            f"{path} already holds {', '.join(existing)}; pass `overwrite` to replace "
            f"(the old files stay until the new ones are complete) or choose another folder."
        )
    return created


def _check_kind(path: Path, kind: str) -> None:
    try:
        found = manifest_kind(read_manifest(path))
    except DataError:
        return  # no manifest (or not one symcomp can read): the file checks decide
    if found is not None and found != kind:
        raise OutputError(
            f"{path} is {_a(found)} folder (see its {MANIFEST}); {_a(kind)} cannot go into "
            f"it, since symcomp replaces a folder only with one of the same kind. Choose "
            f"another `out`."
        )


def longest_file_name(folder: Path) -> int:
    """The most bytes the name of a file :func:`atomic_writer` writes into ``folder`` may
    have: what the file system of its nearest existing folder allows (255, the usual limit,
    where it does not say), less what the temporary name it is written under adds (a dot
    before, a dot and 8 random characters and ``.tmp`` after).

    >>> longest_file_name(Path("/no/such/folder")) > 0
    True
    """
    limit = 255
    for here in (folder, *folder.parents):
        if here.is_dir():
            with contextlib.suppress(OSError, ValueError, AttributeError):
                limit = os.pathconf(here, "PC_NAME_MAX")
            break
    return limit - len(".") - len(".12345678.tmp")


def _a(kind: str) -> str:
    return f"{'an' if kind[:1] in 'aeiou' else 'a'} {kind}"


def written_by_symcomp(folder: Path, name: str) -> bool:
    """True when ``folder/name`` is the manifest or a file (or folder of files) it lists.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "notes.txt").write_text("mine")
    >>> written_by_symcomp(folder, "notes.txt")
    False
    """
    try:
        manifest = read_manifest(folder)
    except DataError:
        return False
    files = manifest.get("files")
    if not isinstance(files, Mapping):
        return False
    if name == MANIFEST:
        return True
    listed = [str(key) for key in files]
    return name in listed or any(key.startswith(f"{name}/") for key in listed)


@contextlib.contextmanager
def atomic_writer(path: Path, *, completes: Path | None = None) -> Iterator[IO[str]]:
    """Open a text file that appears at ``path`` only if the block completes; ``completes``:
    the output that putting it in place completes (``path`` itself for a single-file output,
    the folder for its manifest; see :func:`symcomp.data.signals.committing`)."""
    handle = None
    try:
        with signals_held():  # no signal between making the file and owning its removal
            # not a `with`: the file must outlive the block to be renamed into place
            handle = tempfile.NamedTemporaryFile(  # noqa: SIM115
                "w",
                encoding="utf-8",
                dir=path.parent,
                prefix=f".{path.name}.",
                suffix=".tmp",
                delete=False,
                newline="\n",
            )
        with handle:
            yield handle
        os.chmod(handle.name, file_mode())  # a temporary file is private; the result is not
        with committing(completes):
            os.replace(handle.name, path)
    except BaseException:
        if handle is not None:
            remove_temporary(Path(handle.name))
        raise


@functools.cache
def _umask() -> int:
    mask = os.umask(0o022)  # reading the umask means setting it: put it straight back
    os.umask(mask)
    return mask


def file_mode() -> int:
    """The mode of a new file under the user's umask (0o644 under umask 022)."""
    return 0o666 & ~_umask()


def folder_mode() -> int:
    """The mode of a new folder under the user's umask (0o755 under umask 022)."""
    return 0o777 & ~_umask()


class NonFiniteJsonError(ValueError):
    """``NaN``, ``Infinity`` or ``-Infinity`` in a file read as JSON: Python's reader takes
    them, but they are not JSON (other readers fail) and symcomp never writes them."""

    def __init__(self, name: str) -> None:
        super().__init__(f"{name} is not a JSON number; write null or a number")


def refuse_constant(name: str) -> Any:
    """``parse_constant`` of :func:`json.loads` that raises :class:`NonFiniteJsonError`.

    >>> json.loads('{"a": NaN}', parse_constant=refuse_constant)
    Traceback (most recent call last):
    symcomp.data.artifacts.NonFiniteJsonError: NaN is not a JSON number; write null or a number
    """
    raise NonFiniteJsonError(name)


def write_json(
    path: Path, data: Any, *, sort_keys: bool = True, completes: Path | None = None
) -> None:
    """Write JSON atomically, pretty-printed (sorted keys unless the order carries meaning);
    a NaN or infinity in ``data`` is a :class:`DataError` and nothing is written.
    ``completes``: as for :func:`atomic_writer`."""
    text = json_text(data, str(path), indent=2, sort_keys=sort_keys, ensure_ascii=False)
    with atomic_writer(path, completes=completes) as handle:
        handle.write(text + "\n")


def json_text(data: Any, where: str, **options: Any) -> str:
    """``json.dumps(data, **options)`` that refuses NaN and infinities: Python writes them as
    ``NaN``/``Infinity``, which is not JSON (other readers fail on the file). ``where`` (the
    file being written) is named in the :class:`DataError`.

    >>> json_text({"a": [1, 0.5]}, "x.json")
    '{"a": [1, 0.5]}'
    >>> json_text({"a": [1, float("nan")]}, "x.json")
    Traceback (most recent call last):
    symcomp.errors.DataError: x.json: a[1] is NaN, which JSON cannot hold; nothing was written.
    """
    try:
        return json.dumps(data, allow_nan=False, **options)
    except ValueError as error:
        found = _not_finite(data, "")
        if found is None:
            raise DataError(f"{where}: cannot write this value as JSON ({error}).") from None
        key, value = found
        shown = "NaN" if value != value else ("Infinity" if value > 0 else "-Infinity")
        raise DataError(
            f"{where}: {key or 'the value'} is {shown}, which JSON cannot hold; nothing was "
            f"written."
        ) from None


def _not_finite(data: Any, key: str) -> tuple[str, float] | None:
    """The first NaN or infinity in ``data``: its key path (``a.b[2]``) and value."""
    if isinstance(data, float):
        return None if data - data == 0 else (key, data)
    if isinstance(data, Mapping):
        items: Iterable[tuple[str, Any]] = (
            (f"{key}.{name}" if key else str(name), value) for name, value in data.items()
        )
    elif isinstance(data, list | tuple):
        items = ((f"{key}[{index}]", value) for index, value in enumerate(data))
    else:
        return None
    for path, value in items:
        found = _not_finite(value, path)
        if found is not None:
            return found
    return None


def file_record(path: Path) -> dict[str, Any]:
    """sha256, size and line count of a file, as recorded in manifests."""
    digest, size, lines = hashlib.sha256(), 0, 0
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
            size += len(block)
            lines += block.count(b"\n")
    return {"sha256": digest.hexdigest(), "bytes": size, "lines": lines}


DAMAGED_MANIFEST = (
    "The manifest is damaged, and cannot be made again from the files it describes (it "
    "records how they were made and their sha256): restore it from a copy, or write the "
    "folder again with the command that made it, replacing it."
)


def read_manifest(folder: Path) -> dict[str, Any]:
    """The manifest of an artifact folder."""
    path = folder / MANIFEST
    if not path.is_file():
        raise DataError(
            f"{folder} has no {MANIFEST}; point to a folder written by symcomp "
            f"(a pool from `symcomp generate`, a suite from `symcomp suite`)."
        )
    return read_json(path, what="a manifest", fix=DAMAGED_MANIFEST)


def read_json(path: Path, *, what: str = "the file", fix: str = "") -> dict[str, Any]:
    """The JSON object in ``path``; a :class:`DataError` naming the file (and the line) when
    it is unreadable, truncated, not UTF-8, holds NaN or is not an object. ``fix`` says how
    to repair it and ends the message.

    >>> import tempfile
    >>> bad = Path(tempfile.mkdtemp()) / "summary.json"
    >>> _ = bad.write_text('{"epochs": 3')
    >>> read_json(bad, fix="Delete it.")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    symcomp.errors.DataError: ...summary.json:1: not valid JSON: ... (...: cut short). Delete it.
    """

    def fail(problem: str) -> DataError:
        return DataError(f"{path}{problem}" + (f" {fix}" if fix else ""))

    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise fail(": not UTF-8 text, so not JSON.") from None
    except OSError as error:
        raise DataError(f"cannot read {path}: {error.strerror or error}.") from None
    try:
        data = json.loads(text, parse_constant=refuse_constant)
    except json.JSONDecodeError as error:
        cut = " (the file ends before its JSON does: cut short)" if _cut_short(text, error) else ""
        raise fail(f":{error.lineno}: not valid JSON: {error.msg}{cut}.") from None
    except NonFiniteJsonError as error:
        raise fail(f": {error}.") from None
    except RecursionError:
        raise fail(": nested too deeply to read.") from None
    if not isinstance(data, dict):
        raise fail(f": {what} must be a JSON object, not {_json_type(data)}.")
    return data


def _cut_short(text: str, error: json.JSONDecodeError) -> bool:
    """True when JSON text stopped where more was expected: a truncated file.

    >>> _cut_short('{"a": [1, 2', json.JSONDecodeError("x", '{"a": [1, 2', 11))
    True
    """
    return bool(text.strip()) and error.pos >= len(text.rstrip())


def _json_type(value: Any) -> str:
    names = {list: "an array", str: "a string", bool: "true or false", type(None): "null"}
    return names.get(type(value), "a number")


def examples_path(location: Path) -> Path:
    """``examples.jsonl`` of a folder, or the file itself."""
    path = location / EXAMPLES if location.is_dir() else location
    if not path.is_file():
        raise DataError(
            f"{location}: no {EXAMPLES} found; generate a pool first (`symcomp generate`)."
        )
    return path


def read_examples(location: Path) -> Iterator[dict[str, Any]]:
    """The example records of ``examples.jsonl`` (in a folder, or the file), in order.

    Raises
    ------
    DataError
        On the first malformed line (or bytes that are not UTF-8), naming file and line.
    """
    path = examples_path(location)
    # a line ends at "\n" only: not at a lone "\r" (universal newlines) nor at U+2028
    with path.open(encoding="utf-8", newline="\n") as handle:
        count = 0
        for record in parse_examples(handle, str(path)):
            count += 1
            yield record
    if not count:
        raise DataError(f"{path} holds no examples; a pool has at least one.")


def parse_examples(lines: Iterable[str], source: str, start: int = 1) -> Iterator[dict[str, Any]]:
    """Example records from JSON lines, each with ``id``, ``input`` and ``output`` (lines
    numbered from ``start`` in messages).

    >>> [r["id"] for r in parse_examples(['{"id": "a", "input": "x", "output": "y"}'], "mem")]
    ['a']
    """
    for number, record in enumerate(parse_json_lines(lines, source, start), start=start):
        missing = [key for key in ("id", "input", "output") if key not in record]
        if missing:
            raise DataError(
                f"{source}:{number}: an example needs id, input and output (missing "
                f"{', '.join(missing)})."
            )
        yield record


def json_object(line: str, where: str) -> dict[str, Any]:
    """The JSON object on one line; errors name ``where`` (``file:line``).

    >>> json_object('{"a": 1}', "x.jsonl:3")
    {'a': 1}
    """
    try:
        record = json.loads(line, parse_constant=refuse_constant)
    except NonFiniteJsonError as error:
        raise DataError(f"{where}: {error}.") from None
    except (json.JSONDecodeError, RecursionError) as error:
        reason = (
            f"{error.msg} at column {error.colno}"
            if isinstance(error, json.JSONDecodeError)
            else "nested too deeply"
        )
        raise DataError(f"{where}: not valid JSON ({reason}).") from None
    if not isinstance(record, Mapping):
        raise DataError(f"{where}: each line must be a JSON object.")
    return dict(record)


def parse_json_lines(lines: Iterable[str], source: str, start: int = 1) -> Iterator[dict[str, Any]]:
    """JSON objects, one per line (no required fields); errors name source and line (lines
    numbered from ``start``)."""
    number = start - 1
    try:
        for number, line in enumerate(lines, start=start):
            yield json_object(line, f"{source}:{number}")
    except UnicodeDecodeError as error:
        raise DataError(
            f"{source}:{number + 1}: not UTF-8 text (byte {error.object[error.start]:#04x}); "
            f"symcomp reads JSON lines in UTF-8."
        ) from None
