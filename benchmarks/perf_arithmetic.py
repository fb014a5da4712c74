"""CobA speed: unique expressions generated per second, and the time to build the partitions.

    python benchmarks/perf_arithmetic.py [--n 200000] [--in-domain 24000] [--generalisation 12000]
                                         [--out runs/benchmarks]

Writes perf_arithmetic.json and perf_arithmetic.md.
"""

from __future__ import annotations

import argparse
import json
import platform
import tempfile
import time
from pathlib import Path

import symcomp
from symcomp.data.generate import PoolSpec, generate
from symcomp.languages.arithmetic.suite import ArithmeticSuiteSpec, build


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=200_000)
    parser.add_argument("--in-domain", type=int, default=24_000)
    parser.add_argument("--generalisation", type=int, default=12_000)
    parser.add_argument("--out", type=Path, default=Path("runs/benchmarks"))
    args = parser.parse_args()
    language = symcomp.get_language("arithmetic")
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for jobs in (1, 2):
            start = time.perf_counter()
            manifest = generate(
                language, Path(folder) / f"pool{jobs}", PoolSpec(n=args.n, seed=0), jobs=jobs
            )
            seconds = time.perf_counter() - start
            rows.append(
                {
                    "what": f"unique expressions (jobs={jobs})",
                    "n": args.n,
                    "seconds": round(seconds, 2),
                    "per_second": round(args.n / seconds),
                    "draws": manifest["filters"]["draws"],
                }
            )
        start = time.perf_counter()
        build(
            Path(folder) / "suite",
            ArithmeticSuiteSpec(in_domain=args.in_domain, generalisation=args.generalisation),
        )
        seconds = time.perf_counter() - start
        rows.append(
            {
                "what": "all five partitions",
                "n": 5 * (args.in_domain + args.generalisation),
                "seconds": round(seconds, 2),
                "per_second": round(5 * (args.in_domain + args.generalisation) / seconds),
            }
        )
    args.out.mkdir(parents=True, exist_ok=True)
    report = {"machine": platform.platform(), "python": platform.python_version(), "rows": rows}
    (args.out / "perf_arithmetic.json").write_text(json.dumps(report, indent=2) + "\n")
    lines = ["| measure | n | seconds | per second |", "|---|---:|---:|---:|"]
    lines += [f"| {r['what']} | {r['n']:,} | {r['seconds']} | {r['per_second']:,} |" for r in rows]
    (args.out / "perf_arithmetic.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
