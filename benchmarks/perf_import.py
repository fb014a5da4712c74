"""Importing corpora and splitting them with DBCA at the scale of natural-text DBCA (300,000).

Moisio et al. (2023; GenBench ``europarl_dbca_splits``, aalto-speech/dbca) split 300k-sentence
pools with lemma/relation atoms and (head, relation, dependent) compounds: 200k+ greedy
iterations, about 4 hours on a V100 per split, with the most and least frequent lemmas dropped
because memory did not allow all atoms and compounds. Here, on one CPU core, with every atom and
compound kept:

1. Two corpora of ``--rows`` examples are written (seeded): a CoNLL-U treebank of random
   dependency trees over a Zipf-distributed lemma vocabulary (``--lemmas``, 35 UD relations,
   5-30 words per sentence; the shape of a parsed corpus, not its content), and a TSV of
   question/FunQL pairs (random FunQL trees, arities 0-3).
2. ``symcomp import`` reads each (TSV with ``--compounds tree:funql``, CoNLL-U with the default
   ``conllu`` extractor): rows per second.
3. ``symcomp split dbca`` makes an MCD split of the imported treebank with the CLI defaults
   (train 40 %, test 10 %, D_A <= 0.02, 10 rounds): CPU time and peak RSS of the whole command.

Each command runs as a child process; CPU time (user + system) and peak resident memory come
from ``wait4``. Limits of the issue: 30 CPU-minutes and 8 GB for the split.

    python benchmarks/perf_import.py [--rows 300000] [--out runs/benchmarks/perf_import]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

SYMCOMP = [sys.executable, "-c", "from symcomp.cli import main; main()"]
LIMITS = {"cpu_minutes": 30, "peak_rss_gb": 8}
ANCHOR = "Moisio et al. 2023: ~4 h per split on a V100, most/least frequent lemmas pruned"
RELATIONS = [
    "nsubj",
    "obj",
    "iobj",
    "csubj",
    "ccomp",
    "xcomp",
    "obl",
    "vocative",
    "expl",
    "dislocated",
    "advcl",
    "advmod",
    "discourse",
    "aux",
    "cop",
    "mark",
    "nmod",
    "appos",
    "nummod",
    "acl",
    "amod",
    "det",
    "clf",
    "case",
    "conj",
    "cc",
    "fixed",
    "flat",
    "compound",
    "list",
    "parataxis",
    "orphan",
    "goeswith",
    "reparandum",
    "punct",
    "dep",
]
FUNCTIONS = {
    0: ["_", "texas", "ohio", "austin", "river", "usa"],
    1: [
        "answer",
        "size",
        "state",
        "city",
        "largest",
        "smallest",
        "population_1",
        "area_1",
        "capital_1",
        "loc_1",
        "traverse_1",
        "exclude_1",
    ],
    2: ["intersection", "exclude", "most", "cityid"],
    3: ["largest_one", "fewest"],
}


def measured(arguments: list[str]) -> dict[str, Any]:
    """Run ``symcomp ARGUMENTS``; its wall and CPU seconds and peak RSS (GB)."""
    start = time.perf_counter()
    process = subprocess.Popen([*SYMCOMP, *arguments], stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    output = process.stdout.read()
    _pid, status, usage = os.wait4(process.pid, 0)
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        raise SystemExit(f"symcomp {' '.join(arguments)} failed ({code}): {output}")
    return {
        "seconds": round(time.perf_counter() - start, 1),
        "cpu_seconds": round(usage.ru_utime + usage.ru_stime, 1),
        "peak_rss_gb": round(usage.ru_maxrss / 1e6, 2),  # kilobytes on Linux
        "output": output.strip().splitlines()[-3:],
    }


def write_treebank(path: Path, rows: int, lemmas: int, seed: int) -> None:
    """Random dependency trees: Zipf lemmas, uniform relations, each word's head earlier."""
    rng = np.random.default_rng(seed)
    weights = 1.0 / np.arange(1, lemmas + 1) ** 1.1
    weights /= weights.sum()
    with path.open("w", encoding="utf-8") as handle:
        for number in range(rows):
            size = int(rng.integers(5, 31))
            words = rng.choice(lemmas, size=size, p=weights)
            relations = rng.integers(0, len(RELATIONS), size=size)
            root = int(rng.integers(0, size))
            lines = [f"# sent_id = s{number}"]
            forms = [f"w{word}" for word in words]
            lines.append(f"# text = {' '.join(forms)}")
            for index in range(size):
                if index == root:
                    head, relation = 0, "root"
                else:
                    # attach to a word already in the tree (the root or one before this word)
                    choices = [root + 1] + [j + 1 for j in range(index) if j != root]
                    head = choices[int(rng.integers(0, len(choices)))]
                    relation = RELATIONS[int(relations[index])]
                form = forms[index]
                lines.append(f"{index + 1}\t{form}\t{form}\tX\t_\t_\t{head}\t{relation}\t_\t_")
            handle.write("\n".join(lines) + "\n\n")


def funql(rng: np.random.Generator, depth: int) -> str:
    arity = 0 if depth >= 4 else int(rng.choice(4, p=[0.3, 0.45, 0.2, 0.05]))
    names = FUNCTIONS[arity]
    name = names[int(rng.integers(0, len(names)))]
    if arity == 0:
        return name
    return f"{name}({','.join(funql(rng, depth + 1) for _ in range(arity))})"


def write_tsv(path: Path, rows: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    with path.open("w", encoding="utf-8") as handle:
        for number in range(rows):
            target = f"answer({funql(rng, 1)})"
            question = " ".join(
                target.replace("(", " ").replace(")", " ").replace(",", " ").split()
            )
            handle.write(f"q{number} {question}\t{target}\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=300_000)
    parser.add_argument("--lemmas", type=int, default=30_000)
    parser.add_argument("--out", type=Path, default=Path("runs/benchmarks/perf_import"))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    report: dict[str, Any] = {"machine": platform.platform(), "rows": args.rows, "anchor": ANCHOR}
    treebank, table = args.out / "treebank.conllu", args.out / "funql.tsv"
    if not treebank.is_file():
        write_treebank(treebank, args.rows, args.lemmas, seed=0)
    if not table.is_file():
        write_tsv(table, args.rows, seed=0)
    for name, source, extra in (
        ("tsv", table, ["--compounds", "tree:funql"]),
        ("conllu", treebank, []),
    ):
        cost = measured(
            ["import", str(source), "--out", str(args.out / f"pool-{name}"), "--overwrite", *extra]
        )
        cost["rows_per_second"] = round(args.rows / cost["seconds"], 1)
        report[f"import_{name}"] = cost
        print(name, cost, flush=True)
    split_file = args.out / "mcd-conllu.json"
    cost = measured(
        [
            "split",
            "dbca",
            str(args.out / "pool-conllu"),
            "--seed",
            "0",
            "--out",
            str(split_file),
            "--overwrite",
        ]
    )
    meta = json.loads(split_file.read_text())["meta"]
    cost.update({key: meta[key] for key in ("atom_divergence", "compound_divergence", "sizes")})
    cost["features"] = {k: meta["features"].get(k) for k in ("kept_compounds", "top_k")}
    cost["within_limits"] = (
        cost["cpu_seconds"] <= LIMITS["cpu_minutes"] * 60
        and cost["peak_rss_gb"] <= LIMITS["peak_rss_gb"]
    )
    report["split_conllu"] = cost
    print("split", cost, flush=True)
    (args.out / "perf_import.json").write_text(json.dumps(report, indent=2) + "\n")


if __name__ == "__main__":
    main()
