"""NLI labels and the entailment checker: parse both sentences, prove, compare with the label.

Label vocabularies map the words found in data to gold classes:

``auto`` (default)
    entailment, non-entailment (also non_entailment, not_entailment), neutral,
    contradiction, and Yanaka et al.'s yes / unk (plus no = contradiction).
``two-way``
    as ``auto``, but neutral and contradiction mean non-entailment (MED, and the MultiNLI
    files of Yanaka et al., write ``neutral`` for every non-entailment).
``WORD=CLASS,...``
    your own words added to ``auto`` (or to a preset named first: ``two-way,maybe=neutral``);
    a class is entailment, non-entailment, neutral or contradiction.

A gold ``non-entailment`` agrees with a NEUTRAL or a CONTRADICTION verdict; the other
classes agree with the verdict of the same name.

>>> labels = parse_labels("maybe=non-entailment")
>>> agrees(labels["maybe"], Label.NEUTRAL), agrees(labels["entailment"], Label.NEUTRAL)
(True, False)
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from symcomp._util import did_you_mean
from symcomp.errors import ParseError, SemanticsError, SymcompError
from symcomp.logic.backends import make_prover
from symcomp.logic.fol import Formula
from symcomp.logic.prover import Label, Problem, Verdict
from symcomp.verify import Check, CrossCheck, Status, VerifyOptions, depth_group, invalid, row_id
from symcomp.verify.rows import Row

if TYPE_CHECKING:
    from symcomp.core.language import Language

PREMISE_KEYS = ("premise", "sentence1")
HYPOTHESIS_KEYS = ("hypothesis", "sentence2")
LABEL_KEYS = ("label", "gold_label", "output")
ID_KEYS = ("id", "pairID", "pair_id", "promptID", "index")
MEANING_CACHE = 20_000
MAX_SENTENCE_CHARS = 2_000  # about 80 nested relative clauses; deeper ones exhaust recursion


class Gold(enum.StrEnum):
    """A gold label's class."""

    ENTAILMENT = "entailment"
    NON_ENTAILMENT = "non-entailment"
    NEUTRAL = "neutral"
    CONTRADICTION = "contradiction"


AUTO: dict[str, Gold] = {
    "entailment": Gold.ENTAILMENT,
    "non-entailment": Gold.NON_ENTAILMENT,
    "non_entailment": Gold.NON_ENTAILMENT,
    "not_entailment": Gold.NON_ENTAILMENT,
    "neutral": Gold.NEUTRAL,
    "contradiction": Gold.CONTRADICTION,
    "yes": Gold.ENTAILMENT,
    "unk": Gold.NON_ENTAILMENT,
    "no": Gold.CONTRADICTION,
}
TWO_WAY: dict[str, Gold] = {
    word: Gold.NON_ENTAILMENT if gold in (Gold.NEUTRAL, Gold.CONTRADICTION) else gold
    for word, gold in AUTO.items()
}
PRESETS: dict[str, dict[str, Gold]] = {"auto": AUTO, "two-way": TWO_WAY}


def parse_labels(spec: str) -> dict[str, Gold]:
    """The word → class mapping of a ``labels`` value (see the module docstring)."""
    mapping: dict[str, Gold] = dict(AUTO)
    classes = [gold.value for gold in Gold]
    for number, part in enumerate(spec.split(",")):
        if number == 0 and part.strip() in PRESETS:
            mapping = dict(PRESETS[part.strip()])
            continue
        word, equals, name = part.partition("=")
        if not equals or not word.strip() or name.strip().lower() not in classes:
            presets = " or ".join(PRESETS)
            raise SymcompError(
                f"`labels` {spec!r}: cannot read {part.strip()!r}; give {presets}, WORD=CLASS "
                f"pairs separated by commas (they extend auto), or a preset followed by pairs, "
                f"where CLASS is one of {', '.join(classes)}"
                f"{did_you_mean(name.strip(), classes) if equals else ''}."
            )
        mapping[word.strip().lower()] = Gold(name.strip().lower())
    return mapping


