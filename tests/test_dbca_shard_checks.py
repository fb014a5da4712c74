"""A feature shard folder is used only as symcomp writes it (`symcomp.dbca.shard_layout`): shards
that do not cover the pool, a manifest that names files outside the folder, arrays that are
truncated, of the wrong dtype or shape, or whose values do not fit the other arrays are
refused with exit 2 naming the file and how to write the shards again, even with the hashes
in the manifest updated to match."""

from __future__ import annotations

import hashlib
import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner

from symcomp.cli import cli
from tests.test_dbca_shards import write_treebank


def invoke(*args: object) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["-q", *(str(a) for a in args)])
    return result.exit_code, result.output


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A scan pool with stored DAGs and an imported treebank (counted compounds), each with a
    folder of 4 feature shards."""
    root = tmp_path_factory.mktemp("checks")
    code, output = invoke(
        "generate", "scan", "--seed", 0, "--n", 200, "--with-dag", "--out", root / "dag"
    )
    assert code == 0, output
    treebank = write_treebank(root / "treebank.conllu", 200, seed=0)
    assert invoke("import", treebank, "--out", root / "sets")[0] == 0
    for kind in ("dag", "sets"):
        code, output = invoke(*split(root, kind, root / f"{kind}.json"), "--shard-size", 50)
        assert code == 0, output
    return root


def split(root: Path, kind: str, out: Path) -> tuple[object, ...]:
    return (
        "split",
        "dbca",
        root / kind,
        "--rounds",
        0,
        "--features",
        root / f"{kind}-f",
        "--out",
        out,
    )


@pytest.fixture
def copy(written: Path, tmp_path: Path) -> Callable[[str], Path]:
    """A copy of the pools and of one kind's shards to damage."""

    def make(kind: str) -> Path:
        shutil.copytree(written / kind, tmp_path / kind)
        shutil.copytree(written / f"{kind}-f", tmp_path / f"{kind}-f")
        return tmp_path

    return make


def manifest_of(folder: Path) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    return loaded


