"""Feature extraction spread out: one process, ``--jobs 2`` and a two-node Ray cluster give the
same bytes; what each costs.

The treebank is ``perf_import.py``'s (``--rows`` random dependency trees over a Zipf lemma
vocabulary). For each way of running (``one``: one process; ``two``: ``--jobs 2``; ``ray``:
``--executor ray --address`` of a two-node cluster of one CPU per node, started here on this
machine):

1. ``symcomp import`` writes the pool and its feature shards as it reads (``pool-MODE``);
2. ``symcomp split dbca pool-one --features f-MODE`` extracts the features of the same pool
   again, into a folder of its own, and makes the MCD split with a short search (``--rounds``
   0, ``--seeding off``, ``--candidates`` 16 by default: the bytes are the point here, not the
   search; ``split-MODE.json``).

Checked: the three pool folders (examples, manifest and shards), the three shard folders and
the three split files (but for ``meta.search.seconds`` and ``cpu_seconds``) are byte-identical.

Measured for every command: wall seconds; CPU seconds and peak RSS of the command's process
tree from ``wait4`` (its worker processes included: they are its children); and, sampled every
0.1 s with psutil, the peak RSS of every process of the tree (``processes``). With Ray, the
cluster's processes are not the command's children: their CPU during the command and the
peak RSS of each are sampled the same way (a process that ends between two samples loses at
most 0.1 s of CPU), and the cluster's exact totals over the whole run come from ``wait4`` on
the process that holds it, once it is shut down.

    python benchmarks/dbca_extract.py [--rows 200000] [--rounds 0] [--candidates 16] [--out DIR]

Needs Ray (the ``ray`` extra) and psutil (installed with the ``models`` extra).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO, Any

import psutil
from perf_import import write_treebank

CLI = [sys.executable, "-c", "from symcomp.cli import main; main()"]
MODES = ("one", "two", "ray")
SAMPLE_SECONDS = 0.1
CLUSTER = """
import sys
from ray.cluster_utils import Cluster
nodes = Cluster(initialize_head=True,
                head_node_args={"num_cpus": 1, "_system_config": {"worker_niceness": 0}})
