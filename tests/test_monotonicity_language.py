"""The monotonicity language: grammar, lexicons kept in step, λ-term semantics, polarity."""

import random

import pytest

import symcomp
from symcomp.errors import GrammarError, ParseError, SemanticsError
from symcomp.languages.monotonicity.language import read_axioms
from symcomp.languages.monotonicity.lexicon import (
    ADJECTIVES,
    ADVERBS,
    DOWNWARD_QUANTIFIERS,
    FRONTED_PLACES,
    HYPERNYMS,
    MAIN_VERBS,
    NOUNS,
    OBJECT_NOUNS,
    OBJECT_PLACES,
    OBJECT_TRANSITIVE_VERBS,
    OTHER_VERBS,
    PLACES,
    PUBLISHED_TYPOS,
    RELATIVE_PHRASES,
    SECOND_VERBS,
    TRANSITIVE_VERBS,
    UPWARD_QUANTIFIERS,
    VERB_HYPERNYMS,
    WH_WORDS,
    Embedding,
    NounPhrase,
    Position,
    Sentence,
    VerbPhrase,
    apply_replacement,
    polarity,
    render,
    repeated_words,
)
from symcomp.logic.fol import signature, to_text
from symcomp.logic.lambda_terms import LambdaLexicon, apply, parse_formula, read_named_formulas


@pytest.fixture(scope="module")
def language():
    return symcomp.get_language("monotonicity")


def test_grammar_lexicon_is_the_papers_lexicon(language):
    lexicon = language.grammar.sidecar.lexicon
    quantifiers = {
        word for key in ("Q_ANY", "Q_SINGULAR", "Q_PLURAL", "Q_NUMERAL") for word in lexicon[key]
    }
    assert set(UPWARD_QUANTIFIERS + DOWNWARD_QUANTIFIERS) <= quantifiers
    assert {"every", "each", "all", "a", "not every", "more than two", "exactly one"} <= quantifiers
    assert set(lexicon["N_SG"]) == set(NOUNS) | set(OBJECT_NOUNS) | set(HYPERNYMS)
    assert set(lexicon["N_PL"]) == {*NOUNS.values(), *OBJECT_NOUNS.values(), *HYPERNYMS.values()}
    assert set(lexicon["IV"]) == set(MAIN_VERBS + SECOND_VERBS + VERB_HYPERNYMS + OTHER_VERBS)
    assert len(lexicon["IV_BASE"]) == len(lexicon["IV"])
    assert set(lexicon["TV"]) == set(TRANSITIVE_VERBS + OBJECT_TRANSITIVE_VERBS)
    assert set(lexicon["WH"]) == set(WH_WORDS)
    assert set(lexicon["ADJECTIVE"]) == set(ADJECTIVES)
    assert set(lexicon["ADVERB"]) == set(ADVERBS)
    assert set(lexicon["PLACE"]) == {*PLACES, *OBJECT_PLACES, *FRONTED_PLACES, *PUBLISHED_TYPOS}
    assert set(lexicon["RC_VP"]) == set(RELATIVE_PHRASES)


def test_every_word_and_rule_has_a_lambda_term_and_nothing_else_does(language):
    lexicon = language.semantics.lexicon  # the file plus the generated numeral terms
    words = {word.lower() for words in language.grammar.sidecar.lexicon.values() for word in words}
    assert set(lexicon.words) == words
    # `start` passes its child through; nominals and verb phrases apply their modifiers
    # to the head in Python; verbs are a single word; a name, an article + noun and a plural
    # noun are their lexicon terms
    no_combinator = {
        "start", "nom_sg", "nom_pl", "affirmative", "negated", "verb", "base_verb",
        "proper_name", "singular_complement", "plural_complement",
    }  # fmt: skip
    labels = {plan.label for plans in language.sampler.plans.values() for plan in plans}
    assert set(lexicon.combinators) == labels - no_combinator - {None}


