"""CobA's Table 1 from `symcomp suite arithmetic` (paper sizes), beside the paper's values.

Builds the five partitions with the command line at its defaults (24,000 + 12,000 expressions
each, drawn as from a pool of 2.5M unique expressions), or reads ``--suite``, and writes every
cell with the paper's value and the relative difference where the paper gives one
(``coba_table1.{md,json}`` in ``--out``).

    python benchmarks/coba_table1.py [--suite runs/benchmarks/coba] [--out runs/benchmarks]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

from symcomp.languages.arithmetic.table1 import compare, format_comparison


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suite", type=Path, default=Path("runs/benchmarks/coba"))
    parser.add_argument("--out", type=Path, default=Path("runs/benchmarks"))
    args = parser.parse_args()
    seconds = None
    if not (args.suite / "manifest.json").is_file():
        started = time.perf_counter()
        symcomp = str(Path(sys.executable).with_name("symcomp"))
        command = [symcomp, "-q", "suite", "arithmetic", "--out", str(args.suite), "--no-export"]
        subprocess.run(command, check=True, capture_output=True)
        seconds = time.perf_counter() - started
    manifest = json.loads((args.suite / "manifest.json").read_text(encoding="utf-8"))
    statistics = {name: entry["meta"]["statistics"] for name, entry in manifest["tests"].items()}
    rows = ["| partition | set | statistic | symcomp | paper | relative difference |"]
    rows.append("|---|---|---|---|---|---|")
    cells = compare(statistics)
    for cell in cells:
        if cell.paper is None:
            continue
        relative = "exact" if cell.paper == 0 and cell.within else (
            "differs" if cell.relative is None else f"{100 * cell.relative:+.1f} %"
        )  # fmt: skip
        rows.append(
            f"| {cell.partition} | {cell.part} | {cell.statistic} | {cell.ours:g} | "
            f"{cell.paper:g} | {relative} |"
        )
    built = f" (built in {seconds:.0f} s)" if seconds else ""
    text = "\n".join([f"# CobA Table 1{built}", "", *rows, "", format_comparison(statistics)])
    print(text)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "coba_table1.md").write_text(text + "\n", encoding="utf-8")
    data = [cell.__dict__ | {"within": cell.within} for cell in cells]
    (args.out / "coba_table1.json").write_text(json.dumps(data, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
