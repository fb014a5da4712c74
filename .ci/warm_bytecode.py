"""Import every symcomp module and the heavy libraries its commands and tests use, once, at
the end of ``make install`` (so ``make demo`` and ``make test`` too), writing their byte-code.

uv installs without compiling byte-code, and compiling every installed file took most of the
install. Without it, every command run with ``PYTHONDONTWRITEBYTECODE=1`` (as many container
images set) would compile what it imports from source each time, and on a fresh clone the two
pytest workers would each compile torch, z3, sympy, matplotlib, ray and symcomp itself at the
same moment (23 CPU-seconds each, measured). Importing compiles only what is used: 12 CPU-s.
"""

from __future__ import annotations

import contextlib
import importlib
import pkgutil

import symcomp

# imported lazily by symcomp or only by tests (torch._dynamo: by the first optimizer built)
LIBRARIES = (
    "torch._dynamo",
    "matplotlib.pyplot",
    "z3",
    "sympy",
    "ray",
    "datasets",
    "hypothesis",
    "click.testing",
    "xdist",
)


def main() -> None:
    for name in LIBRARIES:
        with contextlib.suppress(ImportError):  # an extra not installed: its tests skip
            importlib.import_module(name)
    for module in pkgutil.walk_packages(symcomp.__path__, "symcomp."):
        importlib.import_module(module.name)


if __name__ == "__main__":
    main()
