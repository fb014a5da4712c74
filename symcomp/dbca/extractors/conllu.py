r"""Dependency atoms and compounds of a parsed sentence (Moisio et al. 2023, GenBench).

The definition follows Moisio, Creutz and Kurimo (2023), "On Using Distribution-Based
Compositionality Assessment to Evaluate Compositional Generalisation in Machine Translation"
(GenBench's ``europarl_dbca_splits``; code: aalto-speech/dbca, ``freq_mats.py``,
``filter_deprel_tokenlist`` and ``make_matrix_rows``):

* atoms are the lemmas of the words and the dependency relations;
* compounds are (head lemma, relation, dependent lemma) triples, one per word whose head is a
  word. The word attached to the root (HEAD 0, relation ``root``) gives no compound and its
  ``root`` relation is no atom, as in their code (``if relation == 'root': continue``); its
  lemma is an atom all the same.

Both lists hold one entry per occurrence, in word order: each word's lemma, then its relation
when it has a head word.

Where this differs from their code: the root is recognised by HEAD 0 (theirs tests the label
``root``; in valid UD the two coincide); a one-word sentence keeps its lemma atom (theirs counts
lemmas only through compounds, so such a sentence has no atoms and is dropped); lemmas are
kept as written (theirs lowercases them, as its LAL-Parser input was lowercased); and their
corpus-level filters (lemma frequency ranges, compound-weight threshold 0.5, noisy tags) are
no part of this per-sentence definition. Their parser emitted labels without subtypes, so
``relation_subtypes`` and ``morphology`` are options of ours.

String forms
------------
lemma atom
    the lemma, escaped: ``dog``.
relation atom
    the relation between ``-`` and ``->``: ``-nsubj->``.
compound
    head, relation and dependent separated by single spaces: ``bark -nsubj-> dog``.
lemma with ``morphology=True``
    the lemma and each feature of FEATS (column order) joined by ``+``:
    ``dog+Number=Plur``, ``be+Mood=Ind+Tense=Past``; a word whose FEATS is ``_`` is its bare
    lemma. These stand for the lemma both as atoms and inside compounds.
``relation_subtypes=False``
    cuts a relation at its first colon: ``nmod:poss`` becomes ``nmod``.

Why unambiguous: escaping writes ``\`` as ``\\`` and a space as ``\s`` (and, with
``morphology``, ``+`` as ``\+``) in lemmas, features and relations, so none of them holds a
raw space and a compound splits on its two spaces into exactly three parts, whatever arrows the
lemmas hold. A lemma atom that would look like a relation atom (starting ``-``, ending ``->``)
gets a leading ``\``, so lemma atoms and relation atoms never coincide (their code used the bare
relation name, so the lemma "case" and the relation "case" were one atom). Everyday forms need
no escape.

>>> syntax = {
...     "forms": ["Dogs", "bark", "loudly"],
...     "lemmas": ["dog", "bark", "loudly"],
...     "upos": ["NOUN", "VERB", "ADV"],
...     "heads": [2, 0, 2],
...     "deprels": ["nsubj", "root", "advmod:emph"],
...     "feats": ["Number=Plur", "_", "_"],
... }
>>> atoms, compounds = conllu_atoms_compounds(syntax)
>>> atoms
['dog', '-nsubj->', 'bark', 'loudly', '-advmod:emph->']
>>> compounds
['bark -nsubj-> dog', 'bark -advmod:emph-> loudly']
>>> conllu_atoms_compounds(syntax, relation_subtypes=False, morphology=True)[1]
['bark -nsubj-> dog+Number=Plur', 'bark -advmod-> loudly']
>>> conllu_atoms_compounds({**syntax, "lemmas": ["New York", "->", "a\\b"]})[1]
['\\-> -nsubj-> New\\sYork', '\\-> -advmod:emph-> a\\\\b']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from symcomp.dbca.extractors.base import (
    AtomsAndCompounds,
    Extractor,
    boolean_option,
    no_options,
)
from symcomp.errors import DataError

_PLAIN = str.maketrans({"\\": "\\\\", " ": "\\s"})
_MORPH = str.maketrans({"\\": "\\\\", " ": "\\s", "+": "\\+"})
_KEYS = ("lemmas", "heads", "deprels", "feats")


def conllu_atoms_compounds(
    syntax: Mapping[str, Any], *, relation_subtypes: bool = True, morphology: bool = False
) -> tuple[list[str], list[str]]:
    """Lemma and relation atoms and head-relation-dependent compounds of one sentence.

    Parameters
    ----------
    syntax
        The ``syntax`` of a record from :func:`symcomp.data.corpus.conllu.read_conllu`: equal
        length lists ``lemmas``, ``heads`` (0 for the root, else a 1-based word number),
        ``deprels`` and ``feats`` (``_`` or ``A=B|C=D``).
    relation_subtypes
        Keep relation subtypes (``nmod:poss``); False cuts them (``nmod``).
    morphology
        Add each word's features to its lemma (``dog+Number=Plur``).

    Returns
    -------
    tuple of list of str
        The atoms and the compounds, one entry per occurrence, in the forms of the module
        docstring.

    Raises
    ------
    DataError
        When the lists differ in length or a head names no word.
    """
    _check(syntax)
    pairs = zip(syntax["lemmas"], syntax["feats"], strict=True)
    words = [_word(lemma, feats, morphology) for lemma, feats in pairs]
    atoms: list[str] = []
    compounds: list[str] = []
    for index, (head, relation) in enumerate(zip(syntax["heads"], syntax["deprels"], strict=True)):
        atoms.append(words[index])
        if head == 0:
            continue  # the root relation links no two words (their code skips 'root')
        arrow = _relation(relation, relation_subtypes)
        atoms.append(arrow)
        compounds.append(f"{words[head - 1]} {arrow} {words[index]}")
    return atoms, compounds


def _check(syntax: Mapping[str, Any]) -> None:
    """Raise unless the lists have one entry per word and every head is 0 or a word."""
    missing = [key for key in _KEYS if key not in syntax]
    if missing:
        raise DataError(f"syntax lacks {', '.join(missing)}; give every key of {_KEYS}.")
    size = len(syntax["lemmas"])
    if any(len(syntax[key]) != size for key in _KEYS):
        lengths = {key: len(syntax[key]) for key in _KEYS}
        raise DataError(f"syntax lists differ in length {lengths}; give one entry per word.")
    bad = [h for h in syntax["heads"] if not isinstance(h, int) or not 0 <= h <= size]
    if bad:
        raise DataError(f"syntax heads {bad} name no word; use 0 (root) or 1..{size}.")


def _word(lemma: str, feats: str, morphology: bool) -> str:
    """The escaped form of a word's lemma (with its features when ``morphology``)."""
    if morphology:
        parts = [lemma] if feats == "_" else [lemma, *feats.split("|")]
        text = "+".join(part.translate(_MORPH) for part in parts)
    else:
        text = lemma.translate(_PLAIN)
    if text.startswith("-") and text.endswith("->"):
        return "\\" + text  # would read as a relation atom; no other escape starts with \-
    return text


