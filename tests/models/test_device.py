"""Device selection and mixed precision (the CUDA branches are exercised where a GPU exists)."""

from __future__ import annotations

import pytest
import torch

from symcomp.errors import SymcompError
from symcomp.models.training.device import amp_dtype, autocast, resolve_device, seeded


def test_auto_picks_cuda_exactly_when_present() -> None:
    expected = "cuda" if torch.cuda.is_available() else "cpu"
    assert resolve_device("auto").type == expected
    assert resolve_device("cpu").type == "cpu"
    with pytest.raises(SymcompError, match="unknown device"):
        resolve_device("tpu")


def test_auto_and_amp_choose_cuda_when_it_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    """What a GPU machine would get, checked on any machine (CUDA itself is not touched)."""
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "is_bf16_supported", lambda *args, **kw: False)
    device = resolve_device("auto")
    assert device.type == "cuda" and resolve_device("cuda:0").index == 0
    assert amp_dtype(device, "auto") is torch.float16 and amp_dtype(device, "off") is None
    monkeypatch.setattr(torch.cuda, "is_bf16_supported", lambda *args, **kw: True)
    assert amp_dtype(device, "on") is torch.bfloat16
    # a pre-Ampere GPU supports bf16 only by emulation (slow): fp16 with a gradient scaler
    monkeypatch.setattr(
        torch.cuda, "is_bf16_supported", lambda including_emulation=True: including_emulation
    )
    assert amp_dtype(device, "auto") is torch.float16


@pytest.mark.skipif(torch.cuda.is_available(), reason="needs a machine without CUDA")
def test_cuda_without_a_gpu_is_a_clear_error() -> None:
    with pytest.raises(SymcompError, match="no CUDA device"):
        resolve_device("cuda")


def test_mixed_precision_only_on_cuda() -> None:
    cpu = torch.device("cpu")
    assert amp_dtype(cpu, "auto") is None and amp_dtype(cpu, "on") is None
    with pytest.raises(SymcompError, match="amp"):
        amp_dtype(cpu, "maybe")
    with autocast(cpu, None):
        assert (torch.ones(2) @ torch.ones(2)).dtype == torch.float32


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a GPU")
def test_cuda_autocast_lowers_matmul_precision() -> None:
    device = torch.device("cuda")
    dtype = amp_dtype(device, "auto")
    assert dtype in (torch.bfloat16, torch.float16) and amp_dtype(device, "off") is None
    with autocast(device, dtype):
        assert (torch.ones(2, 2, device=device) @ torch.ones(2, 2, device=device)).dtype == dtype


def test_seeded_restores_the_global_generator() -> None:
    torch.manual_seed(123)
    expected = torch.rand(3)
    torch.manual_seed(123)
    with seeded(0):
        torch.rand(5)
    assert torch.equal(torch.rand(3), expected)
