"""`symcomp reproduce PAPER --scale tiny`: data, runs, scores, report and figures, end to end."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from symcomp.cli import cli

PNG = b"\x89PNG\r\n\x1a\n"


def run(*args: object) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["-q", *(str(a) for a in args)])
    assert "Traceback" not in result.output, result.output
    return result.exit_code, result.output


Tiny = Callable[[str], tuple[int, str, Path]]


# hupkes2020's tiny run is made where a GPU is reported (torch.cuda.is_available patched):
# `--device cpu` must still score on the CPU (test_device_cpu_also_scores_on_the_cpu_...)
GPU_REPORTED = {"hupkes2020"}


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Tiny:
    """``reproduce PAPER --scale tiny --device cpu``, run once per paper in this module: (exit
    code, output, folder). Tests that change the folder work on a copy (:func:`copy_of`)."""
    done: dict[str, tuple[int, str, Path]] = {}

    def reproduce(paper: str) -> tuple[int, str, Path]:
        if paper not in done:
            out = tmp_path_factory.mktemp("tiny") / paper
            with pytest.MonkeyPatch.context() as patch:
                if paper in GPU_REPORTED:
                    import torch

                    patch.setattr(torch.cuda, "is_available", lambda: True)
                args = ("reproduce", paper, "--scale", "tiny", "--out", out, "--device", "cpu")
                code, text = run(*args)
            done[paper] = (code, text, out)
        return done[paper]

    return reproduce


def copy_of(folder: Path, tmp_path: Path) -> Path:
    """A copy of a reproduction folder (modification times kept)."""
    return Path(shutil.copytree(folder, tmp_path / folder.name))


@pytest.mark.parametrize("paper", ["keysers2020", "coba", "hupkes2020", "neely2020", "yanaka2020"])
def test_a_tiny_reproduction_writes_results_report_and_figures(paper: str, tiny: Tiny) -> None:
    code, text, out = tiny(paper)
    assert code == 0, text
    results = json.loads((out / "results.json").read_text())
    assert results["paper"] == paper and results["scale"] == "tiny"
    assert results["run_count"] == len(results["runs"]) > 0
    assert all(r["epochs"] >= 1 and r["train_cpu_seconds"] >= 0 for r in results["runs"])
    assert results["figures"]
    for name in results["figures"]:
        figure = (out / "figures" / name).read_bytes()
        assert figure.startswith(PNG) and len(figure) > 2000  # a real, non-empty picture
        assert f"figure: {out / 'figures' / name}" in text
    report = (out / "report.md").read_text()
    assert "## Findings" in report and "## How this was run" in report
    assert "paper" in report and results["findings"] is not None
    for finding in results["findings"]:  # a verdict, or an honest "cannot tell at this scale"
        assert finding["reproduced"] in (True, False, None)
        if finding["reproduced"] is None:
            assert f"not measurable at this scale ({finding['symcomp']})" in text
            assert "--scale small measures it" in text


def test_the_tiny_keysers_reproduction_ends_in_a_finding_not_a_failure(tiny: Tiny) -> None:
    """Two levels (random, MCD) cannot show a trend: the demo's command says so."""
    code, text, out = tiny("keysers2020")
    assert code == 0, text
    assert "NOT reproduced" not in text
    assert (
        "not measurable at this scale (2 splits, too few for a trend): LSTM+attention: "
        "accuracy falls as compound divergence rises (Spearman rho < -0.8); --scale small "
        "measures it"
    ) in text
    results = json.loads((out / "results.json").read_text())
    rows = {row[0]: row for row in results["tables"]["accuracy"]["rows"]}
    assert set(rows) == {"random", "mcd"} and rows["mcd"][1] > rows["random"][1]
    report = (out / "report.md").read_text()
    assert "## The MCD split beside the paper's Table 4" in report and "6.1 ± 1.7" in report


def test_keysers_correlates_over_every_level_up_to_the_mcd_split(tmp_path: Path) -> None:
    from symcomp.papers.keysers2020 import PAPER
    from symcomp.papers.plan import Outcome, RunSpec

    levels = {"random": 0.05, "dc-0.30": 0.3, "dc-0.60": 0.6, "mcd": 0.83}
    accuracy = {"random": 0.9, "dc-0.30": 0.7, "dc-0.60": 0.4, "mcd": 0.1}
    outcomes = [
        Outcome(
            RunSpec(test, "lstms2s", label="LSTM+attention"),
            {"test_accuracy": accuracy[test]},
            {"compound_divergence": dc, "atom_divergence": 0.01},
        )
        for test, dc in levels.items()
    ]
    (tmp_path / "figures").mkdir()
    result = PAPER.report(outcomes, tmp_path, "small")
    (finding,) = result["findings"]
    assert finding["reproduced"] is True
    assert finding["symcomp"] == "Spearman rho = -1.000 over 4 splits"
    assert "| LSTM+attention | 6.1 ± 1.7 | 10.0 |" in result["markdown"]
    assert "D_C 0.830" in result["markdown"]


