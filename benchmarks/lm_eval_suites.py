"""Every built-in suite through EleutherAI's lm-evaluation-harness, offline, on CPU.

For each of scan, pcfg-set, pcfg-let, cfq (a suite of an MCD split: cfq has no suite of its
own), cogs, slog, arithmetic and monotonicity: build a small suite, export it with
``symcomp export --format lm-eval`` (``--shots`` covering demonstrations), run the real
``lm-eval run --limit N --log_samples`` on it with a tiny Llama made from a config (a
word-level tokenizer fitted to the exports, a few hundred steps memorising the first three
items of each generation task: see ``symcomp/models/tiny_lm.py``), and score the samples with
``symcomp evaluate --limit N``. Reports, per suite, the harness's exit code and time, and per
task the harness's own score beside symcomp's (exact match, or accuracy for NLI).

    python benchmarks/lm_eval_suites.py --out /tmp/lm-eval-suites

The sizes are small on purpose (the question is whether every suite runs, and whether the
scores agree), and are printed with the commands.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from symcomp.llm.prompts import PROMPTS, render
from symcomp.models.tiny_lm import OFFLINE as TINY_OFFLINE
from symcomp.models.tiny_lm import TinyLMConfig, save_tiny_lm

BIN = Path(sys.executable).parent
OFFLINE = {**TINY_OFFLINE, "OMP_NUM_THREADS": "1"}
# suite -> the commands that build it into {out} (small sizes; see the module)
BUILDS: dict[str, list[str]] = {
    "scan": ["suite scan --out {out} --no-export"],
    "pcfg-set": ["suite pcfg-set --n 4000 --seed 1 --out {out} --no-export"],
    "pcfg-let": ["suite pcfg-let --n 3000 --out {out} --no-export"],
    "cfq": [
        "generate cfq --n 3000 --seed 0 --out {out}-pool",
        "split dbca {out}-pool --seed 1 --out {out}-pool/mcd1.json",
        "suite from-splits {out}-pool {out}-pool/mcd1.json --out {out} --no-export",
    ],
    "cogs": [
        "suite cogs --n-train 3000 --n-dev 100 --n-test 300 --n-gen 30 --per-depth 10 "
        "--out {out} --no-export"
    ],
    "slog": ["suite slog --scale 0.05 --n-gen 30 --out {out} --no-export"],
    "arithmetic": [
        "suite arithmetic --in-domain 1000 --generalisation 300 --pool 100000 --out {out} "
        "--no-export"
    ],
    "monotonicity": ["suite monotonicity --n 2000 --out {out}"],
}


def run(command: list[str], env: dict[str, str] | None = None) -> tuple[int, str, float]:
    """Exit code, stderr's end and CPU seconds of a child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode != 0:
        print(
            f"exit {done.returncode}: {' '.join(command)}\n{done.stderr[-2000:]}", file=sys.stderr
        )
    return done.returncode, done.stdout, cpu


def build_and_export(name: str, out: Path, shots: int, select: str) -> tuple[Path, Path, float]:
    suite, export = out / "suites" / name, out / "exports" / name
    cpu = 0.0
    if not (suite / "manifest.json").is_file():
        for command in BUILDS[name]:
            words = command.format(out=suite).split()
            code, _, used = run([str(BIN / "symcomp"), *words])
            cpu += used
            assert code == 0, command
    exporting = [
        str(BIN / "symcomp"), "export", str(suite), "--format", "lm-eval", "--out", str(export),
        "--overwrite", "--shots", str(shots), "--select", select,
        "--task-prefix", task_prefix(name),
    ]  # fmt: skip
    code, _, used = run(exporting)
    assert code == 0, exporting
    return suite, export, cpu + used


def task_prefix(name: str) -> str:
    return "t_" + name.replace("-", "_")


def documents(export: Path) -> dict[str, list[dict[str, Any]]]:
    manifest = json.loads((export / "manifest.json").read_text())
    found = {}
    for task, entry in manifest["tasks"].items():
        path = export / "data" / entry["test"].replace("/", "-") / "test.jsonl"
        found[task] = [json.loads(line) for line in path.read_text().splitlines()]
    return found


