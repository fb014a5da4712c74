"""SCAN baselines on one CPU core: test accuracy and wall time of the small presets.

For each model (default: the small Transformer and LSTMS2S presets) and split (default:
simple and add-prim jump), trains with ``symcomp.models.runs.train_run`` on one thread under a
training budget (``--minutes``, default 8) so that training plus decoding the test set stays
within 10 minutes, then reports test accuracy, epochs, training throughput and total wall time.
Writes ``train_scan.json`` and ``train_scan.md`` into ``--out``.

    python benchmarks/train_scan.py [--models transformer,lstms2s] [--splits simple,addprim_jump]
        [--minutes 8] [--suite runs/benchmarks/scan-suite] [--out runs/benchmarks]
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

from symcomp.models.runs import train_run
from symcomp.models.zoo import resolve
from symcomp.suites.reading import read_test
from symcomp.suites.scan import ScanSuiteSpec, build


def run_one(
    suite: Path, model: str, preset: str, split: str, minutes: float, out: Path
) -> dict[str, Any]:
    config = resolve(model, preset, [f"max_minutes={minutes}", "epochs=1000", "threads=1"])
    data = read_test(suite / split)
    started = time.perf_counter()
    summary = train_run(
        data, config, out / f"{model}-{preset}-{split}", device="cpu", overwrite=True
    )
    wall = time.perf_counter() - started
    return {
        "model": model,
        "preset": preset,
        "split": split,
        "test_accuracy": summary["test_accuracy"],
        "epochs": summary["epochs"],
        "train_seconds": round(summary["seconds"], 1),
        "wall_seconds": round(wall, 1),
        "train_examples_per_second": summary["train_examples_per_second"],
        "predict_examples_per_second": summary["predict_examples_per_second"],
        "within_10_minutes": wall <= 600,
    }


def markdown(rows: list[dict[str, Any]], meta: dict[str, Any]) -> str:
    lines = [
        "# SCAN baselines (one CPU thread)",
        "",
        f"torch {meta['torch']}, {meta['cpu']}, load average at start {meta['load']}, "
        f"training budget {meta['minutes']} min",
        "",
        "| model | preset | split | test accuracy | epochs | train s | wall s | train ex/s |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['model']} | {r['preset']} | {r['split']} | {r['test_accuracy']:.4f} | "
            f"{r['epochs']} | {r['train_seconds']} | {r['wall_seconds']} | "
            f"{r['train_examples_per_second']} |"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", default="transformer,lstms2s")
    parser.add_argument("--preset", default="small")
    parser.add_argument("--splits", default="simple,addprim_jump")
    parser.add_argument("--minutes", type=float, default=8.0)
    parser.add_argument("--suite", type=Path, default=Path("runs/benchmarks/scan-suite"))
    parser.add_argument("--out", type=Path, default=Path("runs/benchmarks"))
    args = parser.parse_args()
    torch.set_num_threads(1)
    if not (args.suite / "manifest.json").is_file():
        build(args.suite, ScanSuiteSpec(export=False))
    meta = {
        "torch": torch.__version__,
        "cpu": platform.processor() or platform.machine(),
        "load": round(os.getloadavg()[0], 2),
        "minutes": args.minutes,
    }
    rows = []
    for model in args.models.split(","):
        for split in args.splits.split(","):
            rows.append(
                run_one(args.suite, model, args.preset, split, args.minutes, args.out / "scan-runs")
            )
            print(json.dumps(rows[-1]), flush=True)
    args.out.mkdir(parents=True, exist_ok=True)
    name = f"train_scan_{args.preset}" if args.preset != "small" else "train_scan"
    (args.out / f"{name}.json").write_text(
        json.dumps({"meta": meta, "runs": rows}, indent=2) + "\n"
    )
    (args.out / f"{name}.md").write_text(markdown(rows, meta))
    print(markdown(rows, meta))


if __name__ == "__main__":
    main()
