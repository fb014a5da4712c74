"""Running a reproduction: data, every run (resumable), scores, report, results.

Layout of ``OUT``::

    data/                  the suite the runs train on (built once)
    runs/<test>/<model>-seed<N>/   one run directory per run (symcomp train's layout)
    scores/<test>/<model>-seed<N>.json   its scores, computed once
    figures/*.png          the paper's figures, from symcomp's runs
    report.md              the paper's numbers beside symcomp's, with run counts and times
    results.json           everything above as data
    manifest.json          which paper, scale and seed the folder reproduces (written first)

A rerun keeps every finished run and score and continues an interrupted run from its last
epoch (a run stopped before its first epoch was saved starts again), so a reproduction stopped
at any point resumes where it was. Like every symcomp output, ``OUT`` is never written over
without ``overwrite``: a folder holding anything but a reproduction of the same paper, scale and
seed is refused, and files symcomp did not write are never replaced.
"""

from __future__ import annotations

import platform
import shutil
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from symcomp.data.artifacts import (
    LOCK,
    MANIFEST,
    STAGING,
    atomic_writer,
    read_json,
    read_manifest,
    write_json,
    writing_into,
)
from symcomp.errors import DataError, OutputError
from symcomp.papers.plan import SCALES, Outcome, Paper, RunSpec, suite_folder
from symcomp.version import __version__

Say = Callable[[str], None]


def reproduce(
    paper: Paper,
    out: Path,
    *,
    scale: str = "small",
    seed: int = 0,
    device: str = "auto",
    progress: Say | None = None,
    command: str = "",
    overwrite: bool = False,
) -> dict[str, Any]:
    """Reproduce ``paper`` into ``out`` at ``scale``; return the results (also written).

    ``command`` is how the reproduction was asked for (shown in the report). An earlier
    reproduction of the same paper, scale and seed in ``out`` is continued; with
    ``overwrite`` its files are deleted first and everything is done anew.

    Raises
    ------
    OutputError
        When ``out`` holds anything but a reproduction (files symcomp did not write, a pool,
        a suite), a reproduction of another paper, scale or seed (without ``overwrite``), or
        another symcomp command is writing it.
    """
    if scale not in SCALES:
        raise DataError(f"`scale` {scale!r}: choose one of {', '.join(SCALES)}.")
    asked = {"paper": paper.name, "scale": scale, "seed": seed}
    with writing_into(out, overwrite=True, names=(), kind=KIND):
        # everything a rerun would refuse is found before the first file is written: a command
        # that fails leaves every file as it found it
        if _continued(out, asked, overwrite):
            _check_continuable(paper, out, scale, seed)
        _claim(out, asked, overwrite)
        return _reproduce(paper, out, scale, seed, device, progress or (lambda m: None), command)


KIND = "reproduction"
FORMAT = "symcomp.reproduction/1"
# what a reproduction writes at the top of OUT (its manifest lists them)
OWN = ("data", "runs", "scores", "figures", "report.md", "results.json")


def _continued(out: Path, asked: dict[str, Any], overwrite: bool) -> bool:
    """Whether ``out`` holds this reproduction, to be continued; False for an empty folder or
    an earlier reproduction that ``overwrite`` replaces. Anything else is refused."""
    entries = sorted(p.name for p in out.iterdir() if not _ours_to_ignore(p.name))
    if not entries:
        return False
    earlier = _earlier(out, entries)
    same = all(earlier.get(key) == value for key, value in asked.items())
    if not same and not overwrite:
        raise OutputError(
            f"{out} holds a reproduction of {_described(earlier)}, not of "
            f"{_described(asked)}; pass `overwrite` to delete it and start anew, or "
            f"choose another `out`."
        )
    return not overwrite


def _claim(out: Path, asked: dict[str, Any], overwrite: bool) -> None:
    """Make ``out`` this reproduction's folder (once :func:`_continued` allowed it): with
    ``overwrite`` delete the earlier one; write the manifest unless it is there already."""
    if overwrite:
        # what says the reproduction is complete goes first: a stop while the rest is deleted
        # leaves an incomplete reproduction (continued or redone), never one claimed complete
        for name in reversed(OWN):
            _delete(out / name)
    manifest = {"format": FORMAT, **asked, "files": {n: {} for n in OWN}}
    try:
        kept = (out / MANIFEST).is_file() and read_manifest(out) == manifest
    except DataError:
        kept = False
    if not kept:
        write_json(out / MANIFEST, manifest)


