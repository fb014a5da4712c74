"""Helpers: PCFG SET data in the published folder layout (am-i-compositional ``data/pcfgset``),
written from a handful of generated programs or from the samples in ``../shared/peers``."""

from __future__ import annotations

from pathlib import Path

import symcomp
from symcomp.languages.pcfg_set.functions import BINARY, UNARY
from symcomp.languages.pcfg_set.suite import TWINNED, exception_output
from symcomp.suites.unroll import record_lines, unroll_record

PCFG = symcomp.get_language("pcfg-set")
RATIOS = ("0.0001", "0.001")


def write(path: Path, lines: list[str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")


def write_pair(base: Path, sources: list[str], targets: list[str]) -> None:
    write(base.with_suffix(".src"), sources)
    write(base.with_suffix(".tgt"), targets)


def twin_of(text: str) -> str | None:
    words = text.split()
    function = next((f for f in TWINNED if f in words), None)
    if function is None:
        return None
    return " ".join(f"{w}_twin" if w == function else w for w in words)


def synthetic(root: Path, n: int = 60, seed: int = 0) -> Path:
    """A complete published folder made of ``n`` generated programs per test file."""
    programs = [PCFG.sample(seed=seed + i).input for i in range(n)]
    outputs = [PCFG.interpret(p) for p in programs]
    for folder in ("pcfgset/test", "pcfgset/dev", "systematicity/test", "productivity/test"):
        write_pair(root / folder, programs, outputs)
    twinned = [(p, t) for p in programs if (t := twin_of(p))]
    for condition in ("equally_distributed", "primitive"):
        base = root / "substitutivity" / condition
        write(base / "test.src", [p for p, _ in twinned])
        write(base / "test_twin.src", [t for _, t in twinned])
        write(base / "test.tgt", [PCFG.interpret(p) for p, _ in twinned])
    unrolled = [
        line
        for p in programs
        if len(p.split()) > 0 and sum(w in UNARY + BINARY for w in p.split()) > 1
        for line in record_lines(unroll_record(PCFG, p))
    ]
    write(root / "localism/unrolled_test.tsv", unrolled)
    length = root / "localism/increasing_string_length/increasing_length"
    write_pair(
        length,
        ["reverse A1 B1 C1 D1 E1 F1", "append A1 B1 , C1"],
        ["F1 E1 D1 C1 B1 A1", "A1 B1 C1"],
    )
    exceptions = {
        "reverse echo A1 B1": ("reverse", "echo"),
        "prepend reverse A1 B1 , C1": ("prepend", "reverse"),
        "copy reverse echo C2 D2": ("reverse", "echo"),
    }
    for ratio in RATIOS:
        base = root / f"overgeneralisation/test_pcfg_ratio={ratio}"
        write(Path(f"{base}_original.src"), list(exceptions))
        write(Path(f"{base}_exception.src"), list(exceptions))
        write(Path(f"{base}_original.tgt"), [PCFG.interpret(e) for e in exceptions])
        write(
            Path(f"{base}_exception.tgt"),
            [exception_output(PCFG, e, pair) for e, pair in exceptions.items()],
        )
    for function in UNARY + BINARY:
        sources = [f"{function} A1 B1" if function in UNARY else f"{function} A1 B1 , C1"]
        write_pair(
            root / f"pcfgset/per_function_test/test_{function}",
            sources,
            [PCFG.interpret(s) for s in sources],
        )
    return root


def rows(path: Path) -> list[list[str]]:
    return [line.split("\t") for line in path.read_text(encoding="utf-8").splitlines()]


def from_peers(peers: Path, root: Path, keep: int = 60) -> Path:
    """The published folder from ../shared/peers: the task test set and the primitive
    substitutivity test in full (the latter from the Transformer's prediction files, which
    list every input in order), every other file cut to ``keep`` lines (enough to import)."""
    sample = peers / "pcfgset_am_i_compositional"
    task = rows(sample / "pcfgset_test.tsv")
    write_pair(root / "pcfgset/test", [r[0] for r in task], [r[1] for r in task])
    dev = rows(sample / "pcfgset_dev.tsv")[:keep]
    write_pair(root / "pcfgset/dev", [r[0] for r in dev], [r[1] for r in dev])
    for name in ("systematicity", "productivity"):
        cut = rows(sample / f"{name}_test.tsv")[:keep]
        write_pair(root / f"{name}/test", [r[0] for r in cut], [r[1] for r in cut])
    predictions = sample / "model_predictions/transformer/substitutivity/primitive"
    originals = rows(predictions / "run=1.txt")[1:]
    twins = rows(predictions / "run=1_synonym.txt")[1:]
    base = root / "substitutivity/primitive"
    write(base / "test.src", [r[0].strip() for r in originals])
    write(base / "test_twin.src", [r[0].strip() for r in twins])
    write(base / "test.tgt", [r[1].strip() for r in originals])
    cut = rows(sample / "substitutivity_equally_distributed_test.tsv")[:keep]
    base = root / "substitutivity/equally_distributed"
    write(base / "test.src", [r[0] for r in cut])
    write(base / "test_twin.src", [r[1] for r in cut])
    write(base / "test.tgt", [r[2] for r in cut])
    lines = (sample / "localism_unrolled_test.tsv").read_text(encoding="utf-8").splitlines()
    last = [i for i, line in enumerate(lines) if line.startswith("original")][keep // 10]
    write(root / "localism/unrolled_test.tsv", lines[: last + 1])
    cut = rows(sample / "localism_increasing_length.tsv")[:keep]
    write_pair(
        root / "localism/increasing_string_length/increasing_length",
        [r[0] for r in cut],
        [r[1] for r in cut],
    )
    for path in sample.glob("overgeneralisation_ratio=*_test.tsv"):
        ratio = path.name.removeprefix("overgeneralisation_ratio=").removesuffix("_test.tsv")
        found = rows(path)
        base = root / f"overgeneralisation/test_pcfg_ratio={ratio}"
        write(Path(f"{base}_original.src"), [r[0] for r in found])
        write(Path(f"{base}_original.tgt"), [r[1] for r in found])
        write(Path(f"{base}_exception.tgt"), [r[2] for r in found])
    per_function = rows(sample / "per_function_test.tsv")
    for function in UNARY + BINARY:
        cut = [r for r in per_function if r[0] == function][:5]
        write_pair(
            root / f"pcfgset/per_function_test/test_{function}",
            [r[1] for r in cut],
            [r[2] for r in cut],
        )
    return root
