"""Loading torch files from run folders without running code from them.

``torch.load`` unpickles, and a pickle can run any code: a crafted ``resume.pt`` or checkpoint
in a run folder someone sent you would run it. Every torch file symcomp reads goes through
:func:`load_torch_file`, which allows only tensors and plain data (``weights_only=True``);
symcomp's own checkpoints and resume files hold nothing else.
"""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

import torch

from symcomp.errors import DataError


def load_torch_file(path: Path, device: torch.device | str = "cpu") -> Any:
    """The contents of a checkpoint or resume file: tensors and plain data only.

    Raises
    ------
    DataError
        When the file holds anything else (refused, never run) or is not a torch file.
    """
    try:
        return torch.load(path, map_location=device, weights_only=True)
    except pickle.UnpicklingError:
        # torch cannot tell a damaged file from one holding objects: both are refused alike
        raise DataError(
            f"{path}: refused to load: it is not a file of tensors and plain data as symcomp "
            f"writes (it is damaged, or it holds Python objects, and loading those could run "
            f"code). Delete it and train again unless you know where it came from."
        ) from None
    except (RuntimeError, EOFError, ValueError, AttributeError, IndexError) as error:
        first = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise DataError(
            f"{path}: not a readable PyTorch checkpoint ({first}); the file is damaged or was "
            f"not written by symcomp: train the run again."
        ) from None
    except OSError as error:
        raise DataError(f"cannot read {path}: {error.strerror or error}.") from None