@pytest.mark.parametrize(
    "sentence, formula",
    [
        ("No dogs ran.", "-exists x1.(dog(x1) & ran(x1))"),
        ("Some dog ran.", "exists x1.(dog(x1) & ran(x1))"),
        (
            "At least two small dogs in the area ran.",
            "exists x1.exists x2.(-(x2 = x1) & dog(x1) & small(x1) & in_the_area(x1) & ran(x1) & "
            "dog(x2) & small(x2) & in_the_area(x2) & ran(x2))",
        ),
        ("Fewer than one dog ran.", "-exists x1.(dog(x1) & ran(x1))"),
        ("Every dog is small.", "all x1.(dog(x1) -> small(x1))"),
        ("Tom is not a dog.", "-dog(tom)"),
        ("Some dog did not run slowly.", "exists x1.(dog(x1) & -(ran(x1) & slowly(x1)))"),
        ("Mary didn't kiss some cat.", "-exists x1.(cat(x1) & kissed(mary,x1))"),
        (
            "If Tom ran, then it is not the case that every dog ran.",
            "(ran(tom) -> -all x1.(dog(x1) -> ran(x1)))",
        ),
        ("A few dogs ran.", "exists x1.(a_few(x1) & dog(x1) & ran(x1))"),
        (
            "No animals which followed some dogs ran.",
            "-exists x1.(animal(x1) & exists x2.(dog(x2) & followed(x1,x2)) & ran(x1))",
        ),
        (
            "Some dogs which few cats kissed ran.",
            "exists x1.(dog(x1) & few_context & -exists x2.(few(x2) & cat(x2) & kissed(x2,x1)) & "
            "ran(x1))",
        ),
        (
            "Some dogs few cats kissed ran or laughed.",
            "exists x1.(dog(x1) & few_context & -exists x2.(few(x2) & cat(x2) & kissed(x2,x1)) & "
            "(ran(x1) | laughed(x1)))",
        ),
        (
            "Slowly, no dogs that ate dinner ran.",
            "-exists x1.(dog(x1) & ate_dinner(x1) & ran(x1) & slowly(x1))",
        ),
        (
            "Near the shore, some dogs kissed no cats.",
            "exists x1.(dog(x1) & -exists x2.(cat(x2) & kissed(x1,x2)) & near_the_shore(x1))",
        ),
    ],
)
def test_meanings_are_composed_and_beta_reduced(language, sentence, formula):
    assert language.interpret(sentence) == formula
    # the printed formula is valid nltk notation and reads back to the same formula
    assert to_text(parse_formula(formula)) == formula


def test_meaning_does_not_depend_on_bound_variable_names(language):
    a = language.meaning("No dogs which kissed some cats ran.")
    b = language.meaning("No dogs which kissed some cats ran.")
    assert a == b and to_text(a).count("x2") == 3


@pytest.mark.parametrize(
    "sentence, column, what",
    [
        ("At least three dog ran.", 16, "unexpected 'dog'"),  # agreement
        ("No unicorns ran.", 4, "unexpected character 'u'"),  # unknown word
        ("No dogs ran", 12, "ends too early"),
    ],
)
def test_parse_errors_show_a_caret(language, sentence, column, what):
    with pytest.raises(ParseError) as info:
        language.parse(sentence)
    message = str(info.value)
    assert what in message
    caret_line = next(line for line in message.splitlines() if line.strip() == "^")
    assert caret_line.index("^") - 4 == column - 1


def test_lexicon_errors_name_the_line():
    with pytest.raises(GrammarError, match=r"lex\.txt:2: expected `KEY: TERM`"):
        LambdaLexicon.from_text("dog: \\x.dog(x)\nbroken line\n", source="lex.txt")
    with pytest.raises(GrammarError, match=r"lex\.txt:1: not a λ-term"):
        LambdaLexicon.from_text("dog: \\x.(dog(x)\n", source="lex.txt")
    with pytest.raises(GrammarError, match="defined twice"):
        LambdaLexicon.from_text("dog: \\x.dog(x)\nDog: \\x.dog(x)\n", source="lex.txt")
    lexicon = LambdaLexicon.from_text("dog: \\x.dog(x)\n", source="lex.txt")
    with pytest.raises(SemanticsError, match="cannot apply"):
        apply(("not", apply(lexicon.word("dog"), ("var", "a"))), ("var", "b"))
    with pytest.raises(SemanticsError, match=r"no λ-term for the word 'dgo'.*did you mean 'dog'"):
        lexicon.word("dgo")


