"""Feature shards against features in memory: the MCD split of an imported treebank, old and
new code side by side in one run.

The treebank is ``perf_import.py``'s (``--rows`` random dependency trees over a Zipf lemma
vocabulary). Both source trees (``--baseline COMMIT``, checked out as a git worktree, and this
checkout) import it and make the MCD split with the CLI defaults (train 40 %, test 10 %,
seed 0); the new tree's split reads its features from shards (``--features``, written by the
same command), the old tree's computes them in memory. Every command is a child process whose
CPU time and peak RSS come from ``wait4``; the load average before each command is recorded
(the machine is shared). Reported: CPU seconds, wall seconds, peak RSS of every process, the
disk the shards take (bytes per example and per distinct compound), D_A, D_C, and whether the
two splits hold the same examples.

    python benchmarks/dbca_shards.py [--rows 300000] [--baseline COMMIT] [--out DIR]
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
from pathlib import Path
from typing import Any

from perf_import import write_treebank
from source_trees import REPO, check_imports, tree_environment, worktree

CLI = [sys.executable, "-c", "from symcomp.cli import main; main()"]
PARTS = ("trainIdxs", "devIdxs", "testIdxs")


def measured(arguments: list[str], env: dict[str, str], source: Path) -> dict[str, Any]:
    """Run ``symcomp ARGUMENTS`` from ``source``: wall and CPU seconds, peak RSS (GB)."""
    load = os.getloadavg()[0]
    start = time.perf_counter()
    process = subprocess.Popen(
        [*CLI, *arguments], stdout=subprocess.PIPE, text=True, env=env, cwd=source
    )
    assert process.stdout is not None
    output = process.stdout.read()
    _pid, status, usage = os.wait4(process.pid, 0)
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        raise SystemExit(f"symcomp {' '.join(arguments)} failed ({code}): {output}")
    return {
        "load_before": round(load, 2),
        "wall_seconds": round(time.perf_counter() - start, 1),
        "cpu_seconds": round(usage.ru_utime + usage.ru_stime, 1),
        "peak_rss_gb": round(usage.ru_maxrss / 1e6, 3),  # kilobytes on Linux
        "output": output.strip().splitlines()[-2:],
    }


def run_tree(name: str, source: Path, treebank: Path, out: Path) -> dict[str, Any]:
    """Import and split with one source tree; the new tree splits from shards."""
    empty = Path(tempfile.mkdtemp())
    env = tree_environment(source, bytecode=True, empty=empty)
    check_imports(source, env)
    pool, split = out / f"pool-{name}", out / f"mcd-{name}.json"
    result: dict[str, Any] = {"source": str(source)}
    result["import"] = measured(
        ["import", str(treebank), "--out", str(pool), "--overwrite"], env, source
    )
    print(name, "import", result["import"], flush=True)
    extra: list[str] = []
    if name == "new":
        shards = out / "features-new"
        subprocess.run(["rm", "-rf", str(shards)], check=True)
        extra = ["--features", str(shards)]
    arguments = ["split", "dbca", str(pool), "--seed", "0", "--out", str(split), "--overwrite"]
    result["split"] = measured([*arguments, *extra], env, source)
    meta = json.loads(split.read_text())["meta"]
    result["split"].update(
        {key: meta[key] for key in ("atom_divergence", "compound_divergence", "sizes")}
    )
    result["split"]["kept_compounds"] = meta["features"].get("kept_compounds")
    print(name, "split", result["split"], flush=True)
    if extra:
        result["shards"] = disk(Path(extra[1]), meta["features"].get("distinct_compounds"))
    return result


def disk(folder: Path, compounds: int | None) -> dict[str, Any]:
    """Bytes the shard folder takes: in all, per example (``shards/``: the per-example
    arrays) and per distinct compound (``names/`` and ``order/``: names, offsets, order)."""
    manifest = json.loads((folder / "manifest.json").read_text())
    files = [path for path in folder.rglob("*") if path.is_file()]
    total = sum(path.stat().st_size for path in files)
    per_example = sum(path.stat().st_size for path in files if "shards" in path.parts)
    per_name = sum(path.stat().st_size for path in files if {"names", "order"} & set(path.parts))
    examples = manifest["pool"]["examples"]
    return {
        "bytes": total,
        "example_bytes": per_example,
        "name_bytes": per_name,
        "shards": len(manifest["shards"]),
        "examples": examples,
        "counts": manifest["counts"],
        "bytes_per_example": round(per_example / examples, 1),
        "name_bytes_per_distinct_atom_or_compound": round(
            per_name / sum(manifest["counts"].values()), 1
        ),
        "distinct_compounds": compounds,
    }


def table(report: dict[str, Any]) -> str:
    lines = [
        "| tree | step | CPU s | wall s | peak RSS GB | load before | D_A | D_C |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for name in ("old", "new"):
        for step in ("import", "split"):
            cost = report[name][step]
            lines.append(
                f"| {name} | {step} | {cost['cpu_seconds']} | {cost['wall_seconds']} | "
                f"{cost['peak_rss_gb']} | {cost['load_before']} | "
                f"{cost.get('atom_divergence', '')} | {cost.get('compound_divergence', '')} |"
            )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=300_000)
    parser.add_argument("--lemmas", type=int, default=30_000)
    parser.add_argument("--baseline", default="9b14004^", help="the commit of the old path")
    parser.add_argument(
        "--new", default=None, help="a commit for the new path [this checkout as it is]"
    )
    parser.add_argument("--out", type=Path, default=Path("runs/benchmarks/dbca_shards"))
    args = parser.parse_args()
    out = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    treebank = out / f"treebank-{args.rows}.conllu"
    if not treebank.is_file():
        write_treebank(treebank, args.rows, args.lemmas, seed=0)
    report: dict[str, Any] = {
        "machine": platform.platform(),
        "cpus": os.cpu_count(),
        "rows": args.rows,
        "baseline": args.baseline,
    }
    with worktree(args.baseline) as old:
        report["old"] = run_tree("old", old, treebank, out)
    if args.new is None:
        report["new"] = run_tree("new", REPO, treebank, out)
    else:
        with worktree(args.new) as new:
            report["new"] = run_tree("new", new, treebank, out)
        report["new_commit"] = args.new
    splits = [json.loads((out / f"mcd-{name}.json").read_text()) for name in ("old", "new")]
    report["same_split"] = all(splits[0][part] == splits[1][part] for part in PARTS)
    report["table"] = table(report)
    (out / "dbca_shards.json").write_text(json.dumps(report, indent=2) + "\n")
    (out / "dbca_shards.md").write_text(report["table"])
    print(report["table"], "same split:", report["same_split"], report["new"].get("shards"))


if __name__ == "__main__":
    main()
