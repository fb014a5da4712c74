"""Worked steps (``Language.steps``, issue 50): every step re-interprets exactly, and the cost.

Data:

* ``scan``: all 20,910 SCAN commands (the language enumerated);
* ``pcfg-set``: the test parts of every test of a PCFG SET suite (``--pcfg-suite DIR``, or built
  into a temporary folder with ``symcomp suite pcfg-set --n 15000 --seed 0 --no-export``:
  26,868 test items, 19,729 distinct), each distinct item once;
* ``pcfg-let``, ``pcfg-let-notebook`` and ``arithmetic``: pools of ``--n`` (10,000) examples
  drawn with ``--seed`` (``symcomp.data.generate``).

For each, in a fresh subprocess: the steps of every input (CPU seconds, user + system, of the
steps alone: parse with positions, meanings bottom-up, texts; the first call compiles the
parser), then, untimed, the check: the language's interpretation of every step's sub-input,
given as an input, must equal the step's written meaning, and the last step must be the whole
input with the record's own output. For ``scan`` and ``pcfg-set`` the cost of the first 10,000
items alone (the issue's target for pcfg-set) and of all of them is reported.

Writes ``steps.json`` and ``steps.md`` into ``--out``.

    python benchmarks/steps.py [--out runs/benchmarks] [--pcfg-suite DIR] [--n 10000] [--seed 0]
"""

from __future__ import annotations

import argparse
import json
import platform
import resource
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

SYMCOMP = str(Path(sys.executable).with_name("symcomp"))  # the console script beside python
SPEED_ITEMS = 10_000


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def records_of(spec: dict[str, Any]) -> list[dict[str, Any]]:
    """The inputs (and their outputs) a measurement runs on."""
    import symcomp

    language = symcomp.get_language(spec["language"])
    if spec["data"] == "enumerate":
        return [
            {"input": text, "output": language.interpret(text)}
            for text in (" ".join(d.tokens) for d in language.enumerate())
        ]
    if spec["data"] == "suite":
        from symcomp.suites.reading import Suite

        suite = Suite.read(Path(spec["suite"]))
        seen: dict[str, dict[str, Any]] = {}
        for name in suite.tests:
            for record in suite.test(name).test:
                seen.setdefault(str(record["id"]), record)
        return list(seen.values())
    from symcomp.data.generate import PoolSpec, generate

    with tempfile.TemporaryDirectory() as folder:
        generate(language, Path(folder) / "pool", PoolSpec(n=spec["n"], seed=spec["seed"]))
        lines = (Path(folder) / "pool" / "examples.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines]


def child(spec: dict[str, Any]) -> dict[str, Any]:
    """One measurement, in this (fresh) process."""
    import symcomp

    language = symcomp.get_language(spec["language"])
    records = records_of(spec)
    texts = [str(record["input"]) for record in records]
    started = cpu_seconds()
    found = []
    first = None
    for number, text in enumerate(texts, start=1):
        found.append(language.steps(text))
        if number == SPEED_ITEMS:
            first = cpu_seconds() - started
    seconds = cpu_seconds() - started
    steps = wrong = whole_wrong = 0
    examples = []
    for record, worked in zip(records, found, strict=True):
        for step in worked:
            steps += 1
            if language.interpret(step.input) != step.output:
                wrong += 1
                examples.append([step.input, step.output])
        last = worked[-1]
        if last.input != " ".join(str(record["input"]).split()) or last.output != " ".join(
            str(record["output"]).split()
        ):
            whole_wrong += 1
    return {
        "items": len(records),
        "steps": steps,
        "steps_per_item": steps / len(records),
        "sub_steps": steps - len(records),
        "mean_input_tokens": sum(len(t.split()) for t in texts) / len(texts),
        "reinterpreted_exactly": steps - wrong,
        "share_exact": (steps - wrong) / steps,
        "wrong": wrong,
        "wrong_examples": examples[:5],
        "last_step_not_the_record": whole_wrong,
        "cpu_s": round(seconds, 2),
        "cpu_s_first_10000": None if first is None else round(first, 2),
    }


def measure(spec: dict[str, Any]) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, __file__, "--child", json.dumps(spec)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"{spec['language']}: {done.stderr[-3000:]}")
    return {**spec, **json.loads(done.stdout)}


def pcfg_suite(given: Path | None, scratch: Path) -> Path:
    if given is not None:
        return given
    out = scratch / "pcfg-set-suite"
    command = [SYMCOMP, "suite", "pcfg-set", "--n", "15000", "--seed", "0", "--no-export"]
    subprocess.run([*command, "--out", str(out)], check=True, capture_output=True)
    return out


def markdown(results: list[dict[str, Any]]) -> str:
    lines = [
        "| language | data | items | steps (a step per item is the whole) | re-interpreted exactly "
        "| last step = the record | CPU-s, all | CPU-s, first 10,000 |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        first = "" if r["cpu_s_first_10000"] is None else f"{r['cpu_s_first_10000']:.2f}"
        lines.append(
            f"| {r['language']} | {r['label']} | {r['items']:,} | {r['steps']:,} | "
            f"{r['reinterpreted_exactly']:,} ({100 * r['share_exact']:.1f} %) | "
            f"{r['items'] - r['last_step_not_the_record']:,} | {r['cpu_s']:.2f} | {first} |"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("runs/benchmarks"))
    parser.add_argument("--pcfg-suite", type=Path)
    parser.add_argument("--n", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(json.loads(args.child))))
        return
    with tempfile.TemporaryDirectory() as scratch:
        suite = pcfg_suite(args.pcfg_suite, Path(scratch))
        pool = {"data": "pool", "n": args.n, "seed": args.seed}
        specs = [
            {"language": "scan", "data": "enumerate", "label": "all commands"},
            {"language": "pcfg-set", "data": "suite", "suite": str(suite), "label": "suite tests"},
            {"language": "pcfg-let", **pool, "label": f"pool of {args.n:,}"},
            {"language": "pcfg-let-notebook", **pool, "label": f"pool of {args.n:,}"},
            {"language": "arithmetic", **pool, "label": f"pool of {args.n:,}"},
        ]
        results = []
        for spec in specs:
            results.append(measure(spec))
            print(json.dumps(results[-1]), file=sys.stderr)
    args.out.mkdir(parents=True, exist_ok=True)
    report = {"machine": platform.platform(), "python": platform.python_version(), "runs": results}
    (args.out / "steps.json").write_text(json.dumps(report, indent=2) + "\n")
    (args.out / "steps.md").write_text(markdown(results))
    print(markdown(results))


if __name__ == "__main__":
    main()
