"""Two-sample tests of categorical statistics, shared by ``cogs_fidelity.py`` and
``slog_fidelity.py``: can a test tell symcomp's sample of a case from the published one?

Each statistic is a label per row (a skeleton, a length, a slot). The two samples make a 2×K
table (K: the labels seen in either); the test is Pearson's chi-square on that table, its null
distribution got by permuting the labels between the two samples (:func:`permutation_test`),
so sparse tables (expected counts far below 5) need no asymptotics. A family of such tests is
corrected with Holm's step-down method (:func:`holm`).

>>> same = permutation_test(["a", "b"] * 500, ["a", "b"] * 50, permutations=999, seed=0)
>>> same.statistic, same.p_value
(0.0, 1.0)
>>> apart = permutation_test(["a"] * 90 + ["b"] * 10, ["a"] * 10 + ["b"] * 90, permutations=999)
>>> apart.p_value  # no permutation reaches the observed table: the smallest p there is
0.001
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import zlib
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

Codes = npt.NDArray[np.int64]
# permuted labels held at once (permutations × rows of the smaller sample): ~64 MB of int64
BATCH_CELLS = 8_000_000
# a permuted statistic equal to the observed one up to float rounding counts as reaching it
RELATIVE_TIE = 1e-9


@dataclass(frozen=True)
class Result:
    """One test: the observed chi-square, its permutation p-value, the table's K and sizes."""

    statistic: float
    p_value: float
    categories: int
    sizes: tuple[int, int]
    permutations: int


def encode(first: Sequence[Hashable], second: Sequence[Hashable]) -> tuple[Codes, int]:
    """The pooled labels (``first`` then ``second``) as integer codes, and how many there are.

    >>> codes, k = encode(["x", "y"], ["y", "z"])
    >>> codes.tolist(), k
    ([0, 1, 1, 2], 3)
    """
    index: dict[Hashable, int] = {}
    codes = [index.setdefault(label, len(index)) for label in (*first, *second)]
    return np.asarray(codes, dtype=np.int64), len(index)


def chi_square(
    second: Codes, totals: Codes, n_first: int, n_second: int
) -> npt.NDArray[np.float64]:
    """Pearson's chi-square of 2×K tables given by the second sample's counts (one table per
    row of ``second``) and the fixed column totals: with the margins fixed, the table is its
    second row, and ``sum (O - E)^2 / E`` over both rows is
    ``N^2 / (n1 n2) * sum_k (x_k - n2 t_k / N)^2 / t_k`` (the same from either row).

    >>> chi_square(np.array([[10, 0]]), np.array([10, 10]), 10, 10).round(6).tolist()
    [20.0]
    """
    total = n_first + n_second
    expected = n_second * totals / total
    scale = total * total / (n_first * n_second)
    return np.asarray(scale * (((second - expected) ** 2) / totals).sum(axis=-1), dtype=np.float64)


def permuted_counts(
    codes: Codes, size: int, k: int, count: int, rng: np.random.Generator
) -> npt.NDArray[np.int64]:
    """The counts per label of ``size`` pooled rows chosen uniformly at random without
    replacement, ``count`` times (one row each): a random permutation of the labels between
    the samples, seen through the rows it gives the smaller one (drawing that many rows is
    O(size), where shuffling all of them is O(N); the chi-square is the same from either
    row of a table with fixed margins). One ``bincount`` counts them all, each draw's labels
    offset by ``k`` times its row.

    >>> counts = permuted_counts(np.array([0, 0, 1, 1]), 2, 2, 3, np.random.default_rng(0))
    >>> counts.shape, counts.sum(axis=1).tolist()
    ((3, 2), [2, 2, 2])
    """
    chosen = np.stack([codes[rng.choice(codes.size, size, replace=False)] for _ in range(count)])
    offsets = chosen + k * np.arange(count)[:, None]
    return np.bincount(offsets.ravel(), minlength=count * k).reshape(count, k)


