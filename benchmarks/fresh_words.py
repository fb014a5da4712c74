"""Fresh words at full size: every language that declares renamable word classes, its suite at
its default size built with ``--fresh-words SEED`` twice.

For each language it reports: the CPU seconds of each build (the command a user runs, start-up
included: ``resource.RUSAGE_CHILDREN``), whether the two builds wrote the same bytes (every
file), how many renamed examples (every pool and every auxiliary file of examples, counted on
the whole suite) re-interpret to their written output with the renamed language rebuilt from
the manifest (:meth:`symcomp.suites.reading.Suite.load_language`), and how many fresh words are
words or literals of the language (any class) or tokens of the original outputs (the renamed
outputs with their renamed tokens mapped back). Writes ``fresh_words.json`` and
``fresh_words.md`` into ``--out``.

    python benchmarks/fresh_words.py [--seed 0] [--language scan ...] [--out runs/benchmarks]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from symcomp.core.fresh_strings import literals
from symcomp.core.fresh_words import output_tokens, renamable_languages
from symcomp.core.registry import get_language
from symcomp.data.artifacts import parse_json_lines
from symcomp.suites.reading import Suite


def build(name: str, out: Path, seed: int) -> dict[str, float]:
    """Run ``symcomp suite NAME --fresh-words SEED``; its CPU and wall seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    symcomp = Path(sys.executable).parent / "symcomp"  # the console script of this environment
    command = [str(symcomp), "-q", "suite", name, "--out", str(out)]
    subprocess.run([*command, "--fresh-words", str(seed)], check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return {"cpu_s": round(cpu, 1), "wall_s": round(time.perf_counter() - start, 1)}


def digests(folder: Path) -> dict[str, str]:
    return {
        path.relative_to(folder).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def example_files(suite: Suite) -> list[str]:
    """Every pool, and every JSON-lines file of records with an input and an output."""
    return [relative for relative in suite.manifest["files"] if relative.endswith(".jsonl")]


def reinterpret(folder: Path) -> dict[str, Any]:
    """Renamed examples re-interpreted by the language rebuilt from the manifest."""
    start = time.process_time()
    suite = Suite.read(folder)
    language = suite.load_language()
    assert language is not None and language.fresh_words is not None
    total = matched = 0
    files = example_files(suite)
    outputs: set[str] = set()
    for relative in files:
        lines = suite.read_lines(relative, "file")
        for record in parse_json_lines(lines, str(folder / relative)):
            if "input" not in record or "output" not in record:
                continue
            total += 1
            matched += language.interpret(str(record["input"])) == record["output"]
            outputs.update(str(record["output"]).split())
    return {
        "files": files,
        "examples": total,
        "reinterpreted": matched,
        "share": matched / total if total else None,
        "check_cpu_s": round(time.process_time() - start, 1),
        "renamed_outputs": outputs,
    }


def collisions(name: str, folder: Path, outputs: set[str]) -> dict[str, Any]:
    """Fresh words that are words or literals of the language, or original output tokens."""
    suite = Suite.read(folder)
    language = suite.load_language()
    assert language is not None and language.fresh_words is not None
    original = get_language(name)
    fresh = set(language.fresh_words.mapping.values())
    vocabulary = {w.lower() for ws in original.grammar.sidecar.lexicon.values() for w in ws}
    vocabulary |= {w.lower() for w in literals(original.grammar)}
    renamed = output_tokens(language)
    back = {new: old for old, new in renamed.items()}
    original_outputs = {back.get(token, token) for token in outputs}
    return {
        "fresh_words": len(fresh),
        "renamed_words": len(language.fresh_words.mapping),
        "classes": list(language.fresh_words.classes),
        "in_lexicon": sorted(w for w in fresh if w.lower() in vocabulary),
        "in_original_outputs": sorted(set(renamed.values()) & original_outputs),
        "example": dict(list(language.fresh_words.mapping.items())[:6]),
    }


def measure(name: str, seed: int, root: Path) -> dict[str, Any]:
    first, second = root / f"{name}-a", root / f"{name}-b"
    builds = [build(name, first, seed), build(name, second, seed)]
    same = digests(first) == digests(second)
    checked = reinterpret(first)
    outputs = checked.pop("renamed_outputs")
    return {
        "language": name,
        "builds": builds,
        "same_bytes": same,
        **checked,
        **collisions(name, first, outputs),
    }


def markdown(results: list[dict[str, Any]], seed: int) -> str:
    lines = [
        f"# Fresh words: default suites with `--fresh-words {seed}`",
        "",
        "| language | renamed words | examples | re-interpreted | same bytes | fresh in "
        "lexicon | fresh in outputs | build CPU-s (two builds) | check CPU-s |",
        "|---|---:|---:|---:|---|---:|---:|---:|---:|",
    ]
    for r in results:
        cpu = " / ".join(f"{b['cpu_s']:.1f}" for b in r["builds"])
        lines.append(
            f"| {r['language']} | {r['renamed_words']:,} | {r['examples']:,} | "
            f"{r['reinterpreted']:,} ({100 * (r['share'] or 0):.1f} %) | "
            f"{'yes' if r['same_bytes'] else 'NO'} | {len(r['in_lexicon'])} | "
            f"{len(r['in_original_outputs'])} | {cpu} | {r['check_cpu_s']:.1f} |"
        )
    lines += ["", f"Python {platform.python_version()}, {platform.machine()}.", ""]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--language", action="append", help="default: every one that declares")
    parser.add_argument("--out", type=Path, default=Path("runs/benchmarks"))
    args = parser.parse_args()
    names = args.language or renamable_languages()
    with tempfile.TemporaryDirectory() as folder:
        results = [measure(name, args.seed, Path(folder)) for name in names]
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "fresh_words.json").write_text(json.dumps(results, indent=2) + "\n")
    text = markdown(results, args.seed)
    (args.out / "fresh_words.md").write_text(text)
    sys.stdout.write(text)
    if not all(r["share"] == 1 and r["same_bytes"] and not r["in_lexicon"] for r in results):
        sys.exit(1)


if __name__ == "__main__":
    main()