def _relation(relation: str, subtypes: bool) -> str:
    """The relation atom ``-rel->`` (subtype cut when not ``subtypes``)."""
    if not subtypes:
        relation = relation.split(":", 1)[0]
    return f"-{relation.translate(_PLAIN)}->"


VERSION = 1


def build(argument: str | None, on: str | None, options: Mapping[str, str]) -> Extractor:
    """The ``conllu`` extractor (options ``relation_subtypes``, ``morphology``): it reads the
    ``syntax`` a CoNLL-U import keeps with every sentence."""
    no_options("conllu", options, ("relation_subtypes", "morphology"))
    if argument is not None or on is not None:
        raise DataError(
            "extractor conllu reads each sentence's syntax; give neither an argument nor `on`."
        )
    subtypes = boolean_option("conllu", options, "relation_subtypes", True)
    morphology = boolean_option("conllu", options, "morphology", False)

    def sets(record: Mapping[str, Any]) -> AtomsAndCompounds:
        syntax = record.get("syntax")
        if not isinstance(syntax, Mapping):
            raise DataError(
                "the example has no syntax (lemmas, heads, relations); conllu reads pools "
                "imported from CoNLL-U (symcomp import FILE.conllu)."
            )
        return conllu_atoms_compounds(syntax, relation_subtypes=subtypes, morphology=morphology)

    return Extractor(
        "conllu",
        VERSION,
        "syntax",
        sets=sets,
        options={"relation_subtypes": subtypes, "morphology": morphology},
    )
