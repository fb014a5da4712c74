"""symcomp's prover against the gold labels of data made the way Yanaka et al. (2020)'s
published scripts make it, every row of every file type (the tests prove a sample).

symcomp/languages/monotonicity/yanaka_pipeline.py transcribes the published pipeline (cfg_simple.pl,
cfg_simple_obj.pl, the Tsurgeon edits, develop.py, format.py). Each row is proved with the
portfolio prover or z3 alone (two-way labels: entailment / non-entailment, as the paper's);
every disagreement is listed with whether a sentence repeats a noun (the published pipeline
allows it, and then an embedded restriction can be vacuous, which makes a gold "neutral" an
entailment).

    python benchmarks/yanaka_gold.py [--rows 600] [--seed 20] [--prover portfolio|z3]
        [--out runs/benchmarks]

Writes ``yanaka_gold_PROVER.json`` and ``yanaka_gold_PROVER.md`` into ``--out``.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import symcomp
from symcomp.languages.monotonicity import yanaka_pipeline as pipeline
from symcomp.languages.monotonicity.entailment import Gold, agrees
from symcomp.languages.monotonicity.language import read_axioms
from symcomp.logic.backends import make_prover
from symcomp.logic.prover import Label, Problem

TWO_WAY = {True: Gold.ENTAILMENT, False: Gold.NON_ENTAILMENT}  # the paper's labels


def check(rows: list[tuple[str, str, str, str]], prover_name: str) -> dict[str, Any]:
    language = symcomp.get_language("monotonicity")
    prover, axioms = make_prover(prover_name), read_axioms()
    counts: dict[str, float] = {
        "rows": len(rows),
        "agree": 0,
        "disagree": 0,
        "unknown": 0,
        "inconsistent_premises": 0,
    }
    wrong, undecided = [], []
    start = time.process_time()
    for premise, hypothesis, gold, _genre in rows:
        problem = Problem(
            (("premise", language.meaning(premise)),), language.meaning(hypothesis), axioms
        )
        verdict = prover.prove(problem).label
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
    counts["cpu_seconds"] = round(time.process_time() - start, 1)
    return {**counts, "disagreements": wrong, "unknowns": undecided}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=600, help="pairs drawn per plain depth")
    parser.add_argument("--seed", type=int, default=20)
    parser.add_argument("--prover", default="portfolio", help="portfolio (default), z3, eprover")
    parser.add_argument("--types", nargs="+", default=None, help="file types (default: all)")
    parser.add_argument("--out", type=Path, default=Path("runs/benchmarks"))
    args = parser.parse_args()
    results = {
        name: check(rows, args.prover)
        for name, rows in pipeline.file_types(args.rows, args.seed).items()
        if args.types is None or name in args.types
    }
    args.out.mkdir(parents=True, exist_ok=True)
    stem = f"yanaka_gold_{args.prover}"
    (args.out / f"{stem}.json").write_text(json.dumps(results, indent=2) + "\n")
    lines = [
        "| file type | rows | agree | disagree | unknown | premises without a model | CPU s |",
        "|---|---:|---:|---:|---:|---:|---:|",
        *(
            f"| {name} | {r['rows']} | {r['agree']} | {r['disagree']} | {r['unknown']} "
            f"| {r['inconsistent_premises']} | {r['cpu_seconds']} |"
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


if __name__ == "__main__":
    main()
