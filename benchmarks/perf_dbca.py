"""DBCA speed, one core: compound extraction, divergence from counts, MCD searches, and the
incremental engine against recomputing divergence from scratch per candidate (NQG's way).

Measures

* compound extraction rate (DAGs/s) on SCAN (all 20,910) and on cfq DAGs: occurrences only,
  and the full feature build (occurrences, immediate super-compounds, DBCA weights, top-K);
* D_C of a 100,000/100,000 split from per-example counts (cfq rows tiled to 200,000);
* a full SCAN MCD split (pool read, features, search, split meta), with symcomp's default search
  and with the paper's construction;
* an MCD split of a ``--cfq-n`` cfq pool (default 100,000; pool generation timed apart);
* per-candidate cost of the greedy step;
* the same greedy steps scored by the incremental engine and by the from-scratch engine, and
  the ratio of their times.

Writes ``perf_dbca.json`` and ``perf_dbca.md`` into ``--out``. BLAS/OpenMP threads are pinned
to one before numpy is imported.

    python benchmarks/perf_dbca.py [--cfq-n 100000] [--out runs/benchmarks] [--quick]
"""

from __future__ import annotations

import os

for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

import argparse  # noqa: E402
import functools  # noqa: E402
import json  # noqa: E402
import platform  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import numpy as np  # noqa: E402

import symcomp  # noqa: E402
from symcomp.data.generate import PoolSpec, generate, write_pool  # noqa: E402
from symcomp.dbca.baselines import SplitSizes  # noqa: E402
from symcomp.dbca.compounds import CompoundSpec, Dag, extract  # noqa: E402
from symcomp.dbca.divergence import compound_divergence  # noqa: E402
from symcomp.dbca.engine import DivergenceEngine, ScratchEngine  # noqa: E402
from symcomp.dbca.features import Features, SparseRows, dag_features  # noqa: E402
from symcomp.dbca.mcd import McdConfig  # noqa: E402
from symcomp.dbca.split import PoolData, mcd  # noqa: E402


def timed(function: Any, *args: Any, **kwargs: Any) -> tuple[Any, float]:
    start = time.perf_counter()
    result = function(*args, **kwargs)
    return result, time.perf_counter() - start


def cpu_timed(function: Any, *args: Any, **kwargs: Any) -> tuple[Any, float, float]:
    """Result, wall seconds and CPU seconds of this process (on a shared machine the CPU time
    is what one free core would take)."""
    cpu = time.process_time()
    result, wall = timed(function, *args, **kwargs)
    return result, wall, time.process_time() - cpu


def extraction(name: str, dags: list[Dag]) -> dict[str, Any]:
    spec = CompoundSpec()
    _, only = timed(lambda: [extract(dag, spec, extensions=False) for dag in dags])
    features, full = timed(dag_features, dags)
    return {
        "language": name,
        "dags": len(dags),
        "mean_nodes": round(float(np.mean([len(d) for d in dags])), 1),
        "occurrences_per_second": round(len(dags) / only),
        "features_per_second": round(len(dags) / full),
        "features_seconds": round(full, 2),
        "distinct_compounds": features.description["distinct_compounds"],
        "kept_compounds": features.description["kept_compounds"],
    }


def tiled(rows: SparseRows, copies: int) -> SparseRows:
    lengths = np.tile(rows.lengths(), copies)
    indptr = np.zeros(len(lengths) + 1, dtype=np.int64)
    np.cumsum(lengths, out=indptr[1:])
    return SparseRows(
        indptr, np.tile(rows.indices, copies), np.tile(rows.values, copies), rows.width
    )


