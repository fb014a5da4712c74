"""A generated ``cogs`` pool with its DAGs, split by maximum compound divergence: what each
size costs, phase by phase, on the way to Europarl's 2,218,201 sentences (issue 49).

For each size N of ``--sizes``:

1. ``symcomp generate cogs --n N --with-dag --jobs J`` (``pool-N``): wall, CPU and peak RSS of
   every process (not counted in the split's budget, reported), and the pool's disk (bytes per
   example);
2. ``symcomp split dbca pool-N`` with the CLI defaults (train 40 %, test 10 %, seed 0):
   wall, CPU and peak RSS of every process, D_A and D_C, and where the CPU went, phase by
   phase, in the same run: the command runs in a process whose library functions are wrapped
   by timers (``extraction``: the pass over the pool's lines collecting every DAG's atoms,
   pairs and compound occurrences; ``weights``: DBCA weights over every occurrence and the
   top-k; ``search``: the MCD search; ``division`` of the held-out side; ``measures``: the
   split's meta; ``rest``: reading options, writing the file), with the peak RSS reached by
   the end of each.

A last row extrapolates each cost to ``--target`` sentences (default 2,218,201) from the two
largest sizes (growth exponent between them).

    python benchmarks/dbca_cogs_scale.py [--sizes 20000,100000,300000] [--jobs 2] [--out DIR]

Needs psutil (the ``models`` extra), as ``dbca_extract.py``, whose measure of a command it uses.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import sys
from pathlib import Path
from typing import Any

from dbca_extract import measured as process_tree_cost

EUROPARL = 2_218_201  # sentences of Europarl's English side
PHASES = {  # phase -> the functions (module, name) whose CPU it is
    "extraction": [("symcomp.dbca.features", "collect")],
    "weights": [("symcomp.dbca.features", "_weighed"), ("symcomp.dbca.features", "_top_k")],
    "search": [("symcomp.dbca.split", "mcd_split")],
    "division": [("symcomp.dbca.split", "divide_within_bound")],
    "measures": [("symcomp.dbca.split", "measure")],
}
# the command, run with each phase's functions wrapped by CPU timers; the phases go to stderr
HARNESS = """
import functools, importlib, json, resource, sys, time
phases = json.loads(sys.argv[1])
spent = {phase: 0.0 for phase in phases}
peaks = {}
def timed(phase, function):
    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        start = time.process_time()
        try:
            return function(*args, **kwargs)
        finally:
            spent[phase] += time.process_time() - start
            peaks[phase] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6
    return wrapper
for phase, functions in phases.items():
    for module, name in functions:
        loaded = importlib.import_module(module)
        setattr(loaded, name, timed(phase, getattr(loaded, name)))
from symcomp.cli import main
sys.argv = ["symcomp", *sys.argv[2:]]
try:
    main()
finally:
    report = {"cpu": spent, "total": time.process_time(), "peak_gb": peaks}
    sys.stderr.write("PHASES " + json.dumps(report) + "\\n")
