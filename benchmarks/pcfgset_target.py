"""Recompute the default naturalisation target of pcfg-set from the published test set.

The shipped ``grammars/pcfg_set.target.json`` is the (length, depth) histogram of the 9,721
inputs of PCFG SET's published random-split test set. This script writes it again from
``../shared/peers/pcfgset_am_i_compositional/pcfgset_test.tsv``; a test checks that the shipped
file equals its output.

    python benchmarks/pcfgset_target.py [--test-set PATH] [--out PATH]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import symcomp
from symcomp.data.naturalize import LengthDepthTarget, histogram

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_TEST_SET = ROOT.parent / "shared/peers/pcfgset_am_i_compositional/pcfgset_test.tsv"
PROVENANCE = {
    "data": "PCFG SET random-split test set, 9,721 inputs",
    "repository": "i-machine-think/am-i-compositional",
    "commit": "4f75bdd78889150dd78e90bbb7ddec840204c159",
    "path": "data/pcfgset/pcfgset/test.src",
    "license": "MIT",
    "length": "number of input tokens",
    "depth": "largest number of nested function applications",
    "computed_by": "benchmarks/pcfgset_target.py",
}


def published_target(test_set: Path) -> LengthDepthTarget:
    """The (length, depth) histogram of the inputs in the first column of ``test_set``."""
    language = symcomp.get_language("pcfg-set")
    pairs = []
    for line in test_set.read_text(encoding="utf-8").splitlines():
        example = language.example(line.split("\t")[0])
        pairs.append((example.meta["length"], example.meta["depth"]))
    return histogram(pairs, length_bin=5, depth_bin=1, provenance=PROVENANCE)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--test-set", type=Path, default=DEFAULT_TEST_SET)
    parser.add_argument("--out", type=Path, default=ROOT / "grammars/pcfg_set.target.json")
    args = parser.parse_args()
    target = published_target(args.test_set)
    args.out.write_text(json.dumps(target.to_json(), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}: {len(target.counts)} cells from {sum(target.counts.values())} inputs")


if __name__ == "__main__":
    main()