def divergence_from_counts(features: Features, size: int) -> dict[str, Any]:
    copies = -(-2 * size // len(features))
    rows = tiled(features.compounds, copies)
    train, test = np.arange(size), np.arange(size, 2 * size)
    value, seconds = timed(lambda: compound_divergence(rows.sum_rows(train), rows.sum_rows(test)))
    return {
        "train": size,
        "test": size,
        "entries": int(rows.indptr[2 * size]),
        "compounds": rows.width,
        "seconds": round(seconds, 3),
        "compound_divergence": round(value, 4),
    }


def full_mcd(pool: Path, seed: int, **config: Any) -> dict[str, Any]:
    """Read, extract, search and measure one MCD split (train 40 %, dev 5 %, test 5 %, the
    paper's sizes); ``config`` overrides :class:`McdConfig` fields."""
    start, cpu = time.perf_counter(), time.process_time()
    data = PoolData.read(pool)
    _, feature_seconds, feature_cpu = cpu_timed(lambda: data.features)
    sizes = SplitSizes.from_fractions(len(data), 0.4, 0.05, 0.05)
    settings = McdConfig(train_size=sizes.train, test_size=sizes.held_out, **config)
    split, search_seconds, search_cpu = cpu_timed(mcd, data, sizes, settings, seed)
    return {
        "pool": len(data),
        "config": config,
        "seconds": round(time.perf_counter() - start, 1),
        "cpu_seconds": round(time.process_time() - cpu, 1),
        "features_seconds": round(feature_seconds, 1),
        "features_cpu_seconds": round(feature_cpu, 1),
        "search_and_meta_seconds": round(search_seconds, 1),
        "search_and_meta_cpu_seconds": round(search_cpu, 1),
        "atom_divergence": split.meta["atom_divergence"],
        "dev_atom_divergence": split.meta["dev_atom_divergence"],
        "compound_divergence": split.meta["compound_divergence"],
        "target_met": split.meta["target_met"],
    }


def greedy_steps(engine: DivergenceEngine, steps: int, candidates: int, seed: int) -> float:
    """Seconds for ``steps`` greedy additions, alternating sides 4:1 like a 40/10 split."""
    rng = np.random.default_rng(seed)
    unused = np.arange(len(engine))
    start = time.perf_counter()
    for step in range(steps):
        side = 1 if step % 5 == 4 else 0
        picks = rng.choice(len(unused), candidates, replace=False)
        atoms, compounds = engine.evaluate(unused[picks], side)
        best = int(picks[int(np.argmin(1.0 - compounds + 10 * np.maximum(0, atoms - 0.02)))])
        engine.move(int(unused[best]), side)
        unused = np.delete(unused, best)
    return time.perf_counter() - start


def incremental_ratio(name: str, features: Features, steps: int) -> dict[str, Any]:
    warm = min(len(features) // 4, 2000)
    results = {}
    for label, kind in (("incremental", DivergenceEngine), ("from_scratch", ScratchEngine)):
        engine = kind(features)
        engine.assign([range(0, warm * 4, 5), range(2, warm * 4, 10)])
        results[label] = greedy_steps(engine, steps, 64, seed=0)
    return {
        "language": name,
        "steps": steps,
        "candidates_per_step": 64,
        "compounds": len(features.compound_names),
        "incremental_ms_per_step": round(1000 * results["incremental"] / steps, 3),
        "incremental_us_per_candidate": round(1e6 * results["incremental"] / steps / 64, 1),
        "from_scratch_ms_per_step": round(1000 * results["from_scratch"] / steps, 3),
        "speedup": round(results["from_scratch"] / results["incremental"], 1),
    }


def markdown(report: dict[str, Any]) -> str:
    lines = ["## Compound extraction (one core)", ""]
    lines += [
        "| language | DAGs | mean nodes | occurrences: DAGs/s | features: DAGs/s "
        "| compounds kept |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for row in report["extraction"]:
        lines.append(
            f"| {row['language']} | {row['dags']:,} | {row['mean_nodes']} | "
            f"{row['occurrences_per_second']:,} | {row['features_per_second']:,} | "
            f"{row['kept_compounds']:,} of {row['distinct_compounds']:,} |"
        )
    d = report["divergence_from_counts"]
    lines += [
        "",
        f"D_C of a {d['train']:,}/{d['test']:,} split from counts ({d['entries']:,} entries, "
        f"{d['compounds']:,} compounds): **{d['seconds']} s** (target < 2 s).",
        "",
        "## MCD splits (train 40 %, dev 5 %, test 5 %, D_A <= 0.02 for test and dev, D_C max)",
        "",
        "Seconds as wall (CPU of this process).",
        "",
        "| pool | search | examples | total s | features s | search + meta s | D_A test/dev | "
        "D_C | target |",
        "|---|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    lines += _mcd_rows(report)
    if "cfq_generation_seconds" in report:
        lines.append(
            f"\ncfq pool generation (not part of the split): {report['cfq_generation_seconds']} s"
        )
    lines += [
        "",
        "## Incremental engine vs recomputing divergence from scratch per candidate",
        "",
        "| language | compounds | steps × 64 candidates | incremental ms/step | "
        "µs/candidate | from scratch ms/step | speed-up |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for row in report["incremental"]:
        lines.append(
            f"| {row['language']} | {row['compounds']:,} | {row['steps']} | "
            f"{row['incremental_ms_per_step']} | {row['incremental_us_per_candidate']} | "
            f"{row['from_scratch_ms_per_step']} | {row['speedup']}× |"
        )
    lines += ["", f"Machine: {report['machine']}, Python {report['python']}."]
    return "\n".join(lines) + "\n"


def _mcd_rows(report: dict[str, Any]) -> list[str]:
    rows = []
    for name, target in (
        ("scan_mcd", "< 60 s"),
        ("scan_mcd_paper", "< 60 s"),
        ("cfq_mcd", "< 1200 s"),
    ):
        if name in report:
            r = report[name]
            search = "paper's construction" if r["config"] else "symcomp default"
            rows.append(
                f"| {name.split('_')[0]} | {search} | {r['pool']:,} | {r['seconds']} "
                f"({r['cpu_seconds']}) | {r['features_seconds']} ({r['features_cpu_seconds']}) | "
                f"{r['search_and_meta_seconds']} ({r['search_and_meta_cpu_seconds']}) | "
                f"{r['atom_divergence']}/{r['dev_atom_divergence']} | "
                f"{r['compound_divergence']} | {target} |"
            )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cfq-n", type=int, default=100_000)
    parser.add_argument("--out", type=Path, default=Path("runs/benchmarks"))
    parser.add_argument("--quick", action="store_true", help="Skip the large cfq MCD split.")
    args = parser.parse_args()
    report: dict[str, Any] = {"machine": platform.platform(), "python": platform.python_version()}
    with tempfile.TemporaryDirectory() as folder:
        scan_pool = Path(folder) / "scan"
        generate(symcomp.get_language("scan"), scan_pool, PoolSpec(enumerate_all=True))
        cfq_pool = Path(folder) / "cfq"
        cfq_n = 20_000 if args.quick else args.cfq_n
        _, generation = timed(
            functools.partial(write_pool, symcomp.get_language("cfq")),
            cfq_pool,
            PoolSpec(n=cfq_n, seed=0, with_dag=True),
        )
        report["cfq_generation_seconds"] = round(generation, 1)
        scan_data, cfq_data = PoolData.read(scan_pool), PoolData.read(cfq_pool)
        from symcomp.dbca.pool import pool_dags, read_pool

        # with their stored DAGs (PoolData keeps records without them)
        scan_records, _manifest = read_pool(scan_pool)
        cfq_records, _manifest = read_pool(cfq_pool)
        scan_dags = list(pool_dags(scan_records, scan_data.manifest, "scan"))
        cfq_dags = list(pool_dags(cfq_records[:20_000], cfq_data.manifest, "cfq"))
        del cfq_records
        report["extraction"] = [extraction("scan", scan_dags), extraction("cfq", cfq_dags)]
        print(json.dumps(report["extraction"]))
        report["divergence_from_counts"] = divergence_from_counts(cfq_data.features, 100_000)
        print(json.dumps(report["divergence_from_counts"]))
        report["incremental"] = [
            incremental_ratio("scan", scan_data.features, 200),
            incremental_ratio("cfq", cfq_data.features, 100),
        ]
        print(json.dumps(report["incremental"]))
        report["scan_mcd"] = full_mcd(scan_pool, seed=0)
        print(json.dumps(report["scan_mcd"]))
        report["scan_mcd_paper"] = full_mcd(scan_pool, seed=0, seeding="off", rounds=0)
        print(json.dumps(report["scan_mcd_paper"]))
        if not args.quick:
            report["cfq_mcd"] = full_mcd(cfq_pool, seed=0)
            print(json.dumps(report["cfq_mcd"]))
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "perf_dbca.json").write_text(json.dumps(report, indent=2) + "\n")
    text = markdown(report)
    (args.out / "perf_dbca.md").write_text(text)
    print(text)


if __name__ == "__main__":
    main()