def save_manifest(folder: Path, manifest: dict[str, Any]) -> None:
    (folder / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")


def rehash(folder: Path, name: str) -> None:
    """Record the file's current sha256 in the manifest (an edit that also edits the hashes)."""
    manifest = manifest_of(folder)
    digest = hashlib.sha256((folder / name).read_bytes()).hexdigest()
    manifest["files"][name]["sha256"] = digest
    number, _, array = name.removeprefix("shards/").partition("/")
    if name.startswith("shards/"):
        manifest["shards"][int(number)]["files"][array]["sha256"] = digest
    save_manifest(folder, manifest)


def refused(root: Path, kind: str, *expected: str) -> str:
    code, output = invoke(*split(root, kind, root / "out.json"))
    assert code == 2, output
    assert "Traceback" not in output
    for text in expected:
        assert text in output, output
    assert "Write them again" in output, output
    assert "--features" in output, output
    assert not (root / "out.json").exists()
    return output


@pytest.mark.parametrize("kind", ["dag", "sets"])
def test_shards_cut_to_half_the_pool_are_refused(copy: Callable[[str], Path], kind: str) -> None:
    root = copy(kind)
    folder = root / f"{kind}-f"
    manifest = manifest_of(folder)
    manifest["shards"] = manifest["shards"][:2]
    save_manifest(folder, manifest)
    refused(root, kind, "2 shards hold 100 examples", "must cover the pool")
    # the files and the recorded size cut too: the pool itself still has 200 lines
    manifest["files"] = {
        k: v
        for k, v in manifest["files"].items()
        if not k.startswith(("shards/00002", "shards/00003"))
    }
    manifest["pool"]["examples"] = 100
    save_manifest(folder, manifest)
    refused(root, kind, "the pool holds 200 lines")


def test_a_file_outside_the_folder_is_never_opened(copy: Callable[[str], Path]) -> None:
    root = copy("dag")
    folder = root / "dag-f"
    outside = root / "secret.txt"
    outside.write_text("not yours", encoding="utf-8")
    manifest = manifest_of(folder)
    manifest["files"]["../secret.txt"] = {"sha256": hashlib.sha256(b"not yours").hexdigest()}
    save_manifest(folder, manifest)
    outside.chmod(0)  # opened, it would fail with a permission error instead
    try:
        refused(root, "dag", "'../secret.txt' is not a path inside")
    finally:
        outside.chmod(0o644)
    del manifest["files"]["../secret.txt"]
    manifest["files"]["names/extra.npy"] = manifest["files"]["names/atoms.offsets.npy"]
    save_manifest(folder, manifest)
    refused(root, "dag", "files a shard folder does not hold names/extra.npy")


def test_a_link_out_of_the_folder_is_refused(copy: Callable[[str], Path]) -> None:
    root = copy("dag")
    victim = root / "dag-f" / "shards" / "00001" / "lines.npy"
    shutil.copy(victim, root / "lines.npy")
    victim.unlink()
    victim.symlink_to(root / "lines.npy")
    refused(root, "dag", "a symbolic link leads out of it")


def test_a_truncated_array_left_out_of_the_manifest_is_refused(
    copy: Callable[[str], Path],
) -> None:
    root = copy("dag")
    folder = root / "dag-f"
    victim = folder / "shards" / "00002" / "occurrences.kinds.npy"
    victim.write_bytes(victim.read_bytes()[:100])
    manifest = manifest_of(folder)
    del manifest["files"]["shards/00002/occurrences.kinds.npy"]
    save_manifest(folder, manifest)
    refused(root, "dag", "no entry for shards/00002/occurrences.kinds.npy")
    manifest["files"]["shards/00002/occurrences.kinds.npy"] = {}
    save_manifest(folder, manifest)
    rehash(folder, "shards/00002/occurrences.kinds.npy")  # listed again, with its new hash
    refused(root, "dag", "occurrences.kinds.npy: not a .npy array symcomp can read")


def replace_array(folder: Path, name: str, values: np.ndarray) -> None:
    np.save(folder / name, values, allow_pickle=False)
    rehash(folder, name)


def edit(folder: Path, name: str, change: Callable[[np.ndarray], np.ndarray]) -> None:
    replace_array(folder, name, change(np.load(folder / name)))


def bumped(values: np.ndarray, position: int, by: int) -> np.ndarray:
    changed = values.copy()
    changed.flat[position] += by
    return changed


def set_to(values: np.ndarray, position: int, value: int) -> np.ndarray:
    changed = values.copy()
    changed.flat[position] = value
    return changed


EDITS: list[tuple[str, str, Callable[[np.ndarray], np.ndarray], str]] = [
    (
        "dag",
        "shards/00001/atoms.indptr.npy",
        lambda a: a[:-1],
        "expected int32 or int64 of shape (51,)",
    ),
    ("dag", "shards/00001/atoms.counts.npy", lambda a: a.astype(np.float64), "holds float64"),
    ("dag", "shards/00001/lines.npy", lambda a: a[:, :2].copy(), "of shape (50, 3)"),
    ("dag", "shards/00001/pairs.indices.npy", lambda a: bumped(a, 3, 10_000), "an id outside"),
    ("dag", "shards/00001/pairs.indptr.npy", lambda a: bumped(a, 5, 10_000), "without falling"),
    ("dag", "shards/00003/atoms.indices.npy", lambda a: a[::-1].copy(), "must rise"),
    ("dag", "shards/00000/occurrences.kinds.npy", lambda a: bumped(a, 0, 10**7), "an id outside"),
    ("dag", "shards/00000/extensions.occurrence.npy", lambda a: a + 10**6, "an id outside"),
    ("dag", "shards/00002/lines.npy", lambda a: a[::-1].copy(), "line offsets must rise"),
    ("dag", "shards/00000/atoms.counts.npy", lambda a: a * 0, "a count below 1"),
    ("dag", "names/pairs.offsets.npy", lambda a: bumped(a, -1, 5), "without falling"),
    ("sets", "names/compounds.bytes.npy", lambda a: set_to(a, 0, 0xFF), "not UTF-8"),
    ("sets", "order/compounds.npy", lambda a: a * 0, "must be a permutation"),
    ("sets", "shards/00001/compounds.indices.npy", lambda a: a[:-1].copy(), "of shape"),
    (
        "sets",
        "shards/00001/compounds.indptr.npy",
        lambda a: bumped(a, -1, -1),
        "entries they index",
    ),
]


@pytest.mark.parametrize(("kind", "name", "change", "expected"), EDITS)
def test_arrays_not_as_written_are_refused_even_with_their_hashes_updated(
    copy: Callable[[str], Path],
    kind: str,
    name: str,
    change: Callable[[np.ndarray], np.ndarray],
    expected: str,
) -> None:
    root = copy(kind)
    edit(root / f"{kind}-f", name, change)
    output = refused(root, kind, expected)
    assert name.rpartition("/")[0] in output, output  # the file, or its shard's


def test_untouched_copies_are_accepted(copy: Callable[[str], Path], written: Path) -> None:
    root = copy("dag")
    code, output = invoke(*split(root, "dag", root / "again.json"))
    assert code == 0, output
    again = json.loads((root / "again.json").read_text(encoding="utf-8"))
    first = json.loads((written / "dag.json").read_text(encoding="utf-8"))
    assert again["trainIdxs"] == first["trainIdxs"] and again["testIdxs"] == first["testIdxs"]
