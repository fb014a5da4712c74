import random

import pytest

from symcomp.core.sidecar import RepeatSpec, Sidecar
from symcomp.errors import GrammarError


def load(text: str) -> Sidecar:
    return Sidecar.from_toml('[language]\nversion = "1"\n' + text, "lang.toml")


def test_a_version_is_required():
    with pytest.raises(GrammarError, match=r"lang.toml.*version"):
        Sidecar.from_toml("[weights]\na = 1\n", "lang.toml")


def test_invalid_toml_names_the_file():
    with pytest.raises(GrammarError, match=r"lang.toml: not valid TOML"):
        Sidecar.from_toml("[language\n", "lang.toml")


def test_unknown_section_suggests_the_closest():
    with pytest.raises(GrammarError, match=r"unknown section \[weigths\].*did you mean 'weights'"):
        load("[weigths]\na = 1\n")


def test_unknown_key_names_line_and_suggestion():
    with pytest.raises(GrammarError, match=r"lang.toml:4: unknown key 'max_dept'.*max_depth"):
        load("[limits]\nmax_dept = 3\n")


@pytest.mark.parametrize("value", ["-1", "nan", '"x"', "true"])
def test_bad_weights_are_rejected_with_their_line(value):
    with pytest.raises(GrammarError, match=r"lang.toml:5: weight of 'b'"):
        load(f"[weights]\na = 1\nb = {value}\n")


def test_lexicon_forms():
    spec = load(
        '[lexicon]\nA = ["x", "y"]\nB = { range = [1, 3] }\n'
        'C = { product = [["a", "b"], { range = [1, 2] }] }\n'
    )
    assert spec.lexicon == {"A": ("x", "y"), "B": ("1", "2", "3"), "C": ("a1", "a2", "b1", "b2")}


@pytest.mark.parametrize(
    "body, message",
    [
        ("A = []", "empty"),
        ('A = ["x", "x"]', "repeats a word"),
        ("A = { range = [3, 1] }", "lo <= hi"),
        ("A = 5", "must be a list"),
    ],
)
def test_bad_lexicons(body, message):
    with pytest.raises(GrammarError, match=message):
        load(f"[lexicon]\n{body}\n")


@pytest.mark.parametrize(
    "body, message",
    [
        ("min = 0\nmax = 2", "min must be"),
        ("min = 3\nmax = 2", "max must be"),
        ("min = 1", "give max"),
        ("p_continue = 1.0", "probability"),
        ("p_split = 0.6", "infinite"),
        ("p_split = 0.3\np_continue = 0.3", "not both"),
    ],
)
def test_bad_repeat_specs(body, message):
    with pytest.raises(GrammarError, match=message):
        load(f"[repeat.items]\n{body}\n")


def test_repeat_distributions():
    rng = random.Random(0)
    uniform = [RepeatSpec("uniform", 2, 5).draw(rng) for _ in range(4000)]
    assert set(uniform) == {2, 3, 4, 5}
    assert all(abs(uniform.count(k) / 4000 - 0.25) < 0.03 for k in range(2, 6))
    geometric = [RepeatSpec("geometric", 1, None, 0.5).draw(rng) for _ in range(4000)]
    assert abs(sum(geometric) / 4000 - 2.0) < 0.1  # 1 + mean of Geom(0.5)
    # the PCFG X -> X X (p) | x: one leaf with probability 1 - p, mean (1 - p) / (1 - 2p)
    branching = [RepeatSpec("branching", 1, None, 0.45).draw(rng) for _ in range(20000)]
    assert abs(branching.count(1) / 20000 - 0.55) < 0.02
    assert abs(sum(branching) / 20000 - 5.5) < 0.6
    weighted = [RepeatSpec.weighted(2, (1.0, 0.0, 3.0)).draw(rng) for _ in range(4000)]
    assert set(weighted) == {2, 4} and abs(weighted.count(4) / 4000 - 0.75) < 0.03


def test_weighted_repeat_from_the_sidecar():
    spec = load("[repeat.items]\nmin = 2\nweights = [1, 3]\n")
    assert spec.repeat["items"] == RepeatSpec.weighted(2, (1.0, 3.0))
    assert spec.describe()["repeat"]["items"] == {
        "distribution": "weighted",
        "min": 2,
        "weights": [1.0, 3.0],
    }
    for body in ("min = 2\nweights = []", "weights = [1, -1]", "weights = [1]\nmax = 3"):
        with pytest.raises(GrammarError, match="weights"):
            load(f"[repeat.items]\n{body}\n")