def permutation_test(
    first: Sequence[Hashable],
    second: Sequence[Hashable],
    *,
    permutations: int = 10_000,
    seed: int | Sequence[int] = 0,
) -> Result:
    """Permutation test of the chi-square of the 2×K table of two samples of labels:
    ``p = (1 + #{T_perm >= T_obs}) / (1 + permutations)``, the labels permuted between the
    samples (:func:`permuted_counts`) with a numpy Generator seeded by ``seed``. One label in
    both samples: T is 0 and p is 1.

    >>> permutation_test(["a"] * 30, ["a", "b"] * 5, permutations=99, seed=1).p_value
    0.01
    """
    codes, k = encode(first, second)
    n_first, n_second = len(first), len(second)
    small, large = min(n_first, n_second), max(n_first, n_second)
    totals = np.bincount(codes, minlength=k)
    table = np.bincount(codes[n_first:], minlength=k)[None, :]
    observed = float(chi_square(table, totals, n_first, n_second)[0])
    rng = np.random.default_rng(seed)
    reached, done = 0, 0
    batch = max(1, BATCH_CELLS // max(1, small))
    while done < permutations:
        count = min(batch, permutations - done)
        counts = permuted_counts(codes, small, k, count, rng)
        statistics = chi_square(counts, totals, large, small)
        reached += int((statistics >= observed * (1 - RELATIVE_TIE)).sum())
        done += count
    p_value = (1 + reached) / (1 + permutations)
    return Result(observed, p_value, k, (n_first, n_second), permutations)


def homogeneity_test(
    samples: Sequence[Sequence[Hashable]], *, permutations: int = 10_000, seed: int = 0
) -> Result:
    """Permutation test that k samples of labels come from one distribution: Pearson's
    chi-square of the k×K table, the labels permuted among the samples (all rows shuffled
    at once, O(N) a permutation: for evidence about a family of cases, not for the family).
    ``sizes`` holds the smallest and largest sample.

    >>> alike = [["a", "b"] * 20, ["a", "b"] * 30, ["a", "b"] * 10]
    >>> homogeneity_test(alike, permutations=99).p_value
    1.0
    >>> homogeneity_test([["a"] * 30, ["b"] * 30, ["a", "b"] * 15], permutations=99).p_value
    0.01
    """
    codes, k = encode([], [label for sample in samples for label in sample])
    groups = np.repeat(np.arange(len(samples)), [len(sample) for sample in samples])
    expected = np.outer(np.bincount(groups), np.bincount(codes, minlength=k)) / codes.size
    cells = len(samples) * k

    def statistic(tables: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
        return np.asarray((((tables - expected) ** 2) / expected).sum(axis=(1, 2)))

    observed = float(
        statistic(np.bincount(groups * k + codes, minlength=cells).reshape(1, -1, k))[0]
    )
    rng = np.random.default_rng(seed)
    reached, done = 0, 0
    batch = max(1, BATCH_CELLS // max(1, codes.size))
    while done < permutations:
        count = min(batch, permutations - done)
        shuffled = rng.permuted(np.broadcast_to(codes, (count, codes.size)), axis=1)
        flat = groups * k + shuffled + cells * np.arange(count)[:, None]
        tables = np.bincount(flat.ravel(), minlength=count * cells).reshape(count, -1, k)
        reached += int((statistic(tables) >= observed * (1 - RELATIVE_TIE)).sum())
        done += count
    sizes = [len(sample) for sample in samples]
    return Result(
        observed, (1 + reached) / (1 + permutations), k, (min(sizes), max(sizes)), permutations
    )


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values, in the input's order: the i-th smallest p times
    ``m - i + 1``, made non-decreasing along the order, at most 1. A test rejects at
    family-wise level alpha when its adjusted p is below alpha.

    >>> holm([0.01, 0.04, 0.03, 0.5])
    [0.04, 0.09, 0.09, 0.5]
    """
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[index]))
        adjusted[index] = round(running, 12)
    return adjusted


def stream(seed: int, name: str) -> list[int]:
    """The Generator seed of one named test: the family's seed and a CRC of the name, so a
    test's permutations do not depend on which other tests run.

    >>> stream(0, "in_distribution/length")
    [0, 242120275]
    """
    return [seed, zlib.crc32(name.encode("utf-8"))]


@dataclass(frozen=True)
class Row:
    """One member of a family: case, statistic, the test (None when the statistic is not
    defined for the case, with the reason), and the Holm-adjusted p-value."""

    case: str
    statistic: str
    result: Result | None
    reason: str = ""
    holm: float | None = None
    label: str = ""  # the one category, where the test is n/a for having one


Samples = Mapping[str, Mapping[str, tuple[Sequence[Hashable | None], Sequence[Hashable | None]]]]


def family(samples: Samples, *, permutations: int = 10_000, seed: int = 0) -> list[Row]:
    """Every (case, statistic) of ``samples`` (case -> statistic -> (symcomp's labels, the
    published labels)) tested, then Holm-corrected over all the tests that ran. A statistic
    whose labels are None on any row is not defined for its case; one with a single label in
    both samples cannot tell them apart: both are listed, with the reason, outside the family.

    >>> rows = family({"c": {"s": (["a", "b"] * 20, ["a", "b"] * 5), "t": ([None], [None])}},
    ...               permutations=99)
    >>> [(r.statistic, r.result.p_value if r.result else r.reason, r.holm) for r in rows]
    [('s', 1.0, 1.0), ('t', 'n/a: not defined for this case', None)]
    """
    rows: list[Row] = []
    for case, statistics in samples.items():
        for name, (mine, theirs) in statistics.items():
            rows.append(_one(case, name, mine, theirs, permutations, seed))
    tested = [i for i, row in enumerate(rows) if row.result is not None]
    adjusted = holm([rows[i].result.p_value for i in tested])  # type: ignore[union-attr]
    for i, value in zip(tested, adjusted, strict=True):
        rows[i] = Row(rows[i].case, rows[i].statistic, rows[i].result, holm=value)
    return rows


def _one(
    case: str,
    name: str,
    mine: Sequence[Hashable | None],
    theirs: Sequence[Hashable | None],
    permutations: int,
    seed: int,
) -> Row:
    if any(label is None for label in (*mine, *theirs)):
        return Row(case, name, None, "n/a: not defined for this case")
    labels = set(mine) | set(theirs)
    if len(labels) == 1:
        return Row(case, name, None, "n/a: one category in both samples", label=str(labels.pop()))
    at = stream(seed, f"{case}/{name}")
    result = permutation_test(mine, theirs, permutations=permutations, seed=at)
    return Row(case, name, result)


def markdown(rows: Sequence[Row], alpha: float = 0.01) -> str:
    """The family as a Markdown table: one line per case, raw and Holm p per statistic, a
    star where Holm's p is below ``alpha`` (rejected at family-wise level ``alpha``).

    >>> result = Result(3.2, 0.0001, 2, (10, 5), 9999)
    >>> print(markdown([Row("c", "s", result, holm=0.0002)]))
    | case | rows symcomp / published | s: p (Holm) |
    |---|---:|---:|
    | c | 10 / 5 | 1.0e-04 (2.0e-04)* |
    """
    statistics = list(dict.fromkeys(row.statistic for row in rows))
    cases = list(dict.fromkeys(row.case for row in rows))
    cell = {(row.case, row.statistic): row for row in rows}
    head = ["case", "rows symcomp / published", *(f"{s}: p (Holm)" for s in statistics)]
    lines = ["| " + " | ".join(head) + " |", "|---|" + "---:|" * (len(head) - 1)]
    for case in cases:
        found = [cell[(case, s)] for s in statistics if (case, s) in cell]
        sizes = next((r.result.sizes for r in found if r.result is not None), None)
        shown = f"{sizes[0]:,} / {sizes[1]:,}" if sizes else "–"
        values = [_shown(cell.get((case, s)), alpha) for s in statistics]
        lines.append("| " + " | ".join([case, shown, *values]) + " |")
    return "\n".join(lines)


def _shown(row: Row | None, alpha: float) -> str:
    if row is None or row.result is None:
        return "n/a" if row is None else row.reason
    star = "*" if row.holm is not None and row.holm < alpha else ""
    return f"{_p(row.result.p_value)} ({_p(row.holm or 0.0)}){star}"


def _p(value: float) -> str:
    return f"{value:.4f}" if value >= 0.001 else f"{value:.1e}"


def section(
    rows: Sequence[Row], *, permutations: int, seed: int, draw: str, build_cpu: float, since: float
) -> dict[str, Any]:
    """A benchmark's two-sample section as JSON: every row, the rejections at family-wise
    0.01, the table, and the CPU seconds since ``since`` (:func:`cpu_seconds`)."""
    return {
        "permutations": permutations,
        "seed": seed,
        "draw": draw,
        "rows": [as_json(row) for row in rows],
        "rejected_at_0.01": [f"{r.case}/{r.statistic}" for r in rows if (r.holm or 1.0) < 0.01],
        "markdown": markdown(rows),
        "suite_build_cpu_seconds": round(build_cpu, 1),
        "cpu_seconds": round(cpu_seconds() - since, 1),
    }


def as_json(row: Row) -> dict[str, Any]:
    """One row of a family as JSON (the reason in place of the test where there is none)."""
    cell: dict[str, Any] = {"case": row.case, "statistic": row.statistic}
    if row.result is None:
        return {**cell, "reason": row.reason, **({"category": row.label} if row.label else {})}
    return {
        **cell,
        "chi_square": round(row.result.statistic, 3),
        "categories": row.result.categories,
        "rows": list(row.result.sizes),
        "p": row.result.p_value,
        "holm": row.holm,
    }


def section_markdown(found: Mapping[str, Any], argv: Sequence[str]) -> str:
    """A section as Markdown: the command, its CPU time and seeds, the table, the rejections."""
    rejected = ", ".join(found["rejected_at_0.01"]) or "none"
    return (
        f"`python {' '.join(argv)}`: {found['draw']}; {found['permutations']:,} permutations, "
        f"seed {found['seed']}; {found['cpu_seconds']} CPU-s ({found['suite_build_cpu_seconds']} "
        f"of them building the suites).\n\n{found['markdown']}\n\n"
        f"Rejected at family-wise 0.01 (Holm): {rejected}.\n"
    )


def compared(
    ours: Mapping[str, Sequence[str]],
    theirs: Mapping[str, Sequence[str]],
    statistics: Callable[[Sequence[str], str], Mapping[str, list[str]]],
    args: argparse.Namespace,
    *,
    build_cpu: float,
    since: float,
) -> tuple[Samples, dict[str, Any]]:
    """The in-distribution pool and every gen case: each statistic of symcomp's sentences
    (``ours``) against the published ones, the family tested with the options of
    :func:`add_options`; the samples and the section (:func:`section`)."""
    samples = {}
    for case in ["in_distribution", *sorted(c for c in theirs if c != "in_distribution")]:
        mine, reference = statistics(ours[case], case), statistics(theirs[case], case)
        samples[case] = {name: (mine[name], reference[name]) for name in mine}
    rows = family(samples, permutations=args.permutations, seed=args.test_seed)
    draw = f"{args.seeds} suites of 1,000 rows a case"
    if args.single:
        draw = f"one suite of {args.seeds} x 1,000 rows a case"
    found = section(
        rows,
        permutations=args.permutations,
        seed=args.test_seed,
        draw=draw,
        build_cpu=build_cpu,
        since=since,
    )
    return samples, found


def add_options(parser: argparse.ArgumentParser, part: str) -> None:
    """The two-sample options of a fidelity benchmark (``part``: where its report puts them,
    e.g. ``section 7``)."""
    two = parser.add_argument_group(f"two-sample tests ({part})")
    two.add_argument("--two-sample", action="store_true", help=f"Add {part}.")
    two.add_argument("--two-sample-only", action="store_true", help=f"{part.capitalize()} alone.")
    two.add_argument("--samples", type=Path, default=None, help="Suites folder (OUT/samples).")
    two.add_argument("--seeds", type=int, default=10, help="symcomp suites per gen case.")
    two.add_argument("--single", action="store_true", help="One suite of SEEDS x 1,000 a case.")
    two.add_argument("--permutations", type=int, default=100_000)
    two.add_argument("--test-seed", type=int, default=0, help="Seed of the permutations.")
    two.add_argument("--reuse-samples", action="store_true", help="Keep suites built before.")


def prepare_folders(args: argparse.Namespace) -> None:
    """Make ``--out`` and the suites folder (``--samples``, default OUT/samples)."""
    args.out.mkdir(parents=True, exist_ok=True)
    args.samples = args.samples or args.out / "samples"
    args.samples.mkdir(parents=True, exist_ok=True)


# -- symcomp's samples: suites built with the CLI -----------------------------------------------


def build_suite(language: str, out: Path, options: Sequence[str], *, reuse: bool) -> float:
    """``symcomp -q suite LANGUAGE --out OUT --no-export OPTIONS`` (the CPU seconds it took);
    with ``reuse``, a folder that the same command built (``OUT.command`` says so) is kept."""
    command = [_symcomp(), "-q", "suite", language, "--out", str(out), "--no-export", *options]
    stamp = out.with_name(out.name + ".command")
    shown = " ".join(command[1:])
    built = (out / "manifest.json").is_file() and stamp.is_file()
    if reuse and built and stamp.read_text(encoding="utf-8") == shown:
        return 0.0
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([*command, "--overwrite"], check=True, capture_output=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    stamp.write_text(shown, encoding="utf-8")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def suite_texts(suite: Path, part: str) -> dict[str, list[str]]:
    """The sentences of one part of a built suite, per ``meta.category``."""
    found: dict[str, list[str]] = {}
    with (suite / "examples.jsonl").open(encoding="utf-8") as handle:
        for line in handle:
            record = json.loads(line)
            if record["meta"]["part"] == part:
                found.setdefault(record["meta"]["category"], []).append(record["input"])
    return found


def _symcomp() -> str:
    return str(Path(sys.executable).with_name("symcomp"))


def cpu_seconds() -> float:
    """CPU seconds of this process and every child it waited for."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime
