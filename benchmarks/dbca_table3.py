"""Table 3 of Keysers et al. (2020) for one language: baseline and MCD splits, measured alike.

For the pool of LANG (SCAN: all 20,910 commands; other languages: ``--n`` drawn examples with
``--seed``), makes the splits random, output length, input length, output pattern, input
pattern and MCD1-3 (seeds 1, 2, 3) with ``--train-frac``/``--test-frac`` (default 40%/10%,
the SCAN MCD sizes) and reports for each D_A, D_C, output/input pattern coverage and
output/input length ratio, plus whether the MCD splits' D_C exceeds every baseline's. Writes
``dbca_table3_<lang>.json``, ``dbca_table3_<lang>.md`` and the split files into ``--out``.

    python benchmarks/dbca_table3.py LANG [--n 50000] [--seed 0] [--out runs/benchmarks]
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import symcomp
from symcomp.data.generate import PoolSpec, write_pool
from symcomp.data.splits import write_split
from symcomp.dbca.baselines import SplitSizes
from symcomp.dbca.mcd import McdConfig
from symcomp.dbca.split import PoolData, baseline, mcd

ROWS = ("random", "output_length", "input_length", "output_pattern", "input_pattern")
COLUMNS = (
    ("atom_divergence", "D_A"),
    ("compound_divergence", "D_C"),
    ("output_pattern_coverage", "output pattern cov."),
    ("input_pattern_coverage", "input pattern cov."),
    ("output_length_ratio", "output length ratio"),
    ("input_length_ratio", "input length ratio"),
)


def make_pool(language: str, n: int, seed: int, folder: Path) -> Path:
    lang = symcomp.get_language(language)
    spec = (
        PoolSpec(enumerate_all=True, with_dag=True)
        if lang.is_finite()
        else PoolSpec(n=n, seed=seed, with_dag=True)
    )
    if not (folder / "examples.jsonl").is_file():
        write_pool(lang, folder, spec, overwrite=True)
    return folder


def table(language: str, args: argparse.Namespace) -> dict[str, Any]:
    pool = make_pool(language, args.n, args.seed, args.out / f"dbca_pool_{language}")
    data = PoolData.read(pool)
    sizes = SplitSizes.from_fractions(len(data), args.train_frac, args.test_frac)
    rows: dict[str, dict[str, Any]] = {}
    for method in ROWS:
        start = time.perf_counter()
        split = baseline(data, method, sizes, seed=args.seed)
        rows[method] = _row(split.meta, time.perf_counter() - start)
        write_split(args.out / f"dbca_{language}_{method}.json", split)
        print(method, json.dumps(rows[method]), flush=True)
    for number in (1, 2, 3):
        start = time.perf_counter()
        config = McdConfig(train_size=sizes.train, test_size=sizes.held_out)
        split = mcd(data, sizes, config, seed=number)
        rows[f"MCD{number}"] = _row(split.meta, time.perf_counter() - start)
        write_split(args.out / f"dbca_{language}_mcd{number}.json", split)
        print(f"MCD{number}", json.dumps(rows[f"MCD{number}"]), flush=True)
    mcd_rows = [rows[f"MCD{k}"] for k in (1, 2, 3)]
    weakest = min(row["compound_divergence"] for row in mcd_rows)
    return {
        "language": language,
        "pool": data.describe(),
        "sizes": sizes.__dict__,
        "rows": rows,
        "mcd_above_every_baseline": all(weakest > rows[m]["compound_divergence"] for m in ROWS),
        "mcd_max_atom_divergence": max(row["atom_divergence"] for row in mcd_rows),
        "mcd_min_compound_divergence": weakest,
        "machine": platform.platform(),
    }


def _row(meta: Mapping[str, Any], seconds: float) -> dict[str, Any]:
    row = {key: meta.get(key) for key, _title in COLUMNS}
    row["sizes"] = meta["sizes"]
    row["seconds"] = round(seconds, 1)
    return row


def markdown(report: dict[str, Any]) -> str:
    sizes = report["sizes"]
    lines = [
        f"## Table 3 for {report['language']} ({report['pool']['examples']:,} examples; "
        f"train {sizes['train']:,}, test {sizes['test']:,})",
        "",
        "| split | " + " | ".join(title for _key, title in COLUMNS) + " | seconds |",
        "|---|" + "---:|" * (len(COLUMNS) + 1),
    ]
    for name, row in report["rows"].items():
        cells = [f"{row[key]:.3f}" if row[key] is not None else "–" for key, _t in COLUMNS]
        lines.append(
            f"| {name.replace('_', ' ')} | " + " | ".join(cells) + f" | {row['seconds']} |"
        )
    verdict = "yes" if report["mcd_above_every_baseline"] else "NO"
    lines += [
        "",
        f"MCD D_C above every baseline: **{verdict}** (lowest MCD D_C "
        f"{report['mcd_min_compound_divergence']:.4f}; highest MCD D_A "
        f"{report['mcd_max_atom_divergence']:.4f}).",
    ]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("language")
    parser.add_argument("--n", type=int, default=50_000, help="Pool size (infinite languages).")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--train-frac", type=float, default=0.4)
    parser.add_argument("--test-frac", type=float, default=0.1)
    parser.add_argument("--out", type=Path, default=Path("runs/benchmarks"))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    report = table(args.language, args)
    stem = f"dbca_table3_{args.language}"
    (args.out / f"{stem}.json").write_text(json.dumps(report, indent=2) + "\n")
    text = markdown(report)
    (args.out / f"{stem}.md").write_text(text)
    print(text)


if __name__ == "__main__":
    main()
