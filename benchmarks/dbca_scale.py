"""DBCA at the scale of CFQ: MCD splits of cfq pools up to the paper's 239,357 questions.

For each pool size, the pool is generated once (``symcomp generate cfq --n N --seed 0
--with-dag``, kept in ``--out/dbca_scale_cfq_N``), then the MCD split is made as a new user makes
it, with the CLI defaults and the paper's proportions::

    symcomp split dbca POOL --train-frac 0.4 --test-frac 0.05 --dev-frac 0.05 --seed 0

Each command runs as a child process; its CPU time (user + system) and peak resident memory come
from ``wait4``, so they cover the whole command (pool read, features, search, split meta). At
the smallest size the split is also made with ``--candidates`` 1,024 (more candidates per greedy
step). D_A and D_C (train vs test and train vs dev) are printed beside the paper's CFQ MCD splits
(Keysers et al. 2020: D_C 0.69-0.71 at D_A <= 0.02; train 95,743 / dev 11,968 / test 11,968 of
239,357) and the issue's limits (30 CPU-minutes and 8 GB for the split at 239,357).

Writes ``dbca_scale.json`` and ``dbca_scale.md`` into ``--out``.

    python benchmarks/dbca_scale.py [--sizes 20000 100000 239357] [--out runs/benchmarks]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

PAPER_DC = (0.69, 0.71)  # the paper's CFQ MCD splits
PAPER: dict[str, Any] = {"max_atom_divergence": 0.02, "pool": 239_357}
LIMITS = {"cpu_minutes": 30, "peak_rss_gb": 8}
SYMCOMP = [sys.executable, "-c", "from symcomp.cli import main; main()"]


def measured(arguments: list[str]) -> dict[str, Any]:
    """Run ``symcomp ARGUMENTS``; its wall and CPU seconds and peak RSS (GB)."""
    start = time.perf_counter()
    process = subprocess.Popen([*SYMCOMP, *arguments], stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    output = process.stdout.read()
    _pid, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"symcomp {' '.join(arguments)} failed ({process.returncode}): {output}")
    return {
        "seconds": round(time.perf_counter() - start, 1),
        "cpu_seconds": round(usage.ru_utime + usage.ru_stime, 1),
        "peak_rss_gb": round(usage.ru_maxrss / 1e6, 2),  # kilobytes on Linux
    }


def pool(size: int, out: Path) -> tuple[Path, dict[str, Any] | None]:
    folder = out / f"dbca_scale_cfq_{size}"
    if (folder / "manifest.json").is_file():
        return folder, None
    cost = measured(
        ["-q", "generate", "cfq", "--n", str(size), "--seed", "0", "--with-dag", "--out",
         str(folder), "--overwrite"]
    )  # fmt: skip
    print(f"generated {size:,}: {json.dumps(cost)}", flush=True)
    return folder, cost


def split(folder: Path, size: int, candidates: int | None, out: Path) -> dict[str, Any]:
    name = f"dbca_scale_mcd_{size}" + (f"_c{candidates}" if candidates else "")
    target = out / f"{name}.json"
    extra = ["--candidates", str(candidates)] if candidates else []
    cost = measured(
        ["-q", "split", "dbca", str(folder), "--train-frac", "0.4", "--test-frac", "0.05",
         "--dev-frac", "0.05", "--seed", "0", *extra, "--out", str(target), "--overwrite"]
    )  # fmt: skip
    meta = json.loads(target.read_text(encoding="utf-8"))["meta"]
    row = {
        "pool": size,
        "candidates": meta["parameters"]["candidates"],
        **cost,
        "atom_divergence": meta["atom_divergence"],
        "dev_atom_divergence": meta.get("dev_atom_divergence"),
        "compound_divergence": meta["compound_divergence"],
        "dev_compound_divergence": meta.get("dev_compound_divergence"),
        "sizes": meta["sizes"],
        "kept_compounds": meta["features"].get("kept_compounds"),
        "weighted_compounds": meta["features"].get("weighted_compounds"),
        "search_seconds": meta["search"]["seconds"],
        "target_met": meta["target_met"],
    }
    print(json.dumps(row), flush=True)
    return row


def markdown(report: dict[str, Any]) -> str:
    low, high = PAPER_DC
    lines = [
        "# DBCA at the scale of CFQ (`benchmarks/dbca_scale.py`)",
        "",
        f"Paper (Keysers et al. 2020, CFQ MCD): D_C {low}-{high} at D_A <= "
        f"{PAPER['max_atom_divergence']}, pool {PAPER['pool']:,}. Limits for the split at "
        f"239,357: {LIMITS['cpu_minutes']} CPU-minutes, {LIMITS['peak_rss_gb']} GB.",
        "",
        "| pool | candidates | D_A test / dev | D_C test / dev | paper D_C | CPU-min | peak RSS GB "
        "| compounds kept / weighted |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in report["splits"]:
        lines.append(
            f"| {row['pool']:,} | {row['candidates']:,} | {row['atom_divergence']:.4f} / "
            f"{row['dev_atom_divergence']:.4f} | {row['compound_divergence']:.4f} / "
            f"{row['dev_compound_divergence']:.4f} | {low}-{high} | "
            f"{row['cpu_seconds'] / 60:.1f} | {row['peak_rss_gb']:.2f} | "
            f"{row['kept_compounds']:,} / {row['weighted_compounds']:,} |"
        )
    lines += ["", "Pool generation (`symcomp generate cfq --with-dag`):", ""]
    for size, cost in report["generation"].items():
        lines.append(f"* {int(size):,}: {json.dumps(cost)}")
    lines += ["", f"Machine: {report['machine']}", ""]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[20_000, 100_000, 239_357])
    parser.add_argument("--out", type=Path, default=Path("runs/benchmarks"))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    report: dict[str, Any] = {"machine": platform.platform(), "generation": {}, "splits": []}
    for size in sorted(args.sizes):
        folder, cost = pool(size, args.out)
        report["generation"][str(size)] = cost or "reused"
        report["splits"].append(split(folder, size, None, args.out))
        if size == min(args.sizes):
            report["splits"].append(split(folder, size, 1024, args.out))
        (args.out / "dbca_scale.json").write_text(json.dumps(report, indent=2) + "\n")
        (args.out / "dbca_scale.md").write_text(markdown(report), encoding="utf-8")


if __name__ == "__main__":
    main()
