"""grammars/ and provers/ ship inside the wheel as symcomp.grammars / symcomp.provers (the
monotonicity grammar and prover files among them)."""

import subprocess
import sys
import zipfile
from importlib import resources

import pytest

from tests.conftest import REPO
from tests.test_monotonicity_packaging import PROVER_FILES

STEMS = sorted(path.stem for path in (REPO / "grammars").glob("*.lark"))


def test_every_packaged_grammar_is_readable_through_importlib_resources():
    files = {entry.name for entry in resources.files("symcomp.grammars").iterdir()}
    for stem in STEMS:
        assert {f"{stem}.lark", f"{stem}.toml"} <= files
    assert "pcfg_set.target.json" in files


@pytest.fixture(scope="module")
def wheel_names(tmp_path_factory: pytest.TempPathFactory) -> set[str]:
    """The files of the wheel ``pip wheel`` builds from the checkout (built once: it takes
    seconds, and every packaging test reads the same wheel)."""
    folder = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--quiet",
            "--no-deps",
            "-w",
            str(folder),
            str(REPO),
        ],
        check=True,
    )
    (wheel,) = folder.glob("symcomp-*.whl")
    return set(zipfile.ZipFile(wheel).namelist())


@pytest.mark.slow
def test_wheel_contains_grammars_and_provers(wheel_names: set[str]) -> None:
    names = wheel_names
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


@pytest.mark.slow
def test_wheel_contains_the_monotonicity_files(wheel_names: set[str]) -> None:
    for name in PROVER_FILES:
        assert f"symcomp/provers/monotonicity/{name}" in wheel_names
    assert {
        "symcomp/grammars/monotonicity.lark",
        "symcomp/grammars/monotonicity.toml",
    } <= wheel_names
