"""Import every symcomp module and the heavy libraries the tests use, once, before the test
workers start (``make test``).

On a fresh clone nothing is compiled to byte-code yet: the two pytest workers would each
compile torch, z3, sympy, matplotlib, ray and symcomp itself while importing them at the same
moment (23 CPU-seconds each, measured), and the symcomp commands the tests start in those
first seconds a third time. One process does it here, beside mypy; everything after reads
the written byte-code.
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
