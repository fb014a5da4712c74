"""Pair generation: balance, reverses, no repeats, determinism, counted filters, the pool CLI."""

import hashlib
import json
from collections import Counter

import pytest
from click.testing import CliRunner

import symcomp
from symcomp.cli import cli
from symcomp.errors import GenerationError
from symcomp.languages.monotonicity.lexicon import DOWNWARD_QUANTIFIERS, PHENOMENA
from symcomp.languages.monotonicity.pairs import (
    PairSpec,
    PairStats,
    generate_pairs,
    sample,
    shuffled,
)

N = 1000


@pytest.fixture(scope="module")
def pairs():
    return generate_pairs(PairSpec(n=N, seed=7))


def test_labels_polarities_and_depths_are_balanced(pairs):
    assert len(pairs) == N
    assert Counter(p.label for p in pairs) == {"entailment": N // 2, "non-entailment": N // 2}
    assert Counter(p.meta["polarity"] for p in pairs) == {"up": N // 2, "down": N // 2}
    by_depth = Counter(p.meta["depth"] for p in pairs)
    assert by_depth == {depth: N // 5 for depth in range(1, 6)}
    for depth in range(1, 6):
        cell = Counter(p.meta["polarity"] for p in pairs if p.meta["depth"] == depth)
        assert cell["up"] == cell["down"]


def test_every_pair_is_followed_by_its_reverse(pairs):
    for base, reverse in zip(pairs[::2], pairs[1::2], strict=True):
        assert not base.meta["reverse"] and reverse.meta["reverse"]
        assert (reverse.premise, reverse.hypothesis) == (base.hypothesis, base.premise)
        assert {base.label, reverse.label} == {"entailment", "non-entailment"}
        assert base.meta["pair"] == reverse.meta["pair"]
        assert base.meta["direction"] != reverse.meta["direction"]


def test_gold_label_is_polarity_times_direction(pairs):
    for pair in pairs:
        if pair.meta["reverse"]:
            continue
        direction = PHENOMENA[pair.meta["phenomenon"]].direction
        assert direction == pair.meta["direction"]
        entailed = (pair.meta["polarity"] == "up") == (direction == "general")
        assert pair.label == ("entailment" if entailed else "non-entailment")


def test_pairs_are_distinct_and_repeat_no_content_word(pairs):
    assert len({(p.premise, p.hypothesis) for p in pairs}) == N
    language = symcomp.get_language("monotonicity")
    for pair in pairs[:200]:
        for sentence in (pair.premise, pair.hypothesis):
            language.parse(sentence)  # every generated sentence is in the language
            words = sentence.rstrip(".").replace(",", "").lower().split()
            nouns = [w for w in words if w in language.grammar.sidecar.lexicon["N_PL"]]
            nouns += [w for w in words if w in language.grammar.sidecar.lexicon["N_SG"]]
            assert len(nouns) == len(set(nouns)), sentence


def test_every_phenomenon_position_and_variant_occurs(pairs):
    assert {p.meta["phenomenon"] for p in pairs} == set(PHENOMENA)
    assert {p.meta["variant"] for p in pairs} == {
        "plain",
        "adverb_first",
        "place_first",
        "object",
    }
    assert {p.meta["position"] for p in pairs} == {"subject", "scope", "object"}
    assert {p.meta["level"] for p in pairs if p.meta["depth"] == 5} == {0, 1, 2, 3, 4}
    fronted = [p for p in pairs if p.meta["variant"] == "adverb_first"]
    assert all(p.premise.split(",")[0] == p.hypothesis.split(",")[0] for p in fronted)


def test_same_seed_same_pairs_and_filters_are_counted():
    stats = PairStats()
    a = generate_pairs(PairSpec(n=200, seed=3), stats)
    assert a == generate_pairs(PairSpec(n=200, seed=3))
    assert a != generate_pairs(PairSpec(n=200, seed=4))
    assert stats.accepted == 100
    assert stats.draws == stats.accepted + stats.rejected["duplicate_pair"]
    assert stats.rejected["quantifiers_redrawn_for_polarity"] > 0


@pytest.mark.parametrize(
    "spec, message",
    [
        (PairSpec(n=3), "even number"),
        (PairSpec(n=10, depths=(0, 1)), "depths must lie in 1..9"),
        (PairSpec(n=10, phenomena=("r9",)), "unknown phenomena"),
        (PairSpec(n=10, variants={"sideways": 1.0}), "variants must be weights"),
    ],
)
def test_bad_specs_are_refused(spec, message):
    with pytest.raises(GenerationError, match=message):
        generate_pairs(spec)


def test_a_narrow_spec_is_honoured():
    spec = PairSpec(n=100, seed=1, depths=(3,), variants={"object": 1.0}, phenomena=("r2",))
    for pair in generate_pairs(spec):
        assert pair.meta["variant"] == "object" and pair.meta["phenomenon"] == "r2"
        assert pair.meta["position"] == "object" and pair.meta["depth"] == 3
        assert len(pair.meta["path"]) == pair.meta["level"] + 2  # subject scope + object chain


def test_seeded_helpers_use_only_random():
    import random

    assert sorted(sample(random.Random(0), range(10), 10)) == list(range(10))
    assert shuffled(random.Random(0), "abc") == shuffled(random.Random(0), "abc")


@pytest.fixture
def run():
    runner = CliRunner()
    return lambda *args: runner.invoke(cli, [str(a) for a in args])


def test_generate_writes_pairs_with_a_manifest_for_any_jobs(run, tmp_path):
    digests = []
    for name, jobs in (("a", 1), ("b", 2)):
        result = run(
            "generate",
            "monotonicity",
            "--n",
            200,
            "--seed",
            5,
            "--jobs",
            jobs,
            "--out",
            tmp_path / name,
        )
        assert result.exit_code == 0, result.output
        assert "wrote 200 monotonicity examples" in result.output
        digests.append(hashlib.sha256((tmp_path / name / "examples.jsonl").read_bytes()).digest())
    assert digests[0] == digests[1]
    manifest = json.loads((tmp_path / "a/manifest.json").read_text())
    assert manifest["language"] == "monotonicity" and manifest["seed"] == 5
    assert manifest["counts"]["label"] == {"entailment": 100, "non-entailment": 100}
    assert manifest["filters"]["accepted_base_pairs"] == 100
    assert manifest["files"]["examples.jsonl"]["lines"] == 200
    record = json.loads((tmp_path / "a/examples.jsonl").read_text().splitlines()[0])
    assert record["input"] == f"{record['premise']} ||| {record['hypothesis']}"
    assert record["output"] == record["label"]
    assert record["id"] == symcomp.content_id("monotonicity", "2.0.0", record["input"])
    stats = run("stats", tmp_path / "a")
    assert stats.exit_code == 0 and "200 examples" in stats.output


def test_max_depth_bounds_the_depths(run, tmp_path):
    result = run("generate", "monotonicity", "--n", 40, "--max-depth", 2, "--out", tmp_path / "p")
    assert result.exit_code == 0, result.output
    depths = {json.loads(line)["meta"]["depth"] for line in (tmp_path / "p/examples.jsonl").open()}
    assert depths == {1, 2}


@pytest.mark.parametrize(
    "args, message",
    [
        (("--n", "7"), "even number"),
        (("--all",), "give --n (even)"),
        (("--n", "10", "--with-dag"), "--with-dag is not supported"),
    ],
)
def test_generate_refuses_what_pairs_cannot_do(run, tmp_path, args, message):
    result = run("generate", "monotonicity", *args, "--out", tmp_path / "x")
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert not (tmp_path / "x" / "examples.jsonl").exists()


def test_polarity_in_meta_matches_the_sentence_structure(pairs):
    # the recorded path is the quantifiers above the position, outermost first
    for pair in pairs[:300]:
        path = pair.meta["path"]
        down = sum(quantifier in DOWNWARD_QUANTIFIERS for quantifier in path)
        assert pair.meta["polarity"] == ("down" if down % 2 else "up")
