"""Tables 1 and 2 of Hupkes et al. (2020) from the published predictions, beside the paper's.

Uses the command line only: ``symcomp suite import pcfg-set`` on the published data, then
``symcomp evaluate --runs`` on each model's prediction tree (three runs each). Prints and
writes (``--out``: JSON and markdown) every Table 1 cell (mean ± std over runs), Table 2
(systematicity per held-out pair) and the ``<eos>`` shares of the productivity test
(the paper's note 16), each beside the paper's value with the difference.

    python benchmarks/pcfgset_published.py --data PATH/TO/am-i-compositional

``--data`` is a checkout of i-machine-think/am-i-compositional (``data/pcfgset`` and
``model_predictions``).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

MODELS = ("lstms2s", "convs2s", "transformer")
# (label, test, report-card row, paper values for LSTMS2S, ConvS2S, Transformer; None: not reported)
TABLE1 = (
    ("Task accuracy", "task", "accuracy (exact match)", (0.79, 0.85, 0.92)),
    ("Systematicity", "systematicity", "accuracy (exact match)", (0.53, 0.56, 0.72)),
    ("Productivity", "productivity", "accuracy (exact match)", (0.30, 0.31, 0.50)),
    (
        "Substitutivity, equally distributed",
        "substitutivity/equally_distributed",
        "consistency (equal, non-empty)",
        (0.80, 0.95, 0.98),
    ),
    (
        "Substitutivity, primitive",
        "substitutivity/primitive",
        "consistency (equal, non-empty)",
        (0.60, 0.58, 0.90),
    ),
    ("Localism", "localism", "consistency (unrolled = whole)", (0.46, 0.59, 0.54)),
    (
        "Overgeneralisation (0.1 %)",
        "overgeneralisation/ratio=0.001",
        "peak overgen., pair-only exceptions (paper)",
        (0.68, 0.79, 0.88),
    ),
)
TABLE2 = (
    ("swap repeat", "swap_first_last repeat", (0.40, 0.49, 0.53)),
    ("append remove_second", "append remove_second", (0.54, 0.46, 0.80)),
    ("repeat remove_second", "repeat remove_second", (0.66, 0.67, 0.80)),
    ("append swap", "append swap_first_last", (0.48, 0.56, 0.73)),
    ("All", None, (0.53, 0.56, 0.72)),
)
EOS = ((0.22, 0.06, 0.08), "<eos>: wrong inside target (paper)", "<eos>: wrong = strict prefix")


def symcomp(*args: str) -> str:
    command = [str(Path(sys.executable).with_name("symcomp")), "-q", *args]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stderr}")
    return done.stdout


def cell(summary: list[Any], test: str, row: str) -> tuple[float | None, float | None]:
    mean, std = (dict(card["tests"].get(test, {}).get("rows", [])) for card in summary)
    return mean.get(row), std.get(row)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, required=True, help="am-i-compositional checkout")
    parser.add_argument("--out", type=Path, default=Path("runs/benchmarks/pcfgset_published"))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    suite = args.out / "suite"
    started = time.perf_counter()
    symcomp(
        "suite",
        "import",
        "pcfg-set",
        str(args.data / "data/pcfgset"),
        "--out",
        str(suite),
        "--overwrite",
    )
    imported = time.perf_counter() - started
    summaries = {}
    for model in MODELS:
        tree = args.data / "model_predictions" / model
        summaries[model] = json.loads(
            symcomp("evaluate", str(suite), "--runs", str(tree), "--json")
        )["summary"]
    lines = [f"# Hupkes et al. (2020) from the published predictions (import {imported:.0f} s)", ""]
    lines += table("Table 1 (mean ± std over 3 runs; paper beside)", summaries, TABLE1)
    rows = [
        (
            label,
            "systematicity",
            f"accuracy, held-out pair {pair}" if pair else "accuracy (exact match)",
            paper,
        )
        for label, pair, paper in TABLE2
    ]
    lines += table("Table 2: systematicity per held-out pair", summaries, rows)
    eos_rows: list[tuple[str, str, str, tuple[float | None, ...]]] = [
        ("<eos>: wrong inside target", "productivity", EOS[1], EOS[0])
    ]
    eos_rows += [
        ("<eos>: strict prefix (not the paper's)", "productivity", EOS[2], (None, None, None))
    ]
    lines += table("Note 16: <eos> share of wrong productivity predictions", summaries, eos_rows)
    text = "\n".join(lines)
    print(text)
    (args.out / "pcfgset_published.md").write_text(text + "\n", encoding="utf-8")
    (args.out / "pcfgset_published.json").write_text(
        json.dumps(summaries, indent=2), encoding="utf-8"
    )


def table(title: str, summaries: dict[str, Any], rows: Any) -> list[str]:
    header = "| | " + " | ".join(f"{m} | paper | diff" for m in MODELS) + " |"
    lines = [f"## {title}", "", header, "|---" * (1 + 3 * len(MODELS)) + "|"]
    worst = 0.0
    for label, test, row, paper in rows:
        cells = []
        for model, expected in zip(MODELS, paper, strict=True):
            mean, std = cell(summaries[model], test, row)
            if mean is None:
                cells += ["n/a", _num(expected), ""]
                continue
            diff = "" if expected is None else f"{mean - expected:+.3f}"
            worst = max(worst, abs(mean - expected)) if expected is not None else worst
            cells += [f"{mean:.3f} ± {std:.3f}", _num(expected), diff]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return [*lines, "", f"largest |difference| to the paper: {worst:.3f}", ""]


def _num(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}"


if __name__ == "__main__":
    main()