nodes.add_node(num_cpus=1)
nodes.wait_for_nodes()
print(nodes.address, flush=True)
sys.stdin.read()
nodes.shutdown()
"""


class Sampler:
    """Peak RSS and last CPU time of every process under ``root`` (and itself), sampled."""

    def __init__(self, root: int) -> None:
        self.root = psutil.Process(root)
        self.peak: dict[int, tuple[str, int]] = {}
        self.cpu: dict[int, float] = {}
        self.start = self.cpu_seconds()
        self.done = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def processes(self) -> list[psutil.Process]:
        try:
            return [self.root, *self.root.children(recursive=True)]
        except psutil.NoSuchProcess:
            return []

    def sample(self) -> None:
        for process in self.processes():
            try:
                with process.oneshot():
                    rss, times, name = (
                        process.memory_info().rss,
                        process.cpu_times(),
                        process.name(),
                    )
            except psutil.Error:
                continue
            if rss > self.peak.get(process.pid, ("", 0))[1]:
                self.peak[process.pid] = (name, rss)
            self.cpu[process.pid] = times.user + times.system

    def cpu_seconds(self) -> float:
        self.sample()
        return sum(self.cpu.values())

    def run(self) -> None:
        while not self.done.wait(SAMPLE_SECONDS):
            self.sample()

    def stop(self) -> dict[str, Any]:
        self.done.set()
        self.thread.join()
        cpu = self.cpu_seconds() - self.start
        peaks = sorted(self.peak.values(), key=lambda item: -item[1])
        return {
            "sampled_cpu_seconds": round(cpu, 1),
            "processes": [
                {"name": name, "peak_rss_gb": round(rss / 1e9, 3)} for name, rss in peaks
            ],
        }


def measured(
    arguments: list[str],
    cwd: Path,
    cluster: int | None,
    *,
    command: list[str] = CLI,
    stderr: IO[str] | None = None,
    env: dict[str, str] | None = None,
) -> dict[str, Any]:
    """Run ``symcomp ARGUMENTS`` (by ``command``, its standard error to ``stderr``, in ``env``
    if given): wall, CPU and peak RSS of its tree, sampled per process."""
    outside = Sampler(cluster) if cluster is not None else None
    start = time.perf_counter()
    process = subprocess.Popen(
        [*command, *arguments], stdout=subprocess.PIPE, stderr=stderr, text=True, cwd=cwd, env=env
    )
    inside = Sampler(process.pid)
    assert process.stdout is not None
    output = process.stdout.read()
    _pid, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    tree = inside.stop()
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"symcomp {' '.join(arguments)} failed: {output}")
    result = {
        "wall_seconds": round(wall, 1),
        "cpu_seconds": round(usage.ru_utime + usage.ru_stime, 1),
        "peak_rss_gb": round(usage.ru_maxrss / 1e6, 3),  # the largest process of the tree
        "processes": tree["processes"],
        "output": output.strip().splitlines()[-2:],
    }
    if outside is not None:
        result["cluster"] = outside.stop()
    return result


def tree_bytes(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()
    }


def split_without_seconds(path: Path) -> dict[str, Any]:
    split: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    split["meta"]["search"].pop("seconds")
    split["meta"]["search"].pop("cpu_seconds")
    return split


def run_mode(
    mode: str,
    out: Path,
    treebank: Path,
    address: str | None,
    cluster: int | None,
    search: list[str],
) -> dict[str, Any]:
    """Import and split (extracting again) in one way of running."""
    workers = {"one": [], "two": ["--jobs", "2"]}.get(
        mode, ["--executor", "ray", "--address", str(address)]
    )
    watched = cluster if mode == "ray" else None
    result = {}
    result["import"] = measured(
        ["import", str(treebank), "--out", f"pool-{mode}", "--overwrite", *workers], out, watched
    )
    print(
        mode, "import", {k: v for k, v in result["import"].items() if k != "processes"}, flush=True
    )
    subprocess.run(["rm", "-rf", str(out / f"f-{mode}")], check=True)
    split = ["split", "dbca", "pool-one", "--seed", "0", *search, "--overwrite"]
    result["split"] = measured(
        [*split, *workers, "--features", f"f-{mode}", "--out", f"split-{mode}.json"], out, watched
    )
    print(mode, "split", {k: v for k, v in result["split"].items() if k != "processes"}, flush=True)
    return result


def same_bytes(out: Path) -> dict[str, bool]:
    pools = [tree_bytes(out / f"pool-{mode}") for mode in MODES]
    shards = [tree_bytes(out / f"f-{mode}") for mode in MODES]
    splits = [split_without_seconds(out / f"split-{mode}.json") for mode in MODES]
    return {
        "pools": all(pool == pools[0] for pool in pools),
        "shards": all(folder == shards[0] for folder in shards),
        "splits": all(split == splits[0] for split in splits),
    }


def table(report: dict[str, Any]) -> str:
    lines = [
        "| mode | step | wall s | CPU s (command) | CPU s (Ray cluster, sampled) "
        "| peak RSS GB (largest process) |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for mode in MODES:
        for step in ("import", "split"):
            cost = report[mode][step]
            cluster = cost.get("cluster", {})
            largest = max(
                [cost["peak_rss_gb"], *(p["peak_rss_gb"] for p in cluster.get("processes", []))]
            )
            lines.append(
                f"| {mode} | {step} | {cost['wall_seconds']} | {cost['cpu_seconds']} | "
                f"{cluster.get('sampled_cpu_seconds', '')} | {largest} |"
            )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=200_000)
    parser.add_argument("--lemmas", type=int, default=30_000)
    parser.add_argument("--rounds", type=int, default=0)
    parser.add_argument("--candidates", type=int, default=16)
    parser.add_argument("--out", type=Path, default=Path("runs/benchmarks/dbca_extract"))
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
        "split": {"rounds": args.rounds, "candidates": args.candidates, "seeding": "off"},
    }
    holder = subprocess.Popen(
        [sys.executable, "-c", CLUSTER], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert holder.stdin is not None and holder.stdout is not None
    address = holder.stdout.readline().strip()
    try:
        for mode in MODES:
            search = ["--rounds", str(args.rounds), "--candidates", str(args.candidates)]
            search += ["--seeding", "off"]
            report[mode] = run_mode(mode, out, treebank, address, holder.pid, search)
    finally:
        holder.stdin.close()
        _pid, _status, usage = os.wait4(holder.pid, 0)
    report["ray_cluster_total"] = {
        "cpu_seconds": round(usage.ru_utime + usage.ru_stime, 1),
        "peak_rss_gb": round(usage.ru_maxrss / 1e6, 3),
    }
    report["same_bytes"] = same_bytes(out)
    report["table"] = table(report)
    (out / "dbca_extract.json").write_text(json.dumps(report, indent=2) + "\n")
    (out / "dbca_extract.md").write_text(report["table"])
    print(report["table"], report["same_bytes"], report["ray_cluster_total"])


if __name__ == "__main__":
    main()
