"""SCAN baselines on one CPU core: test accuracy and time of the small presets.

For each model (default: the small Transformer and LSTMS2S presets) and split (default:
simple and add-prim jump), trains with ``symcomp.models.runs.train_run`` on one thread under a
training budget (``--minutes``, default 8) so that training plus decoding the test set stays
within 10 minutes, then reports test accuracy, epochs, training throughput, and the total time
both as CPU time of the single-threaded process (which other processes sharing the machine do
not inflate) and as wall time. ``--clock wall`` makes the training budget wall time instead.
Writes ``train_scan.json`` and ``train_scan.md`` into ``--out``.

    python benchmarks/train_scan.py [--models transformer,lstms2s] [--splits simple,addprim_jump]
        [--minutes 8] [--clock cpu|wall] [--suite DIR] [--out runs/benchmarks]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from pathlib import Path
from typing import Any

import torch

from symcomp.languages.scan.suite import ScanSuiteSpec, build
from symcomp.models.runs import train_run
from symcomp.models.zoo import resolve
from symcomp.suites.reading import read_test


def run_one(args: argparse.Namespace, model: str, split: str) -> dict[str, Any]:
    sets = [f"max_minutes={args.minutes}", f"budget_clock={args.clock}", "epochs=1000", *args.sets]
    config = resolve(model, args.preset, [*sets, "threads=1"])
    data = read_test(args.suite / split)
    out = args.out / "scan-runs" / f"{model}-{args.preset}-{split}"
    started, cpu = time.perf_counter(), time.process_time()
    summary = train_run(data, config, out, device="cpu", overwrite=True)
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu
    return {
        "model": model,
        "preset": args.preset,
        "split": split,
        "test_accuracy": summary["test_accuracy"],
        "epochs": summary["epochs"],
        "cpu_seconds": round(cpu, 1),
        "wall_seconds": round(wall, 1),
        "train_examples_per_second": summary["train_examples_per_second"],
        "train_examples_per_cpu_second": summary["train_examples_per_cpu_second"],
        "predict_examples_per_second": summary["predict_examples_per_second"],
        "within_10_minutes_cpu": cpu <= 600,
        "within_10_minutes_wall": wall <= 600,
    }


def markdown(rows: list[dict[str, Any]], meta: dict[str, Any]) -> str:
    lines = [
        "# SCAN baselines (one CPU thread)",
        "",
        f"torch {meta['torch']}, {meta['cpu']}, load average at start {meta['load']}, "
        f"training budget {meta['minutes']} min ({meta['clock']} clock)",
        "",
        "| model | preset | split | test accuracy | epochs | total CPU s | total wall s "
        "| train ex/s (wall) | train ex per CPU s |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['model']} | {r['preset']} | {r['split']} | {r['test_accuracy']:.4f} | "
            f"{r['epochs']} | {r['cpu_seconds']} | {r['wall_seconds']} | "
            f"{r['train_examples_per_second']} | {r['train_examples_per_cpu_second']} |"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", default="transformer,lstms2s")
    parser.add_argument("--preset", default="small")
    parser.add_argument("--splits", default="simple,addprim_jump")
    parser.add_argument("--minutes", type=float, default=8.0)
    parser.add_argument("--clock", choices=["cpu", "wall"], default="cpu")
    parser.add_argument("--set", dest="sets", action="append", default=[], help="key=value")
    parser.add_argument("--suite", type=Path, default=Path("runs/benchmarks/scan-suite"))
    parser.add_argument("--out", type=Path, default=Path("runs/benchmarks"))
    parser.add_argument("--name", default="train_scan", help="output file name (no suffix)")
    args = parser.parse_args()
    torch.set_num_threads(1)
    if not (args.suite / "manifest.json").is_file():
        build(args.suite, ScanSuiteSpec(export=False))
    meta = {
        "torch": torch.__version__,
        "cpu": platform.processor() or platform.machine(),
        "load": round(os.getloadavg()[0], 2),
        "minutes": args.minutes,
        "clock": args.clock,
        "sets": args.sets,
    }
    rows = []
    for model in args.models.split(","):
        for split in args.splits.split(","):
            rows.append(run_one(args, model, split))
            print(json.dumps(rows[-1]), flush=True)
    args.out.mkdir(parents=True, exist_ok=True)
    data = {"meta": meta, "runs": rows}
    (args.out / f"{args.name}.json").write_text(json.dumps(data, indent=2) + "\n")
    (args.out / f"{args.name}.md").write_text(markdown(rows, meta))
    print(markdown(rows, meta))


if __name__ == "__main__":
    main()
