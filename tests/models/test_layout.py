"""The run folder has one owner: every name a run or a run set writes is spelled in one module
(``models/run_dir.py``; the run set's index in ``models/runsets.py``); and the functions of
``symcomp/models`` stay short."""

from __future__ import annotations

import ast
import re
import shutil
from pathlib import Path

from symcomp.models.runs import train_suite
from symcomp.models.zoo import resolve
from tests.test_architecture import PACKAGE, strings

FIXTURE = Path(__file__).parent / "fixtures" / "run-before-26"
OWNER = "models/run_dir.py"
OWNERS = {"runs.json": "models/runsets.py"}
# The same words with another meaning (module, or package, and name): a kind of file in a
# published prediction tree, a file of a suite's test folder.
HOMONYMS = {
    ("metrics/prediction_trees.py", "predictions"),
    ("languages/pcfg_set/published.py", "predictions"),
    ("languages/pcfg_set/suite", "test.tsv"),
}
# Spelled outside this change's reach (papers/ is being changed elsewhere): reads a run's
# summary; it is to call RunDir(folder).summary() instead, and then leaves this list.
EXCEPT = HOMONYMS
NUMBERED = re.compile(r"(\D+)\d+(\.\w+)")  # checkpoints/epoch-001.pt: spelled "epoch-" + number


def spells(text: str, name: str) -> bool:
    """Whether a string literal (or a piece of an f-string) spells ``name`` as a path part."""
    numbered = NUMBERED.fullmatch(name)
    if numbered:
        return text.startswith(numbered.group(1)) or f"/{numbered.group(1)}" in text
    return text == name or text.startswith(f"{name}/") or text.endswith(f"/{name}")


def test_each_name_in_a_run_folder_is_spelled_only_by_its_owner(tmp_path: Path) -> None:
    shutil.copytree(FIXTURE / "suite", tmp_path / "suite")
    config = resolve("lstms2s", "tiny", ["epochs=1", "threads=1", "embedding=4", "hidden=4"])
    train_suite(tmp_path / "suite", config, tmp_path / "set", device="cpu")
    written = {part for path in (tmp_path / "set").rglob("*") for part in path.parts}
    names = written - set((tmp_path / "set").parts) - {"random"}  # the run's folder: a test
    assert {"runs.json", "config.json", "checkpoints", "epoch-001.pt", "test.tsv"} <= names
    found = [
        f"{module}:{line}: {text!r} spells {name!r}"
        for path in sorted(PACKAGE.rglob("*.py"))
        for module in [path.relative_to(PACKAGE).as_posix()]
        for line, text in strings(path)
        for name in sorted(names)
        if spells(text, name)
        and module != OWNERS.get(name, OWNER)
        and not any(module.startswith(where) and name == word for where, word in EXCEPT)
    ]
    assert not found, "a run folder's names belong to run_dir.py:\n" + "\n".join(found)


def test_no_function_in_models_is_longer_than_60_lines() -> None:
    long = [
        f"{path.relative_to(PACKAGE)}:{node.lineno} {node.name}: {length} lines"
        for path in sorted((PACKAGE / "models").rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        for length in [(node.end_lineno or node.lineno) - node.lineno + 1]
        if length > 60
    ]
    assert not long, "split these:\n" + "\n".join(long)