def tiny_model(folder: Path, docs: dict[str, list[dict[str, Any]]], limit: int) -> Path:
    texts, pairs = ["Input: Output: Premise: Hypothesis: Label:"], []
    for items in docs.values():
        for doc in items[: limit + 10]:
            texts.extend(str(v) for v in doc.values() if isinstance(v, str))
        for doc in items[:3]:
            if "target" in doc:
                pairs.append(
                    (
                        doc["demonstrations"] + render(PROMPTS["sequence"], doc, answered=False),
                        doc["target"],
                    )
                )
    return save_tiny_lm(
        folder, texts, memorise=pairs, config=TinyLMConfig(steps=60 * len(pairs) // 2 or 1)
    )


def harness(name: str, export: Path, model: Path, out: Path, limit: int) -> dict[str, Any]:
    output = out / "samples" / name
    shutil.rmtree(output, ignore_errors=True)  # one run a folder: evaluate refuses two
    command = [
        sys.executable, "-m", "lm_eval", "run", "--model", "hf",
        "--model_args", f"pretrained={model},dtype=float32", "--device", "cpu",
        "--include_path", str(export), "--tasks", task_prefix(name), "--limit", str(limit),
        "--log_samples", "--output_path", str(output), "--gen_kwargs", "max_gen_toks=64",
        "--batch_size", "1",
    ]  # fmt: skip
    env = {**os.environ, **OFFLINE, "HF_DATASETS_CACHE": str(out / "hf-cache")}
    start = time.monotonic()
    code, _, cpu = run(command, env)
    found: dict[str, Any] = {"exit": code, "wall_s": time.monotonic() - start, "cpu_s": cpu}
    if code == 0:
        found["results"] = json.loads(next(output.rglob("results_*.json")).read_text())["results"]
    found["samples"] = output
    return found


def compare(suite: Path, export: Path, ran: dict[str, Any], limit: int) -> list[dict[str, Any]]:
    command = [str(BIN / "symcomp"), "evaluate", str(suite), "--predictions", str(ran["samples"]),
               "--limit", str(limit), "--json"]  # fmt: skip
    code, stdout, _ = run(command)
    card = json.loads(stdout) if code == 0 else {"tests": {}}
    manifest = json.loads((export / "manifest.json").read_text())
    rows = []
    for task, entry in manifest["tasks"].items():
        scores = ran.get("results", {}).get(task, {})
        key = next(
            (k for k in scores if k.startswith(("exact_match,", "acc,")) and "stderr" not in k),
            None,
        )
        ours = card["tests"].get(entry["test"], {})
        rows.append({
            "task": task, "kind": ours.get("kind"),
            "items": ours.get("limited_to", {}).get("items"),
            "harness": scores.get(key) if key else None, "metric": key,
            "symcomp": ours.get("accuracy"), "evaluate_exit": code,
            "cover": entry["coverage"].get("cover", {}).get("mean"),
            "random": entry["coverage"].get("random", {}).get("mean"),
        })  # fmt: skip
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--limit", type=int, default=5)
    parser.add_argument("--shots", type=int, default=2)
    parser.add_argument("--select", default="cover")
    parser.add_argument("--suites", nargs="*", default=list(BUILDS))
    args = parser.parse_args()
    exports = {}
    for name in args.suites:
        suite, export, cpu = build_and_export(name, args.out, args.shots, args.select)
        exports[name] = (suite, export)
        print(f"{name}: built and exported ({cpu:.1f} CPU-s)", file=sys.stderr)
    docs = {t: d for _, export in exports.values() for t, d in documents(export).items()}
    model = tiny_model(args.out / "model", docs, args.limit)
    report: dict[str, Any] = {
        "limit": args.limit,
        "shots": args.shots,
        "select": args.select,
        "suites": {},
    }
    lines = ["| suite | lm-eval exit | wall s | task | kind | items | harness | symcomp | equal |",
             "|---|---:|---:|---|---|---:|---:|---:|---|"]  # fmt: skip
    for name, (suite, export) in exports.items():
        ran = harness(name, export, model, args.out, args.limit)
        rows = compare(suite, export, ran, args.limit) if ran["exit"] == 0 else []
        report["suites"][name] = {
            "exit": ran["exit"],
            "wall_s": ran["wall_s"],
            "cpu_s": ran["cpu_s"],
            "tasks": rows,
        }
        for row in rows:
            equal = "yes" if row["harness"] == row["symcomp"] else "NO"
            lines.append(
                f"| {name} | {ran['exit']} | {ran['wall_s']:.0f} | {row['task']} | {row['kind']} | "
                f"{row['items']} | {row['harness']} | {row['symcomp']} | {equal} |"
            )
        print(f"{name}: lm-eval exit {ran['exit']} in {ran['wall_s']:.0f} s", file=sys.stderr)
    (args.out / "report.json").write_text(json.dumps(report, indent=2, default=str))
    (args.out / "report.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
