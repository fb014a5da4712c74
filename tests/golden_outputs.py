"""Golden outputs: the exact bytes symcomp writes for a fixed seed and size, per language.

For every built-in language: the sha256 of a generated pool's ``examples.jsonl``, of every data
file of one suite (splits, pools, auxiliary files; not README.md or manifest.json, which name
the symcomp version) and of the index lists of one MCD split, with the DBCA measure version
(``symcomp.dbca.measure.MEASURE_VERSION``) they were found under. Everything runs through the CLI,
so a refactoring of the library cannot change what is measured.

The random stream is part of a language's identity: a change that alters these bytes must bump
the grammar's version (``[language] version`` in its sidecar) and update
``tests/golden/outputs.json`` in the same commit::

    .venv/bin/python -m tests.golden_outputs --update
"""

from __future__ import annotations

import argparse
import hashlib
import json
import tempfile
from pathlib import Path
from typing import Any

from click.testing import CliRunner

GOLDEN = Path(__file__).parent / "golden" / "outputs.json"

# language -> (generate arguments, suite arguments, MCD split arguments); None: not applicable
# (cfq has no suite; a monotonicity pool holds premise/hypothesis pairs, not derivations)
CASES: dict[str, tuple[tuple[str, ...], tuple[str, ...] | None, tuple[str, ...] | None]] = {
    "pcfg-set": (
        ("--n", "300", "--with-dag"),
        ("--n", "400", "--seed", "1", "--per-function", "20", "--no-export"),
        ("--rounds", "1"),
    ),
    "pcfg-let": (
        ("--n", "300", "--with-dag"),
        ("--n", "300", "--seed", "1", "--no-export"),
        ("--rounds", "1"),
    ),
    "scan": (("--n", "300", "--with-dag"), ("--seed", "1", "--no-export"), ("--rounds", "1")),
    "cfq": (("--n", "300", "--with-dag"), None, ("--rounds", "1")),
    "cogs": (
        ("--n", "300", "--with-dag"),
        (
            *("--n-train", "300", "--n-dev", "40", "--n-test", "40", "--n-gen", "10"),
            *("--per-depth", "2", "--exposures-100", "2", "--no-export"),
        ),
        ("--rounds", "1"),
    ),
    "slog": (("--n", "300", "--with-dag"), None, ("--rounds", "1")),
    "monotonicity": (
        ("--n", "300"),
        ("--n", "400", "--seed", "1", "--max-depth", "3"),
        None,
    ),
    "arithmetic": (
        ("--n", "300", "--with-dag"),
        ("--seed", "1", "--in-domain", "60", "--generalisation", "30", "--no-export"),
        ("--rounds", "1"),
    ),
}


def _cli(*args: str) -> None:
    from symcomp.cli import cli

    result = CliRunner().invoke(cli, ["-q", *args])
    if result.exit_code != 0:
        raise RuntimeError(f"symcomp {' '.join(args)} failed ({result.exit_code}): {result.output}")


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def compute(language: str, work: Path) -> dict[str, Any]:
    """The golden record of one language, built in ``work``."""
    generate, suite, split = CASES[language]
    pool = work / "pool"
    _cli("generate", language, "--seed", "0", *generate, "--out", str(pool))
    manifest = json.loads((pool / "manifest.json").read_text(encoding="utf-8"))
    record: dict[str, Any] = {
        "examples.jsonl": _sha((pool / "examples.jsonl").read_bytes()),
        "manifest_format": manifest["format"],  # file formats are part of the contract too
    }
    if suite is not None:
        folder = work / "suite"
        _cli("suite", language, *suite, "--out", str(folder))
        suite_manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
        files = suite_manifest["files"]
        record["suite_format"] = suite_manifest["format"]
        record["suite"] = {
            name: entry["sha256"] for name, entry in sorted(files.items()) if name != "README.md"
        }
    if split is None:
        return record
    indices = _mcd_split(pool, work / "mcd.json", split)
    record["mcd_split"] = _parts_sha(indices)
    # a change of the DBCA measures moves these indices too: it must bump the measure version
    record["mcd_measure_version"] = indices["meta"]["measure_version"]
    return record


def _mcd_split(pool: Path, out: Path, split: tuple[str, ...]) -> dict[str, Any]:
    _cli("split", "dbca", str(pool), "--seed", "0", *split, "--out", str(out))
    indices: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return indices


def _parts_sha(indices: dict[str, Any]) -> str:
    parts = {key: indices[key] for key in ("trainIdxs", "devIdxs", "testIdxs")}
    return _sha(json.dumps(parts, sort_keys=True).encode())


def split_digest(
    language: str, work: Path, generate: tuple[str, ...], split: tuple[str, ...]
) -> str:
    """The digest of the index lists of an MCD split of a freshly generated pool."""
    pool = work / "pool"
    _cli("generate", language, "--seed", "0", *generate, "--out", str(pool))
    return _parts_sha(_mcd_split(pool, work / "mcd.json", split))


def language_version(language: str) -> str:
    import symcomp

    return symcomp.get_language(language).version


def compute_all() -> dict[str, Any]:
    golden = {}
    for language in CASES:
        with tempfile.TemporaryDirectory() as work:
            golden[language] = {
                "grammar_version": language_version(language),
                **compute(language, Path(work)),
            }
    return golden


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--update", action="store_true", help="Rewrite tests/golden/outputs.json.")
    args = parser.parse_args()
    golden = compute_all()
    text = json.dumps(golden, indent=2, sort_keys=True) + "\n"
    if args.update:
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
