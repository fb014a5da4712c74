"""Yanaka et al. 2020 ("Do Neural Models Learn Systematicity of Monotonicity Inference in
Natural Language?"): accuracy per protocol and depth for LSTM, tree-LSTM and BERT encoders.

The paper fine-tunes a pretrained BERT; no pretrained weights can be downloaded here, so every
encoder (BERT included) is trained from scratch and the report says so. The paper's numeric
tables are not in the reference material symcomp is checked against (REFERENCES.md, A2 lists
the data pipeline only), so the report shows symcomp's numbers and checks the paper's stated
findings (its abstract): the models generalise to unseen combinations of
quantifiers and replacements when the test sentences have the training sentences' structure
(Protocol I, plain), accuracy drops when the structure changes slightly (fronted adverb or
place, object position), and drops for depths beyond those trained on (Protocol III).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from symcomp.papers import figures
from symcomp.papers.statistics import trend
from symcomp.papers.suite_paper import Scores, SuitePaper, SuiteScale, breakdown, mean_at

ARCHITECTURES = (("lstm", "LSTM"), ("treelstm", "TreeLSTM"), ("bert", "BERT (from scratch)"))
VARIANTS = ("plain", "adverb_first", "place_first", "object")
# Protocol III's first split: trained on depth 1 only, tested on depths 2 and deeper
PRODUCTIVITY = "protocol-III/train-depth-1-1"


class Yanaka2020(SuitePaper):
    """The paper's figures and findings on top of the suite machinery."""

    def figures(self, scores: Scores, names: Sequence[str], out: Path) -> list[Path]:
        by_depth = {
            name: breakdown(scores.get(name, {}), PRODUCTIVITY, "by_depth") for name in names
        }
        return [
            *super().figures(scores, names, out),
            figures.line_plot(
                out / "figures" / "productivity_accuracy_by_depth.png",
                by_depth,
                title="Protocol III: trained on depth 1, accuracy by test depth",
                xlabel="embedding depth of the test pair",
                ylabel="accuracy",
            ),
        ]

    def findings(self, scores: Scores, names: Sequence[str]) -> list[dict[str, Any]]:
        found = []
        for name in names:
            tests = scores.get(name, {})
            plain = mean_at(tests, "protocol-I/*/plain", ("accuracy",))
            changed = [mean_at(tests, f"protocol-I/*/{v}", ("accuracy",)) for v in VARIANTS[1:]]
            shown = [c for c in changed if c is not None]
            found.append(
                {
                    "finding": f"{name}: Protocol I accuracy drops when the structure changes",
                    "paper": "plain test sentences above fronted-adverb, fronted-place and "
                    "object-position ones (the abstract: accuracy drops when structures change)",
                    "symcomp": f"plain {_shown(plain)}; changed {', '.join(map(_shown, changed))}",
                    "reproduced": plain is not None
                    and bool(shown)
                    and plain > sum(shown) / len(shown),
                }
            )
            points = breakdown(tests, PRODUCTIVITY, "by_depth")
            rho = trend(points)
            found.append(
                {
                    "finding": f"{name}: accuracy falls at depths beyond training",
                    "paper": "trained on shallow depths, accuracy decreases on deeper "
                    "embeddings (Protocol III, productivity)",
                    "symcomp": f"Spearman rho = {rho:.3f} over test depths "
                    f"{[int(p[0]) for p in points]}",
                    "reproduced": len(points) > 2 and rho < -0.5,
                }
            )
        return found


def _shown(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def _card() -> dict[str, tuple[str, tuple[str, ...]]]:
    rows: dict[str, tuple[str, tuple[str, ...]]] = {
        f"Protocol I accuracy ({variant.replace('_', ' ')})": (
            f"protocol-I/*/{variant}",
            ("accuracy",),
        )
        for variant in VARIANTS
    }
    rows["Protocol II accuracy"] = ("protocol-II/*", ("accuracy",))
    rows["Protocol III accuracy (train depth 1)"] = (PRODUCTIVITY, ("accuracy",))
    rows["Protocol III accuracy (train depths 1-4)"] = ("protocol-III/*", ("accuracy",))
    rows["Protocol IV accuracy"] = ("protocol-IV/*", ("accuracy",))
    return rows


PAPER = Yanaka2020(
    name="yanaka2020",
    title="Systematicity of Monotonicity Inference (Yanaka et al. 2020)",
    language="monotonicity",
    scales={
        "tiny": SuiteScale(
            {"n": 600, "permutations": 1, "folds": 2, "profile": "paper", "export": False},
            (0,),
            "tiny",
            ("epochs=2", "dev_limit=10", "threads=1"),
            (ARCHITECTURES[0],),
        ),
        "small": SuiteScale(
            {"n": 8000, "permutations": 1, "profile": "paper", "export": False},
            (0,),
            "small",
            ("epochs=40", "max_minutes=0.5", "budget_clock=cpu", "threads=1", "dev_limit=200"),
            ARCHITECTURES,
        ),
        "paper": SuiteScale(
            {"n": 320_000, "profile": "paper", "export": False},
            (0, 1, 2),
            "small",
            (),
            ARCHITECTURES,
        ),
    },
    card=_card(),
    paper_values={},
    paper_note=(
        "Every encoder is trained from scratch: the paper fine-tunes a pretrained BERT, and no "
        "pretrained weights can be downloaded here. The paper's per-protocol numbers are not in "
        "the reference material symcomp is checked against, so the paper's columns are n/a and "
        "the findings below check the paper's stated results instead. Scores are means over the "
        "tests a row names (every order, fold and split)."
    ),
)