def agrees(gold: Gold, verdict: Label) -> bool:
    """Whether a prover's (decided) verdict matches a gold class.

    Premises without a model entail every hypothesis and contradict it too: an entailment or
    a contradiction gold holds of them, a neutral or non-entailment gold does not.
    """
    if verdict is Label.INCONSISTENT:
        return gold in (Gold.ENTAILMENT, Gold.CONTRADICTION)
    if gold is Gold.NON_ENTAILMENT:
        return verdict in (Label.NEUTRAL, Label.CONTRADICTION)
    return verdict.value == gold.value.upper()


def first_field(fields: Mapping[str, Any], keys: tuple[str, ...]) -> str | None:
    """The first of ``keys`` present in ``fields`` as text."""
    for key in keys:
        value = fields.get(key)
        if isinstance(value, str):
            return value
    return None


class EntailmentChecker:
    """Checks premise/hypothesis/label rows of an NLI language with a prover.

    The language's meaning of a sentence must be a first-order formula
    (:mod:`symcomp.logic.fol`); ``axioms`` are the background knowledge (named formulas).
    Meanings are cached per sentence (a pair and its reverse share them).
    """

    columns: tuple[str, ...] = ("premise", "hypothesis", "label")

    def __init__(
        self,
        language: Language,
        axioms: tuple[tuple[str, Formula], ...],
        options: VerifyOptions,
    ) -> None:
        self.language = language
        self.axioms = axioms
        self.labels = parse_labels(options.labels)
        rlimit, timeout_ms = options.rlimit, options.timeout_ms
        self.prover = make_prover(
            options.prover, rlimit=rlimit, timeout_ms=timeout_ms, construct=options.construct
        )
        self.second = (
            make_prover(options.cross_check, rlimit=rlimit, timeout_ms=timeout_ms, construct=False)
            if options.cross_check
            else None
        )
        safety = f", safety net {options.timeout_ms} ms" if options.timeout_ms else ""
        self.name = f"{options.prover} prover (rlimit {options.rlimit:,} units per pair{safety})"
        if options.construct and options.prover == "portfolio":
            self.name = f"monotonicity derivations and built worlds, then the {self.name}"
        self._meanings: dict[str, Formula] = {}
        self.open_vocabulary = options.open_vocabulary
        self._open: dict[str, Formula | ParseError] = {}

    def meaning(self, sentence: str) -> Formula:
        """The formula of a sentence (cached)."""
        found = self._meanings.get(sentence)
        if found is None:
            if len(self._meanings) >= MEANING_CACHE:
                self._meanings.clear()
            found = self.language.meaning(sentence)
            self._meanings[sentence] = found
        return found

    def _meaning(self, text: str) -> Formula:
        """:meth:`meaning`, with over-long and too deeply nested sentences as parse errors."""
        if len(text) > MAX_SENTENCE_CHARS:
            raise ParseError(
                f"the sentence has {len(text):,} characters; sentences of up to "
                f"{MAX_SENTENCE_CHARS:,} characters are read"
            )
        try:
            return self.meaning(text)
        except (RecursionError, SemanticsError) as error:
            if isinstance(error, SemanticsError) and "RecursionError" not in str(error):
                raise
            raise ParseError(
                "the sentence nests too deeply to interpret (Python's recursion limit)"
            ) from None

    def _open_meaning(self, text: str) -> Formula | ParseError:
        """The open-vocabulary reading of a sentence (cached), or why there is none."""
        from symcomp.languages.monotonicity.open_reader import read_sentence

        found = self._open.get(text)
        if found is None:
            if len(self._open) >= MEANING_CACHE:
                self._open.clear()
            try:
                found = (
                    read_sentence(text)
                    if len(text) <= MAX_SENTENCE_CHARS
                    else ParseError("the sentence is too long")
                )
            except (ParseError, RecursionError) as error:
                found = error if isinstance(error, ParseError) else ParseError("nests too deeply")
            self._open[text] = found
        return found

    def check(self, row: Row, *, cross_check: bool = False) -> Check:
        if row.error:
            return invalid(row, row.error)
        identifier = row_id(row.fields, row.line, ID_KEYS)
        premise = first_field(row.fields, PREMISE_KEYS)
        hypothesis = first_field(row.fields, HYPOTHESIS_KEYS)
        label = first_field(row.fields, LABEL_KEYS)
        if premise is None or hypothesis is None or label is None:
            return invalid(row, "a row needs a premise, a hypothesis and a label", identifier)
        gold = self.labels.get(label.strip().lower())
        if gold is None:
            words = ", ".join(sorted(self.labels))
            return invalid(
                row,
                f"label {label!r} is not in the label vocabulary ({words}); map it with "
                f"`labels` WORD=CLASS,...",
                identifier,
            )
        texts = (("premise", premise.strip()), ("hypothesis", hypothesis.strip()))
        groups = _groups(label, row.fields)
        base = Check(row.line, identifier, Status.AGREE, label.strip(), texts=texts, groups=groups)
        formulas = []
        opened = False
        for role, text in texts:
            try:
                formulas.append(self._meaning(text))
            except ParseError as error:
                if not self.open_vocabulary:
                    return _replace(base, status=Status.UNPARSABLE, message=f"{role}: {error}")
                opened = True
                break
        if opened:  # both sentences are read alike, so a word gets one predicate in both
            formulas = []
            for role, text in texts:
                found = self._open_meaning(text)
                if isinstance(found, ParseError):
                    message = f"{role}: {found} (and the grammar does not read the pair)"
                    return _replace(base, status=Status.UNPARSABLE, message=message)
                formulas.append(found)
            base = _replace(base, groups=(*base.groups, ("reader", "open vocabulary")))
        problem = Problem((("premise", formulas[0]),), formulas[1], self.axioms)
        verdict = self.prover.prove(problem)
        cross = self._cross(problem, verdict.label) if cross_check else None
        return _judged(base, gold, verdict, cross, opened=opened)

    def _cross(self, problem: Problem, first: Label) -> CrossCheck | None:
        if self.second is None:
            return None
        verdict = self.second.prove(problem)
        return CrossCheck(
            self.second.name, verdict.label.value, verdict.label == first, verdict.reason
        )


