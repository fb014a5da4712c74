"""Property tests for every registered language: generated inputs parse back to the sampled
derivation, and interpreting the parse gives the meaning recorded at generation."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import symcomp
from symcomp.core.sampler import Rejected

LANGUAGES = symcomp.available()


@pytest.mark.parametrize("name", LANGUAGES)
@settings(max_examples=150, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_generated_inputs_parse_back_to_their_derivation(name, seed):
    language = symcomp.get_language(name)
    try:
        derivation = language.draw(random.Random(seed), limits=language.limits())
    except Rejected:
        return
    text = " ".join(derivation.tokens)
    parsed = language.parse(text)
    assert parsed == derivation.tree
    assert language.interpret(text) == language.render(language.evaluate(derivation.tree))


@pytest.mark.parametrize("name", LANGUAGES)
def test_sample_examples_record_their_meaning(name):
    language = symcomp.get_language(name)
    rng = random.Random(5)
    for _ in range(50):
        example = language.sample(rng)
        assert example.output == language.interpret(example.input)
        assert example.id == symcomp.content_id(name, language.version, example.input)
        assert example.meta["length"] == len(example.input.split())
