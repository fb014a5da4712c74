"""Peak memory of ``symcomp verify --jobs N`` on data made the way Yanaka et al.'s published
scripts make it (default: depth4, 1,500 rows, seed 20, two worker processes).

The rows of one file type (symcomp/languages/monotonicity/yanaka_pipeline.py) are written as a
TSV (premise, hypothesis, two-way label), then ``symcomp verify FILE --labels two-way --jobs N
--json`` runs as a child process. Its workers are its own children; once the command has
ended, ``RUSAGE_CHILDREN`` holds the largest resident set of any one of those processes (the
command or a worker), which is what "peak RSS per worker" is bounded by. CPU time (user +
system of every process) and the stage counts of the report are written beside it.

    python benchmarks/verify_memory.py [--type depth4] [--rows 1500] [--seed 20] [--jobs 2]
        [--out runs/benchmarks]
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from symcomp.languages.monotonicity import yanaka_pipeline as pipeline


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--type", default="depth4", help="file type (depth0..4, object, ...)")
    parser.add_argument("--rows", type=int, default=1500)
    parser.add_argument("--seed", type=int, default=20)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, default=Path("runs/benchmarks"))
    args = parser.parse_args()
    rows = pipeline.file_types(args.rows, args.seed)[args.type]
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder) / f"{args.type}.tsv"
        data.write_text(
            "premise\thypothesis\tlabel\n"
            + "".join(
                f"{premise}\t{hypothesis}\t{gold}\n" for premise, hypothesis, gold, _ in rows
            ),
            encoding="utf-8",
        )
        symcomp = str(Path(sys.executable).parent / "symcomp")  # the console script
        command = [symcomp, "verify", str(data), "--language"]
        command += ["monotonicity", "--labels", "two-way", "--jobs", str(args.jobs), "--json"]
        start = time.perf_counter()
        finished = subprocess.run(command, capture_output=True, text=True, check=False)
        wall = time.perf_counter() - start
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    if finished.returncode not in (0, 1):  # 1: a row disagrees (depth4 has one)
        raise SystemExit(f"verify failed ({finished.returncode}): {finished.stderr[-2000:]}")
    report = json.loads(finished.stdout)
    result = {
        "type": args.type,
        "rows": len(rows),
        "jobs": args.jobs,
        "exit_code": finished.returncode,
        "summary": report["summary"],
        "wall_seconds": round(wall, 1),
        "cpu_seconds": round(usage.ru_utime + usage.ru_stime, 1),
        "peak_rss_mb_largest_process": round(usage.ru_maxrss / 1024, 1),
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "verify_memory.json").write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