def _replace(check: Check, **changes: Any) -> Check:
    return replace(check, **changes)


def _groups(label: str, fields: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    """The summary groups of a row: its label, depth and (MED) monotonicity direction."""
    groups = (("label", label.strip().lower()), *depth_group(fields))
    genre = fields.get("genre")
    if isinstance(genre, str):  # MED: crowd:downward_monotone:npi -> downward
        directions = [tag for tag in genre.split(":") if tag.endswith("_monotone")]
        if directions:
            groups = (*groups, ("direction", directions[0].removesuffix("_monotone")))
    return groups


def _judged(
    base: Check, gold: Gold, verdict: Verdict, cross: CrossCheck | None, *, opened: bool
) -> Check:
    """The row's check from the prover's verdict on it and the gold label."""
    if verdict.label is Label.UNKNOWN:
        status = Status.UNKNOWN
    else:
        status = Status.AGREE if agrees(gold, verdict.label) else Status.DISAGREE
    message = verdict.reason
    if status is Status.DISAGREE and verdict.label is Label.NEUTRAL:
        message = f"no proof either way: {verdict.prover} found models of both outcomes"
        if opened:
            message += (
                " (read with open vocabulary: words outside the lexicon have no hypernym "
                "knowledge, so a gold label that needs world knowledge cannot be proved)"
            )
    return _replace(
        base,
        status=status,
        found=verdict.label.value,
        message=message,
        evidence=verdict.used,
        cross=cross,
        seconds=verdict.seconds,
        models=verdict.models,
        decided_by=verdict.decided_by,
        derivation=verdict.derivation,
    )
