"""The DGL import workaround for torch 2.13 (placeholder graphbolt, DGLBACKEND)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from symcomp.models.nets.dgl_import import PLACEHOLDER, DGLUnavailableError, import_dgl
from tests.conftest import REPO


def test_import_dgl_gives_working_message_passing() -> None:
    import torch

    dgl = import_dgl()
    assert dgl.__version__.startswith("2.1")
    assert os.environ["DGLBACKEND"] == "pytorch"
    graph = dgl.graph((torch.tensor([0, 1]), torch.tensor([2, 2])), num_nodes=3)
    graph.ndata["x"] = torch.tensor([[1.0], [2.0], [0.0]])
    graph.update_all(dgl.function.copy_u("x", "m"), dgl.function.sum("m", "y"))
    assert graph.ndata["y"].flatten().tolist() == [0.0, 0.0, 3.0]
    assert import_dgl() is dgl  # idempotent


def test_graphbolt_placeholder_explains_itself() -> None:
    import_dgl()
    placeholder = sys.modules[PLACEHOLDER]
    with pytest.raises(DGLUnavailableError, match="graphbolt"):
        _ = placeholder.DataLoader


def test_plain_import_fails_and_other_backend_is_refused() -> None:
    """Without the workaround dgl does not import under this torch; a foreign backend is a
    clear error (fresh interpreters, so this process's dgl stays imported)."""
    code = "import dgl"
    plain = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO,
        env={**os.environ, "DGLBACKEND": "pytorch"}, check=False,
    )  # fmt: skip
    assert plain.returncode != 0
    code = (
        "from symcomp.models.nets.dgl_import import import_dgl, DGLUnavailableError\n"
        "try:\n    import_dgl()\nexcept DGLUnavailableError as e:\n    print('refused', e)\n"
    )
    other = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO,
        env={**os.environ, "DGLBACKEND": "mxnet"}, check=True,
    )  # fmt: skip
    assert other.stdout.startswith("refused DGLBACKEND is 'mxnet'")
