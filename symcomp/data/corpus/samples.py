"""A small corpus in the formats researchers bring, written by symcomp itself (``make demo``).

:func:`write_samples` writes, into one folder, what a user of ``symcomp import`` starts from:

``train.tsv``, ``dev.tsv``, ``test.tsv``, ``gen.tsv``
    COGS-style sentence → logical form pairs (``A cat saw Emma .`` →
    ``cat ( x _ 1 ) AND see . agent ( x _ 2 , x _ 1 ) AND see . theme ( x _ 2 , emma )``).
    As in COGS, ``gen`` holds what train never shows: a proper name as the subject of a
    transitive verb (train has names only as objects and in intransitive sentences).
``lf.lark``
    A Lark grammar of the logical forms (``grammar:lf.lark`` parses outputs into DAGs).
``corpus.conllu``
    The same sentences as a CoNLL-U treebank (lemmas, UPOS, heads, relations).

Everything is a function of the seed.

>>> import tempfile
>>> folder = Path(tempfile.mkdtemp())
>>> sorted(path.name for path in write_samples(folder))  # doctest: +NORMALIZE_WHITESPACE
['corpus.conllu', 'dev.tsv', 'gen.tsv', 'lf.lark', 'test.tsv', 'train.tsv']
>>> (folder / "train.tsv").read_text().splitlines()[0].split("\\t")[0]
'A bird found the dog .'
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

NOUNS = ("cat", "dog", "bird", "horse", "girl", "boy", "teacher", "baker")
NAMES = ("Emma", "Liam", "Noah", "Ava")
TRANSITIVE = {"saw": "see", "liked": "like", "helped": "help", "found": "find", "fed": "feed"}
INTRANSITIVE = {"ran": "run", "slept": "sleep", "smiled": "smile", "jumped": "jump"}
LF_GRAMMAR = """\
// COGS-style logical forms: clauses joined by AND; variables are x _ N (N = token position).
start: clause ("AND" clause)*
clause: NAME "(" arg ")"                        -> noun
      | NAME "." NAME "(" arg "," arg ")"       -> role
arg: "x" "_" NUMBER                             -> var
   | NAME                                       -> const
NAME: /[a-z][a-z_]*/
NUMBER: /[0-9]+/
%ignore " "
"""


@dataclass(frozen=True)
class Phrase:
    """A noun phrase: its words, its lemma, and whether it is a proper name."""

    words: tuple[str, ...]
    lemma: str
    name: bool


def _phrase(rng: random.Random, name: bool, subject: bool) -> Phrase:
    if name:
        word = rng.choice(NAMES)
        return Phrase((word,), word.lower(), True)
    noun = rng.choice(NOUNS)
    determiner = rng.choice(("a", "the"))
    return Phrase((determiner.capitalize() if subject else determiner, noun), noun, False)


def _sentence(
    rng: random.Random, subject_name: bool, object_name: bool, transitive: bool
) -> tuple[str, str, list[str]]:
    """(sentence, logical form, CoNLL-U word lines) of one sentence."""
    subject = _phrase(rng, subject_name, subject=True)
    verb, lemma = rng.choice(sorted((TRANSITIVE if transitive else INTRANSITIVE).items()))
    words = [*subject.words, verb]
    verb_at = len(words) - 1  # variables are 0-based token positions, as in COGS
    noun_at = len(subject.words) - 1
    clauses = [] if subject.name else [f"{subject.lemma} ( x _ {noun_at} )"]
    agent = subject.lemma if subject.name else f"x _ {noun_at}"
    clauses.append(f"{lemma} . agent ( x _ {verb_at} , {agent} )")
    obj = None
    if transitive:
        obj = _phrase(rng, object_name, subject=False)
        words += obj.words
        theme = obj.lemma if obj.name else f"x _ {len(words) - 1}"
        if not obj.name:
            clauses.insert(len(clauses) - 1, f"{obj.lemma} ( x _ {len(words) - 1} )")
        clauses.append(f"{lemma} . theme ( x _ {verb_at} , {theme} )")
    text = " ".join([*words, "."])
    return text, " AND ".join(clauses), _conllu_words(subject, verb, lemma, obj)


def _conllu_words(subject: Phrase, verb: str, lemma: str, obj: Phrase | None) -> list[str]:
    rows: list[tuple[str, str, str, int, str]] = []  # form, lemma, upos, head, relation
    verb_at = len(subject.words) + 1
    for phrase, relation in ((subject, "nsubj"), *(((obj, "obj"),) if obj else ())):
        start = len(rows) + 1 if phrase is subject else verb_at + 1
        if phrase.name:
            rows.append((phrase.words[0], phrase.words[0], "PROPN", verb_at, relation))
        else:
            rows.append((phrase.words[0], phrase.words[0].lower(), "DET", start + 1, "det"))
            rows.append((phrase.words[1], phrase.lemma, "NOUN", verb_at, relation))
        if phrase is subject:
            rows.append((verb, lemma, "VERB", 0, "root"))
    rows.append((".", ".", "PUNCT", verb_at, "punct"))
    return [
        f"{n}\t{form}\t{lem}\t{upos}\t_\t_\t{head}\t{rel}\t_\t_"
        for n, (form, lem, upos, head, rel) in enumerate(rows, start=1)
    ]


def write_samples(folder: Path, seed: int = 0, size: int = 400) -> list[Path]:
    """Write the sample corpus (see the module) into ``folder``; return the files written."""
    rng = random.Random(f"symcomp-samples-{seed}")
    folder.mkdir(parents=True, exist_ok=True)
    parts: dict[str, list[tuple[str, str, list[str]]]] = {"train": [], "dev": [], "test": []}
    for number in range(size):
        transitive = rng.random() < 0.6
        subject_name = not transitive and rng.random() < 0.3
        sentence = _sentence(rng, subject_name, transitive and rng.random() < 0.3, transitive)
        part = "train" if number % 10 < 8 else ("dev" if number % 10 == 8 else "test")
        parts[part].append(sentence)
    parts["gen"] = [_sentence(rng, True, rng.random() < 0.5, True) for _ in range(size // 10)]
    written = []
    for name, sentences in parts.items():
        path = folder / f"{name}.tsv"
        path.write_text("".join(f"{text}\t{lf}\n" for text, lf, _ in sentences), encoding="utf-8")
        written.append(path)
    grammar = folder / "lf.lark"
    grammar.write_text(LF_GRAMMAR, encoding="utf-8")
    treebank = folder / "corpus.conllu"
    blocks = []
    for number, (text, _lf, words) in enumerate(
        (s for name in ("train", "dev", "test", "gen") for s in parts[name]), start=1
    ):
        blocks.append("\n".join([f"# sent_id = s{number}", f"# text = {text}", *words]) + "\n")
    treebank.write_text("\n".join(blocks) + "\n", encoding="utf-8")
    return [*written, grammar, treebank]
