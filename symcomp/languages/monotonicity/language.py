"""Monotonicity NLI (Yanaka et al. 2020): sentences with first-order meanings, pairs, prover.

The grammar (``grammars/monotonicity.lark``) parses premises and hypotheses alike; a
sentence's meaning is its first-order formula, composed from the λ-terms of
``provers/monotonicity/lexicon.txt`` along the parse tree and β-reduced:

>>> language = build()
>>> language.interpret("No animals which followed some dogs ran.")
'-exists x1.(animal(x1) & exists x2.(dog(x2) & followed(x1,x2)) & ran(x1))'

``symcomp generate monotonicity`` writes premise/hypothesis pairs with gold labels
(:mod:`symcomp.languages.monotonicity.pairs`), and ``symcomp verify`` checks such labels with a
prover (:class:`~symcomp.languages.monotonicity.entailment.EntailmentChecker`, through
:meth:`MonotonicityLanguage.make_checker`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from symcomp.core.language import Language, PoolWriter
from symcomp.core.resources import load_grammar, prover_file
from symcomp.core.semantics import Semantics
from symcomp.errors import GenerationError
from symcomp.logic.fol import Formula, to_text

if TYPE_CHECKING:
    from symcomp.core.suite_builder import SuiteBuilder
    from symcomp.data.generate import PoolSpec
    from symcomp.data.parallel import Jobs
    from symcomp.logic.lambda_terms import LambdaLexicon, Value
    from symcomp.verify import Checker, VerifyOptions

NAME = "monotonicity"
LEXICON = "monotonicity/lexicon.txt"
AXIOMS = "monotonicity/axioms.txt"
NOUN_TERMINALS = ("N_SG", "N_PL")
NUMERAL_TERMINALS = ("Q_SINGULAR", "Q_PLURAL", "Q_NUMERAL")  # numerals.py gives their meanings


class MonotonicitySemantics(Semantics):
    """Meaning of a sentence: its β-reduced first-order formula (:mod:`symcomp.logic.fol`).

    Tokens mean their lexicon term; an aliased node applies its combinator (``@alias`` in
    the lexicon) to its children; nouns and verb phrases apply their modifiers to the head.
    The lexicon is read on first use, so building the language stays cheap.
    """

    def __init__(
        self, nouns: Iterable[str], lexicon: str = LEXICON, numerals: Iterable[str] = ()
    ) -> None:
        super().__init__()
        self.nouns = frozenset(nouns)  # the heads of `nom_sg` / `nom_pl`
        self.numerals = tuple(numerals)  # quantifier words; numerals.py gives their meanings
        self.lexicon_path = lexicon
        self._lexicon: LambdaLexicon | None = None

    @property
    def lexicon(self) -> LambdaLexicon:
        if self._lexicon is None:
            from symcomp.languages.monotonicity.numerals import numeral_values
            from symcomp.logic.lambda_terms import LambdaLexicon

            resource = prover_file(self.lexicon_path)
            text = resource.read_text(encoding="utf-8")
            lexicon = LambdaLexicon.from_text(text, source=str(resource))
            self._lexicon = lexicon.with_words(numeral_values(self.numerals))
        return self._lexicon

    def term(self, child: Any) -> Value:
        """A child's meaning: a word's lexicon value, or the subtree's composed value.

        Words arrive as text (lark tokens from the parser, plain strings from the sampler).
        """
        return self.lexicon.word(child) if isinstance(child, str) else child

    def combine(self, alias: str, children: list[Any]) -> Value:
        """The rule's combinator applied to the children's meanings."""
        return self.lexicon.combine(alias, [self.term(child) for child in children])

    def modify(self, head: Any, modifiers: list[Any]) -> Value:
        """Each modifier applied in turn to the head's meaning."""
        from symcomp.logic.lambda_terms import apply

        value = self.term(head)
        for modifier in modifiers:
            value = apply(self.term(modifier), value)
        return value

    def sentence(self, alias: str, children: list[Any]) -> Formula:
        from symcomp.logic.lambda_terms import to_formula

        return to_formula(self.combine(alias, children))

    # -- sentences and clauses ---------------------------------------------------------

    def plain(self, children: list[Any]) -> Formula:
        return self.sentence("plain", children)

    def adverb_first(self, children: list[Any]) -> Formula:
        return self.sentence("adverb_first", children)

    def place_first(self, children: list[Any]) -> Formula:
        return self.sentence("place_first", children)

    def intransitive(self, children: list[Any]) -> Value:
        return self.combine("intransitive", children)

    def transitive(self, children: list[Any]) -> Value:
        return self.combine("transitive", children)

    def negated_transitive(self, children: list[Any]) -> Value:
        return self.combine("negated_transitive", children)

    def not_the_case(self, children: list[Any]) -> Value:
        return self.combine("not_the_case", children)

    def conditional(self, children: list[Any]) -> Value:
        return self.combine("conditional", children)

    def comma_conditional(self, children: list[Any]) -> Value:
        return self.combine("comma_conditional", children)

    def bare_conditional(self, children: list[Any]) -> Value:
        return self.combine("bare_conditional", children)

    # -- noun phrases ----------------------------------------------------------------------

    def np_singular(self, children: list[Any]) -> Value:
        return self.combine("np_singular", children)

    def np_plural(self, children: list[Any]) -> Value:
        return self.combine("np_plural", children)

    def np_plural_only(self, children: list[Any]) -> Value:
        return self.combine("np_plural_only", children)

    def np_singular_only(self, children: list[Any]) -> Value:
        return self.combine("np_singular_only", children)

    def np_numeral(self, children: list[Any]) -> Value:
        return self.combine("np_numeral", children)

    def nom_sg(self, children: list[Any]) -> Value:
        return self._nominal(children)

    def nom_pl(self, children: list[Any]) -> Value:
        return self._nominal(children)

    def _nominal(self, children: list[Any]) -> Value:
        (head,) = [child for child in children if isinstance(child, str) and child in self.nouns]
        return self.modify(head, [child for child in children if child is not head])

    def subject_relative(self, children: list[Any]) -> Value:
        return self.combine("subject_relative", children)

    def object_relative(self, children: list[Any]) -> Value:
        return self.combine("object_relative", children)

    def reduced_relative(self, children: list[Any]) -> Value:
        return self.combine("reduced_relative", children)

    def fixed_relative(self, children: list[Any]) -> Value:
        return self.combine("fixed_relative", children)

    # -- verb phrases ----------------------------------------------------------------------

    def affirmative(self, children: list[Any]) -> Value:
        return self.modify(children[0], children[1:])

    def negated(self, children: list[Any]) -> Value:
        """``did not`` applied to the modified base predicate: ¬(run ∧ slowly)."""
        from symcomp.logic.lambda_terms import apply

        return apply(self.term(children[0]), self.modify(children[1], children[2:]))

    def copula(self, children: list[Any]) -> Value:
        return self.combine("copula", children)

    def verb(self, children: list[Any]) -> Value:
        return self.term(children[0])

    def base_verb(self, children: list[Any]) -> Value:
        return self.term(children[0])

    def disjunction(self, children: list[Any]) -> Value:
        return self.combine("disjunction", children)

    def conjunction(self, children: list[Any]) -> Value:
        return self.combine("conjunction", children)

    def base_disjunction(self, children: list[Any]) -> Value:
        return self.combine("base_disjunction", children)

    def base_conjunction(self, children: list[Any]) -> Value:
        return self.combine("base_conjunction", children)

    # -- copula complements ----------------------------------------------------------------

    def adjective_complement(self, children: list[Any]) -> Value:
        return self.combine("adjective_complement", children)

    def place_complement(self, children: list[Any]) -> Value:
        return self.combine("place_complement", children)

    def singular_complement(self, children: list[Any]) -> Value:
        """``a dog``: the article adds nothing to the predicate."""
        return self.term(children[-1])

    def plural_complement(self, children: list[Any]) -> Value:
        return self.term(children[0])

    def render(self, meaning: Any) -> str:
        return to_text(meaning)


