"""Verification speed: monotonicity pairs per second with z3 and with E, by depth and --jobs.

``portfolio`` is the default path of ``symcomp verify`` (derivations and built worlds first,
the solvers by exception); it is always measured beside its baseline, the same portfolio with
those stages off (``portfolio --solvers-only``), on the same pairs in the same run, and each
row counts the rows each stage decided.

For each depth (default 1, 3, 5) a pool of pairs of that depth only is generated, then
``symcomp.verify.report.verify_file`` checks it (parse, compose, prove, compare) with each
prover and ``--jobs`` value; each configuration runs ``--repeat`` times and the median wall
time is reported, with pairs per wall-clock second and per CPU-second (the CPU time of this
process and its workers, which is what "per core" means when other work shares the machine).
The E rows use a smaller pool (E starts one process per refutation); the E/z3 ratio compares
pairs per second at the same depth and jobs. No run may disagree on a pair; pairs that run
out of the deterministic budget (``rlimit``) are counted as unknown. The pools use every
quantifier of the paper, the numerals (``at least three`` ...) with their exact, counting
semantics; ``numeral_share`` is the share of pairs with a numeral. "One core" is ``--jobs 1``.

    python benchmarks/perf_verify.py [--n 600] [--n-eprover 150] [--depths 1 3 5]
        [--jobs 1 2] [--provers z3 eprover] [--repeat 3] [--without-numerals]
        [--out runs/benchmarks]

Writes ``perf_verify.json`` and ``perf_verify.md`` into ``--out``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import resource
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import symcomp
from symcomp.languages.monotonicity.pairs import PairSpec, generate_pairs
from symcomp.logic.constructive import STAGES
from symcomp.verify import VerifyOptions
from symcomp.verify.report import verify_file

NUMERALS = re.compile(r"\b(several|three)\b", re.IGNORECASE)  # the counting quantifiers


def write_pool(folder: Path, n: int, depth: int, without_numerals: bool = False) -> Path:
    """``n`` pairs of ``depth``; ``without_numerals``: only pairs with no counting quantifier
    (drawn from a pool 50 times larger)."""
    language = symcomp.get_language("monotonicity")
    path = folder / f"depth{depth}-{n}{'-plain' if without_numerals else ''}.jsonl"
    drawn = PairSpec(n=n * 50 if without_numerals else n, seed=0, depths=(depth,))
    kept = 0
    with path.open("w", encoding="utf-8") as handle:
        for pair in generate_pairs(drawn):
            line = json.dumps(pair.record(language.name, language.version))
            if without_numerals and NUMERALS.search(line):
                continue
            handle.write(line + "\n")
            kept += 1
            if kept == n:
                break
    return path


def cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


SOLVERS_ONLY = "portfolio --solvers-only"  # the baseline: stages 1-2 off


def options_of(prover: str) -> VerifyOptions:
    if prover == SOLVERS_ONLY:
        return VerifyOptions(prover="portfolio", construct=False)
    return VerifyOptions(prover=prover)


def warm_up(folder: Path, provers: list[str]) -> None:
    """Load the grammar, the λ-term lexicon, nltk and z3 once, outside the timings."""
    path = folder / "warm-up.tsv"
    path.write_text("Some dogs ran.\tSome animals ran.\tentailment\n", encoding="utf-8")
    for prover in provers:
        verify_file(path, symcomp.get_language("monotonicity"), options_of(prover))


def measure(path: Path, prover: str, jobs: int, repeat: int) -> dict[str, Any]:
    language = symcomp.get_language("monotonicity")
    walls, cpus, rows = [], [], 0
    for _ in range(repeat):
        cpu, start = cpu_seconds(), time.perf_counter()
        report = verify_file(path, language, options_of(prover), jobs=jobs)
        walls.append(time.perf_counter() - start)
        cpus.append(cpu_seconds() - cpu)
        rows = report.rows
        if report.counts["agree"] + report.counts["unknown"] != rows:
            raise SystemExit(f"{prover} disagreed on {path}: {dict(report.counts)}")
    numerals = sum(
        any(word in line for word in ("three", "few", "several"))
        for line in path.read_text(encoding="utf-8").splitlines()
    )
    wall, cpu = statistics.median(walls), statistics.median(cpus)
    return {
        "prover": prover,
        "jobs": jobs,
        "pairs": rows,
        "unknown": report.counts["unknown"],
        "numeral_share": round(numerals / max(rows, 1), 3),
        "seconds": round(wall, 3),
        "pairs_per_second": round(rows / wall, 1),
        "pairs_per_cpu_second": round(rows / cpu, 1),
        "decided_by": dict(report.stages),
    }


def with_ratios(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows, each E row with the ratio of z3's pairs/s to E's at the same depth and jobs."""
    out = []
    for row in rows:
        z3 = next(
            (r for r in rows if r["prover"] == "z3" and r["depth"] == row["depth"]
             and r["jobs"] == row["jobs"]), None
        )  # fmt: skip
        if row["prover"] == "eprover" and z3 is not None:
            ratio = round(z3["pairs_per_second"] / row["pairs_per_second"], 1)
            row = {**row, "z3_to_eprover": ratio}
        out.append(row)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=600, help="pairs per depth for z3")
    parser.add_argument("--n-eprover", type=int, default=150, help="pairs per depth for E")
    parser.add_argument("--depths", type=int, nargs="+", default=[1, 3, 5])
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--provers", nargs="+", default=["portfolio", "z3", "eprover"])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--without-numerals",
        action="store_true",
        help="pools without counting quantifiers (several, at least / more than / at most / "
        "less than three): what exact numerals cost",
    )
    parser.add_argument("--out", type=Path, default=Path("runs/benchmarks"))
    parser.add_argument(
        "--no-baseline",
        action="store_true",
        help=f"do not measure '{SOLVERS_ONLY}' beside 'portfolio'",
    )
    args = parser.parse_args()
    if "portfolio" in args.provers and not args.no_baseline and SOLVERS_ONLY not in args.provers:
        args.provers.insert(args.provers.index("portfolio") + 1, SOLVERS_ONLY)
    rows = []
    load = os.getloadavg()
    with tempfile.TemporaryDirectory() as folder:
        warm_up(Path(folder), args.provers)
        for depth in args.depths:
            sizes = {"portfolio": args.n, SOLVERS_ONLY: args.n, "z3": args.n}
            sizes["eprover"] = args.n_eprover
            pools = {
                prover: write_pool(Path(folder), sizes[prover], depth, args.without_numerals)
                for prover in args.provers
            }
            for jobs in args.jobs:
                for prover, path in pools.items():
                    row = {"depth": depth, **measure(path, prover, jobs, args.repeat)}
                    rows.append(row)
                    print(json.dumps(row), flush=True)
    rows = with_ratios(rows)
    report = {
        "machine": platform.platform(),
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "load_average_at_start": [round(value, 2) for value in load],
        "load_average_at_end": [round(value, 2) for value in os.getloadavg()],
        "rows": rows,
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "perf_verify.json").write_text(json.dumps(report, indent=2) + "\n")
    lines = [
        f"Load average {report['load_average_at_start']} at start, "
        f"{report['load_average_at_end']} at end ({report['cpus']} CPUs): other work shares "
        f"the machine, so per-CPU-second rates are the fairer per-core figure.",
        "",
        "| depth | prover | jobs | pairs | unknown | numerals | seconds | pairs/s | pairs/CPU-s "
        "| decided by derivation / world / portfolio | z3 : E |",
        "|---:|---|---:|---:|---:|---:|---:|---:|---:|---|---:|",
        *(
            f"| {r['depth']} | {r['prover']} | {r['jobs']} | {r['pairs']:,} | {r['unknown']} "
            f"| {r['numeral_share']:.0%} | {r['seconds']} "
            f"| {r['pairs_per_second']} | {r['pairs_per_cpu_second']} | {_stages(r)} "
            f"| {r.get('z3_to_eprover', '')} |"
            for r in rows
        ),
    ]
    (args.out / "perf_verify.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


def _stages(row: dict[str, Any]) -> str:
    stages = row.get("decided_by") or {}
    if not stages:
        return ""
    return " / ".join(f"{stages.get(name, 0):,}" for name in STAGES)


if __name__ == "__main__":
    main()
