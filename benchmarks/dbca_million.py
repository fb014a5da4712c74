"""MCD splits of a whole corpus: import and split a synthetic treebank of 300,000, 1,000,000 and
2,218,201 sentences (Europarl's English side) and a generated ``cogs`` pool of 2,218,201.

Each pool is split as a user would split it, with the CLI defaults (train 40 %, test 10 %,
seed 0, D_A <= 0.02, features as shards):

* treebank: ``perf_import.py``'s synthetic CoNLL-U (random dependency trees over 30,000 Zipf
  lemmas, 5-30 words), written once per size and kept; ``symcomp import`` (counted: it writes
  the feature shards into ``POOL/features``), then ``symcomp split dbca POOL`` (counted: it
  reads them); a tree whose import writes no shards (before issue 49) splits with
  ``--features POOL.features``, which extracts them there first (counted in its split);
* cogs: ``symcomp generate cogs --n N --with-dag`` (not counted), then the split with
  ``--features POOL.features`` (counted, the feature step included).

Every command is a child process: its CPU seconds (user + system, its own children included),
wall seconds and peak resident memory come from ``wait4`` (the peak of the largest process of
its tree), and the peak RSS of every process of its tree is sampled every 0.1 s
(``processes``, :func:`dbca_extract.measured`); the load average before each is recorded, as
the machine may be shared. Reported per pool: those for each step, the disk the shards take,
D_A and D_C, and the split's profile (``meta.search.cpu_seconds``: CPU seconds of reading or
extracting the features, choosing held-out pairs, the construction, the rounds, the result and
the final measures; ``rest``: start-up and reading the pool; a tree before issue 49 records no
profile). With ``--old
COMMIT`` the same steps run with that commit too (a git worktree), side by side with this
checkout (or ``--new COMMIT``).
Limits of issue 49: every process <= 4 GB, import + split <= 45 CPU-minutes, D_A <= 0.02.

    python benchmarks/dbca_million.py [--sizes 300000,1000000,2218201] [--cogs 2218201]
                                      [--old COMMIT] [--new COMMIT] [--out DIR]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from dbca_extract import measured as process_tree_cost
from perf_import import write_treebank
from source_trees import REPO, check_imports, tree_environment, worktree

EUROPARL = 2_218_201  # sentences of Europarl's English side
LIMITS = {"peak_rss_gb": 4.0, "cpu_minutes": 45.0, "atom_divergence": 0.02}


def measured(arguments: list[str], env: dict[str, str], source: Path) -> dict[str, Any]:
    """Run ``symcomp -q ARGUMENTS`` from ``source``: the load average before it, and its wall
    and CPU seconds and peak RSS, of its process tree and sampled per process
    (:func:`dbca_extract.measured`)."""
    load = os.getloadavg()[0]
    cost = process_tree_cost(["-q", *arguments], source, None, env=env)
    return {"load_before": round(load, 2), **cost}


def folder_bytes(folder: Path) -> int:
    return sum(path.stat().st_size for path in folder.rglob("*") if path.is_file())


def split_pool(pool: Path, env: dict[str, str], source: Path) -> dict[str, Any]:
    """``split dbca`` of ``pool`` with the CLI defaults: it reads the feature shards the
    import wrote into ``pool/features`` (the tree's import writes them), else it extracts
    them into a folder beside the pool (``--features``; trees before issue 49)."""
    out = pool.parent / f"{pool.name}-mcd.json"
    features = pool / "features"
    arguments = ["split", "dbca", str(pool)]
    if not (features / "manifest.json").is_file():
        features = pool.parent / f"{pool.name}.features"
        shutil.rmtree(features, ignore_errors=True)
        arguments += ["--features", str(features)]
    step = measured([*arguments, "--seed", "0", "--out", str(out), "--overwrite"], env, source)
    meta = json.loads(out.read_text(encoding="utf-8"))["meta"]
    step.update({key: meta[key] for key in ("atom_divergence", "compound_divergence", "sizes")})
    step["target_met"] = meta.get("target_met")
    profile = meta.get("search", {}).get("cpu_seconds")  # absent before issue 49
    if profile:  # the rest: start-up, reading the pool, shards written before the split
        profile["rest"] = round(step["cpu_seconds"] - sum(profile.values()), 1)
    step["profile"] = profile
    step["features"] = {
        key: meta["features"].get(key) for key in ("distinct_compounds", "kept_compounds")
    }
    step["shards_bytes"] = folder_bytes(features)
    step["shards_from"] = "import" if features == pool / "features" else "split"
    return step


def treebank_row(
    size: int, data: Path, tree: tuple[str, Path], env: dict[str, str]
) -> dict[str, Any]:
    """Import the treebank of ``size`` sentences (written once, kept) and split it."""
    name, source = tree
    treebank = data / f"treebank-{size}.conllu"
    if not treebank.is_file():
        write_treebank(treebank, size, lemmas=30_000, seed=0)
    pool = data / f"{name}-treebank-{size}"
    shutil.rmtree(pool, ignore_errors=True)
    row: dict[str, Any] = {"pool": "treebank", "sentences": size}
    row["import"] = measured(
        ["import", str(treebank), "--out", str(pool), "--overwrite"], env, source
    )
    print(name, size, "import", row["import"], flush=True)
    row["split"] = split_pool(pool, env, source)
    print(name, size, "split", row["split"], flush=True)
    return row


def cogs_row(size: int, data: Path, tree: tuple[str, Path], env: dict[str, str]) -> dict[str, Any]:
    """Generate a cogs pool of ``size`` with its DAGs (not counted) and split it."""
    name, source = tree
    pool = data / f"{name}-cogs-{size}"
    shutil.rmtree(pool, ignore_errors=True)
    generate = ["generate", "cogs", "--n", str(size), "--seed", "0", "--with-dag"]
    row: dict[str, Any] = {"pool": "cogs", "sentences": size}
    row["generate (not counted)"] = measured([*generate, "--out", str(pool)], env, source)
    row["split"] = split_pool(pool, env, source)
    print(name, "cogs", size, "split", row["split"], flush=True)
    return row


def totals(row: dict[str, Any]) -> dict[str, Any]:
    """Counted CPU minutes and the largest process, against the limits of issue 49."""
    steps = [row[key] for key in ("import", "split") if key in row]
    cpu = sum(step["cpu_seconds"] for step in steps) / 60
    peak = max(step["peak_rss_gb"] for step in steps)
    da = row["split"]["atom_divergence"]
    return {
        "cpu_minutes": round(cpu, 1),
        "peak_rss_gb": peak,
        "within_limits": cpu <= LIMITS["cpu_minutes"]
        and peak <= LIMITS["peak_rss_gb"]
        and da <= LIMITS["atom_divergence"],
    }


def run_tree(
    name: str, source: Path, sizes: list[int], cogs: int, data: Path
) -> list[dict[str, Any]]:
    env = tree_environment(source, bytecode=True, empty=Path(tempfile.mkdtemp()))
    check_imports(source, env)
    rows = [treebank_row(size, data, (name, source), env) for size in sizes]
    if cogs:
        rows.append(cogs_row(cogs, data, (name, source), env))
    for row in rows:
        row |= {"tree": name, **totals(row)}
    return rows


def tables(rows: list[dict[str, Any]]) -> str:
    """The steps (one line each) and the splits' profiles, as markdown."""
    lines = [
        "| tree | pool | sentences | step | CPU s | wall s | peak RSS GB | load before | "
        "shards MB | D_A | D_C |",
        "|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        for step in ("import", "split"):
            cost = row.get(step)
            if cost is None:
                continue
            shards = cost.get("shards_bytes")
            lines.append(
                f"| {row['tree']} | {row['pool']} | {row['sentences']:,} | {step} | "
                f"{cost['cpu_seconds']} | {cost['wall_seconds']} | {cost['peak_rss_gb']} | "
                f"{cost['load_before']} | {'' if shards is None else round(shards / 1e6, 1)} | "
                f"{cost.get('atom_divergence', '')} | {cost.get('compound_divergence', '')} |"
            )
    phases = sorted({p for row in rows for p in (row["split"].get("profile") or {})})
    lines += ["", "| tree | pool | sentences | " + " | ".join(phases) + " |"]
    lines.append("|---|---|---:|" + "---:|" * len(phases))
    for row in rows:
        profile = row["split"].get("profile") or {}
        cells = " | ".join(str(profile.get(phase, "")) for phase in phases)
        lines.append(f"| {row['tree']} | {row['pool']} | {row['sentences']:,} | {cells} |")
    return "\n".join(lines) + "\n"


@contextlib.contextmanager
def source_tree(commit: str | None) -> Iterator[Path]:
    """This checkout (None) or a worktree of ``commit``."""
    if commit is None:
        yield REPO
        return
    with worktree(commit) as folder:
        yield folder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sizes",
        default=f"300000,1000000,{EUROPARL}",
        help="treebank sizes, comma-separated (none: '')",
    )
    parser.add_argument("--cogs", type=int, default=EUROPARL, help="cogs pool size (0: none)")
    parser.add_argument("--old", default=None, help="a baseline commit, run side by side")
    parser.add_argument("--new", default=None, help="a commit for the new code [this checkout]")
    parser.add_argument("--out", type=Path, default=Path("runs/benchmarks/dbca_million"))
    args = parser.parse_args()
    sizes = [int(size) for size in args.sizes.split(",") if size.strip()]
    out = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    report: dict[str, Any] = {
        "machine": platform.platform(),
        "cpus": os.cpu_count(),
        "limits": LIMITS,
        "sizes": sizes,
        "cogs": args.cogs,
        "old": args.old,
        "new": args.new,
        "rows": [],
    }
    trees = [("old", args.old)] if args.old else []
    for name, commit in [*trees, ("new", args.new)]:
        with source_tree(commit) as source:
            report["rows"] += run_tree(name, source, sizes, args.cogs, out)
        report["table"] = tables(report["rows"])
        (out / "dbca_million.json").write_text(json.dumps(report, indent=2) + "\n")
        (out / "dbca_million.md").write_text(report["table"])
    print(report["table"])


if __name__ == "__main__":
    main()