def _check_continuable(paper: Paper, out: Path, scale: str, seed: int) -> None:
    """Refuse now what continuing the reproduction in ``out`` would refuse later, after
    writing: a suite whose files differ from its manifest, a run whose files are damaged (its
    configuration, summary, resume state, metrics or best weights), a damaged score file."""
    from symcomp.models.run_dir import RunDir
    from symcomp.suites.reading import Suite

    suite = suite_folder(out / "data")
    if not Suite.is_suite(suite):
        return  # the data is built anew
    Suite.read(suite).verify()
    for spec in paper.runs(suite, scale, seed):
        folder = out / "runs" / spec.folder
        RunDir(folder).checked_progress(fix=_redo(folder))
        scores = _scores_file(out, spec)
        if scores.is_file():
            _read_scores(scores)


def _redo(folder: Path) -> str:
    return f"Delete {folder} to train the run again, or pass `overwrite` to start anew."


def _scores_file(out: Path, spec: RunSpec) -> Path:
    return out / "scores" / f"{spec.folder}.json"


def _read_scores(path: Path) -> dict[str, Any]:
    return read_json(path, what="a run's scores", fix="Delete it to score the run again.")


def _ours_to_ignore(name: str) -> bool:
    """The lock and temporary files of symcomp commands (not content)."""
    return name == LOCK or name.startswith((".symcomp-probe-", STAGING)) or name.endswith(".tmp")


def _earlier(out: Path, entries: list[str]) -> dict[str, Any]:
    """The paper, scale and seed of the reproduction in ``out``; refuse any other content."""
    try:
        manifest = read_manifest(out) if MANIFEST in entries else {}
    except DataError as error:
        raise OutputError(
            f"{error} It is not a reproduction's folder; choose another `out`."
        ) from None
    if not manifest:
        manifest = _written_before_manifests(out, entries)
    if manifest.get("format") != FORMAT:
        shown = ", ".join(entries[:5]) + (", ..." if len(entries) > 5 else "")
        raise OutputError(
            f"{out} holds files a symcomp reproduction did not write ({shown}); symcomp never "
            f"replaces files it did not write. Choose another `out` (or an empty folder)."
        )
    return manifest


def _written_before_manifests(out: Path, entries: list[str]) -> dict[str, Any]:
    """A complete reproduction by a symcomp that wrote no manifest: only its own entries, and
    a ``results.json`` that says which paper, scale and seed (anything else is not one)."""
    if not set(entries) <= set(OWN) or "results.json" not in entries:
        return {}
    try:
        results = read_json(out / "results.json")
    except DataError:
        return {}
    if not {"paper", "scale", "seed", "symcomp", "runs"} <= set(results):
        return {}
    return {"format": FORMAT, **{key: results[key] for key in ("paper", "scale", "seed")}}


def _described(what: dict[str, Any]) -> str:
    return f"{what.get('paper')} at scale {what.get('scale')} with seed {what.get('seed')}"


