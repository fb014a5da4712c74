"""How faithful symcomp's SLOG is to the published data (issue 37's "must be true" 1-3), part 1.

Reads SLOG's ``data`` folder (``--published``; ``bingzhilee/SLOG`` at
1c55df85006d58b842520c79dcb8e1b43df2836f, ``generalization_sets.zip`` unpacked in place) and
measures:

1. parse and logical-form agreement on every published row, per file and per case, in the
   file's format: COGS LF for ``cogs_LF/{dev,test}.tsv`` and ``gen_cogsLF.tsv``, the
   variable-free LF for ``gen_varfreeLF.tsv`` and ``varfree_LF/train.tsv``; with
   ``--train-cogs``, also a train file converted to COGS LF by SLOG's
   ``generation_scripts/varfree2cogs_converter`` (which raises on the 183 primitive rows:
   convert them to any placeholder and they count as not exact);
2. ambiguity: the grammar's strict LALR(1) analysis, and Earley with explicit ambiguity on
   every ``n``-th published row (``--earley-rows`` in all).

Generation against the published cases (SLOG's weight tables and depth windows) is not built
yet.

    python benchmarks/slog_fidelity.py --published PATH/TO/SLOG/data [--out runs/benchmarks]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from symcomp.core.registry import get_language

# (part name, file under the data folder, output format)
FILES = (
    ("dev", "cogs_LF/dev.tsv", "cogs"),
    ("test", "cogs_LF/test.tsv", "cogs"),
    ("gen_cogs", "generalization_sets/gen_cogsLF.tsv", "cogs"),
    ("gen_varfree", "generalization_sets/gen_varfreeLF.tsv", "varfree"),
    ("train_varfree", "varfree_LF/train.tsv", "varfree"),
)


def rows(path: Path) -> Iterator[tuple[str, str, str]]:
    """(sentence, logical form, case) per line of a published file."""
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            sentence, lf, case = line.rstrip("\n").split("\t")
            yield sentence, lf, case


def agreement(path: Path, output: str) -> dict[str, dict[str, int]]:
    """Rows, parsed rows and exact logical forms per case of one file."""
    language = get_language("slog").with_output(output)
    result: dict[str, dict[str, int]] = {}
    for sentence, lf, case in rows(path):
        cell = result.setdefault(case, {"rows": 0, "parsed": 0, "exact": 0})
        cell["rows"] += 1
        try:
            out = language.interpret(sentence)
        except Exception:  # a row that does not parse counts as such
            continue
        cell["parsed"] += 1
        cell["exact"] += out == lf
    return result


def conformance(published: Path, train_cogs: Path | None) -> dict[str, Any]:
    files = [(part, published / name, output) for part, name, output in FILES]
    if train_cogs is not None:
        files.append(("train_cogs_converted", train_cogs, "cogs"))
    result: dict[str, Any] = {}
    for part, path, output in files:
        cases = agreement(path, output)
        total = {
            key: sum(cell[key] for cell in cases.values()) for key in ("rows", "parsed", "exact")
        }
        result[part] = {"format": output, "total": total, "cases": cases}
    return result


def ambiguity(published: Path, earley_rows: int) -> dict[str, Any]:
    """Strict LALR(1) (raises on a conflict), then Earley with explicit ambiguity on a sample."""
    import lark
    from lark.common import ParserConf
    from lark.parsers.lalr_analysis import LALR_Analyzer

    grammar = get_language("slog").grammar
    analyzer = LALR_Analyzer(ParserConf(grammar.lark.rules, {}, ["start"]), strict=True)
    analyzer.compute_lalr()  # type: ignore[no-untyped-call]
    earley = lark.Lark(
        grammar.lark_text, parser="earley", ambiguity="explicit", maybe_placeholders=False
    )
    texts = [s for _part, name, _o in FILES for s, _lf, _c in rows(published / name)]
    step = max(1, len(texts) // earley_rows)
    sample = texts[::step]
    ambiguous = []
    for sentence in sample:
        first, _space, rest = sentence.partition(" ")
        # the grammar's determiners are lower-case; the parser proper sees them so
        text = f"{first.lower()} {rest}" if first in ("A", "The") else sentence
        tree = earley.parse(text)
        if any(t.data == "_ambig" for t in tree.iter_subtrees()):
            ambiguous.append(sentence)
    return {
        "lalr1_conflicts": 0,
        "earley": {
            "sentences": len(sample),
            "ambiguous": len(ambiguous),
            "examples": ambiguous[:5],
        },
    }


def table(report: dict[str, Any]) -> str:
    """The conformance as a Markdown table: one line per file and case."""
    lines = ["| file | format | case | rows | parsed | exact |", "|---|---|---|---:|---:|---:|"]
    for part, entry in report.items():
        cases = entry["cases"] if part.startswith("gen") else {"all": entry["total"]}
        for case, cell in sorted(cases.items()):
            lines.append(
                f"| {part} | {entry['format']} | {case} | {cell['rows']} | {cell['parsed']} "
                f"| {cell['exact']} |"
            )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--published", type=Path, required=True, help="SLOG's data folder.")
    parser.add_argument("--train-cogs", type=Path, default=None)
    parser.add_argument("--out", type=Path, default=Path("runs/benchmarks"))
    parser.add_argument("--earley-rows", type=int, default=3000)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    report: dict[str, Any] = {"1_conformance": conformance(args.published, args.train_cogs)}
    report["2_ambiguity"] = ambiguity(args.published, args.earley_rows)
    text = json.dumps(report, indent=1, sort_keys=True)
    (args.out / "slog_fidelity.json").write_text(text + "\n", encoding="utf-8")
    sys.stdout.write(table(report["1_conformance"]) + "\n\n")
    sys.stdout.write(json.dumps(report["2_ambiguity"], indent=1) + "\n")


if __name__ == "__main__":
    main()
