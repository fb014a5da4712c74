"""Run folders are data: a crafted one must never run code or write outside ``--out``."""

from __future__ import annotations

import json
import pickle
import shutil
from pathlib import Path

import pytest
import torch
from click.testing import CliRunner

from symcomp.cli import cli
from symcomp.errors import DataError
from symcomp.models.run_dir import load_torch_file

TINY = ("--preset", "tiny", "--set", "epochs=1", "--set", "dev_limit=5", "--set", "max_output=12")


def run(*args: object) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["-q", *(str(a) for a in args)])
    assert "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


class _Payload:
    """Unpickling this creates a file: proof that code ran."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (Path.write_text, (self.marker, "code ran"))


def malicious(path: Path, marker: Path) -> None:
    with path.open("wb") as handle:
        pickle.dump({"module": _Payload(marker)}, handle, protocol=2)


@pytest.fixture(scope="module")
def trained(tiny_pcfg_suite: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("runs") / "lstms2s"
    code, text = run("train", tiny_pcfg_suite / "task", "--model", "lstms2s", *TINY, "--out", out)
    assert code == 0, text
    return out


@pytest.fixture
def run_copy(trained: Path, tmp_path: Path) -> Path:
    return Path(shutil.copytree(trained, tmp_path / "run"))


def test_a_genuine_resume_file_loads_with_weights_only(trained: Path) -> None:
    state = load_torch_file(trained / "resume.pt")
    assert state["epoch"] == 1 and "module" in state


def test_a_malicious_resume_file_is_refused(
    tiny_pcfg_suite: Path, run_copy: Path, tmp_path: Path
) -> None:
    marker = tmp_path / "PWNED"
    malicious(run_copy / "resume.pt", marker)
    code, text = run(
        "train",
        tiny_pcfg_suite / "task",
        "--model",
        "lstms2s",
        *TINY,
        "--out",
        run_copy,
        "--resume",
    )
    assert code == 2 and "refused to load" in text and "resume.pt" in text
    assert not marker.exists()


def test_a_malicious_checkpoint_is_refused(
    tiny_pcfg_suite: Path, run_copy: Path, tmp_path: Path
) -> None:
    marker = tmp_path / "PWNED"
    malicious(run_copy / "checkpoints" / "epoch-001.pt", marker)
    code, text = run("evaluate", tiny_pcfg_suite, "--model", run_copy, "--test", "task")
    assert code == 2 and "refused to load" in text
    assert not marker.exists()
    with pytest.raises(DataError, match="refused"):
        load_torch_file(run_copy / "checkpoints" / "epoch-001.pt")
    assert not marker.exists()


@pytest.mark.parametrize(
    "content", [b"", b"garbage bytes", b"PK\x03\x04 truncated zip"], ids=["empty", "text", "zip"]
)
def test_a_damaged_checkpoint_is_a_clear_error(
    tiny_pcfg_suite: Path, run_copy: Path, content: bytes
) -> None:
    (run_copy / "checkpoints" / "epoch-001.pt").write_bytes(content)
    code, text = run("evaluate", tiny_pcfg_suite, "--model", run_copy, "--test", "task")
    assert code == 2
    assert "refused to load" in text or "not a readable PyTorch checkpoint" in text


def test_weights_of_another_model_are_a_clear_error(tiny_pcfg_suite: Path, run_copy: Path) -> None:
    torch.save({"weight": torch.zeros(3)}, run_copy / "checkpoints" / "epoch-001.pt")
    code, text = run("evaluate", tiny_pcfg_suite, "--model", run_copy, "--test", "task")
    assert code == 2 and "do not fit the model" in text


def test_a_traversal_test_name_writes_nothing_outside_out(
    tiny_pcfg_suite: Path, tmp_path: Path
) -> None:
    suite = Path(shutil.copytree(tiny_pcfg_suite, tmp_path / "suite"))
    manifest = json.loads((suite / "manifest.json").read_text())
    escape = "../../escaped/PWNED_by_name"
    manifest["tests"] = {(escape if k == "task" else k): v for k, v in manifest["tests"].items()}
    (suite / "manifest.json").write_text(json.dumps(manifest))
    code, text = run("train", suite, "--model", "lstms2s", *TINY, "--out", tmp_path / "o" / "t")
    assert code == 2 and "is not a plain name" in text
    assert not (tmp_path / "escaped").exists() and not (tmp_path / "o").exists()


def test_a_traversal_run_name_in_a_run_set_is_refused(
    tiny_pcfg_suite: Path, trained: Path, tmp_path: Path
) -> None:
    runset = tmp_path / "set"
    runset.mkdir()
    (runset / "runs.json").write_text(
        json.dumps({"format": "symcomp-runs", "runs": {"task": f"../../../{trained}"}})
    )
    code, text = run("evaluate", tiny_pcfg_suite, "--model", runset)
    assert code == 2 and "run folder name" in text and "is not a plain name" in text
