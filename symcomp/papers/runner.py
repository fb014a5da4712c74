"""Running a reproduction: data, every run (resumable), scores, report, results.

Layout of ``OUT``::

    data/                  the suite the runs train on (built once)
    runs/<test>/<model>-seed<N>/   one run directory per run (symcomp train's layout)
    scores/<test>/<model>-seed<N>.json   its scores, computed once
    figures/*.png          the paper's figures, from symcomp's runs
    report.md              the paper's numbers beside symcomp's, with run counts and times
    results.json           everything above as data

A rerun keeps every finished run and score and continues an interrupted run from its last
epoch, so a reproduction stopped at any point resumes where it was.
"""

from __future__ import annotations

import json
import platform
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from symcomp.data.artifacts import atomic_writer, write_json
from symcomp.errors import DataError
from symcomp.papers.plan import SCALES, Outcome, Paper, RunSpec
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
) -> dict[str, Any]:
    """Reproduce ``paper`` into ``out`` at ``scale``; return the results (also written).

    ``command`` is how the reproduction was asked for (shown in the report)."""
    if scale not in SCALES:
        raise DataError(f"`scale` {scale!r}: choose one of {', '.join(SCALES)}.")
    say = progress or (lambda message: None)
    out.mkdir(parents=True, exist_ok=True)
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
    write_json(out / "results.json", results)
    with atomic_writer(out / "report.md") as handle:
        handle.write(result["markdown"].rstrip() + "\n\n" + _footer(results))
    return results


def _run(paper: Paper, suite: Path, out: Path, spec: RunSpec, device: str) -> Outcome:
    from symcomp.models.runs import is_run, train_run
    from symcomp.models.zoo import resolve
    from symcomp.suites.reading import Suite

    folder = out / "runs" / spec.folder
    summary_file = folder / "summary.json"
    if not (is_run(folder) and summary_file.is_file()):
        config = resolve(spec.model, spec.preset, [*spec.sets, f"seed={spec.seed}"])
        data = Suite.read(suite).test(spec.test)
        train_run(data, config, folder, device=device, resume=is_run(folder))
    summary = json.loads(summary_file.read_text(encoding="utf-8"))
    scores_file = out / "scores" / f"{spec.folder}.json"
    if scores_file.is_file():
        scores = json.loads(scores_file.read_text(encoding="utf-8"))
    else:
        scores = paper.score(suite, folder, spec)
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
