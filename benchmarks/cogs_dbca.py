"""DBCA on COGS: the published splits and maximum-compound-divergence splits, measured with the
`cogs` language's own rule-application DAGs.

Runs the CLI as a user would:

1. ``symcomp suite import cogs PUBLISHED`` — the published TSVs as a pool of the ``cogs``
   language (its DAGs rebuilt by parsing every row), and ``symcomp divergence`` on the published
   ``test`` and ``gen`` splits;
2. ``symcomp split dbca`` on that published pool (an MCD split of COGS's own sentences);
3. ``symcomp generate cogs --n N`` and ``symcomp split random`` / ``split dbca`` on it (a fresh
   pool from the grammar).

COGS reports no divergences, so there is no paper column: the published splits are the
reference (its test is an i.i.d. split, its gen split a compositional one).

    python benchmarks/cogs_dbca.py [--published ../shared/peers/cogs] [--n 20000] [--out DIR]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
KEYS = ("atom_divergence", "compound_divergence", "compound_coverage")


def symcomp(*args: object) -> str:
    """Run ``symcomp ARGS`` in a child process; its standard output (exit on failure)."""
    command = [sys.executable, "-c", "from symcomp.cli import main; main()", *map(str, args)]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"symcomp {' '.join(map(str, args))} failed:\n{done.stderr}")
    return done.stdout


def measured(pool: Path, split: Path) -> dict[str, Any]:
    values = json.loads(symcomp("divergence", pool, split, "--json"))
    return {key: values.get(key) for key in KEYS} | {"sizes": values.get("sizes")}


def split(method: str, pool: Path, out: Path, seed: int) -> dict[str, Any]:
    symcomp("split", method, pool, "--seed", seed, "--out", out, "--overwrite")
    return measured(pool, out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--published", type=Path, default=REPO.parent / "shared" / "peers" / "cogs")
    parser.add_argument("--n", type=int, default=20_000, help="size of the generated pool")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("runs/benchmarks/cogs-dbca"))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    published, pool = args.out / "published", args.out / "pool"
    rows: dict[str, dict[str, Any]] = {}
    started = time.monotonic()
    symcomp("suite", "import", "cogs", args.published, "--out", published, "--overwrite")
    for test in ("test", "gen"):
        rows[f"published {test}"] = measured(published, published / test / "split.json")
    rows["MCD of the published pool"] = split(
        "dbca", published, args.out / "published-mcd.json", args.seed
    )
    symcomp("generate", "cogs", "--n", args.n, "--seed", args.seed, "--out", pool, "--overwrite")
    for method in ("random", "dbca"):
        rows[f"{method} split of a generated pool"] = split(
            method, pool, args.out / f"pool-{method}.json", args.seed
        )
    report = {"n": args.n, "seed": args.seed, "wall_seconds": round(time.monotonic() - started)}
    report["rows"] = rows
    (args.out / "cogs_dbca.json").write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    lines = [
        "| split | train | test | D_A | D_C | compound coverage |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name, row in rows.items():
        sizes = row["sizes"] or {}
        lines.append(
            f"| {name} | {sizes.get('train', 0):,} | {sizes.get('test', 0):,} | "
            f"{row['atom_divergence']:.4f} | {row['compound_divergence']:.4f} | "
            f"{row['compound_coverage']:.4f} |"
        )
    sys.stdout.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
