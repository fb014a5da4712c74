"""The ``paper`` profile: pairs and protocols as the published scripts of Yanaka et al. 2020."""

import json
from typing import Any

import pytest
from click.testing import CliRunner

from symcomp.cli import cli
from symcomp.data.splits import read_split
from symcomp.errors import GenerationError
from symcomp.languages.monotonicity.heuristics import main_quantifier_table
from symcomp.languages.monotonicity.lexicon import VERB_HYPERNYMS
from symcomp.languages.monotonicity.pairs import PairSpec, generate_pairs
from symcomp.languages.monotonicity.suite import (
    PAPER_FIRST,
    PAPER_GROUPS,
    MonotonicitySuiteSpec,
    build,
)

N = 8000


@pytest.fixture(scope="module")
def pairs():
    return generate_pairs(PairSpec(n=N, seed=3, profile="paper"))


def records(pairs: Any) -> list[dict[str, Any]]:
    return [pair.record("monotonicity", "test") for pair in pairs]


def test_deeper_pairs_replace_r1_to_r4_at_the_deepest_noun_of_plain_sentences(pairs):
    deep = [pair for pair in pairs if pair.meta["depth"] >= 2]
    assert deep
    for pair in deep:
        meta = pair.meta
        assert meta["variant"] == "plain"
        assert meta["phenomenon"] in ("r1", "r2", "r3", "r4")
        assert (meta["position"], meta["level"]) == ("subject", meta["depth"] - 1)
    assert {pair.meta["phenomenon"] for pair in deep} == {"r1", "r2", "r3", "r4"}


def test_object_variant_has_the_subject_some_and_only_depth_one(pairs):
    objects = [pair for pair in pairs if pair.meta["variant"] == "object"]
    assert objects and {pair.meta["depth"] for pair in objects} == {1}
    for pair in objects:
        assert pair.premise.split()[0] == "Some" and not pair.premise.split()[1].endswith("s")
        assert pair.meta["quantifiers"][0] == "some"


def test_no_and_some_are_singular_and_verb_hypernyms_occur(pairs):
    for pair in pairs:
        words = pair.premise.rstrip(".").split()
        for index, word in enumerate(words[:-1]):
            if word.lower() in ("no", "some") and words[index + 1] not in ("animals",):
                assert not words[index + 1].endswith("s") or words[index + 1] == "mammals"
    verbs = [pair for pair in pairs if pair.meta["position"] == "scope"]
    hypernym = [p for p in verbs if p.meta["phenomenon"] == "r1"]
    assert hypernym and all(
        p.hypothesis.rstrip(".").split()[-1] in VERB_HYPERNYMS
        or p.premise.rstrip(".").split()[-1] in VERB_HYPERNYMS
        for p in hypernym
    )


def test_main_quantifier_rule_is_near_chance_at_depth_two_and_more(pairs):
    table = main_quantifier_table(records(pairs))
    for depth, row in table.items():
        if depth >= 2:
            assert 0.45 <= row["accuracy"] <= 0.60, (depth, row)
    richer = main_quantifier_table(records(generate_pairs(PairSpec(n=4000, seed=3))))
    assert all(row["accuracy"] > 0.7 for depth, row in richer.items() if depth >= 2), richer


def test_the_default_profile_is_unchanged_and_bad_profiles_are_refused():
    assert "profile" not in PairSpec(n=2).describe()
    assert PairSpec(n=2, profile="paper").describe()["profile"] == "paper"
    with pytest.raises(GenerationError, match="`profile` must be one of symcomp, paper"):
        PairSpec(n=2, profile="papr").check()


@pytest.fixture(scope="module")
def paper_suite(tmp_path_factory):
    out = tmp_path_factory.mktemp("paper") / "suite"
    spec = MonotonicitySuiteSpec(n=6000, seed=1, profile="paper", protocols=("I", "II"))
    manifest = build(out, spec)
    pool = [json.loads(line) for line in (out / "examples.jsonl").read_text().splitlines()]
    return out, manifest, pool


def test_paper_protocol_one_starts_from_one_quantifier(paper_suite):
    out, manifest, pool = paper_suite
    names = [name for name in manifest["tests"] if name.startswith("protocol-I/")]
    # 2 first quantifiers x 2 anchors x (S1 + 2 orders x 3 steps) x 3 test variants
    assert len(names) == 2 * 2 * 7 * 3
    for name in names:
        split = read_split(out / manifest["tests"][name]["split"], pool_size=len(pool))
        meta = split.meta
        seen = set(meta["seen_quantifiers"])
        if meta["k"] == 1:
            assert len(seen) == 1 and seen <= set(PAPER_FIRST)
        else:
            assert len(seen) == 1 + 2 * (meta["k"] - 1)
            assert set(meta["order"][1]) in [set(group) for group in PAPER_GROUPS]
        for index in split.test:
            record = pool[index]["meta"]
            assert record["path"][0] not in seen and record["phenomenon"] != meta["anchor"]
            assert record["variant"] == meta["test_variant"] != "object"
        trained = {pool[i]["meta"]["path"][0] for i in split.train}
        assert seen <= trained
        assert all(pool[i]["meta"]["variant"] == "plain" for i in split.train)


def test_paper_protocol_two_adds_dual_pairs_step_by_step(paper_suite):
    out, manifest, pool = paper_suite
    names = sorted(name for name in manifest["tests"] if name.startswith("protocol-II/"))
    assert names == [f"protocol-II/step{k}" for k in range(1, 5)]
    previous = 0
    for name in names:
        split = read_split(out / manifest["tests"][name]["split"], pool_size=len(pool))
        trained = {q for pair in split.meta["trained_quantifiers"] for q in pair}
        assert len(trained) == 2 * split.meta["step"]
        deep_train = [i for i in split.train if pool[i]["meta"]["depth"] == 2]
        assert len(deep_train) >= previous
        previous = len(deep_train)
        for index in split.test:
            assert not set(pool[index]["meta"]["path"][:2]) <= trained


def test_generate_and_suite_take_a_profile(tmp_path):
    runner = CliRunner()
    result = runner.invoke(
        cli,
        [
            "generate",
            "monotonicity",
            "--n",
            "200",
            "--profile",
            "paper",
            "--out",
            str(tmp_path / "p"),
        ],
    )
    assert result.exit_code == 0, result.output
    manifest = json.loads((tmp_path / "p/manifest.json").read_text())
    assert manifest["parameters"]["profile"] == "paper"
    result = runner.invoke(
        cli, ["generate", "scan", "--n", "5", "--profile", "paper", "--out", str(tmp_path / "s")]
    )
    assert result.exit_code == 2 and "has no generation profiles" in result.output
    result = runner.invoke(
        cli,
        ["generate", "monotonicity", "--n", "20", "--profile", "x", "--out", str(tmp_path / "x")],
    )
    assert result.exit_code == 2 and "must be one of symcomp, paper" in result.output
    result = runner.invoke(
        cli,
        ["suite", "monotonicity", "--profile", "paper", "--n", "2000", "--protocol", "II",
         "--out", str(tmp_path / "suite")],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "protocol-II/step1" in result.output
