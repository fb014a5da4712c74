"""Choosing demonstrations (``symcomp.dbca.demonstrations``): coverage and cost of random, similar
and cover at K shots, on COGS gen and SCAN MCD1.

Data (each a set of queries and the pool their demonstrations come from):

* ``cogs-published``: the published COGS (``--cogs-published``, default ``../shared/peers/cogs``):
  the 21,000 items of ``gen.tsv`` as queries, the 24,155 rows of ``train.tsv`` as the pool;
  records are ``{"id", "input": sentence}``;
* ``cogs-suite``: symcomp's COGS suite (``--cogs-suite DIR``, or built into a temporary folder
  with ``symcomp suite cogs --seed 0`` when ``--build-cogs-suite`` is given): its ``gen`` test's
  test part (21,000 items) as queries, its train part (24,155 rows) as the pool;
* ``scan-mcd1``: ``symcomp generate scan --all`` and ``symcomp split dbca --seed 1`` (the
  README's MCD1; ``--scan DIR`` reuses a folder holding ``examples.jsonl`` and ``mcd1.json``):
  the test part as queries, the train part as the pool.

Every (data, method) pair runs in a fresh subprocess, which reads the records, then calls
``select_demonstrations`` (for similar and cover: parsing, structure extraction, the BM25 index
and the choice; random parses nothing): its CPU seconds (user + system, ``resource.getrusage``)
are the selection's cost; peak RSS is the subprocess's ``ru_maxrss`` (records, interpreter and
libraries included; the RSS after reading the records is reported beside it). Coverage (share
of each query's coverable atoms, compounds and words that its demonstrations hold) is computed
afterwards, untimed. BLAS threads are pinned to one (``--threads``).

Writes ``demonstrations.json`` and ``demonstrations.md`` into ``--out``.

    python benchmarks/demonstrations.py [--shots 8] [--seed 0] [--out runs/benchmarks]
        [--scan DIR] [--cogs-suite DIR | --build-cogs-suite] [--skip cogs-suite ...]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
METHODS = ("random", "similar", "cover")
SYMCOMP = str(Path(sys.executable).with_name("symcomp"))  # the console script beside python
REFERENCE = (
    "issue 43: a naive greedy cover over 300 COGS gen items held 0.998, random 0.43, at 3 ms an "
    "item"
)


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def write_jsonl(path: Path, records: list[dict[str, Any]]) -> None:
    with path.open("w", encoding="utf-8") as handle:
        for record in records:
            handle.write(json.dumps(record) + "\n")


def child(spec: dict[str, Any]) -> dict[str, Any]:
    """One measurement, in this (fresh) process."""
    import symcomp
    from symcomp.dbca.demonstrations import (
        DemonstrationPool,
        coverage_summary,
        select_demonstrations,
    )

    language = symcomp.get_language(spec["language"])
    queries = read_jsonl(Path(spec["queries"]))
    pool = read_jsonl(Path(spec["pool"]))
    loaded_mb = peak_mb()
    start = cpu_seconds()
    chosen = select_demonstrations(
        queries,
        pool,
        language=language,
        shots=spec["shots"],
        method=spec["method"],
        seed=spec["seed"],
    )
    done = cpu_seconds()
    peak = peak_mb()
    summary = coverage_summary(DemonstrationPool(pool, language=language).coverage(queries, chosen))
    return {
        "cpu_seconds": round(done - start, 2),
        "ms_per_query": round(1000 * (done - start) / max(len(queries), 1), 2),
        "peak_rss_mb": round(peak),
        "rss_after_reading_mb": round(loaded_mb),
        "mean_coverage": round(float(summary["mean"]), 4),
        "min_coverage": round(float(summary["min"]), 4),
        "queries": len(queries),
        "pool": len(pool),
    }


def measure(
    name: str, language: str, queries: Path, pool: Path, args: argparse.Namespace
) -> list[dict[str, Any]]:
    rows = []
    for method in METHODS:
        spec = {
            "language": language,
            "queries": str(queries),
            "pool": str(pool),
            "method": method,
            "shots": args.shots,
            "seed": args.seed,
        }
        env = {**os.environ, **{v: str(args.threads) for v in THREAD_VARIABLES}}
        done = subprocess.run(
            [sys.executable, __file__, "--child", json.dumps(spec)],
            check=True,
            capture_output=True,
            text=True,
            env=env,
            cwd=REPO,
        )
        row = {"data": name, "method": method, "shots": args.shots, **json.loads(done.stdout)}
        print(json.dumps(row), flush=True)
        rows.append(row)
    return rows


THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


def published_cogs(folder: Path, work: Path) -> tuple[Path, Path]:
    paths = []
    for part in ("gen", "train"):
        lines = (folder / f"{part}.tsv").read_text(encoding="utf-8").splitlines()
        records = [
            {"id": f"{part}-{number}", "input": line.split("\t")[0]}
            for number, line in enumerate(lines)
        ]
        paths.append(work / f"cogs-published-{part}.jsonl")
        write_jsonl(paths[-1], records)
    return paths[0], paths[1]


def scan_mcd1(folder: Path | None, work: Path) -> tuple[Path, Path]:
    if folder is None:
        folder = work / "scan"
        symcomp = [SYMCOMP, "-q"]
        subprocess.run([*symcomp, "generate", "scan", "--all", "--out", str(folder)], check=True)
        split = [*symcomp, "split", "dbca", str(folder), "--seed", "1"]
        subprocess.run([*split, "--out", str(folder / "mcd1.json")], check=True)
    records = read_jsonl(folder / "examples.jsonl")
    split = json.loads((folder / "mcd1.json").read_text(encoding="utf-8"))
    paths = []
    for part in ("test", "train"):
        paths.append(work / f"scan-mcd1-{part}.jsonl")
        write_jsonl(paths[-1], [records[i] for i in split[f"{part}Idxs"]])
    return paths[0], paths[1]


def cogs_suite(folder: Path, work: Path) -> tuple[Path, Path]:
    """The suite's ``gen`` test: its test part (the 21 gen cases) and its train part."""
    from symcomp.suites.reading import Suite

    test = Suite.read(folder).test("gen")
    paths = (work / "cogs-suite-gen.jsonl", work / "cogs-suite-train.jsonl")
    write_jsonl(paths[0], test.test)
    write_jsonl(paths[1], test.train)
    return paths[0], paths[1]


