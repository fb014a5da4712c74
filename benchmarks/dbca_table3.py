"""Table 3 of Keysers et al. (2020) for one language: baseline and MCD splits beside the paper's.

For the pool of LANG (SCAN: all 20,910 commands; other languages: ``--n`` drawn examples with
``--seed``), makes the splits of the paper's Table 3 at the paper's sizes (train 40 %, dev 5 %,
test 5 %): random; output and input length with the paper's thresholds (train: length <= N,
test: longer); output and input pattern (the language's pattern abstraction); MCD1-3 (seeds
1, 2, 3, each test kept apart from the earlier ones). Every column is printed beside the
paper's value where the paper (as transcribed in issue 11) gives one: D_A and D_C (train vs
test), output/input pattern coverage, output/input length ratio (train/test), plus the MCD
splits' pairwise test overlap. For SCAN it also measures the published splits of Lake & Baroni
and Loula et al., rebuilt by ``symcomp suite scan`` (the same numbers ``symcomp divergence``
prints), beside the paper's Figure 7 atom divergences.

Writes ``dbca_table3_<lang>.json``, ``dbca_table3_<lang>.md`` and the split files into
``--out``.

    python benchmarks/dbca_table3.py LANG [--n 100000] [--seed 0] [--out runs/benchmarks]
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
from symcomp.data.splits import Split, read_split, write_split
from symcomp.dbca.baselines import SplitSizes
from symcomp.dbca.mcd import McdConfig
from symcomp.dbca.split import PoolData, baseline, mcd, measure, overlap
from symcomp.errors import SymcompError

ROWS = ("random", "output_length", "input_length", "output_pattern", "input_pattern")
COLUMNS = (
    ("atom_divergence", "D_A"),
    ("compound_divergence", "D_C"),
    ("output_pattern_coverage", "out. pattern cov."),
    ("input_pattern_coverage", "in. pattern cov."),
    ("output_length_ratio", "out. length ratio"),
    ("input_length_ratio", "in. length ratio"),
)


def _paper(da: float | None, dc: float | None, **more: float) -> dict[str, float | None]:
    return {"atom_divergence": da, "compound_divergence": dc, **more}


# The paper's numbers as transcribed in issue 11 (Table 3, SCAN rows; MCD1's input-pattern
# coverage); columns the transcription lacks are None and print as "?".
PAPER: dict[str, dict[str, Any]] = {
    "scan": {
        "thresholds": {"output_length": 22, "input_length": 8},
        "rows": {
            "random": _paper(0.000, 0.047),
            "output_length": _paper(0.034, 0.437),
            "input_length": _paper(0.106, 0.380),
            "output_pattern": _paper(0.003, 0.221),
            "input_pattern": _paper(0.005, 0.240),
            "MCD1": _paper(0.015, 0.736, input_pattern_coverage=0.357),
            "MCD2": _paper(0.020, 0.734),
            "MCD3": _paper(0.014, 0.735),
        },
        # Figure 7: the published splits' atom divergence
        "published": {"length": _paper(0.03, None), "addprim_jump": _paper(0.08, None)},
    },
    "cfq": {
        # the paper's CFQ input-length split holds out questions longer than 19 tokens
        "thresholds": {"input_length": 19},
        "rows": {f"MCD{k}": _paper(0.020, None) for k in (1, 2, 3)},  # D_A bound of CFQ's MCD
    },
}
PUBLISHED = (
    "simple",
    "length",
    "addprim_jump",
    "addprim_turn_left",
    "template_jump_around_right",
    "template_right",
    "template_opposite_right",
    "template_around_right",
)


def make_pool(language: str, n: int, seed: int, folder: Path) -> Path:
    lang = symcomp.get_language(language)
    spec = (
        PoolSpec(enumerate_all=True, with_dag=True)
        if lang.is_finite()
        else PoolSpec(n=n, seed=seed, with_dag=True)
    )
    manifest = folder / "manifest.json"
    stale = (
        manifest.is_file()
        and json.loads(manifest.read_text()).get("grammar_version") != lang.version
    )
    if stale or not (folder / "examples.jsonl").is_file():
        write_pool(lang, folder, spec, overwrite=True)
    return folder


def table(language: str, args: argparse.Namespace) -> dict[str, Any]:
    paper = PAPER.get(language, {"thresholds": {}, "rows": {}})
    pool = make_pool(language, args.n, args.seed, args.out / f"dbca_pool_{language}")
    data = PoolData.read(pool)
    sizes = SplitSizes.from_fractions(len(data), args.train_frac, args.test_frac, args.dev_frac)
    rows: dict[str, dict[str, Any]] = {}
    for method in ROWS:
        threshold = paper["thresholds"].get(method)
        start = time.perf_counter()
        try:
            split = baseline(data, method, sizes, seed=args.seed, max_train_length=threshold)
        except SymcompError as error:  # e.g. too few examples beyond the paper's threshold
            rows[method] = {"error": str(error), "threshold": threshold}
            print(method, "not built:", error, flush=True)
            continue
        rows[method] = _row(split.meta, time.perf_counter() - start, threshold)
        write_split(args.out / f"dbca_{language}_{method}.json", split)
        print(method, json.dumps(rows[method]), flush=True)
    # the paper's construction: greedy with occasional removals, no held-out pair seeding and
    # no improvement rounds (symcomp's additions, which find higher D_C: the last row)
    paper_search = McdConfig(sizes.train, sizes.held_out, seeding="off", rounds=0)
    earlier: dict[str, Split] = {}
    for number in (1, 2, 3):
        name = f"MCD{number}"
        rows[name], earlier[name] = _mcd_row(data, sizes, paper_search, number, earlier, args)
    rows["MCD1 (symcomp search)"], _split = _mcd_row(
        data, sizes, McdConfig(sizes.train, sizes.held_out), 1, {}, args
    )
    overlaps = {
        f"{a}-{b}": overlap(earlier[a].test, earlier[b].test)
        for a in earlier
        for b in earlier
        if a < b
    }
    report: dict[str, Any] = {
        "language": language,
        "pool": data.describe(),
        "sizes": sizes.__dict__,
        "rows": rows,
        "paper": paper["rows"],
        "mcd_test_overlap": overlaps,
        "machine": platform.platform(),
    }
    if language == "scan":
        report["published"] = published(args.out / "dbca_scan_suite")
        report["paper_published"] = paper["published"]
    return report


def _mcd_row(
    data: PoolData,
    sizes: SplitSizes,
    config: McdConfig,
    seed: int,
    earlier: Mapping[str, Split],
    args: argparse.Namespace,
) -> tuple[dict[str, Any], Split]:
    start = time.perf_counter()
    split = mcd(data, sizes, config, seed=seed, distinct_from=earlier)
    row = _row(split.meta, time.perf_counter() - start, None)
    row["target_met"] = split.meta["target_met"]
    name = "mcd" + str(seed) + ("" if config.rounds == 0 else "_symcomp")
    write_split(args.out / f"dbca_{data.describe()['language']}_{name}.json", split)
    print(name, json.dumps(row), flush=True)
    return row, split


def published(folder: Path) -> dict[str, dict[str, Any]]:
    """The published SCAN splits, rebuilt by ``symcomp suite scan``, as ``symcomp divergence``
    measures them."""
    builder = symcomp.get_language("scan").suite_builder()
    assert builder is not None
    if not (folder / "manifest.json").is_file():
        builder.build(folder, builder.spec(export=False), overwrite=True)
    probe = PoolData.read(folder)
    results = {}
    for name in PUBLISHED:
        split = read_split(folder / name / "split.json", len(probe))
        values = measure(probe, split)
        results[name] = {key: values.get(key) for key, _title in COLUMNS} | {
            "sizes": values["sizes"]
        }
        print("published", name, json.dumps(results[name]), flush=True)
    return results


def _row(meta: Mapping[str, Any], seconds: float, threshold: int | None) -> dict[str, Any]:
    row = {key: meta.get(key) for key, _title in COLUMNS}
    row["dev_atom_divergence"] = meta.get("dev_atom_divergence")
    row["sizes"] = meta["sizes"]
    row["threshold"] = threshold
    row["seconds"] = round(seconds, 1)
    return row


def _cell(value: Any, paper: Any) -> str:
    ours = f"{value:.3f}" if isinstance(value, int | float) else "–"
    theirs = f"{paper:.3f}" if isinstance(paper, int | float) else "?"
    return f"{ours} ({theirs})"


def markdown(report: dict[str, Any]) -> str:
    sizes = report["sizes"]
    lines = [
        f"## Table 3 for {report['language']} ({report['pool']['examples']:,} examples; "
        f"train {sizes['train']:,}, dev {sizes['dev']:,}, test {sizes['test']:,})",
        "",
        "symcomp (paper); ? = not in the transcription of the paper; length ratios are train/test.",
        "",
        "| split | " + " | ".join(title for _key, title in COLUMNS) + " | seconds |",
        "|---|" + "---:|" * (len(COLUMNS) + 1),
    ]
    for name, row in report["rows"].items():
        label = name.replace("_", " ")
        if row.get("threshold") is not None:
            label += f" (N = {row['threshold']})"
        if "error" in row:
            lines.append(f"| {label} | not built: {row['error']} |" + " |" * len(COLUMNS))
            continue
        paper = report["paper"].get(name, {})
        cells = [_cell(row[key], paper.get(key)) for key, _title in COLUMNS]
        lines.append(f"| {label} | " + " | ".join(cells) + f" | {row['seconds']} |")
    overlaps = ", ".join(f"{k} {v:.1%}" for k, v in report["mcd_test_overlap"].items())
    lines += ["", f"MCD test overlap: {overlaps}."]
    if "published" in report:
        lines += [
            "",
            "## Published SCAN splits (`symcomp suite scan`, measured as `symcomp divergence`)",
            "",
            "| split | train | test | D_A (Figure 7) | D_C |",
            "|---|---:|---:|---:|---:|",
        ]
        for name, row in report["published"].items():
            paper = report["paper_published"].get(name, {})
            lines.append(
                f"| {name} | {row['sizes']['train']:,} | {row['sizes']['test']:,} | "
                f"{_cell(row['atom_divergence'], paper.get('atom_divergence'))} | "
                f"{row['compound_divergence']:.3f} |"
            )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("language")
    parser.add_argument("--n", type=int, default=100_000, help="Pool size (infinite languages).")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--train-frac", type=float, default=0.4)
    parser.add_argument("--dev-frac", type=float, default=0.05)
    parser.add_argument("--test-frac", type=float, default=0.05)
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
