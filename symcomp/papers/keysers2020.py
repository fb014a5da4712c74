"""Keysers et al. 2020 (DBCA), on SCAN: accuracy falls as compound divergence rises.

The paper's Figure 2(b) plots accuracy against the compound divergence of many splits with
the same (low) atom divergence, one line per architecture (LSTM with attention, Transformer,
Universal Transformer), and finds a strong negative correlation for every architecture. Here:
SCAN splits at several target compound divergences (``symcomp split dbca --target-dc``,
atom divergence at most 0.02, the paper's train/dev/test sizes: 8,364 / 1,046 / 1,046 of the
20,910 commands), a random split as the lowest level and the maximum-compound-divergence split
itself (``mcd``, the split of the paper's Table 4) as the highest; every architecture trained
on each.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from symcomp.papers import figures
from symcomp.papers.plan import Outcome, RunSpec, suite_folder
from symcomp.papers.runner import findings_table, table
from symcomp.papers.statistics import falls

ARCHITECTURES = (("lstms2s", "LSTM+attention"), ("transformer", "Transformer"))
UNIVERSAL = ("universal", "Universal Transformer")

# Keysers et al. 2020, Table 4 (SCAN, mean over MCD1-3, accuracy in %), as published
PAPER_MCD_ACCURACY = {
    "LSTM+attention": "6.1 ± 1.7",
    "Transformer": "0.9 ± 0.3",
    "Universal Transformer": "1.1 ± 0.4",
}
MCD = "mcd"  # the level split at the highest compound divergence the search reaches


@dataclass(frozen=True)
class Scale:
    pool: int | None  # None: all of SCAN
    targets: tuple[float, ...]  # target compound divergences (random and MCD splits are added)
    train: float
    dev: float
    test: float
    seeds: tuple[int, ...]
    preset: str
    sets: tuple[str, ...]
    architectures: tuple[tuple[str, str], ...]
    rounds: int = 2


SCALES = {
    "tiny": Scale(
        pool=600,
        targets=(),  # random and MCD: two levels, too few for a trend (the report says so)
        train=0.4,
        dev=0.05,
        test=0.1,
        seeds=(0,),
        preset="tiny",
        sets=("epochs=2", "dev_limit=20", "threads=1"),
        architectures=(ARCHITECTURES[0],),
        rounds=0,
    ),
    "small": Scale(
        pool=None,
        targets=(0.1, 0.2, 0.3, 0.4, 0.5, 0.6),
        train=0.4,
        dev=0.05,
        test=0.05,
        seeds=(0,),
        preset="small",
        # The learning rate decays to zero over 11 epochs (what fits in the CPU budget):
        # with the preset's rsqrt schedule a run stopped by its budget still trains at half
        # its peak rate, and dev accuracy swung by 0.2-0.4 from one epoch to the next.
        sets=(
            "epochs=11",
            "schedule=polynomial",
            "patience=0",
            "max_minutes=2.3",
            "budget_clock=cpu",
            "threads=1",
            "dev_limit=200",
        ),
        architectures=(*ARCHITECTURES, UNIVERSAL),
    ),
    "paper": Scale(
        pool=None,
        targets=(0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7),
        train=0.4,
        dev=0.05,
        test=0.05,
        seeds=(0, 1, 2),
        preset="hupkes",
        sets=("epochs=25",),
        architectures=(*ARCHITECTURES, UNIVERSAL),
        rounds=10,
    ),
}


class Keysers2020:
    name = "keysers2020"
    title = "Measuring Compositional Generalization (Keysers et al. 2020), SCAN"

    def build_data(self, out: Path, scale: str, seed: int) -> Path:
        from symcomp.suites.reading import Suite

        suite = suite_folder(out)
        if Suite.is_suite(suite):
            return suite
        config = SCALES[scale]
        pool = out / "pool"
        if not (pool / "manifest.json").is_file():
            _write_pool(pool, config, seed)
        splits = _splits(pool, config, seed)
        from symcomp.suites.from_splits import suite_from_splits

        suite_from_splits(pool, splits, suite, export=False, overwrite=True)
        return suite

    def runs(self, suite: Path, scale: str, seed: int) -> Sequence[RunSpec]:
        from symcomp.suites.reading import Suite

        config = SCALES[scale]
        return [
            RunSpec(test, model, config.preset, config.sets, seed + s, label)
            for test in Suite.read(suite).tests
            for model, label in config.architectures
            for s in config.seeds
        ]

    def score(self, suite: Path, run: Path, spec: RunSpec, device: str) -> dict[str, Any]:
        from symcomp.suites.reading import Suite

        meta = Suite.read(suite).split(spec.test).meta
        return {
            "compound_divergence": meta["compound_divergence"],
            "atom_divergence": meta["atom_divergence"],
        }

    def report(self, outcomes: Sequence[Outcome], out: Path, scale: str) -> dict[str, Any]:
        by_architecture, divergence = _collected(outcomes)
        lines = {
            name: [
                (divergence[test][0], sum(values) / len(values)) for test, values in runs.items()
            ]
            for name, runs in by_architecture.items()
        }
        figure = figures.line_plot(
            out / "figures" / "accuracy_vs_compound_divergence.png",
            lines,
            title="SCAN: accuracy vs compound divergence (cf. Keysers et al. 2020, Fig. 2b)",
            xlabel="compound divergence D_C (train vs test)",
            ylabel="test accuracy (exact match)",
        )
        ordered = sorted(divergence, key=lambda t: divergence[t][0])
        names = sorted(lines)
        rows = [
            [test, divergence[test][0], divergence[test][1]]
            + [_mean(by_architecture[name].get(test, [])) for name in names]
            for test in ordered
        ]
        findings = [_falls(name, points) for name, points in sorted(lines.items())]
        markdown = "\n\n".join(
            [
                f"# {self.title}: reproduction at scale `{scale}`",
                "Test accuracy (exact match) of every architecture on SCAN splits of "
                "increasing compound divergence D_C (atom divergence D_A at most 0.02; the "
                "lowest level is a random split).",
                table(["split", "D_C", "D_A", *names], rows),
                "## Findings",
                findings_table(findings),
                "## The MCD split beside the paper's Table 4",
                _beside_table4(by_architecture, divergence, scale),
                f"![accuracy vs compound divergence](figures/{figure.name})",
            ]
        )
        return {
            "markdown": markdown,
            "findings": findings,
            "tables": {"accuracy": {"header": ["split", "D_C", "D_A", *names], "rows": rows}},
        }


def _falls(name: str, points: list[tuple[float, float]]) -> dict[str, Any]:
    reproduced, measured = falls(points, below=-0.8)
    return {
        "finding": f"{name}: accuracy falls as compound divergence rises (Spearman rho < -0.8)",
        "paper": "strong negative correlation for every architecture (Fig. 2b)",
        "symcomp": measured.replace("levels", "splits"),
        "reproduced": reproduced,
    }


def _beside_table4(
    by_architecture: dict[str, dict[str, list[float]]],
    divergence: dict[str, tuple[float, float]],
    scale: str,
) -> str:
    """symcomp's accuracy on its MCD split beside the paper's SCAN MCD accuracies."""
    if MCD not in divergence:
        return "No MCD split at this scale."
    rows = [
        [name, PAPER_MCD_ACCURACY.get(name), _percent(_mean(runs.get(MCD, [])))]
        for name, runs in sorted(by_architecture.items())
    ]
    compound, atom = divergence[MCD]
    return (
        f"symcomp's MCD split: D_C {compound:.3f}, D_A {atom:.3f} (the paper's SCAN MCD splits "
        "lie near D_C 0.73)."
        + (
            ""
            if scale == "paper"
            else f" At scale `{scale}` the models train for minutes on a CPU, not for the "
            "paper's steps on accelerators."
        )
        + "\n\n"
        + table(["architecture", "paper, mean of MCD1-3 (%)", "symcomp, MCD (%)"], rows)
    )


def _percent(value: float | None) -> str | None:
    return None if value is None else f"{100 * value:.1f}"


def _collected(
    outcomes: Sequence[Outcome],
) -> tuple[dict[str, dict[str, list[float]]], dict[str, tuple[float, float]]]:
    """Test accuracies by architecture and split, and each split's (D_C, D_A)."""
    by_architecture: dict[str, dict[str, list[float]]] = {}
    divergence: dict[str, tuple[float, float]] = {}
    for outcome in outcomes:
        accuracy = float(outcome.summary.get("test_accuracy") or 0.0)
        tests = by_architecture.setdefault(outcome.spec.name, {})
        tests.setdefault(outcome.spec.test, []).append(accuracy)
        divergence[outcome.spec.test] = (
            float(outcome.scores["compound_divergence"]),
            float(outcome.scores["atom_divergence"]),
        )
    return by_architecture, divergence


