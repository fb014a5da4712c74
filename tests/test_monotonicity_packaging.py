"""The monotonicity grammar and prover files ship inside the package."""

import subprocess
import sys
import zipfile
from importlib import resources
from pathlib import Path

import pytest

from tests.conftest import REPO

PROVER_FILES = ("lexicon.txt", "axioms.txt", "known_answers.tsv")


def test_prover_files_are_readable_through_importlib_resources():
    folder = resources.files("symcomp.provers") / "monotonicity"
    for name in PROVER_FILES:
        assert (folder / name).read_text(encoding="utf-8").strip()
    grammars = resources.files("symcomp.grammars")
    assert (grammars / "monotonicity.lark").is_file() and (grammars / "monotonicity.toml").is_file()


@pytest.mark.slow
def test_wheel_contains_the_monotonicity_files(tmp_path: Path) -> None:
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--quiet",
            "--no-deps",
            "-w",
            str(tmp_path),
            str(REPO),
        ],
        check=True,
    )
    (wheel,) = tmp_path.glob("symcomp-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for name in PROVER_FILES:
        assert f"symcomp/provers/monotonicity/{name}" in names
    assert {"symcomp/grammars/monotonicity.lark", "symcomp/grammars/monotonicity.toml"} <= names
