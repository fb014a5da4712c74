"""Importing DGL 2.1 under torch 2.13: the one place that knows the workaround.

DGL 2.1.0 is the only DGL wheel for this platform. Its ``import dgl`` pulls in
``dgl.distributed``, which imports ``dgl.graphbolt``, whose C++ library exists only for
torch <= 2.2.1 (and which needs ``torchdata.datapipes``, gone from recent torchdata). The core
message-passing API (graphs, ``dgl.batch``, ``prop_nodes_topo``, built-in and user-defined
functions) does not use graphbolt, so we register a placeholder module for ``dgl.graphbolt``
before the first ``import dgl``. graphbolt, ``dgl.sparse`` and ``dgl.distributed`` are unusable;
touching the placeholder raises an error that says so.

DGL also picks its tensor backend from ``DGLBACKEND`` at import time; symcomp needs
``pytorch``.
"""

from __future__ import annotations

import importlib
import os
import sys
import types
from typing import Any

from symcomp.errors import SymcompError

PLACEHOLDER = "dgl.graphbolt"


class DGLUnavailableError(SymcompError, ImportError):
    """DGL cannot be imported (not installed, or another backend is configured)."""


class _GraphboltPlaceholder(types.ModuleType):
    """Stands in for ``dgl.graphbolt``; any attribute access explains why it is missing."""

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        raise DGLUnavailableError(
            f"dgl.graphbolt.{name} is unavailable: graphbolt's C++ library exists only for "
            "torch <= 2.2.1 and symcomp replaces it with a placeholder (symcomp uses DGL's core "
            "message passing only)."
        )


def import_dgl() -> Any:
    """Import and return the ``dgl`` module, applying the torch 2.13 workaround once.

    Raises
    ------
    DGLUnavailableError
        When DGL is not installed or ``DGLBACKEND`` names another backend.
    """
    if "dgl" in sys.modules and hasattr(sys.modules["dgl"], "DGLGraph"):
        return sys.modules["dgl"]
    backend = os.environ.setdefault("DGLBACKEND", "pytorch")
    if backend != "pytorch":
        raise DGLUnavailableError(
            f"DGLBACKEND is {backend!r}; symcomp's tree-LSTM needs 'pytorch' (unset it or "
            "set DGLBACKEND=pytorch)."
        )
    if PLACEHOLDER not in sys.modules:
        sys.modules[PLACEHOLDER] = _GraphboltPlaceholder(
            PLACEHOLDER, "Placeholder installed by symcomp.models.nets.dgl_import (see there)."
        )
    try:
        return importlib.import_module("dgl")
    except ImportError as error:
        raise DGLUnavailableError(
            f"cannot import dgl ({error}); install the models extra: "
            "pip install -c constraints.txt 'symcomp[models]' (dgl==2.1.0), or use the "
            "tree-LSTM's pure-torch backend (setting backend=torch)."
        ) from None
