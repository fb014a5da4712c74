"""The tests that send signals, run again and again, on a quiet or a busy machine.

A test that stops a process must stop it in a known state, whatever the machine's speed
(issue 48: a test that waited 3.5 s and hoped failed 4 runs in 10 on a loaded machine). This
runs every test marked ``signals`` (the one list: ``pytest -m signals``; see pyproject.toml's
markers) ``--runs`` times in a row with ``pytest -n JOBS``, optionally with ``--busy K``
processes burning CPU for the whole time (each bounded by ``--busy-limit`` seconds in case
this script dies, and stopped at the end), and reports the runs, the failed ones, the
failing test ids and the wall time of each run. Each run's line on stderr names the tests that
failed in it, and a failed run's whole pytest output is kept in ``--out`` as ``run-N.log``.

    python benchmarks/signal_tests.py [--runs 30] [--busy 2] [--jobs 2] [--without-ray]
        [--out runs/benchmarks]

Writes ``signal_tests.json`` and ``signal_tests.md`` into ``--out`` (the file names carry
``-busyK`` when ``--busy`` is given) and prints the JSON. Exit 1 when a run failed.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ElementTree
from collections import Counter
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
PYTEST = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q"]
BUSY = "import time\nend = time.monotonic() + {limit}\nwhile time.monotonic() < end:\n    pass\n"


def marker(without_ray: bool) -> str:
    return "signals and not ray" if without_ray else "signals"


def signal_test_files(selected: str) -> list[str]:
    """The test files holding a test marked as selected (collected once, not every run)."""
    done = subprocess.run(
        [*PYTEST, "--collect-only", "-m", selected, "tests"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    ids = [line for line in done.stdout.splitlines() if "::" in line]
    if not ids:
        raise SystemExit(f"no test is marked {selected!r}:\n{done.stdout}\n{done.stderr}")
    return sorted({line.split("::")[0] for line in ids})


def failed_tests(report: Path) -> list[str]:
    """The ids of the tests that failed or erred, from pytest's JUnit XML report."""
    if not report.is_file():
        return ["(no report: pytest did not finish)"]
    failed = []
    for case in ElementTree.parse(report).iter("testcase"):
        if case.find("failure") is not None or case.find("error") is not None:
            module = case.get("classname", "").replace(".", "/")
            failed.append(f"{module}.py::{case.get('name')}")
    return failed


def one_run(number: int, files: list[str], selected: str, jobs: int, out: Path) -> dict[str, Any]:
    """One pytest run; a failed run's whole output is kept as ``run-N.log`` in ``out``."""
    with tempfile.TemporaryDirectory(prefix="signal-tests-") as folder:
        report = Path(folder) / "report.xml"
        command = [*PYTEST, "-n", str(jobs), "-m", selected, f"--junitxml={report}", *files]
        started = time.perf_counter()
        done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, check=False)
        wall = time.perf_counter() - started
        failed = failed_tests(report) if done.returncode else []
    if done.returncode:
        (out / f"run-{number}.log").write_text(done.stdout + "\n" + done.stderr)
    summary = (done.stdout.strip().splitlines() or [""])[-1]
    named = f" ({', '.join(failed)})" if failed else ""
    print(f"run {number}: exit {done.returncode}, {wall:.1f} s, {summary}{named}", file=sys.stderr)
    return {
        "run": number,
        "exit": done.returncode,
        "wall_seconds": round(wall, 1),
        "summary": summary,
        "failed": failed,
    }


def busy_loops(count: int, limit: float) -> list[subprocess.Popen[bytes]]:
    code = BUSY.format(limit=limit)
    return [subprocess.Popen([sys.executable, "-c", code]) for _ in range(count)]


def stop(loops: list[subprocess.Popen[bytes]]) -> None:
    for loop in loops:
        loop.terminate()
    for loop in loops:
        loop.wait()


def markdown(result: dict[str, Any]) -> str:
    lines = [
        "# Signal tests, again and again",
        "",
        f"`{result['command']}`: {result['runs']} runs of {len(result['files'])} files "
        f'(`pytest -n {result["jobs"]} -m "{result["marker"]}"`), {result["busy"]} busy '
        f"loops; {result['failed_runs']} runs failed.",
        "",
        f"Machine: {result['machine']}; load average before {result['load_before']}, "
        f"after {result['load_after']}.",
        "",
        "| run | exit | wall (s) | failed |",
        "|---|---|---|---|",
    ]
    for row in result["per_run"]:
        lines.append(
            f"| {row['run']} | {row['exit']} | {row['wall_seconds']} | "
            f"{', '.join(row['failed']) or '-'} |"
        )
    if result["failing_tests"]:
        lines += ["", "Failing tests (runs):", ""]
        lines += [f"* `{name}`: {count}" for name, count in result["failing_tests"].items()]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--busy", type=int, default=0, help="CPU-burning processes meanwhile")
    parser.add_argument("--busy-limit", type=float, default=4 * 3600, help="seconds, at most")
    parser.add_argument("--jobs", type=int, default=2, help="pytest -n")
    parser.add_argument("--without-ray", action="store_true", help="leave out the Ray tests")
    parser.add_argument("--out", type=Path, default=REPO / "runs" / "benchmarks")
    options = parser.parse_args()
    selected = marker(options.without_ray)
    files = signal_test_files(selected)
    load_before = [round(x, 2) for x in os.getloadavg()]
    options.out.mkdir(parents=True, exist_ok=True)
    loops = busy_loops(options.busy, options.busy_limit)
    try:
        per_run = [
            one_run(n, files, selected, options.jobs, options.out)
            for n in range(1, options.runs + 1)
        ]
    finally:
        stop(loops)
    failing = Counter(name for row in per_run for name in row["failed"])
    result = {
        "command": " ".join(["python benchmarks/signal_tests.py", *sys.argv[1:]]),
        "marker": selected,
        "files": files,
        "jobs": options.jobs,
        "busy": options.busy,
        "runs": options.runs,
        "failed_runs": sum(1 for row in per_run if row["exit"] != 0),
        "failing_tests": dict(failing.most_common()),
        "wall_seconds": [row["wall_seconds"] for row in per_run],
        "per_run": per_run,
        "machine": f"{platform.platform()}, {os.cpu_count()} CPUs, "
        f"Python {platform.python_version()}",
        "load_before": load_before,
        "load_after": [round(x, 2) for x in os.getloadavg()],
    }
    name = "signal_tests" + (f"-busy{options.busy}" if options.busy else "")
    (options.out / f"{name}.json").write_text(json.dumps(result, indent=2) + "\n")
    (options.out / f"{name}.md").write_text(markdown(result))
    print(json.dumps({k: v for k, v in result.items() if k != "per_run"}, indent=2))
    sys.exit(1 if result["failed_runs"] else 0)


if __name__ == "__main__":
    main()
