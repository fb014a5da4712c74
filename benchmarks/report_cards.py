"""Report cards of trained baselines: PCFG SET's five aspects and CobA's Table 2, small scale.

For each model, trains a run set (one run per distinct split of the suite, small preset, one
thread, ``--minutes`` of training per run) and scores it with ``run_report_card`` (models in
the loop: localism unrolling, substitutivity pairs, overgeneralisation over every saved epoch).
Builds the suite first when ``--suite`` does not hold one. Writes
``report_cards_<language>.json`` and ``.md`` (the card table, per-run accuracies and times)
into ``--out``.

    python benchmarks/report_cards.py --language pcfg-set --n 20000 \\
        --models transformer,lstms2s,convs2s --minutes 1.5
    python benchmarks/report_cards.py --language arithmetic --in-domain 6000 \\
        --generalisation 3000 --models lstm,treelstm,bert --minutes 1
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

import torch

from symcomp.metrics.report import format_report_card
from symcomp.models.report import run_report_card
from symcomp.models.runs import train_suite
from symcomp.models.zoo import resolve

RUN_FIELDS = (
    "epochs",
    "best_epoch",
    "test_accuracy",
    "dev_accuracy",
    "seconds",
    "train_examples_per_cpu_second",
)


def build_suite(args: argparse.Namespace) -> Path:
    suite: Path = args.suite or Path(f"runs/benchmarks/{args.language}-suite")
    if (suite / "manifest.json").is_file():
        return suite
    if args.language == "pcfg-set":
        from symcomp.languages.pcfg_set.suite import PcfgSetSuiteSpec
        from symcomp.languages.pcfg_set.suite import build as build_pcfg

        build_pcfg(suite, PcfgSetSuiteSpec(n=args.n, seed=0, export=False))
    else:
        from symcomp.languages.arithmetic.suite import ArithmeticSuiteSpec
        from symcomp.languages.arithmetic.suite import build as build_arithmetic

        spec = ArithmeticSuiteSpec(
            in_domain=args.in_domain, generalisation=args.generalisation, export=False
        )
        build_arithmetic(suite, spec)
    return suite


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--language", choices=["pcfg-set", "arithmetic"], default="pcfg-set")
    parser.add_argument("--models", default=None, help="comma-separated model names")
    parser.add_argument("--preset", default="small")
    parser.add_argument("--set", dest="sets", action="append", default=[], help="key=value")
    parser.add_argument("--minutes", type=float, default=1.5, help="training budget per run")
    parser.add_argument("--n", type=int, default=20000, help="PCFG SET pool size")
    parser.add_argument("--in-domain", type=int, default=6000, help="CobA in-domain size")
    parser.add_argument("--generalisation", type=int, default=3000, help="CobA test size")
    parser.add_argument("--suite", type=Path, default=None)
    parser.add_argument("--out", type=Path, default=Path("runs/benchmarks"))
    parser.add_argument("--name", default=None, help="output name (default report_cards_LANG)")
    parser.add_argument("--reuse", action="store_true", help="keep runs that already finished")
    args = parser.parse_args()
    default = "transformer,lstms2s,convs2s" if args.language == "pcfg-set" else "lstm,treelstm,bert"
    models = (args.models or default).split(",")
    torch.set_num_threads(1)
    suite = build_suite(args)
    meta = {
        "suite": str(suite),
        "preset": args.preset,
        "minutes_per_run": args.minutes,
        "sets": args.sets,
        "torch": torch.__version__,
        "load_at_start": round(os.getloadavg()[0], 2),
    }
    cards, runs = [], {}
    for model in models:
        sets = [f"max_minutes={args.minutes}", "epochs=1000", "threads=1", *args.sets]
        config = resolve(model, args.preset, sets)
        out = args.out / f"{args.language}-runs" / model
        started = time.perf_counter()
        summaries = train_suite(
            suite, config, out, device="cpu", overwrite=not args.reuse, resume=args.reuse
        )
        trained = time.perf_counter() - started
        card = run_report_card(suite, out)
        card["source"] = model
        cards.append(card)
        runs[model] = {
            "train_wall_seconds": round(trained, 1),
            "evaluate_wall_seconds": round(time.perf_counter() - started - trained, 1),
            "runs": {test: {k: s[k] for k in RUN_FIELDS} for test, s in summaries.items()},
        }
        print(format_report_card(cards), flush=True)
    name = args.name or f"report_cards_{args.language}"
    args.out.mkdir(parents=True, exist_ok=True)
    data = {"meta": meta, "cards": cards, "runs": runs}
    (args.out / f"{name}.json").write_text(json.dumps(data, indent=2, default=str) + "\n")
    lines = [f"# Report cards: {args.language} ({suite})", "", "```", format_report_card(cards)]
    lines += ["```", "", "```json", json.dumps({"meta": meta, "runs": runs}, indent=2), "```", ""]
    (args.out / f"{name}.md").write_text("\n".join(lines))


if __name__ == "__main__":
    main()
