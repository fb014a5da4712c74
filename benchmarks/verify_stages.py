"""Which stage of ``symcomp verify`` decides generated pairs: 20,000 per profile, seed 0.

For each profile of the monotonicity generator (``symcomp``, the richer default, and
``paper``, as Yanaka et al.'s published scripts make data) ``--n`` pairs are generated, written
as JSONL and verified with the default portfolio (derivations and built worlds first, the
solvers by exception). The report's ``decided_by`` counts give the share that stages 1-2
decided; every row must agree with its gold label (none unknown).

    python benchmarks/verify_stages.py [--n 20000] [--seed 0] [--profiles symcomp paper]
        [--out runs/benchmarks]

Writes ``verify_stages.json`` and ``verify_stages.md`` into ``--out``.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path
from typing import Any

import symcomp
from symcomp.languages.monotonicity.pairs import PairSpec, iter_pairs
from symcomp.logic.constructive import STAGES
from symcomp.verify import VerifyOptions
from symcomp.verify.report import verify_file


def measure(n: int, seed: int, profile: str, folder: Path) -> dict[str, Any]:
    language = symcomp.get_language("monotonicity")
    path = folder / f"{profile}.jsonl"
    with path.open("w", encoding="utf-8") as handle:
        for pair in iter_pairs(PairSpec(n=n, seed=seed, profile=profile)):
            handle.write(json.dumps(pair.record(language.name, language.version)) + "\n")
    start = time.process_time()
    report = verify_file(path, language, VerifyOptions())
    cpu = time.process_time() - start
    stages = {name: report.stages[name] for name in STAGES}
    return {
        "profile": profile,
        "pairs": report.rows,
        **{status: report.counts[status] for status in ("agree", "disagree", "unknown")},
        "decided_by": stages,
        "stages_1_2_share": round((stages["derivation"] + stages["world"]) / report.rows, 5),
        "cpu_seconds": round(cpu, 1),
        "pairs_per_cpu_second": round(report.rows / cpu, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--profiles", nargs="+", default=["symcomp", "paper"])
    parser.add_argument("--out", type=Path, default=Path("runs/benchmarks"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        rows = [measure(args.n, args.seed, profile, Path(folder)) for profile in args.profiles]
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "verify_stages.json").write_text(json.dumps(rows, indent=2) + "\n")
    lines = [
        "| profile | pairs | agree | disagree | unknown | derivation | world | portfolio "
        "| stages 1-2 | CPU s | pairs/CPU-s |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        *(
            f"| {r['profile']} | {r['pairs']:,} | {r['agree']:,} | {r['disagree']:,} "
            f"| {r['unknown']:,} | {r['decided_by']['derivation']:,} "
            f"| {r['decided_by']['world']:,} | {r['decided_by']['portfolio']:,} "
            f"| {100 * r['stages_1_2_share']:.2f} % "
            f"| {r['cpu_seconds']} | {r['pairs_per_cpu_second']} |"
            for r in rows
        ),
    ]
    (args.out / "verify_stages.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
