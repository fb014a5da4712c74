"""Golden outputs: generation, suites and MCD splits write exactly the recorded bytes.

A change of these bytes is a change of a language's random stream: bump its grammar version
(or, for MCD splits alone, the DBCA measure version) and run
``.venv/bin/python -m tests.golden_outputs --update`` in the same commit.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.golden_outputs import CASES, GOLDEN, compute, language_version

RECORDED = json.loads(GOLDEN.read_text(encoding="utf-8"))


def test_every_builtin_language_has_a_golden_record() -> None:
    import symcomp

    grammars = Path(__file__).resolve().parents[1] / "grammars"
    assert set(CASES) == set(RECORDED) <= set(symcomp.available())
    assert len(CASES) == len(list(grammars.glob("*.lark")))  # one per built-in grammar


@pytest.mark.parametrize("language", sorted(CASES))
def test_outputs_are_the_recorded_bytes(language: str, tmp_path: Path) -> None:
    recorded = dict(RECORDED[language])
    version = recorded.pop("grammar_version")
    found = compute(language, tmp_path)
    if found != recorded:
        changed = sorted(
            key for key in set(found) | set(recorded) if found.get(key) != recorded.get(key)
        )
        hint = (
            "bump the grammar version in its sidecar and"
            if version == language_version(language)
            else "the grammar version was bumped:"
        )
        if set(changed) <= {"mcd_split", "mcd_measure_version"}:
            assert "mcd_measure_version" in changed, (
                f"{language}: the MCD split changed under the same DBCA measure version; a "
                "change of what the split search measures must bump "
                "symcomp.dbca.measure.MEASURE_VERSION."
            )
            hint = "the DBCA measure version was bumped:"
        pytest.fail(
            f"{language}: {', '.join(changed)} changed. If the change of the random stream is "
            f"intended, {hint} update the goldens (python -m tests.golden_outputs --update)."
        )
    assert version == language_version(language), (
        f"{language}: grammar version {language_version(language)} but the goldens were "
        f"recorded at {version}; update them (python -m tests.golden_outputs --update)."
    )


def test_per_occurrence_atoms_give_the_recorded_split(
    tmp_path: Path,
) -> None:
    """Atoms counted per occurrence (the count before measure version 2) stay selectable and
    give the split recorded for them: under version 4 (ties broken by example index on every
    CPU since version 3, the search of issue 49 since 4), not version 1's bytes, whose ties
    depended on the CPU's sorting kernels."""
    from tests.golden_outputs import split_digest

    generate, _suite, split = CASES["scan"]
    assert split is not None
    digest = split_digest("scan", tmp_path, generate, (*split, "--atom-frequency", "occurrence"))
    assert digest == "471c624e2a9bdcfe92e28ce3e10cf12408a8ede7cd510e96c7e1a3cfcfa7263d"