def _delete(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    elif path.exists() or path.is_symlink():
        path.unlink()


def _reproduce(
    paper: Paper, out: Path, scale: str, seed: int, device: str, say: Say, command: str
) -> dict[str, Any]:
    started_wall, started_cpu = time.perf_counter(), time.process_time()
    say(f"{paper.name}: building the data ({scale})")
    suite = paper.build_data(out / "data", scale, seed)
    specs = paper.runs(suite, scale, seed)
    outcomes = []
    for number, spec in enumerate(specs, start=1):
        say(f"run {number}/{len(specs)}: {spec.name} on {spec.test} (seed {spec.seed})")
        outcomes.append(_run(paper, suite, out, spec, device))
    (out / "figures").mkdir(exist_ok=True)
    result = paper.report(outcomes, out, scale)
    results = {
        "paper": paper.name,
        "title": paper.title,
        "scale": scale,
        "seed": seed,
        "device": device,
        "command": command or f"reproduce({paper.name!r}, scale={scale!r}, seed={seed})",
        "symcomp": __version__,
        "machine": f"{platform.platform()}, Python {platform.python_version()}",
        "runs": [_run_record(o) for o in outcomes],
        "run_count": len(outcomes),
        "cpu_seconds": round(time.process_time() - started_cpu, 1),
        "wall_seconds": round(time.perf_counter() - started_wall, 1),
        "train_cpu_seconds": round(sum(o.cpu_seconds for o in outcomes), 1),
        "findings": result["findings"],
        "tables": result["tables"],
        "figures": sorted(p.name for p in (out / "figures").glob("*.png")),
    }
    with atomic_writer(out / "report.md") as handle:
        handle.write(result["markdown"].rstrip() + "\n\n" + _footer(results))
    # last: it says the reproduction is complete
    write_json(out / "results.json", results, completes=out)
    return results


def _run(paper: Paper, suite: Path, out: Path, spec: RunSpec, device: str) -> Outcome:
    from symcomp.models.run_dir import RunDir
    from symcomp.models.runs import run_progress, train_run
    from symcomp.models.zoo import resolve
    from symcomp.suites.reading import Suite

    folder = out / "runs" / spec.folder
    state = run_progress(folder)
    if state != "finished":
        config = resolve(spec.model, spec.preset, [*spec.sets, f"seed={spec.seed}"])
        data = Suite.read(suite).test(spec.test)
        # a run stopped before its first epoch was saved has nothing to continue: start it again
        train_run(
            data,
            config,
            folder,
            device=device,
            resume=state == "partial",
            overwrite=state == "started",
        )
    summary = RunDir(folder).summary(fix=_redo(folder))
    scores_file = _scores_file(out, spec)
    if scores_file.is_file():
        scores = _read_scores(scores_file)
    else:
        scores = paper.score(suite, folder, spec, device)
        scores_file.parent.mkdir(parents=True, exist_ok=True)
        write_json(scores_file, scores)
    return Outcome(
        spec,
        summary,
        scores,
        cpu_seconds=float(summary.get("train_cpu_seconds", 0.0)),
        wall_seconds=float(summary.get("train_seconds", 0.0)),
    )


def _run_record(outcome: Outcome) -> dict[str, Any]:
    spec = outcome.spec
    return {
        "test": spec.test,
        "architecture": spec.name,
        "model": spec.model,
        "preset": spec.preset,
        "settings": list(spec.sets),
        "seed": spec.seed,
        "epochs": outcome.summary.get("epochs"),
        "test_accuracy": outcome.summary.get("test_accuracy"),
        "train_cpu_seconds": outcome.cpu_seconds,
        "train_wall_seconds": outcome.wall_seconds,
        "scores": dict(outcome.scores),
    }


def _footer(results: dict[str, Any]) -> str:
    seeds = sorted({run["seed"] for run in results["runs"]})
    return (
        "## How this was run\n\n"
        f"`{results['command']}`: "
        f"{results['run_count']} runs (seeds {', '.join(map(str, seeds))}), "
        f"{results['train_cpu_seconds'] / 60:.1f} CPU-minutes of training, "
        f"{results['cpu_seconds'] / 60:.1f} CPU-minutes and {results['wall_seconds'] / 60:.1f} "
        f"wall-minutes in all (including data, scoring and finished runs reused), on "
        f"{results['machine']}, device {results['device']}, symcomp {results['symcomp']}.\n"
    )


def verdict(finding: Mapping[str, Any]) -> str:
    """How a finding came out; ``reproduced`` is None when the scale cannot measure it.

    >>> [verdict({"reproduced": r}) for r in (True, False, None)]
    ['reproduced', 'NOT reproduced', 'not measurable at this scale']
    """
    if finding["reproduced"] is None:
        return "not measurable at this scale"
    return "reproduced" if finding["reproduced"] else "NOT reproduced"


def findings_table(findings: Sequence[Mapping[str, Any]]) -> str:
    """The findings of a report, the paper's claim beside symcomp's measurement."""
    return table(
        ["finding", "paper", "symcomp", "reproduced"],
        [[f["finding"], f["paper"], f["symcomp"], verdict(f)] for f in findings],
    )


def table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """A markdown table; floats to 3 decimals, None as n/a.

    >>> print(table(["a", "b"], [[1, 0.12345], [None, "x"]]))
    | a | b |
    |---|---|
    | 1 | 0.123 |
    | n/a | x |
    """

    def cell(value: Any) -> str:
        if value is None:
            return "n/a"
        return f"{value:.3f}" if isinstance(value, float) else str(value)

    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]
    return "\n".join(lines)
