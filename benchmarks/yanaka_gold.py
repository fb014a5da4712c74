"""symcomp's prover against the gold labels of data made the way Yanaka et al. (2020)'s
published scripts make it, every row of every file type (the tests prove a sample).

symcomp/languages/monotonicity/yanaka_pipeline.py transcribes the published pipeline (cfg_simple.pl,
cfg_simple_obj.pl, the Tsurgeon edits, develop.py, format.py). Each row is proved with the
portfolio prover or z3 alone (two-way labels: entailment / non-entailment, as the paper's);
every disagreement is listed with whether a sentence repeats a noun (the published pipeline
allows it, and then an embedded restriction can be vacuous, which makes a gold "neutral" an
entailment).

    python benchmarks/yanaka_gold.py [--rows 600] [--seed 20] [--prover portfolio|z3]
        [--baseline-rows 300] [--types T ...] [--out runs/benchmarks]

With the portfolio (the default of ``symcomp verify``: derivations and built worlds first,
then the solvers) each file type also counts the rows each stage decided, and its first
``--baseline-rows`` rows are decided again in the same run by the solvers alone (the
portfolio with stages 1-2 off, ``verify --solvers-only``): both speeds are reported and the
verdicts must be equal wherever both decide.

Writes ``yanaka_gold_PROVER.json`` and ``yanaka_gold_PROVER.md`` into ``--out``.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from pathlib import Path
from typing import Any

import symcomp
from symcomp.languages.monotonicity import yanaka_pipeline as pipeline
from symcomp.languages.monotonicity.entailment import Gold, agrees
from symcomp.languages.monotonicity.language import read_axioms
from symcomp.logic.backends import make_prover
from symcomp.logic.constructive import STAGES
from symcomp.logic.fol import Formula
from symcomp.logic.prover import Label, Problem

TWO_WAY = {True: Gold.ENTAILMENT, False: Gold.NON_ENTAILMENT}  # the paper's labels


def check(
    rows: list[tuple[str, str, str, str]], prover_name: str, construct: bool = True
) -> dict[str, Any]:
    language = symcomp.get_language("monotonicity")
    prover, axioms = make_prover(prover_name, construct=construct), read_axioms()
    stages: Counter[str] = Counter()
    verdicts: list[str] = []
    counts: dict[str, float] = {
        "rows": len(rows),
        "agree": 0,
        "disagree": 0,
        "unknown": 0,
        "inconsistent_premises": 0,
    }
    wrong, undecided = [], []
    start = time.process_time()
    meanings: dict[str, Formula] = {}  # per sentence, as `verify`'s checker keeps them

    def meaning(sentence: str) -> Formula:
        if sentence not in meanings:
            meanings[sentence] = language.meaning(sentence)
        return meanings[sentence]

    for premise, hypothesis, gold, _genre in rows:
        problem = Problem((("premise", meaning(premise)),), meaning(hypothesis), axioms)
        decided = prover.prove(problem)
        verdict = decided.label
        verdicts.append(verdict.value)
        if decided.decided_by:
            stages[decided.decided_by] += 1
        if verdict is Label.INCONSISTENT:
            counts["inconsistent_premises"] += 1
        if verdict is Label.UNKNOWN:
            counts["unknown"] += 1
            undecided.append({"premise": premise, "hypothesis": hypothesis, "gold": gold})
        elif agrees(TWO_WAY[gold == "entailment"], verdict):
            counts["agree"] += 1
        else:
            counts["disagree"] += 1
            repeated = pipeline.repeats_a_noun(premise) or pipeline.repeats_a_noun(hypothesis)
            wrong.append(
                {
                    "premise": premise,
                    "hypothesis": hypothesis,
                    "gold": gold,
                    "symcomp": verdict.value,
                    "repeats_a_noun": repeated,
                }
            )
    cpu = time.process_time() - start
    counts["cpu_seconds"] = round(cpu, 1)
    counts["pairs_per_cpu_second"] = round(len(rows) / max(cpu, 1e-9), 1)
    return {
        **counts,
        "decided_by": dict(stages),
        "disagreements": wrong,
        "unknowns": undecided,
        "verdicts": verdicts,
    }


def with_baseline(result: dict[str, Any], rows: list[tuple[str, str, str, str]]) -> None:
    """Decide ``rows`` (the first rows of the type) with the solvers alone and compare."""
    baseline = check(rows, "portfolio", construct=False)
    pairs = zip(result["verdicts"], baseline["verdicts"], strict=False)
    differ = sum(a != b and "UNKNOWN" not in (a, b) for a, b in pairs)
    result["baseline"] = {
        "rows": baseline["rows"],
        "unknown": baseline["unknown"],
        "cpu_seconds": baseline["cpu_seconds"],
        "pairs_per_cpu_second": baseline["pairs_per_cpu_second"],
        "verdicts_differ": differ,
    }
    if differ:
        raise SystemExit(f"{differ} verdicts differ from the solvers alone: a soundness bug")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=600, help="pairs drawn per plain depth")
    parser.add_argument("--seed", type=int, default=20)
    parser.add_argument("--prover", default="portfolio", help="portfolio (default), z3, eprover")
    parser.add_argument("--types", nargs="+", default=None, help="file types (default: all)")
    parser.add_argument(
        "--baseline-rows",
        type=int,
        default=300,
        help="rows of each type decided again by the solvers alone (0: none)",
    )
    parser.add_argument("--out", type=Path, default=Path("runs/benchmarks"))
    args = parser.parse_args()
    results = {}
    for name, rows in pipeline.file_types(args.rows, args.seed).items():
        if args.types is not None and name not in args.types:
            continue
        results[name] = check(rows, args.prover)
        if args.prover == "portfolio" and args.baseline_rows:
            with_baseline(results[name], rows[: args.baseline_rows])
        print(name, json.dumps({k: v for k, v in results[name].items() if k != "verdicts"}))
    args.out.mkdir(parents=True, exist_ok=True)
    stem = f"yanaka_gold_{args.prover}"
    (args.out / f"{stem}.json").write_text(json.dumps(results, indent=2) + "\n")
    lines = [
        "| file type | rows | agree | disagree | unknown | premises without a model | CPU s "
        "| pairs/CPU-s | decided by derivation / world / portfolio | solvers alone: rows, "
        "pairs/CPU-s, unknown |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---|---|",
        *(
            f"| {name} | {r['rows']} | {r['agree']} | {r['disagree']} | {r['unknown']} "
            f"| {r['inconsistent_premises']} | {r['cpu_seconds']} | {r['pairs_per_cpu_second']} "
            f"| {_stages(r['decided_by'])} | {_baseline(r.get('baseline'))} |"
            for name, r in results.items()
        ),
        "",
        "Disagreements (gold label vs symcomp's verdict):",
        "",
        *(
            f"- {name}: {w['premise']} ⇒ {w['hypothesis']} — gold {w['gold']}, symcomp "
            f"{w['symcomp']}{' (a sentence repeats a noun)' if w['repeats_a_noun'] else ''}"
            for name, r in results.items()
            for w in r["disagreements"]
        ),
    ]
    (args.out / f"{stem}.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


def _stages(stages: dict[str, int]) -> str:
    if not stages:
        return ""
    return " / ".join(f"{stages.get(name, 0):,}" for name in STAGES)


def _baseline(baseline: dict[str, Any] | None) -> str:
    if baseline is None:
        return ""
    return f"{baseline['rows']:,}, {baseline['pairs_per_cpu_second']}, {baseline['unknown']}"


if __name__ == "__main__":
    main()