"""


def measured(arguments: list[str], cwd: Path, *, phases: bool = False) -> dict[str, Any]:
    """Run ``symcomp ARGUMENTS`` (with phase timers): wall, CPU and peak RSS of its process
    tree, the peak RSS of every process sampled (:func:`dbca_extract.measured`), and the
    phases."""
    command = [sys.executable, "-c", HARNESS, json.dumps(PHASES if phases else {})]
    errors_path = cwd / f"{arguments[0]}.stderr"
    try:
        with errors_path.open("w") as errors:
            result = process_tree_cost(arguments, cwd, None, command=command, stderr=errors)
    except SystemExit as failed:
        raise SystemExit(f"{failed}\n{errors_path.read_text()}") from None
    for line in errors_path.read_text().splitlines():
        if line.startswith("PHASES ") and phases:
            result["phases"] = _phases(json.loads(line[len("PHASES ") :]))
    return result


def _phases(reported: dict[str, Any]) -> dict[str, Any]:
    cpu = {phase: round(seconds, 1) for phase, seconds in reported["cpu"].items()}
    cpu["rest"] = round(reported["total"] - sum(reported["cpu"].values()), 1)
    return {"cpu_seconds": cpu, "peak_rss_gb_by_end": reported["peak_gb"]}


def run_size(size: int, out: Path, jobs: int, seed: int) -> dict[str, Any]:
    pool = out / f"pool-{size}"
    result: dict[str, Any] = {"size": size}
    generate = ["generate", "cogs", "--n", str(size), "--with-dag", "--seed", str(seed)]
    generate += ["--jobs", str(jobs), "--out", pool.name, "--overwrite"]
    result["generate"] = measured(generate, out)
    examples = (pool / "examples.jsonl").stat().st_size
    result["pool_bytes"] = examples
    result["pool_bytes_per_example"] = round(examples / size, 1)
    split = ["split", "dbca", pool.name, "--out", f"split-{size}.json", "--overwrite"]
    result["split"] = measured(split, out, phases=True)
    meta = json.loads((out / f"split-{size}.json").read_text(encoding="utf-8"))["meta"]
    result["atom_divergence"] = meta["atom_divergence"]
    result["compound_divergence"] = meta["compound_divergence"]
    result["target_met"] = meta["target_met"]
    features = meta["features"]
    result["compounds"] = {k: features[k] for k in ("distinct_compounds", "weighted_compounds")}
    print(size, json.dumps({k: v for k, v in result.items() if k != "split"}), flush=True)
    print(size, "split", json.dumps(result["split"]), flush=True)
    return result


def extrapolated(rows: list[dict[str, Any]], target: int) -> dict[str, Any]:
    """Each cost at ``target`` from the two largest sizes, growing as a power of the size."""
    small, large = rows[-2], rows[-1]
    ratio = math.log(target / large["size"])

    def grown(a: float, b: float) -> dict[str, float]:
        exponent = math.log(b / a) / math.log(large["size"] / small["size"]) if a > 0 else 1.0
        return {"value": round(b * math.exp(exponent * ratio), 1), "exponent": round(exponent, 2)}

    values = {
        "generate_cpu_seconds": grown(
            small["generate"]["cpu_seconds"], large["generate"]["cpu_seconds"]
        ),
        "pool_gb": grown(small["pool_bytes"] / 1e9, large["pool_bytes"] / 1e9),
        "split_cpu_seconds": grown(small["split"]["cpu_seconds"], large["split"]["cpu_seconds"]),
        "split_peak_rss_gb": grown(small["split"]["peak_rss_gb"], large["split"]["peak_rss_gb"]),
    }
    for phase, seconds in large["split"].get("phases", {}).get("cpu_seconds", {}).items():
        before = small["split"]["phases"]["cpu_seconds"][phase]
        values[f"{phase}_cpu_seconds"] = grown(max(before, 0.1), max(seconds, 0.1))
    return {"size": target, **values}


def table(report: dict[str, Any]) -> str:
    phases = [*PHASES, "rest"]
    lines = [
        "| sentences | generate CPU s | pool MB (B/example) | split CPU s | "
        + " | ".join(phases)
        + " | split peak RSS GB | D_A | D_C |",
        "|---:|---:|---:|---:|" + "---:|" * len(phases) + "---:|---:|---:|",
    ]
    for row in report["sizes"]:
        cpu = row["split"]["phases"]["cpu_seconds"]
        lines.append(
            f"| {row['size']:,} | {row['generate']['cpu_seconds']} | "
            f"{row['pool_bytes'] / 1e6:,.0f} ({row['pool_bytes_per_example']}) | "
            f"{row['split']['cpu_seconds']} | "
            + " | ".join(str(cpu[phase]) for phase in phases)
            + f" | {row['split']['peak_rss_gb']} | {row['atom_divergence']} | "
            f"{row['compound_divergence']} |"
        )
    if "extrapolated" in report:
        grown = report["extrapolated"]
        lines.append(
            f"| {grown['size']:,} (extrapolated) | {grown['generate_cpu_seconds']['value']} | "
            f"{grown['pool_gb']['value'] * 1e3:,.0f} | {grown['split_cpu_seconds']['value']} | "
            + " | ".join(str(grown[f"{phase}_cpu_seconds"]["value"]) for phase in phases)
            + f" | {grown['split_peak_rss_gb']['value']} | | |"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="20000,100000,300000", help="comma-separated")
    parser.add_argument("--jobs", type=int, default=2, help="generate's worker processes")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--target", type=int, default=EUROPARL)
    parser.add_argument("--out", type=Path, default=Path("runs/benchmarks/dbca_cogs_scale"))
    args = parser.parse_args()
    out = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    sizes = sorted(int(size) for size in args.sizes.split(","))
    report: dict[str, Any] = {"machine": platform.platform(), "cpus": os.cpu_count()}
    report["sizes"] = [run_size(size, out, args.jobs, args.seed) for size in sizes]
    if len(sizes) > 1:
        report["extrapolated"] = extrapolated(report["sizes"], args.target)
    report["table"] = table(report)
    (out / "dbca_cogs_scale.json").write_text(json.dumps(report, indent=2) + "\n")
    (out / "dbca_cogs_scale.md").write_text(report["table"])
    print(report["table"])


if __name__ == "__main__":
    main()
