"""Pool generation speed: examples per second written to examples.jsonl.

Measures, for the built-in languages, the time of ``symcomp.data.generate.generate`` (draw with the
pool's uniqueness rules, interpret, serialise, write, hash) with and without derivation DAGs,
on one core (``jobs=1``) and with ``jobs=2``; each configuration runs ``--repeat`` times and the
median is reported. Writes ``perf_generate.json`` and ``perf_generate.md`` into ``--out``.

    python benchmarks/perf_generate.py [--n 100000] [--repeat 3] [--out runs/benchmarks]

With ``--baseline PATH`` (repeatable) it instead times the command a user runs,
``symcomp generate LANGUAGE --n N --seed S --jobs J``, start-up included, from this checkout and
from each other source tree (e.g. ``git worktree add /tmp/old 0264ee6``), alternated round by
round, each tree first on ``PYTHONPATH`` with this checkout's virtual environment. It reports
user and system CPU seconds of the child (``resource.RUSAGE_CHILDREN``: a busy machine changes
them less than wall time) and wall seconds, every round and the median, and the sha256 of each
tree's ``examples.jsonl`` and ``manifest.json``. A first run per tree writes the byte-code of
what it imports, so no tree pays for compiling; ``--no-bytecode`` compiles every module on every
run instead (``PYTHONDONTWRITEBYTECODE=1``, ``PYTHONPYCACHEPREFIX`` an empty folder). Every
tree reads the grammars the install serves (``symcomp.grammars``: this checkout's ``grammars/``
for an editable install); the report names a tree's own grammar files that differ from them.
Writes ``perf_generate_baseline.json`` and ``.md``.

    python benchmarks/perf_generate.py --baseline /tmp/old [--baseline ...] [--rounds 3]
        [--language pcfg-set] [--n 100000] [--seed 1] [--jobs 1] [--no-bytecode] [--out DIR]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import platform
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from source_trees import check_imports, timed_cli, tree_environment

import symcomp
from symcomp.data.generate import PoolSpec, generate


def measure(language: str, spec: PoolSpec, jobs: int, repeat: int) -> dict[str, Any]:
    """Median wall time and rate of ``repeat`` generations of one configuration."""
    lang = symcomp.get_language(language)
    times, manifest = [], {}
    for _ in range(repeat):
        with tempfile.TemporaryDirectory() as folder:
            start = time.perf_counter()
            manifest = generate(lang, Path(folder) / "pool", spec, jobs=jobs)
            times.append(time.perf_counter() - start)
    examples = manifest["files"]["examples.jsonl"]["lines"]
    seconds = statistics.median(times)
    return {
        "language": language,
        "n": examples,
        "with_dag": spec.with_dag,
        "naturalize": spec.naturalize is not None,
        "enumerate_all": spec.enumerate_all,
        "jobs": jobs,
        "seconds": round(seconds, 3),
        "examples_per_second": round(examples / seconds),
        "sha256": manifest["files"]["examples.jsonl"]["sha256"],
    }


REPO = Path(__file__).resolve().parents[1]


def sha256s(folder: Path) -> dict[str, str]:
    return {
        name: hashlib.sha256((folder / name).read_bytes()).hexdigest()
        for name in ("examples.jsonl", "manifest.json")
    }


def compare_trees(
    sources: dict[str, Path], args: argparse.Namespace, bytecode: bool
) -> list[dict[str, Any]]:
    """Every tree runs the command once per round, trees alternated within each round."""
    runs: dict[str, list[dict[str, float]]] = {label: [] for label in sources}
    digests: dict[str, dict[str, str]] = {}
    differ: dict[str, list[str]] = {}
    with tempfile.TemporaryDirectory(prefix="symcomp-perf-generate-") as folder:
        scratch = Path(folder)
        empty = scratch / "no-bytecode"
        empty.mkdir()
        envs = {label: tree_environment(tree, bytecode, empty) for label, tree in sources.items()}
        for number, (label, tree) in enumerate(sources.items()):
            differ[label] = check_imports(tree, envs[label])
            if bytecode:  # a first, small run writes the byte-code of what the command imports
                warm = generate_args(args, 10, scratch / f"warm-{number}")
                timed_cli(warm, envs[label], tree)
        for _ in range(args.rounds):
            for number, (label, tree) in enumerate(sources.items()):
                out = scratch / f"out-{number}"
                runs[label].append(timed_cli(generate_args(args, args.n, out), envs[label], tree))
                digest = sha256s(out)
                if digests.setdefault(label, digest) != digest:
                    raise SystemExit(f"{tree}: another round wrote other bytes")
        assert bytecode or not any(empty.iterdir()), "byte-code was written where none should be"
    return [
        tree_row(label, sources[label], runs[label], digests[label])
        | {"grammars_differ": differ[label]}
        for label in sources
    ]


def generate_args(args: argparse.Namespace, n: int, out: Path) -> list[str]:
    return [
        *("generate", args.language, "--n", str(n), "--seed", str(args.seed)),
        *("--jobs", str(args.jobs), "--out", str(out), "--overwrite"),
    ]


def tree_row(
    label: str, source: Path, runs: list[dict[str, float]], digest: dict[str, str]
) -> dict[str, Any]:
    row: dict[str, Any] = {"tree": label, "source": str(source)}
    for key in ("user_s", "sys_s", "wall_s"):
        row[key] = round(statistics.median(run[key] for run in runs), 3)
        row[f"{key}_all"] = [round(run[key], 3) for run in runs]
    return row | {"sha256": digest}


def baseline_markdown(rows: list[dict[str, Any]], command: str) -> str:
    reference = rows[0]["user_s"]
    lines = [
        f"`{command}`, trees alternated; medians, then every round; ratio: user s over this "
        "checkout's",
        "",
        "| tree | user s | ratio | sys s | wall s | user s, each round | examples.jsonl |",
        "|---|---:|---:|---:|---:|---|---|",
        *(
            f"| {r['tree']} | {r['user_s']:.2f} | {r['user_s'] / reference:.3f} "
            f"| {r['sys_s']:.2f} | {r['wall_s']:.2f} | {r['user_s_all']} "
            f"| {r['sha256']['examples.jsonl'][:16]} |"
            for r in rows
        ),
    ]
    same = len({json.dumps(r["sha256"], sort_keys=True) for r in rows}) == 1
    lines += ["", "same bytes in every tree" if same else "**the trees wrote different bytes**"]
    lines += [
        f"\n{r['tree']} ran with the installed grammars, which differ from its own in "
        f"{', '.join(r['grammars_differ'])}"
        for r in rows
        if r["grammars_differ"]
    ]
    return "\n".join(lines) + "\n"


def main_baseline(args: argparse.Namespace) -> None:
    sources = {"this checkout": REPO}
    for path in args.baseline:
        sources[str(path)] = path.resolve()
    rows = compare_trees(sources, args, not args.no_bytecode)
    command = (
        f"symcomp generate {args.language} --n {args.n} --seed {args.seed} --jobs {args.jobs}"
        + (" (no byte-code)" if args.no_bytecode else "")
    )
    args.out.mkdir(parents=True, exist_ok=True)
    report = {"machine": platform.platform(), "command": command, "rows": rows}
    (args.out / "perf_generate_baseline.json").write_text(json.dumps(report, indent=2) + "\n")
    text = baseline_markdown(rows, command)
    (args.out / "perf_generate_baseline.md").write_text(text)
    print(text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--out", type=Path, default=Path("runs/benchmarks"))
    parser.add_argument("--baseline", type=Path, action="append", help="another source tree")
    parser.add_argument("--language", default="pcfg-set", help="with --baseline")
    parser.add_argument("--seed", type=int, default=1, help="with --baseline")
    parser.add_argument("--jobs", type=int, default=1, help="with --baseline")
    parser.add_argument("--rounds", type=int, default=3, help="with --baseline")
    parser.add_argument("--no-bytecode", action="store_true", help="with --baseline")
    args = parser.parse_args()
    if args.baseline:
        main_baseline(args)
        return
    configurations = [
        ("pcfg-set", PoolSpec(n=args.n, seed=0), 1),
        ("pcfg-set", PoolSpec(n=args.n, seed=0), 2),
        ("pcfg-set", PoolSpec(n=args.n, seed=0, with_dag=True), 1),
        ("pcfg-set", PoolSpec(n=args.n, seed=0, with_dag=True), 2),
        ("pcfg-let", PoolSpec(n=args.n, seed=0), 1),
        ("scan", PoolSpec(enumerate_all=True), 1),
        ("scan", PoolSpec(enumerate_all=True, with_dag=True), 1),
    ]
    rows = []
    for language, spec, jobs in configurations:
        row = measure(language, spec, jobs, args.repeat)
        rows.append(row)
        print(json.dumps(row))
    args.out.mkdir(parents=True, exist_ok=True)
    report = {"machine": platform.platform(), "python": platform.python_version(), "rows": rows}
    (args.out / "perf_generate.json").write_text(json.dumps(report, indent=2) + "\n")
    lines = [
        "| language | n | DAG | jobs | seconds | examples/s |",
        "|---|---:|---|---:|---:|---:|",
        *(
            f"| {r['language']} | {r['n']:,} | {'yes' if r['with_dag'] else 'no'} | {r['jobs']} "
            f"| {r['seconds']} | {r['examples_per_second']:,} |"
            for r in rows
        ),
    ]
    (args.out / "perf_generate.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
