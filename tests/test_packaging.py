"""grammars/ and provers/ ship inside the wheel as symcomp.grammars / symcomp.provers."""

import subprocess
import sys
import zipfile
from importlib import resources
from pathlib import Path

import pytest

from tests.conftest import REPO

STEMS = sorted(path.stem for path in (REPO / "grammars").glob("*.lark"))


def test_every_packaged_grammar_is_readable_through_importlib_resources():
    files = {entry.name for entry in resources.files("symcomp.grammars").iterdir()}
    for stem in STEMS:
        assert {f"{stem}.lark", f"{stem}.toml"} <= files
    assert "pcfg_set.target.json" in files


@pytest.mark.slow
def test_wheel_contains_grammars_and_provers(tmp_path: Path) -> None:
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
    for stem in STEMS:
        assert f"symcomp/grammars/{stem}.lark" in names
        assert f"symcomp/grammars/{stem}.toml" in names
    assert "symcomp/provers/__init__.py" in names
    assert "symcomp/py.typed" in names
    subpackages = {
        p.parent.relative_to(REPO).as_posix() for p in (REPO / "symcomp").rglob("__init__.py")
    }
    for package in subpackages:
        assert f"{package}/__init__.py" in names, f"{package} is not in the wheel"
