"""Feature extraction spread out (`symcomp.dbca.extraction`): `symcomp import` writes the pool's
feature shards as it reads, `split dbca POOL` uses them without extracting again, one process
and `--jobs 2` give the same bytes, a worker killed while it extracts a shard changes nothing,
and the feature step shows progress on a terminal only. The same on a Ray cluster:
tests/test_ray_extraction.py."""

from __future__ import annotations

import json
import os
import pty
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from symcomp.cli import cli
from tests.test_dbca_shards import write_treebank

CLI = [sys.executable, "-c", "from symcomp.cli import main; main()"]


def invoke(*args: object) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["-q", *(str(a) for a in args)])
    return result.exit_code, result.output


def tree(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` by its relative path, and its bytes."""
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()
    }


def split_of(path: Path, *, pool_path: bool = True) -> dict[str, Any]:
    """A split file without the seconds and CPU seconds its search took (the only fields
    that may differ), and without the path of its pool unless ``pool_path``."""
    split: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    split["meta"]["search"].pop("seconds")
    split["meta"]["search"].pop("cpu_seconds")
    if not pool_path:
        split["meta"]["pool"].pop("path")
    return split


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("extraction")
    write_treebank(root / "treebank.conllu", 300, seed=3)
    code, output = invoke(
        "generate", "scan", "--seed", 1, "--n", 240, "--with-dag", "--out", root / "scan"
    )
    assert code == 0, output
    return root


IMPORT = ("import", "treebank.conllu", "--shard-size", 64)
SPLIT = ("--seed", 0, "--rounds", 1, "--shard-size", 64)


def test_one_process_and_two_give_the_same_pool_shards_and_split(
    corpus: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(corpus)  # the pool manifests record the treebank as given: the same path
    for name, jobs in (("one", 1), ("two", 2)):
        code, output = invoke(*IMPORT, "--jobs", jobs, "--out", tmp_path / name)
        assert code == 0, output
    assert tree(tmp_path / "one") == tree(tmp_path / "two")
    assert len(json.loads((tmp_path / "one/features/manifest.json").read_bytes())["shards"]) == 5
    for name, jobs in (("one", 1), ("two", 2)):  # extracted again from the pool, by the split
        args = ("split", "dbca", tmp_path / "one", *SPLIT, "--jobs", jobs)
        code, output = invoke(
            *args, "--features", tmp_path / f"f-{name}", "--out", tmp_path / f"{name}.json"
        )
        assert code == 0, output
    assert tree(tmp_path / "f-one") == tree(tmp_path / "f-two")
    assert split_of(tmp_path / "one.json") == split_of(tmp_path / "two.json")
    # the import's shards are the split's (but for the pool's path, relative to the folder)
    imported, extracted = tree(tmp_path / "one/features"), tree(tmp_path / "f-one")
    assert imported.pop("manifest.json") != extracted.pop("manifest.json")
    assert imported == extracted


def test_a_split_of_an_imported_pool_reads_its_shards(
    corpus: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from symcomp.dbca import extraction

    pool = tmp_path / "pool"
    assert invoke("import", corpus / "treebank.conllu", "--out", pool, "--shard-size", 64)[0] == 0
    assert invoke("split", "dbca", pool, *SPLIT, "--out", tmp_path / "own.json")[0] == 0

    def no_extraction(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("features extracted again")

    with monkeypatch.context() as patch:
        patch.setattr(extraction, "extract_part", no_extraction)
        for name in ("again", "measured"):
            out = tmp_path / f"{name}.json"
            assert invoke("split", "dbca", pool, *SPLIT, "--out", out)[0] == 0
        code, measured = invoke("divergence", pool, tmp_path / "own.json", "--json")
        assert code == 0, measured
    assert split_of(tmp_path / "own.json") == split_of(tmp_path / "again.json")
    # the same split as from features in memory (the pool without its shards)
    (tmp_path / "bare").mkdir()
    for name in ("examples.jsonl", "manifest.json"):
        (tmp_path / "bare" / name).write_bytes((pool / name).read_bytes())
    assert (
        invoke("split", "dbca", tmp_path / "bare", *SPLIT, "--out", tmp_path / "memory.json")[0]
        == 0
    )
    memory, own = (split_of(tmp_path / f"{n}.json", pool_path=False) for n in ("memory", "own"))
    assert memory == own
    # other options: the pool's shards do not fit, the features are computed in memory
    other = ("--atom-frequency", "occurrence")
    assert invoke("split", "dbca", pool, *SPLIT, *other, "--out", tmp_path / "a.json")[0] == 0
    assert (
        invoke("split", "dbca", tmp_path / "bare", *SPLIT, *other, "--out", tmp_path / "b.json")[0]
        == 0
    )
    assert split_of(tmp_path / "a.json", pool_path=False) == split_of(
        tmp_path / "b.json", pool_path=False
    )


def test_a_grammar_pool_and_rows_left_out_read_the_same_in_any_number_of_workers(
    tmp_path: Path,
) -> None:
    grammar = tmp_path / "calc.lark"
    grammar.write_text(
        'start: sum\nsum: NUMBER ("+" NUMBER)*\n%import common.NUMBER\n%ignore " "\n'
    )
    rows = [f"{i} + {i + 1}\t{2 * i + 1}" if i % 7 else f"{i} plus\tx" for i in range(90)]
    (tmp_path / "calc.tsv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    args = (
        "import",
        tmp_path / "calc.tsv",
        "--compounds",
        f"grammar:{grammar}",
        "--unreadable",
        "drop",
    )
    for jobs in (1, 2):
        code, output = invoke(
            *args, "--shard-size", 20, "--jobs", jobs, "--out", tmp_path / f"p{jobs}"
        )
        assert code == 0 and "left out 13 rows" in output, output
    assert tree(tmp_path / "p1") == tree(tmp_path / "p2")
    manifest = json.loads((tmp_path / "p1/features/manifest.json").read_bytes())
    assert [shard["examples"] for shard in manifest["shards"]] == [17, 17, 17, 17, 9]
    # the split reads the shards the import wrote, which fit the pool's copy of the grammar
    code, output = invoke(
        "split", "dbca", tmp_path / "p1", "--rounds", 0, "--out", tmp_path / "s.json"
    )
    assert code == 0, output
    assert not (tmp_path / "p1" / "parts").exists()


def broken_pool(scan: Path, folder: Path) -> Path:
    """A copy of ``scan`` without stored DAGs whose line 150 does not parse."""
    lines = [json.loads(line) for line in (scan / "examples.jsonl").read_text().splitlines()]
    for record in lines:
        record.pop("derivation")
    lines[149]["input"] = "jump jump"
    (folder / "broken").mkdir()
    (folder / "broken" / "examples.jsonl").write_text("".join(json.dumps(r) + "\n" for r in lines))
    (folder / "broken" / "manifest.json").write_bytes((scan / "manifest.json").read_bytes())
    return folder / "broken"


def test_a_line_a_worker_cannot_read_is_named(corpus: Path, tmp_path: Path) -> None:
    pool = broken_pool(corpus / "scan", tmp_path)
    args = ("split", "dbca", pool, *SPLIT, "--jobs", 2, "--features", tmp_path / "f")
    code, output = invoke(*args, "--out", tmp_path / "s.json")
    assert code == 2 and "examples.jsonl:150: has no derivation" in output, output
    assert not (tmp_path / "f").exists() and not (tmp_path / "s.json").exists()


def test_jobs_without_a_folder_to_extract_into_are_refused(corpus: Path, tmp_path: Path) -> None:
    code, output = invoke(
        "split", "dbca", corpus / "scan", "--jobs", 2, "--out", tmp_path / "s.json"
    )
    assert code == 2 and "--jobs" in output and "--features" in output, output
    assert not (tmp_path / "s.json").exists()


KILLER = '''
import os, pathlib, time

ARMED, MARK = pathlib.Path({armed!r}), pathlib.Path({mark!r})


def extract(record):
    """Input tokens and bigrams; once armed, the example {victim!r} stops its worker until it
    is killed (the first time only: a retried shard goes through)."""
    if record["id"] == {victim!r} and ARMED.exists() and not MARK.exists():
        MARK.write_text(str(os.getpid()))
        while True:
            time.sleep(1)
    tokens = str(record["input"]).split()
    return tokens, [" ".join(pair) for pair in zip(tokens, tokens[1:])]
'''


def killer(folder: Path, victim: str) -> tuple[str, Path, Path]:
    """A python: extractor that stops at ``victim`` once ``armed`` exists, leaving its
    worker's pid in ``mark``."""
    armed, mark = folder / "armed", folder / "mark"
    module = folder / "killer.py"
    module.write_text(KILLER.format(armed=str(armed), mark=str(mark), victim=victim))
    return f"python:{module}:extract", armed, mark


def wait_for(path: Path, process: subprocess.Popen[str]) -> int:
    """The pid a stopped worker wrote into ``path`` (waiting for the file, not a time)."""
    while not (path.exists() and path.read_text()):
        assert process.poll() is None, process.communicate()
        time.sleep(0.05)
    return int(path.read_text())


def killed_while_extracting(
    scan: Path, line: int, folder: Path, *workers: object
) -> tuple[Path, Path]:
    """Split ``scan`` from shards extracted by one process, then by ``workers`` (CLI options)
    one of which is killed while it extracts the example on ``line``; both shard folders."""
    lines = (scan / "examples.jsonl").read_text(encoding="utf-8").splitlines()
    compounds, armed, mark = killer(folder, json.loads(lines[line])["id"])
    common = ("split", "dbca", scan, *SPLIT, "--compounds", compounds)
    code, output = invoke(*common, "--features", folder / "f1", "--out", folder / "one.json")
    assert code == 0, output
    armed.touch()
    args = [*common, *workers, "--features", folder / "f2", "--out", folder / "two.json"]
    process = subprocess.Popen(
        [*CLI, "-q", *map(str, args)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    os.kill(wait_for(mark, process), signal.SIGKILL)
    output, _ = process.communicate()
    assert process.returncode == 0, output
    assert split_of(folder / "one.json") == split_of(folder / "two.json")
    return folder / "f1", folder / "f2"


@pytest.mark.signals
def test_a_killed_worker_is_replaced_and_changes_nothing(corpus: Path, tmp_path: Path) -> None:
    one, two = killed_while_extracting(corpus / "scan", 170, tmp_path, "--jobs", 2)  # shard 2
    assert tree(one) == tree(two)


def run_on_a_terminal(args: list[str]) -> str:
    """Run symcomp with stderr on a pseudo-terminal; what it wrote there."""
    leader, follower = pty.openpty()
    process = subprocess.Popen([*CLI, *args], stdout=subprocess.DEVNULL, stderr=follower)
    os.close(follower)
    seen = b""
    while True:
        try:
            data = os.read(leader, 4096)
        except OSError:  # the terminal closed with the process
            break
        if not data:
            break
        seen += data
    assert process.wait() == 0, seen
    os.close(leader)
    return seen.decode("utf-8", errors="replace")


def test_the_feature_step_shows_progress_on_a_terminal_only(corpus: Path, tmp_path: Path) -> None:
    args = ["split", "dbca", str(corpus / "scan"), "--rounds", "0", "--shard-size", "40"]
    shown = run_on_a_terminal(
        [*args, "--features", str(tmp_path / "a"), "--out", str(tmp_path / "a.json")]
    )
    assert "features" in shown and "100%" in shown, shown
    quiet = run_on_a_terminal(
        ["-q", *args, "--features", str(tmp_path / "b"), "--out", str(tmp_path / "b.json")]
    )
    assert "features" not in quiet and "%" not in quiet, quiet
    piped = subprocess.run(
        [*CLI, *args, "--features", str(tmp_path / "c"), "--out", str(tmp_path / "c.json")],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "%" not in piped.stderr, piped.stderr
    # shards already there: nothing is extracted, no bar
    again = run_on_a_terminal(
        [*args, "--features", str(tmp_path / "a"), "--out", str(tmp_path / "d.json")]
    )
    assert "features" not in again, again
