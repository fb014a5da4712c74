"""Device choice, mixed precision and seeding: the only global torch state the trainer touches.

>>> resolve_device("cpu")
device(type='cpu')
>>> with seeded(0):
...     a = torch.rand(1)
>>> with seeded(0):
...     b = torch.rand(1)
>>> bool(a == b)
True
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import torch

from symcomp.errors import SymcompError


def set_threads(threads: int) -> None:
    """CPU threads of torch's operations in this process (``torch.set_num_threads``)."""
    torch.set_num_threads(threads)


def resolve_device(name: str = "auto") -> torch.device:
    """``auto``: CUDA when present, else CPU; ``cuda`` without a GPU is an error."""
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if name.startswith("cuda") and not torch.cuda.is_available():
        raise SymcompError(f"`device` {name}: no CUDA device is available; use cpu or auto.")
    if name != "cpu" and not name.startswith("cuda"):
        raise SymcompError(f"unknown device {name!r}; use auto, cpu or cuda.")
    return torch.device(name)


def amp_dtype(device: torch.device, mode: str) -> torch.dtype | None:
    """The autocast dtype for ``mode`` (auto|on|off): bf16 or fp16 on CUDA, None on CPU/off."""
    if mode not in ("auto", "on", "off"):
        raise SymcompError(f"amp={mode!r}; use auto, on or off.")
    if device.type != "cuda" or mode == "off":
        return None
    # emulated bf16 (pre-Ampere GPUs) is slower than fp16 with a gradient scaler
    native = torch.cuda.is_bf16_supported(including_emulation=False)
    return torch.bfloat16 if native else torch.float16


def autocast(
    device: torch.device, dtype: torch.dtype | None
) -> contextlib.AbstractContextManager[None]:
    """Mixed-precision context on CUDA, a no-op otherwise."""
    if dtype is None:
        return contextlib.nullcontext()
    return torch.autocast(device_type=device.type, dtype=dtype)


@contextlib.contextmanager
def seeded(seed: int, device: torch.device | None = None) -> Iterator[None]:
    """Run the block with torch's generators seeded; their previous state is restored after."""
    devices = [device.index or 0] if device is not None and device.type == "cuda" else []
    with torch.random.fork_rng(devices=devices):
        torch.manual_seed(seed)
        yield