def test_axioms_are_the_published_hyponymy():
    axioms = dict(read_axioms())
    nouns = len(NOUNS) + len(OBJECT_NOUNS)
    assert len(axioms) == nouns * len(HYPERNYMS) + 12 * 4  # 12 published verbs x 4 hypernyms
    assert to_text(axioms["dog_is_animal"]) == "all x1.(dog(x1) -> animal(x1))"
    assert signature(axioms["wolf_is_beast"]) == {"wolf": 1, "beast": 1}
    assert to_text(axioms["ran_entails_worked"]) == "all x1.(ran(x1) -> worked(x1))"
    assert {f"{verb}_entails_moved" for verb in MAIN_VERBS} <= set(axioms)
    with pytest.raises(GrammarError, match=r"ax\.txt:2: the name 'a' is used twice"):
        read_named_formulas("a: all x.pp(x)\na: all x.qq(x)\n", source="ax.txt")


def _chain(*quantifiers: str) -> NounPhrase:
    """Nested subject-relative chain: Q1 dogs which kissed Q2 cats which ..."""
    nouns = ["dog", "cat", "bear", "fox", "lion"]
    np = NounPhrase(quantifiers[-1], nouns[len(quantifiers) - 1], True)
    for level in range(len(quantifiers) - 2, -1, -1):
        np = NounPhrase(
            quantifiers[level], nouns[level], True, embedding=Embedding("subject", "kissed", np)
        )
    return np


@pytest.mark.parametrize(
    "quantifiers, level, expected",
    [
        (("some",), 0, "up"),
        (("no",), 0, "down"),
        (("no", "some"), 1, "down"),
        (("no", "few"), 1, "up"),
        (("several", "at most three", "less than three"), 2, "up"),
        (("a few", "at most three", "more than three"), 2, "down"),
        (("a few", "at most three", "more than three"), 0, "up"),
    ],
)
def test_polarity_composes_the_markers_along_the_path(quantifiers, level, expected):
    sentence = Sentence(_chain(*quantifiers), VerbPhrase("ran"))
    assert polarity(sentence, Position("subject", level)) == expected


def test_object_position_composes_the_subject_scope():
    sentence = Sentence(NounPhrase("no", "dog", True), verb="kissed", object=_chain("few"))
    assert polarity(sentence, Position("object", 0)) == "up"
    assert render(sentence) == "No dogs kissed few dogs."


def test_replacements_render_where_the_grammar_puts_them(language):
    sentence = Sentence(_chain("no", "some"), VerbPhrase("ran"), front="slowly")
    cases: dict[tuple[str, Position, str | tuple[str, str]], str] = {
        ("r1", Position("subject", 1), "animal"): "Slowly, no dogs which kissed some animals ran.",
        ("r2", Position("subject", 0), "wild"): "Slowly, no wild dogs which kissed some cats ran.",
        (
            "r3",
            Position("scope"),
            "at the park",
        ): "Slowly, no dogs which kissed some cats ran at the park.",
        ("r4", Position("subject", 0), ("that", "ate dinner")): (
            "Slowly, no dogs that ate dinner which kissed some cats ran."
        ),
        ("r5", Position("scope"), "quickly"): "Slowly, no dogs which kissed some cats ran quickly.",
        ("r6", Position("scope"), "cried"): "Slowly, no dogs which kissed some cats ran or cried.",
        ("r7", Position("scope"), "cried"): "Slowly, no dogs which kissed some cats ran and cried.",
    }
    for (code, position, item), text in cases.items():
        changed = apply_replacement(sentence, position, code, item)
        assert render(changed) == text
        language.parse(text)
        assert not repeated_words(changed)


def test_sampled_sentences_parse_back_with_their_meaning(language):
    rng = random.Random(11)
    for _ in range(200):
        example = language.sample(rng)
        assert example.output == language.interpret(example.input)
        assert example.meta["depth"] <= 5
