"""Run sets: one run per test of a suite, and the output folders runs are written into.

A run set (``symcomp train SUITE`` without a test) is a folder with ``runs.json`` mapping each
test of the suite to the run trained on its split (tests with the same pool and split share a
run, e.g. PCFG SET's localism reuses the task run). The index is written before any run, so an
interrupted run set is a run set: resuming it keeps the finished runs.

Writing a run or a run set never replaces files symcomp did not write: :func:`prepare` and
:func:`prepare_runset` name them and stop.
"""

from __future__ import annotations

from pathlib import Path

from symcomp.data.artifacts import read_json, write_json
from symcomp.data.safe_paths import check_name, confined
from symcomp.errors import DataError, OutputError
from symcomp.models.run_dir import RunDir

FORMAT = "symcomp-runs"
RUNSET = "runs.json"


def is_runset(path: Path) -> bool:
    """True for a folder with a run set's index."""
    return (path / RUNSET).is_file()


def write_runset(out: Path, suite: Path, plan: dict[str, str]) -> None:
    """The index of a run set: test -> the folder of the run that serves it."""
    write_json(out / RUNSET, {"format": FORMAT, "suite": str(suite), "runs": plan})


def read_runset(path: Path) -> dict[str, str]:
    """test -> run folder name, from a run set's index (every name checked)."""
    source = str(path / RUNSET)
    runs = read_json(path / RUNSET, fix="Train the run set again.").get("runs")
    if not isinstance(runs, dict):
        raise DataError(f"{source}: 'runs' must map tests to run folders.")
    found = {}
    for test, run in runs.items():
        check_name(test, what="test name", source=source, nested=True)
        check_name(run, what="run folder name", source=source, nested=True)
        confined(path, run, what="run folder name", source=source)  # no link out of the set
        found[test] = run
    return found


def runset_files(runset: Path) -> set[Path]:
    """The files of a run set: its index and the runs it names."""
    ours = {runset / RUNSET}
    for name in set(read_runset(runset).values()):
        run = RunDir(runset / name)
        if run.is_run():
            ours |= run.files()
            if all(p in ours for p in _entries(run.path)):
                ours.add(run.path)
    return ours


def prepare(out: Path, *, resume: bool, overwrite: bool) -> None:
    """Make ``out`` ready for a run: new, resumed, or replacing a run (or run set) symcomp
    wrote when ``overwrite``."""
    if resume:
        if not RunDir(out).is_run():
            raise OutputError(f"`resume`: {out} is not a run directory.")
        return
    if out.exists() and not out.is_dir():
        raise OutputError(f"`out` {out} is a file; give a folder.")
    if out.exists() and any(out.iterdir()):
        ours = _written_by_symcomp(out)
        foreign = sorted(
            p.relative_to(out).as_posix() for p in _entries(out) if ours is None or p not in ours
        )
        if foreign:
            raise OutputError(
                f"{out} holds files a symcomp run did not write ({', '.join(foreign[:5])}); "
                f"symcomp never replaces files it did not write. Choose another `out`."
            )
        if not overwrite:
            raise OutputError(f"{out} is not empty; use `overwrite`, `resume` or another `out`.")
        assert ours is not None
        _remove(ours)
    out.mkdir(parents=True, exist_ok=True)


def prepare_runset(out: Path, *, overwrite: bool, resume: bool) -> None:
    """Make ``out`` ready for a run set: new, resumed, or replacing one when ``overwrite``."""
    if out.exists() and any(out.iterdir()) and not resume:
        if not is_runset(out):
            prepare(out, resume=False, overwrite=overwrite)  # names foreign files, if any
            return
        if not overwrite:
            raise OutputError(
                f"{out} holds a run set; pass `resume` to continue it (finished runs are kept) "
                f"or `overwrite` to train it anew, or choose another `out`."
            )
        prepare(out, resume=False, overwrite=True)
    if resume and out.exists() and any(out.iterdir()) and not is_runset(out):
        raise OutputError(f"`resume`: {out} is not a run set.")
    out.mkdir(parents=True, exist_ok=True)


def _written_by_symcomp(out: Path) -> set[Path] | None:
    """What symcomp wrote in ``out``: a run's files, a run set's, or None (neither)."""
    run = RunDir(out)
    if run.is_run():
        return run.files()
    return runset_files(out) if is_runset(out) else None


def _entries(folder: Path) -> list[Path]:
    """Every file, link and folder under ``folder`` (links not followed)."""
    return sorted(folder.rglob("*"))


def _remove(paths: set[Path]) -> None:
    """Delete the given files, then the given folders (deepest first), nothing else."""
    for path in sorted(paths, key=lambda p: len(p.parts), reverse=True):
        if path.is_dir() and not path.is_symlink():
            path.rmdir()  # empty by now: everything in it was in ``paths``
        else:
            path.unlink(missing_ok=True)
