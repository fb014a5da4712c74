"""Pool generation speed: examples per second written to examples.jsonl.

Measures, for the built-in languages, the time of ``symcomp.data.generate.generate`` (draw with the
pool's uniqueness rules, interpret, serialise, write, hash) with and without derivation DAGs,
on one core (``jobs=1``) and with ``jobs=2``; each configuration runs ``--repeat`` times and the
median is reported. Writes ``perf_generate.json`` and ``perf_generate.md`` into ``--out``.

    python benchmarks/perf_generate.py [--n 100000] [--repeat 3] [--out runs/benchmarks]
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import symcomp
from symcomp.data.generate import PoolSpec, generate


def measure(language: str, spec: PoolSpec, jobs: int, repeat: int) -> dict[str, Any]:
    """Median wall time and rate of ``repeat`` generations of one configuration."""
    lang = symcomp.get_language(language)
    times, manifest = [], {}
    for _ in range(repeat):
        with tempfile.TemporaryDirectory() as folder:
            start = time.perf_counter()
            manifest = generate(lang, Path(folder) / "pool", spec, jobs=jobs)
            times.append(time.perf_counter() - start)
    examples = manifest["files"]["examples.jsonl"]["lines"]
    seconds = statistics.median(times)
    return {
        "language": language,
        "n": examples,
        "with_dag": spec.with_dag,
        "naturalize": spec.naturalize is not None,
        "enumerate_all": spec.enumerate_all,
        "jobs": jobs,
        "seconds": round(seconds, 3),
        "examples_per_second": round(examples / seconds),
        "sha256": manifest["files"]["examples.jsonl"]["sha256"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--out", type=Path, default=Path("runs/benchmarks"))
    args = parser.parse_args()
    configurations = [
        ("pcfg-set", PoolSpec(n=args.n, seed=0), 1),
        ("pcfg-set", PoolSpec(n=args.n, seed=0), 2),
        ("pcfg-set", PoolSpec(n=args.n, seed=0, with_dag=True), 1),
        ("pcfg-set", PoolSpec(n=args.n, seed=0, with_dag=True), 2),
        ("pcfg-let", PoolSpec(n=args.n, seed=0), 1),
        ("scan", PoolSpec(enumerate_all=True), 1),
        ("scan", PoolSpec(enumerate_all=True, with_dag=True), 1),
    ]
    rows = []
    for language, spec, jobs in configurations:
        row = measure(language, spec, jobs, args.repeat)
        rows.append(row)
        print(json.dumps(row))
    args.out.mkdir(parents=True, exist_ok=True)
    report = {"machine": platform.platform(), "python": platform.python_version(), "rows": rows}
    (args.out / "perf_generate.json").write_text(json.dumps(report, indent=2) + "\n")
    lines = [
        "| language | n | DAG | jobs | seconds | examples/s |",
        "|---|---:|---|---:|---:|---:|",
        *(
            f"| {r['language']} | {r['n']:,} | {'yes' if r['with_dag'] else 'no'} | {r['jobs']} "
            f"| {r['seconds']} | {r['examples_per_second']:,} |"
            for r in rows
        ),
    ]
    (args.out / "perf_generate.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
