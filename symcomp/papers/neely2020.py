"""Neely & Talha 2020 ("LET's Test Compositionality"), PCFG-LET: task accuracy, localism
(consistency of step-by-step and whole-program predictions) and systematicity, for an LSTM
sequence-to-sequence model and a Transformer."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from symcomp.papers.suite_paper import Scores, SuitePaper, SuiteScale, mean_at

ARCHITECTURES = (("lstms2s", "LSTM"), ("transformer", "Transformer"))


class Neely2020(SuitePaper):
    """The paper's figures and findings on top of the suite machinery."""

    def findings(self, scores: Scores, names: Sequence[str]) -> list[dict[str, Any]]:
        found = []
        for name in names:
            task = mean_at(scores.get(name, {}), "task", ("accuracy",))
            local = mean_at(scores.get(name, {}), "localism", ("localism", "consistency"))
            found.append(
                {
                    "finding": f"{name}: localism consistency below task accuracy",
                    "paper": "0.723 < 0.884 (LSTM), 0.693 < 0.857 (Transformer)",
                    "symcomp": f"{_shown(local)} vs {_shown(task)}",
                    "reproduced": task is not None and local is not None and local < task,
                }
            )
        return found


def _shown(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


PAPER = Neely2020(
    name="neely2020",
    title="LET's Test Compositionality (Neely & Talha 2020), PCFG-LET",
    language="pcfg-let",
    scales={
        "tiny": SuiteScale(
            {"n": 300, "systematicity_n": 300, "export": False},
            (0,),
            "tiny",
            ("epochs=2", "dev_limit=10", "max_output=24", "threads=1"),
            (ARCHITECTURES[0],),
        ),
        "small": SuiteScale(
            {"n": 8000, "systematicity_n": 6000, "export": False},
            (0,),
            "small",
            ("epochs=60", "max_minutes=1.5", "budget_clock=cpu", "threads=1", "dev_limit=200"),
            ARCHITECTURES,
        ),
        "paper": SuiteScale(
            {"n": 100_000, "export": False}, (0, 1, 2), "hupkes", (), ARCHITECTURES
        ),
    },
    card={
        "task accuracy": ("task", ("accuracy",)),
        "localism consistency": ("localism", ("localism", "consistency")),
        "systematicity accuracy (mirror, E)": ("systematicity/mirror_E", ("accuracy",)),
        "systematicity accuracy (mirror, 7 and 13)": ("systematicity/mirror_7_13", ("accuracy",)),
        "systematicity accuracy (mirror, union)": ("systematicity/mirror_union", ("accuracy",)),
    },
    # Neely & Talha 2020, Table 1 (REFERENCES.md, A5)
    paper_values={
        "task accuracy": {"LSTM": 0.884, "Transformer": 0.857},
        "localism consistency": {"LSTM": 0.723, "Transformer": 0.693},
    },
    paper_note=(
        "The paper's localism consistency on programs deeper than one is 0.449 (LSTM) and 0.388 "
        "(Transformer)."
    ),
)
