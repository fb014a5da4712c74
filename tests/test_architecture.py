"""The architecture's rules that import-linter cannot see (docs/architecture.md):
only the command line speaks in flags, and nothing outside symcomp/languages names a language."""

from __future__ import annotations

import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "symcomp"
FLAG = re.compile(r"(?<![\w-])--[a-z][a-z-]*")
BUILTIN = {"arithmetic", "cfq", "monotonicity", "pcfg-let", "pcfg-set", "scan"}
# flags of other programs symcomp runs, not its own
EXTERNAL_FLAGS = {
    ("logic/prover_e.py", flag)
    for flag in ("--auto", "--proof-object", "--cpu-limit", "--processed-clauses-limit")
} | {("data/ray_executor.py", "--head")}


def strings(path: Path) -> list[tuple[int, str]]:
    """Every string literal of a module except docstrings, with its line."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
        and id(node) not in docstrings
    ]  # fmt: skip


def library_modules(*, outside: str) -> list[Path]:
    return [p for p in sorted(PACKAGE.rglob("*.py")) if outside not in p.relative_to(PACKAGE).parts]


def test_only_the_command_line_speaks_in_flags() -> None:
    found = [
        f"{path.relative_to(PACKAGE)}:{line}: {flag}"
        for path in library_modules(outside="cli")
        for line, text in strings(path)
        for flag in FLAG.findall(text)
        if (path.relative_to(PACKAGE).as_posix(), flag) not in EXTERNAL_FLAGS
    ]
    assert not found, "library messages name parameters as `name`, not flags:\n" + "\n".join(found)


def test_nothing_outside_languages_names_a_builtin_language() -> None:
    found = [
        f"{path.relative_to(PACKAGE)}:{line}: {text!r}"
        for path in library_modules(outside="languages")
        if path.relative_to(PACKAGE).parts[0] != "papers"  # a paper is about its language
        for line, text in strings(path)
        if text in BUILTIN
    ]
    assert not found, "generic code must not name a language:\n" + "\n".join(found)


MAX_FUNCTION_LINES = 60


def test_functions_are_short_outside_the_models() -> None:
    """Functions short and single-purpose (docs/architecture.md): at most 60 lines, docstring
    included, in the library outside symcomp/models/."""
    found = [
        f"{path.relative_to(PACKAGE)}:{node.lineno} {node.name} ({length} lines)"
        for path in library_modules(outside="models")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and (length := (node.end_lineno or node.lineno) - node.lineno + 1) > MAX_FUNCTION_LINES
    ]
    assert not found, "split these functions:\n" + "\n".join(found)


def test_every_file_of_a_builtin_language_is_in_the_architecture_table() -> None:
    """docs/architecture.md names every file of each language package in that language's row
    of the built-in languages table (`__init__.py` aside; a subpackage by its folder, too)."""
    doc = (PACKAGE.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    missing = []
    for folder in sorted(p for p in (PACKAGE / "languages").iterdir() if p.is_dir()):
        if not (folder / "__init__.py").is_file():
            continue  # __pycache__
        rows = [line for line in doc.splitlines() if f"| `languages/{folder.name}/` |" in line]
        row = rows[0] if len(rows) == 1 else ""
        for path in sorted(folder.rglob("*.py")):
            relative = path.relative_to(folder)
            if relative.name == "__init__.py":
                if relative.parent == Path("."):
                    continue
                named = f"`{relative.parent.as_posix()}/`"
            else:
                named = f"`{relative.as_posix()}`"
            if named not in row:
                missing.append(f"languages/{folder.name}: {named}")
    assert not missing, "name these files in docs/architecture.md:\n" + "\n".join(missing)