def test_a_rerun_keeps_finished_runs(tiny: Tiny, tmp_path: Path) -> None:
    code, text, finished = tiny("keysers2020")
    assert code == 0, text
    out = copy_of(finished, tmp_path)
    checkpoints = sorted(out.glob("runs/*/*/checkpoints/*.pt"))
    stamps = [p.stat().st_mtime_ns for p in checkpoints]
    assert (
        run("reproduce", "keysers2020", "--scale", "tiny", "--out", out, "--device", "cpu")[0] == 0
    )
    assert [p.stat().st_mtime_ns for p in checkpoints] == stamps  # nothing trained again


def test_an_interrupted_run_continues(tiny: Tiny, tmp_path: Path) -> None:
    code, text, finished = tiny("keysers2020")
    assert code == 0, text
    out = copy_of(finished, tmp_path)
    first = sorted(out.glob("runs/*/*"))[0]
    finished = json.loads((first / "summary.json").read_text())
    (first / "summary.json").unlink()  # as if stopped before the end
    assert (
        run("reproduce", "keysers2020", "--scale", "tiny", "--out", out, "--device", "cpu")[0] == 0
    )
    again = json.loads((first / "summary.json").read_text())
    assert (
        again["epochs"] == finished["epochs"]
        and again["test_accuracy"] == finished["test_accuracy"]
    )


def test_unknown_papers_and_scales_are_usage_errors(tmp_path: Path) -> None:
    assert run("reproduce", "keysers2021", "--out", tmp_path)[0] == 2
    assert run("reproduce", "coba", "--scale", "huge", "--out", tmp_path)[0] == 2


def test_paper_rows_average_the_tests_a_pattern_names() -> None:
    from symcomp.papers.suite_paper import breakdown, mean_at

    tests: dict[str, list[dict[str, Any]]] = {
        "protocol-I/o1/plain": [{"accuracy": 0.5, "by_depth": {"1": {"accuracy": 1.0}}}],
        "protocol-I/o2/plain": [{"accuracy": 1.0, "by_depth": {"1": {"accuracy": 0.0}}}],
        "protocol-I/o1/object": [{"accuracy": 0.0}],
    }
    assert mean_at(tests, "protocol-I/*/plain", ("accuracy",)) == 0.75
    assert mean_at(tests, "protocol-I/o1/object", ("accuracy",)) == 0.0
    assert mean_at(tests, "protocol-II/*", ("accuracy",)) is None
    assert breakdown(tests, "protocol-I/*/plain", "by_depth") == [(1.0, 0.5)]


def test_hupkes_checks_table1_ordering_per_model() -> None:
    from symcomp.papers.hupkes2020 import PAPER

    def scores(task: float, systematicity: float, productivity: float) -> dict[str, Any]:
        return {
            "task": [{"accuracy": task}],
            "systematicity": [{"accuracy": systematicity}],
            "productivity": [{"accuracy": productivity}],
        }

    found = PAPER.findings(
        {
            "LSTMS2S": scores(0.3, 0.1, 0.05),
            "ConvS2S": scores(0.3, 0.05, 0.1),
            "Transformer": scores(0.2, 0.0, 0.0),
        },
        ["LSTMS2S", "ConvS2S", "Transformer"],
    )
    ordering = {f["finding"].split(":")[0]: f for f in found if "Table 1" in f["finding"]}
    assert ordering["LSTMS2S"]["reproduced"] is True
    assert ordering["LSTMS2S"]["paper"] == "0.79 > 0.53 > 0.30"
    assert ordering["ConvS2S"]["reproduced"] is False
    assert ordering["Transformer"]["reproduced"] is None  # zeros cannot be ordered
    assert "cannot be ordered" in ordering["Transformer"]["symcomp"]


def test_small_scales_train_only_the_tests_they_measure(tmp_path: Path) -> None:
    from symcomp.papers.hupkes2020 import PAPER

    small = PAPER.scales["small"]
    assert [small.measures(t) for t in ("task", "systematicity", "productivity")] == [True] * 3
    assert not small.measures("localism") and not small.measures("substitutivity/primitive")
    assert PAPER.scales["paper"].measures("localism")


def test_bar_figures_are_readable() -> None:
    """Long group names never overlap one another, and the legend covers no bar."""
    from symcomp.papers import figures
    from symcomp.papers.hupkes2020 import PAPER

    groups = list(PAPER.card)
    series = {
        f"{name} ({who})": [0.5] * len(groups)
        for name in ("LSTMS2S", "ConvS2S", "Transformer")
        for who in ("paper", "symcomp")
    }
    figure = figures.bar_figure(groups, series, title=PAPER.title, ylabel="accuracy")
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    (axes,) = figure.axes
    labels = [t.get_window_extent(renderer) for t in axes.get_yticklabels()]
    assert len(labels) == len(groups)
    for number, box in enumerate(labels):
        assert not any(box.overlaps(other) for other in labels[number + 1 :])
    legend = axes.get_legend().get_window_extent(renderer)
    assert not legend.overlaps(axes.get_window_extent(renderer))
    import matplotlib.pyplot as plt

    plt.close(figure)


def test_device_cpu_also_scores_on_the_cpu_where_a_gpu_is_reported(tiny: Tiny) -> None:
    """`--device` reaches the models in the loop (localism, per-function, profiles), not only
    training: with a GPU present, `--device cpu` used to score on CUDA."""
    assert "hupkes2020" in GPU_REPORTED
    code, text, out = tiny("hupkes2020")
    assert code == 0, text
    assert json.loads((out / "results.json").read_text())["device"] == "cpu"
