"""Running ``symcomp`` from other source trees beside this checkout, for benchmarks that
measure old and new code in one run (``perf_generate.py --baseline``, ``perf_startup.py``).

A tree runs first on ``PYTHONPATH`` with this checkout's virtual environment (whose editable
install would otherwise win). Times are the child's user and system CPU seconds
(``resource.RUSAGE_CHILDREN``: a busy machine changes them less than wall time) and wall
seconds. Without byte-code, ``PYTHONDONTWRITEBYTECODE=1`` and ``PYTHONPYCACHEPREFIX`` an empty
folder make every module, the standard library's included, compile on every run.
"""

from __future__ import annotations

import contextlib
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CLI = [sys.executable, "-c", "from symcomp.cli import main; main()"]


@contextlib.contextmanager
def worktree(commit: str) -> Iterator[Path]:
    """A checkout of ``commit`` (git worktree) in a temporary folder, removed afterwards."""
    folder = Path(tempfile.mkdtemp(prefix="symcomp-baseline-"))
    git = ["git", "-C", str(REPO), "worktree"]
    subprocess.run([*git, "add", "-q", "--detach", str(folder), commit], check=True)
    try:
        yield folder
    finally:
        subprocess.run([*git, "remove", "--force", str(folder)], check=False)


def tree_environment(source: Path, bytecode: bool, empty: Path) -> dict[str, str]:
    """The environment that runs ``source``'s symcomp: its tree first on ``PYTHONPATH``; with
    no ``bytecode``, none read or written (``empty``: an empty folder)."""
    env = {**os.environ, "PYTHONPATH": str(source)}
    env.pop("PYTHONPYCACHEPREFIX", None)
    if bytecode:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
    else:
        env |= {"PYTHONDONTWRITEBYTECODE": "1", "PYTHONPYCACHEPREFIX": str(empty)}
    return env


def check_imports(source: Path, env: dict[str, str]) -> list[str]:
    """Refuse a tree whose runs would import another tree's symcomp; name its grammar files
    that differ from those its runs read (the install serves ``symcomp.grammars`` from the
    checkout it was installed from, whichever tree is on ``PYTHONPATH``)."""
    code = "import symcomp, symcomp.grammars as g; print(symcomp.__file__); print(*g.__path__)"
    found, served = subprocess.run(
        [sys.executable, "-c", code],
        env=env,
        cwd=source,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    if not Path(found).resolve().is_relative_to(source):
        raise SystemExit(f"{source}: imports symcomp from {found}, not from this tree")
    return [
        path.name
        for path in sorted((source / "grammars").glob("*.*"))
        if path.suffix != ".py"
        and (
            not (Path(served) / path.name).is_file()
            or (Path(served) / path.name).read_bytes() != path.read_bytes()
        )
    ]


def timed_cli(args: list[str], env: dict[str, str], source: Path) -> dict[str, float]:
    """User and system CPU seconds and wall seconds of one ``symcomp ARGS`` run; it must
    exit 0."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(CLI + args, env=env, cwd=source, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{source}: {' '.join(args)} failed ({done.returncode}):\n{done.stderr}")
    return {
        "user_s": after.ru_utime - before.ru_utime,
        "sys_s": after.ru_stime - before.ru_stime,
        "wall_s": wall,
    }
