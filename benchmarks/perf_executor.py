"""Local processes vs a Ray cluster on this machine: throughput of verify and generate, the
per-unit overhead of Ray, and the size from which Ray pays.

For each job (verifying monotonicity pairs, generating PCFG SET programs) and size, times the
work with ``--jobs 1``, ``--jobs 2`` (local processes) and the Ray executor (a local cluster of
``--workers`` CPUs, started once; its start-up is reported apart). Ray's per-unit overhead is
the time of a round trip of an empty chunk through an actor, and of an empty task. The
break-even is the smallest size at which Ray beats one local process. Writes
``perf_executor.json`` and ``perf_executor.md`` into ``--out``.

    python benchmarks/perf_executor.py [--workers 2] [--sizes 500,2000,8000] [--out runs/benchmarks]
"""

from __future__ import annotations

import argparse
import json
import platform
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import ray

from symcomp.core.registry import get_language
from symcomp.data.generate import PoolSpec, generate
from symcomp.data.parallel import Jobs
from symcomp.data.ray_executor import RayExecutor
from symcomp.languages.monotonicity.language import write_pair_pool
from symcomp.verify import VerifyOptions
from symcomp.verify.report import verify_file


def timed(action: Callable[[], Any]) -> float:
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


def generate_job(size: int, work: Path) -> Callable[[Jobs], Any]:
    language = get_language("pcfg-set")

    def job(jobs: Jobs) -> Any:
        spec = PoolSpec(n=size, seed=0, with_dag=True)
        return generate(language, work / f"g-{size}", spec, jobs=jobs, overwrite=True)

    return job


def verify_job(size: int, work: Path) -> Callable[[Jobs], Any]:
    language = get_language("monotonicity")
    pool = work / f"v-{size}"
    write_pair_pool(language, pool, PoolSpec(n=size, seed=0, max_depth=3))

    def job(jobs: Jobs) -> Any:
        return verify_file(pool, language, VerifyOptions(), jobs=jobs)

    return job


def overhead(executor: RayExecutor, trials: int = 50) -> dict[str, float]:
    chunks = timed(lambda: list(executor.map(len, [[]] * trials, {})))
    tasks = timed(lambda: executor.run(len, [[]] * trials))
    return {
        "seconds_per_chunk": round(chunks / trials, 4),
        "seconds_per_task": round(tasks / trials, 4),
    }


def measure(executor: RayExecutor, sizes: list[int]) -> list[dict[str, Any]]:
    """Each job at each size in one process, two processes and on Ray (items per second)."""
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        for name, make in (("verify", verify_job), ("generate", generate_job)):
            for size in sizes:
                job = make(size, work)
                row: dict[str, Any] = {"job": name, "size": size}
                for label, jobs in (("local_1", 1), ("local_2", 2), ("ray", executor)):
                    started = time.perf_counter()
                    job(jobs)
                    seconds = time.perf_counter() - started
                    row[f"{label}_seconds"] = round(seconds, 2)
                    row[f"{label}_per_second"] = round(size / seconds, 1)
                rows.append(row)
                print(json.dumps(row))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--sizes", default="500,2000,8000")
    parser.add_argument("--out", type=Path, default=Path("runs/benchmarks"))
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    start = timed(lambda: ray.init(num_cpus=args.workers, include_dashboard=False))
    executor = RayExecutor(workers=args.workers)
    rows = measure(executor, sizes)
    result = {
        "machine": f"{platform.platform()}, Python {platform.python_version()}",
        "workers": args.workers,
        "ray_start_seconds": round(start, 1),
        "overhead": overhead(executor),
        "rows": rows,
        "break_even": {
            job: next(
                (
                    r["size"]
                    for r in rows
                    if r["job"] == job and r["ray_seconds"] < r["local_1_seconds"]
                ),
                None,
            )
            for job in ("verify", "generate")
        },
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "perf_executor.json").write_text(json.dumps(result, indent=2))
    lines = [
        "# Local processes vs Ray",
        "",
        f"{result['machine']}; Ray with {args.workers} workers (start-up "
        f"{result['ray_start_seconds']} s, not counted below); per chunk "
        f"{result['overhead']['seconds_per_chunk']} s, per task "
        f"{result['overhead']['seconds_per_task']} s of overhead.",
        "",
        "| job | size | jobs 1 (items/s) | jobs 2 (items/s) | ray (items/s) |",
        "|---|---:|---:|---:|---:|",
    ]
    lines += [
        f"| {r['job']} | {r['size']:,} | {r['local_1_per_second']} | {r['local_2_per_second']} | "
        f"{r['ray_per_second']} |"
        for r in rows
    ]
    lines += ["", f"Break-even (Ray faster than one process): {result['break_even']}"]
    (args.out / "perf_executor.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    ray.shutdown()


if __name__ == "__main__":
    main()
