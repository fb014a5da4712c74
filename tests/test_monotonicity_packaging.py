"""The monotonicity grammar and prover files ship inside the package (and the wheel:
tests/test_packaging.py)."""

from importlib import resources

PROVER_FILES = ("lexicon.txt", "axioms.txt", "known_answers.tsv")


def test_prover_files_are_readable_through_importlib_resources():
    folder = resources.files("symcomp.provers") / "monotonicity"
    for name in PROVER_FILES:
        assert (folder / name).read_text(encoding="utf-8").strip()
    grammars = resources.files("symcomp.grammars")
    assert (grammars / "monotonicity.lark").is_file() and (grammars / "monotonicity.toml").is_file()