def _write_pool(pool: Path, config: Scale, seed: int) -> None:
    from symcomp.core.registry import get_language
    from symcomp.data.generate import PoolSpec, write_pool

    spec = (
        PoolSpec(enumerate_all=True) if config.pool is None else PoolSpec(n=config.pool, seed=seed)
    )
    write_pool(get_language("scan"), pool, spec, overwrite=True)


def _splits(pool: Path, config: Scale, seed: int) -> dict[str, Any]:
    from symcomp.dbca.baselines import SplitSizes
    from symcomp.dbca.mcd import McdConfig
    from symcomp.dbca.split import PoolData, baseline, mcd

    data = PoolData.read(pool)
    sizes = SplitSizes.from_fractions(len(data), config.train, config.test, config.dev)
    splits = {"random": baseline(data, "random", sizes, seed)}
    for target in config.targets:
        search = McdConfig(
            train_size=sizes.train,
            test_size=sizes.held_out,
            target_dc=target,
            rounds=config.rounds,
        )
        splits[f"dc-{target:.2f}"] = mcd(data, sizes, search, seed)
    highest = McdConfig(train_size=sizes.train, test_size=sizes.held_out, rounds=config.rounds)
    splits[MCD] = mcd(data, sizes, highest, seed)
    return splits


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


PAPER = Keysers2020()
