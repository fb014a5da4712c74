"""``verify --open-vocabulary`` on MED (Yanaka et al. 2019): what derivations and built worlds
decide, how fast, and whether every verdict equals the solvers' alone.

MED's crowd-sourced rows (``MED_crowd.tsv``, MultiNLI layout, two-way labels) are read with the
open-vocabulary reader (words outside the lexicon become fresh predicates). Each row is checked
twice in this run, by the default portfolio (derivations and built worlds first) and by the
portfolio with those stages off (``verify --solvers-only``); the script counts the rows each
stage decided, compares the two verdicts row by row (they must be equal wherever both decide),
and reports checked rows per CPU-second (rows outside the fragment cost their failed parse).
It then verifies ``provers/monotonicity/known_answers.tsv`` with the default portfolio (every
answer must be the known one).

    python benchmarks/verify_open_vocabulary.py
        [--med ../shared/peers/med_monotonicity/MED_crowd.tsv] [--out runs/benchmarks]

Writes ``verify_open_vocabulary.json`` and ``.md`` into ``--out``.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from pathlib import Path
from typing import Any

import symcomp
from symcomp.core.resources import prover_file
from symcomp.logic.constructive import STAGES
from symcomp.verify import Check, Status, VerifyOptions, checker_for, verify_rows
from symcomp.verify.report import verify_file
from symcomp.verify.rows import guess_format, read_rows

MED = Path(__file__).resolve().parents[1] / "../shared/peers/med_monotonicity/MED_crowd.tsv"


def checks(path: Path, construct: bool) -> tuple[list[Check], float]:
    """Every row's check and the CPU seconds they took."""
    language = symcomp.get_language("monotonicity")
    options = VerifyOptions(labels="two-way", open_vocabulary=True, construct=construct)
    checker = checker_for(language, options)
    rows = read_rows(path, guess_format(path), checker.columns)
    start = time.process_time()
    found = list(verify_rows(rows, lambda: checker))
    return found, time.process_time() - start


def summary(found: list[Check], cpu: float) -> dict[str, Any]:
    statuses = Counter(check.status.value for check in found)
    checked = sum(statuses[s.value] for s in (Status.AGREE, Status.DISAGREE, Status.UNKNOWN))
    return {
        "rows": len(found),
        **dict(statuses),
        "decided_by": dict(Counter(check.decided_by for check in found if check.decided_by)),
        "cpu_seconds": round(cpu, 2),
        "checked_per_cpu_second": round(checked / cpu, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--med", type=Path, default=MED)
    parser.add_argument("--out", type=Path, default=Path("runs/benchmarks"))
    args = parser.parse_args()
    if not args.med.is_file():
        raise SystemExit(f"{args.med}: no such file; give --med MED_crowd.tsv")
    fast, fast_cpu = checks(args.med, construct=True)
    slow, slow_cpu = checks(args.med, construct=False)
    differ = [
        (a.line, a.found, b.found)
        for a, b in zip(fast, slow, strict=True)
        if a.found != b.found and "UNKNOWN" not in (a.found, b.found)
    ]
    language = symcomp.get_language("monotonicity")
    known = verify_file(
        Path(str(prover_file("monotonicity/known_answers.tsv"))),
        language,
        VerifyOptions(),
        fmt="tsv",
    )
    result: dict[str, Any] = {
        "data": str(args.med),
        "stages": summary(fast, fast_cpu),
        "solvers_only": summary(slow, slow_cpu),
        "verdicts_differ": differ,
        "known_answers": {**dict(known.counts), "decided_by": dict(known.stages)},
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "verify_open_vocabulary.json").write_text(json.dumps(result, indent=2) + "\n")
    lines = [
        "| MED crowd, open vocabulary | rows | read | agree | disagree | unknown "
        "| decided by derivation / world / portfolio | CPU s | checked rows/CPU-s |",
        "|---|---:|---:|---:|---:|---:|---|---:|---:|",
        *(
            _row(name, result[key])
            for name, key in (("default", "stages"), ("solvers only", "solvers_only"))
        ),
        "",
        f"Verdicts that differ between the two (where both decide): {len(differ)}.",
        f"Known answers with the default portfolio: {dict(known.counts)}, decided by "
        f"{dict(known.stages)}.",
    ]
    (args.out / "verify_open_vocabulary.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    if differ or known.counts["agree"] != known.rows:
        raise SystemExit("a verdict differs: a soundness bug")


def _row(name: str, r: dict[str, Any]) -> str:
    stages = r["decided_by"]
    split = " / ".join(f"{stages.get(s, 0):,}" for s in STAGES)
    read = r["rows"] - r.get("unparsable", 0)
    return (
        f"| {name} | {r['rows']:,} | {read:,} | {r.get('agree', 0):,} | {r.get('disagree', 0):,} "
        f"| {r.get('unknown', 0):,} | {split} | {r['cpu_seconds']} "
        f"| {r['checked_per_cpu_second']} |"
    )


if __name__ == "__main__":
    main()
