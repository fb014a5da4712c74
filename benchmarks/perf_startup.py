"""What a small command costs to start: ``symcomp --help`` and ``symcomp verify`` of a 10-row
monotonicity pool, this checkout beside another (``--baseline COMMIT``), alternated in one run.

Two states of the byte-code:

- ``byte-code``: every module's byte-code written beforehand (what ``make install`` leaves,
  and pip's default);
- ``none``: no byte-code anywhere, the standard library's included: ``PYTHONDONTWRITEBYTECODE=1``
  and ``PYTHONPYCACHEPREFIX`` set to an empty folder, so every module is compiled from source on
  every run. Harsher than any fresh install (whose standard library is compiled): an upper bound
  for an image that sets ``PYTHONDONTWRITEBYTECODE`` over an install that compiled nothing.

The baseline runs from a git worktree of ``COMMIT`` on ``PYTHONPATH`` with this checkout's
virtual environment (which must hold what the baseline imports: nltk for commits before
issue 42). CPU seconds are the child's user + system time (``resource.RUSAGE_CHILDREN``), so a
busy machine changes them less than wall time; both are reported, the median of ``--rounds``.

    python benchmarks/perf_startup.py --baseline 8b30577 [--rounds 5] [--out runs/benchmarks]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import subprocess
import tempfile
from pathlib import Path

from source_trees import CLI, REPO, check_imports, timed_cli, tree_environment, worktree


def commands(pool: Path) -> dict[str, list[str]]:
    return {"--help": ["--help"], "verify 10 rows": ["verify", str(pool)]}


def measure(sources: dict[str, Path], pool: Path, rounds: int) -> list[dict[str, object]]:
    """Every (checkout, byte-code state, command), alternated round by round."""
    empty = Path(tempfile.mkdtemp(prefix="symcomp-no-bytecode-"))
    for source in sources.values():  # write the byte-code of everything both import
        env = tree_environment(source, True, empty)
        check_imports(source, env)
        for args in commands(pool).values():
            timed_cli(args, env, source)
    samples: dict[tuple[str, str, str], list[tuple[float, float]]] = {}
    for _ in range(rounds):
        for state in ("byte-code", "none"):
            for name, args in commands(pool).items():
                for label, source in sources.items():
                    env = tree_environment(source, state == "byte-code", empty)
                    run = timed_cli(args, env, source)
                    cpu = run["user_s"] + run["sys_s"]
                    samples.setdefault((label, state, name), []).append((cpu, run["wall_s"]))
    assert not any(empty.iterdir()), "byte-code was written where none should be"
    return [
        {
            "checkout": label,
            "byte_code": state,
            "command": name,
            "cpu_s": statistics.median(cpu for cpu, _ in runs),
            "wall_s": statistics.median(wall for _, wall in runs),
            "cpu_s_all": [round(cpu, 3) for cpu, _ in runs],
        }
        for (label, state, name), runs in samples.items()
    ]


def small_pool(folder: Path) -> Path:
    pool = folder / "pool"
    subprocess.run(
        [*CLI, "-q", "generate", "monotonicity", "--n", "10", "--seed", "0", "--out", str(pool)],
        check=True,
        capture_output=True,
    )
    return pool


def markdown(rows: list[dict[str, object]]) -> str:
    lines = [
        "| command | byte-code | checkout | CPU s (median) | wall s (median) | CPU s, each round |",
        "|---|---|---|---:|---:|---|",
    ]
    for row in sorted(rows, key=lambda r: (str(r["command"]), str(r["byte_code"]))):
        lines.append(
            f"| {row['command']} | {row['byte_code']} | {row['checkout']} | "
            f"{row['cpu_s']:.2f} | {row['wall_s']:.2f} | {row['cpu_s_all']} |"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", help="a commit to measure beside this checkout")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--out", type=Path, default=REPO / "runs" / "benchmarks")
    options = parser.parse_args()
    with contextlib.ExitStack() as stack:
        sources = {"this checkout": REPO}
        if options.baseline:
            sources[options.baseline] = stack.enter_context(worktree(options.baseline))
        pool = small_pool(Path(tempfile.mkdtemp(prefix="symcomp-startup-")))
        rows = measure(sources, pool, options.rounds)
    options.out.mkdir(parents=True, exist_ok=True)
    (options.out / "perf_startup.json").write_text(json.dumps(rows, indent=2) + "\n")
    (options.out / "perf_startup.md").write_text(markdown(rows))
    print(markdown(rows))


if __name__ == "__main__":
    main()
