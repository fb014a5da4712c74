import json
from pathlib import Path
from typing import Any

import pytest

import symcomp
from symcomp.data.splits import read_split
from symcomp.languages.pcfg_let.suite import PARTNERS, PcfgLetSuiteSpec, build
from symcomp.suites.unroll import read_records

LET = symcomp.get_language("pcfg-let")


@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("let") / "suite"
    build(out, PcfgLetSuiteSpec(n=3000, seed=2, export=False))
    return out


def parts(suite: Path, test: str) -> dict[str, list[dict[str, Any]]]:
    manifest = json.loads((suite / "manifest.json").read_text())
    entry = manifest["tests"][test]
    pool = [json.loads(line) for line in (suite / entry["pool"]).read_text().splitlines()]
    split = read_split(suite / entry["split"], len(pool))
    return {part: [pool[i] for i in split.part(part)] for part in ("train", "dev", "test")}


@pytest.mark.parametrize("name", list(PARTNERS))
def test_mirror_never_meets_its_partner_in_train(suite, name):
    split = parts(suite, f"systematicity/{name}")
    partners = set(PARTNERS[name])

    def meets(record: dict[str, Any]) -> bool:
        words = set(record["input"].split())
        return "mirror" in words and bool(words & partners)

    assert not any(meets(r) for r in split["train"] + split["dev"])
    assert split["test"] and all(meets(r) for r in split["test"])
    assert all(LET.interpret(r["input"]) == r["output"] for r in split["test"][:100])


def test_systematicity_pool_uses_the_reduced_vocabulary(suite):
    split = parts(suite, "systematicity/mirror_7_13")
    words = {w for part in split.values() for r in part for w in r["input"].split()}
    numbers = {int(w) for w in words if w.isdigit()}
    assert max(numbers) <= 27 and "E" in words


def test_localism_records_unroll_the_test_programs(suite):
    split = parts(suite, "task")
    records = read_records((suite / "localism/unrolled_test.tsv").read_text().splitlines())
    assert [r.source for r in records] == [r["input"] for r in split["test"]]
    assert all(r.target == LET.interpret(r.source) for r in records)