class MonotonicityLanguage(Language):
    """The monotonicity language: pair pools for ``generate``, a prover checker for ``verify``."""

    def pool_writer(self) -> PoolWriter:
        """Pools of premise/hypothesis pairs: :func:`write_pair_pool`."""
        return write_pair_pool

    def suite_builder(self) -> SuiteBuilder:
        """``symcomp suite monotonicity``: :mod:`symcomp.languages.monotonicity.suite`."""
        from symcomp.languages.monotonicity.suite import suite_builder

        return suite_builder()

    def make_checker(self, options: VerifyOptions) -> Checker | None:
        """The ``symcomp verify`` checker: parse, compose, prove, compare labels."""
        from symcomp.languages.monotonicity.entailment import EntailmentChecker

        return EntailmentChecker(self, read_axioms(), options)


def write_pair_pool(
    language: Language,
    out: Path,
    spec: PoolSpec,
    *,
    jobs: Jobs = 1,
    overwrite: bool = False,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Write premise/hypothesis pairs (see :mod:`symcomp.languages.monotonicity.pairs`).

    ``spec.n`` pairs (even: each base pair comes with its reverse) at depths
    1..``spec.max_depth`` (default 5). Drawing is one fast seeded stream, so ``jobs`` does
    not matter and the bytes are the same for any value.
    """
    from symcomp.languages.monotonicity.pairs import PairSpec, write_pairs

    unsupported = [
        f"`{name}`"
        for name, used in (
            ("enumerate_all", spec.enumerate_all),
            ("naturalize", spec.naturalize is not None),
            ("with_dag", spec.with_dag),
            ("max_length", spec.max_length is not None),
        )
        if used
    ]
    if unsupported or spec.n is None:
        raise GenerationError(
            f"monotonicity pools are sampled pairs: give `n` (even) and optionally `seed` and "
            f"`max_depth`; {', '.join(unsupported) or '`n`'} "
            f"{'is' if len(unsupported) <= 1 else 'are'} not supported."
        )
    max_depth = spec.max_depth or language.grammar.sidecar.max_depth or 5
    pairs = PairSpec(
        n=spec.n,
        seed=spec.seed,
        depths=tuple(range(1, max_depth + 1)),
        profile=spec.profile or "symcomp",
    )
    pairs.check()
    return write_pairs(
        out,
        pairs,
        language=language.name,
        version=language.version,
        grammar_sha256=language.grammar.sha256,
        overwrite=overwrite,
        progress=progress,
    )


def read_axioms() -> tuple[tuple[str, Formula], ...]:
    """The background axioms of ``provers/monotonicity/axioms.txt``."""
    from symcomp.logic.lambda_terms import read_named_formulas

    resource = prover_file(AXIOMS)
    return read_named_formulas(resource.read_text(encoding="utf-8"), source=str(resource))


def build() -> MonotonicityLanguage:
    """The ``monotonicity`` language from the packaged grammar."""
    grammar = load_grammar(NAME, NAME)
    nouns = [word for terminal in NOUN_TERMINALS for word in grammar.sidecar.lexicon[terminal]]
    lexicon = grammar.sidecar.lexicon
    numerals = [word for terminal in NUMERAL_TERMINALS for word in lexicon[terminal]]
    return MonotonicityLanguage(NAME, grammar, MonotonicitySemantics(nouns, numerals=numerals))
