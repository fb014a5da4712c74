import random
from collections import Counter

import pytest

from symcomp.core.grammar import Grammar
from symcomp.core.sampler import Rejected, Sampler
from symcomp.errors import GrammarError

TAIL = 'WORD: /[a-z]+/\n%ignore " "\n'


def sampler(text: str, **sidecar) -> Sampler:
    data = {"language": {"version": "1"}, **sidecar}
    if "WORD" in text:
        data["lexicon"] = {"WORD": ["a", "b", "c", "d"]}
    return Sampler(Grammar.from_text(text + TAIL, data, name="toy"))


def test_same_seed_same_derivation_different_seed_differs():
    s = sampler('start: item+\nitem: WORD -> word\n    | "(" start ")" -> group\n')
    first = [s.sample(random.Random(7)).tokens for _ in range(3)]
    assert first[0] == first[1] == first[2]
    assert (
        s.sample(random.Random(8)).tokens != first[0]
        or s.sample(random.Random(9)).tokens != first[0]
    )


def test_weights_are_followed_within_a_rule():
    s = sampler(
        'start: "x" -> x\n     | "y" -> y\n     | "z" -> z\n', weights={"x": 6, "y": 3, "z": 1}
    )
    rng = random.Random(0)
    counts = Counter(s.sample(rng).tokens[0] for _ in range(20000))
    assert abs(counts["x"] / 20000 - 0.6) < 0.015
    assert abs(counts["z"] / 20000 - 0.1) < 0.01


def test_zero_weight_alternatives_parse_but_are_never_sampled():
    s = sampler('start: "x" -> x\n     | "y" -> y\n', weights={"x": 1, "y": 0})
    rng = random.Random(0)
    assert {s.sample(rng).tokens[0] for _ in range(500)} == {"x"}
    assert s.grammar.parse("y").data == "y"


def test_alternatives_of_one_alias_share_its_weight():
    # `("p" | "q")` compiles into two expansions of alias `pq`: together they weigh as much as `r`
    s = sampler('start: ("p" | "q") -> pq\n     | "r" -> r\n')
    rng = random.Random(1)
    counts = Counter(s.sample(rng).tokens[0] for _ in range(20000))
    assert abs(counts["r"] / 20000 - 0.5) < 0.015


def test_repeat_spec_controls_the_length_of_x_plus():
    s = sampler("start: WORD+\n", repeat={"start": {"min": 2, "max": 4}})
    rng = random.Random(2)
    lengths = Counter(len(s.sample(rng).tokens) for _ in range(3000))
    assert set(lengths) == {2, 3, 4}


def test_tokens_of_content_is_redrawn_until_new():
    s = sampler(
        'start: pair "," pair\npair: WORD -> pair_word\n    | "#" -> hash\n',
        weights={"pair_word": 1, "hash": 0},
        uniqueness={"tokens_of": ["pair_word"]},
    )
    used = {("pair_word", ("a",)), ("pair_word", ("b",))}
    for seed in range(20):
        derivation = s.sample(random.Random(seed), used=used)
        assert sorted(derivation.tokens[::2]) == ["c", "d"]
        assert derivation.unique_keys == {("pair_word", ("c",)), ("pair_word", ("d",))}


def test_max_length_rejects_early():
    s = sampler("start: WORD+\n", repeat={"start": {"min": 5, "max": 5}})
    with pytest.raises(Rejected) as info:
        s.sample(random.Random(0), max_length=3)
    assert info.value.reason == "length"


def test_runaway_recursion_is_rejected_not_a_crash():
    s = sampler(
        'start: "(" start ")" -> nest\n     | WORD -> leaf\n', weights={"nest": 1, "leaf": 0}
    )
    with pytest.raises(Rejected) as info:
        s.sample(random.Random(0))
    assert info.value.reason == "depth"


def test_enumeration_and_count_of_a_finite_language():
    s = sampler('start: WORD "and" WORD -> both\n     | WORD -> one\n')
    derivations = list(s.enumerate())
    assert s.count() == len(derivations) == 4 * 4 + 4
    assert {" ".join(d.tokens) for d in derivations} >= {"a and d", "c"}


def test_infinite_language_cannot_be_enumerated():
    s = sampler("start: WORD+\n")
    assert not s.is_finite()
    with pytest.raises(GrammarError, match="infinite"):
        list(s.enumerate())
