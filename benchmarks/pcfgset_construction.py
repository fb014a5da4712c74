"""The counts of `symcomp suite pcfg-set` (paper construction) beside the published data's.

Builds the suite with the command line at its defaults (or reads ``--suite``) and prints every
count the published PCFG SET folder (i-machine-think/am-i-compositional ``data/pcfgset``)
fixes, with the relative difference: split sizes, synonym lines, substitutivity pairs,
localism records, overgeneralisation training sets and exceptions, and the share of string
arguments of each length. Writes ``pcfgset_construction.{json,md}`` into ``--out``.

    python benchmarks/pcfgset_construction.py [--suite runs/benchmarks/pcfgset-paper] [--jobs 2]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

# counted in the published folder (line counts of the .src/.tgt files; argument lengths over
# the 14,581 test and dev inputs)
PUBLISHED: dict[str, float] = {
    "task train": 82_622,
    "task dev": 4_860,
    "task test": 9_721,
    "systematicity train": 82_168,
    "systematicity test": 10_175,
    "productivity train": 81_010,
    "productivity test": 11_333,
    "equally distributed train": 82_621,
    "primitive synonym lines": 331,
    "substitutivity pairs": 10_000,
    "pairs per synonym": 2_500,
    "substitutivity inputs (distinct)": 6_716,
    "localism records": 9_567,
    "overgeneralisation train, 0.0001": 82_287,
    "overgeneralisation train, 0.0005": 82_337,
    "overgeneralisation train, 0.001": 82_403,
    "overgeneralisation train, 0.005": 82_832,
    "exceptions, 0.0001": 9,
    "exceptions, 0.0005": 59,
    "exceptions, 0.001": 125,
    "exceptions, 0.005": 554,
    "string arguments of length 2 (%)": 15.93,
    "string arguments of length 3 (%)": 29.70,
    "string arguments of length 4 (%)": 27.70,
    "string arguments of length 5 (%)": 26.67,
}
FUNCTIONS = {
    "copy", "reverse", "shift", "echo", "swap_first_last", "repeat",
    "append", "prepend", "remove_first", "remove_second",
}  # fmt: skip


def lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in lines(path)]


def argument_lengths(inputs: list[str]) -> Counter[int]:
    counts: Counter[int] = Counter()
    for text in inputs:
        run = 0
        for token in [*text.split(), ","]:
            if token in FUNCTIONS or token == ",":
                if run:
                    counts[run] += 1
                run = 0
            else:
                run += 1
    return counts


def measure(suite: Path) -> dict[str, float]:
    manifest = json.loads((suite / "manifest.json").read_text(encoding="utf-8"))
    tests = manifest["tests"]
    found: dict[str, float] = {}
    for part in ("train", "dev", "test"):
        found[f"task {part}"] = tests["task"]["sizes"][part]
    for name in ("systematicity", "productivity"):
        for part in ("train", "test"):
            found[f"{name} {part}"] = tests[name]["sizes"][part]
    found["equally distributed train"] = tests["substitutivity/equally_distributed"]["sizes"][
        "train"
    ]
    pool = records(suite / "substitutivity/primitive/examples.jsonl")
    train = pool[: tests["substitutivity/primitive"]["sizes"]["train"]]
    found["primitive synonym lines"] = sum("_twin" in r["input"] for r in train)
    pairs = records(suite / "substitutivity/primitive/pairs.jsonl")
    found["substitutivity pairs"] = len(pairs)
    found["pairs per synonym"] = max(Counter(p["function"] for p in pairs).values())
    found["substitutivity inputs (distinct)"] = len({p["original"] for p in pairs})
    unrolled = lines(suite / "localism/unrolled_test.tsv")
    found["localism records"] = sum(line.startswith("original") for line in unrolled)
    for ratio in ("0.0001", "0.0005", "0.001", "0.005"):
        entry = tests[f"overgeneralisation/ratio={ratio}"]
        found[f"overgeneralisation train, {ratio}"] = entry["sizes"]["train"]
        found[f"exceptions, {ratio}"] = entry["meta"]["exceptions"]
    shares = argument_lengths([r["input"] for r in records(suite / "examples.jsonl")])
    total = sum(shares.values())
    for length in (2, 3, 4, 5):
        found[f"string arguments of length {length} (%)"] = round(100 * shares[length] / total, 2)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suite", type=Path, default=Path("runs/benchmarks/pcfgset-paper"))
    parser.add_argument("--out", type=Path, default=Path("runs/benchmarks"))
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    seconds = None
    if not (args.suite / "manifest.json").is_file():
        started = time.perf_counter()
        symcomp = str(Path(sys.executable).with_name("symcomp"))
        command = [symcomp, "-q", "suite", "pcfg-set", "--out", str(args.suite)]
        subprocess.run([*command, "--jobs", str(args.jobs), "--no-export"], check=True)
        seconds = time.perf_counter() - started
    found = measure(args.suite)
    rows = ["| count | symcomp | published | relative difference |", "|---|---|---|---|"]
    worst = 0.0
    for name, published in PUBLISHED.items():
        ours = found[name]
        relative = (ours - published) / published
        worst = max(worst, abs(relative))
        rows.append(f"| {name} | {ours:,g} | {published:,g} | {100 * relative:+.1f} % |")
    built = f" (built in {seconds:.0f} s)" if seconds else ""
    text = "\n".join(
        [f"# PCFG SET paper construction vs the published data{built}", "", *rows, "",
         f"largest relative difference: {100 * worst:.1f} %"]
    )  # fmt: skip
    print(text)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "pcfgset_construction.md").write_text(text + "\n", encoding="utf-8")
    data = {"symcomp": found, "published": PUBLISHED, "seconds": seconds}
    (args.out / "pcfgset_construction.json").write_text(
        json.dumps(data, indent=2), encoding="utf-8"
    )


if __name__ == "__main__":
    main()