def markdown(report: dict[str, Any]) -> str:
    lines = [
        f"Demonstration selection at {report['shots']} shots, seed {report['seed']} "
        f"({report['machine']}; Python {report['python']}; BLAS threads {report['threads']}).",
        "",
        "| data | queries | pool | method | mean coverage | min coverage | CPU-s | ms/query | "
        "peak RSS MB (after reading) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in report["rows"]:
        lines.append(
            f"| {r['data']} | {r['queries']:,} | {r['pool']:,} | {r['method']} | "
            f"{r['mean_coverage']:.4f} | {r['min_coverage']:.4f} | {r['cpu_seconds']} | "
            f"{r['ms_per_query']} | "
            f"{r['peak_rss_mb']} ({r['rss_after_reading_mb']}) |"
        )
    lines += ["", f"Reference: {REFERENCE}.", ""]
    lines += [f"- {check}" for check in report["checks"]]
    return "\n".join(lines) + "\n"


def checks(rows: list[dict[str, Any]]) -> list[str]:
    found = []
    for r in rows:
        if r["method"] != "cover":
            continue
        verdict = "met" if r["mean_coverage"] >= 0.98 else "NOT met"
        found.append(
            f"{r['data']}: cover holds {r['mean_coverage']:.4f} of coverable structures on "
            f"average (at least 0.98: {verdict}); minimum {r['min_coverage']:.4f}"
        )
        if r["data"] == "cogs-published":
            fast = r["cpu_seconds"] <= 60 and r["peak_rss_mb"] <= 1024
            found.append(
                f"{r['data']}: cover for {r['queries']:,} items from {r['pool']:,} rows: "
                f"{r['cpu_seconds']} CPU-s, peak RSS {r['peak_rss_mb']} MB (at most 60 CPU-s and "
                f"1 GB: {'met' if fast else 'NOT met'})"
            )
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shots", type=int, default=8)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=1, help="BLAS threads of each process.")
    parser.add_argument("--out", type=Path, default=Path("runs/benchmarks"))
    parser.add_argument("--cogs-published", type=Path, default=REPO.parent / "shared/peers/cogs")
    parser.add_argument("--scan", type=Path, help="A folder with examples.jsonl and mcd1.json.")
    parser.add_argument("--cogs-suite", type=Path, help="A built `symcomp suite cogs` folder.")
    parser.add_argument("--build-cogs-suite", action="store_true")
    parser.add_argument("--skip", action="append", default=[], help="A data set to leave out.")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(json.loads(args.child))))
        return
    report: dict[str, Any] = {
        "machine": platform.platform(),
        "python": platform.python_version(),
        "cores": os.cpu_count(),
        "shots": args.shots,
        "seed": args.seed,
        "threads": args.threads,
        "rows": [],
    }
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        if "cogs-published" not in args.skip and args.cogs_published.is_dir():
            gen, train = published_cogs(args.cogs_published, work)
            report["rows"] += measure("cogs-published", "cogs", gen, train, args)
        if "scan-mcd1" not in args.skip:
            test, train = scan_mcd1(args.scan, work)
            report["rows"] += measure("scan-mcd1", "scan", test, train, args)
        suite = args.cogs_suite
        if "cogs-suite" not in args.skip and (suite is not None or args.build_cogs_suite):
            if suite is None:
                suite = work / "cogs-suite"
                command = [SYMCOMP, "-q", "suite", "cogs", "--seed"]
                subprocess.run([*command, "0", "--out", str(suite)], check=True)
            gen, train = cogs_suite(suite, work)
            report["rows"] += measure("cogs-suite", "cogs", gen, train, args)
    report["checks"] = checks(report["rows"])
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "demonstrations.json").write_text(json.dumps(report, indent=2) + "\n")
    text = markdown(report)
    (args.out / "demonstrations.md").write_text(text)
    print(text)


if __name__ == "__main__":
    main()
