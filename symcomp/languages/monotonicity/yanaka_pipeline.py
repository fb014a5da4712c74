"""The published data pipeline of Yanaka et al. (2020), rewritten in Python: the
reference that the prover's labels are checked against (``benchmarks/yanaka_gold.py``, tests).

verypluming/systematicity builds its data in four steps: ``cfg_simple.pl`` (or
``cfg_simple_obj.pl``) enumerates sentence trees with SWI-Prolog, ``apply_tsurgeon.sh`` edits
them with Tregex/Tsurgeon (a word replaced by ``TARGET`` or a ``(MOD TARGET)`` inserted, in
contexts chosen by the determiners' monotonicity markers LU/LD/RU/RD), ``develop.py`` fills
``TARGET`` with its word lists, and ``format.py`` writes labelled pairs (``yes`` files give
entailment plus the reversed pair as neutral; ``unk`` files the other way round), with
``emptydet`` written ``several`` and fronted adverbs or PPs on the test sets. This module
makes the same sentences from the same word lists with Python's ``random`` (the Prolog
grammar, the Tsurgeon patterns and the scripts' lists are transcribed below); the thinning
steps (every 2nd, every 3rd line) only choose which sentences appear, so they are replaced by
seeded sampling. ``swipl_yields`` reads the Prolog grammar itself where SWI-Prolog is
installed, so the transcription can be compared with it.
"""

from __future__ import annotations

import random
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

# cfg_simple.pl
DETS = {  # surface: number
    "emptydet": "plur", "no": "sing", "some": "sing", "few": "plur", "a few": "plur",
    "at least three": "plur", "less than three": "plur", "more than three": "plur",
    "at most three": "plur",
}  # fmt: skip
NOUNS = ["dog", "rabbit", "lion", "cat", "bear", "tiger", "elephant", "fox", "monkey", "wolf"]
PLURALS = {"fox": "foxes", "wolf": "wolves"}
IVS = ["ran", "walked", "came", "waltzed", "swam", "rushed", "danced", "dawdled", "escaped",
       "left"]  # fmt: skip
TVS = ["kissed", "kicked", "hit", "cleaned", "touched", "loved", "accepted", "hurt", "licked",
       "followed"]  # fmt: skip
WH = ["that", "which"]
# cfg_simple_obj.pl
OBJ_NOUNS = ["bird", "rabbit", "lion", "dog", "cat", "tiger", "elephant", "horse", "giraffe",
             "wolf"]  # fmt: skip
OBJ_TVS = ["kissed", "kicked", "hit", "cleaned", "touched", "loved", "comforted", "hurt",
           "accepted", "liked"]  # fmt: skip
# apply_tsurgeon.sh: LU/RU match emptydet|some|more|least and "a few"; LD/RD the rest
UPWARD = {"emptydet", "some", "more than three", "at least three", "a few"}
# develop.py / develop_obj.py
ITEMS = {
    "lex.n": ["animal", "creature", "mammal", "beast"],
    "lex.iv": ["moved", "worked", "existed"],
    "adj": ["small", "large", "crazy", "polite", "wild"],
    "pp": ["in the area", "on the ground", "at the park", "near the shore", "around the island"],
    "adv": ["slowly", "quickly", "seriously", "suddenly", "lazily"],
    "rc": ["which ate dinner", "that liked flowers", "which hated the sun", "that stayed up late"],
    "conj": ["and laughed", "and groaned", "and roared", "and screamed", "and cried"],
    "disj": ["or laughed", "or groaned", "or roared", "or screamed", "or cried"],
}
OBJ_PP = ["in the area", "on the ground", "in the park", "in the island", "around the island"]
# format.py's test-set prefixes ("isrand" is its typo)
ADVS = ["Slowly, ", "Quickly, ", "Seriously, ", "Suddenly, ", "Lazily, "]
PREPS = ["In the isrand, ", "On the shore, ", "At the shore, ", "Near the island, ",
         "Around the shore, "]  # fmt: skip
# the edits: (where, which word list) and the label of an upward context (downward: the other)
EDITS = {
    "lex.n": ("restrictor", "yes"), "lex.iv": ("scope", "yes"), "adj": ("restrictor", "unk"),
    "pp.n": ("restrictor", "unk"), "pp.iv": ("scope", "unk"), "adv": ("scope", "unk"),
    "rc": ("restrictor", "unk"), "conj": ("scope", "unk"), "disj": ("scope", "yes"),
}  # fmt: skip
DEEP_EDITS = ("lex.n", "adj", "pp.n", "rc")  # depth >= 1: the most deeply embedded NP only
OBJ_EDITS = ("lex.n", "adj", "pp.n", "rc")  # lex_obj, adj_obj, pp_obj, rc_obj


@dataclass
class NP:
    det: str
    noun: str
    sbar: tuple[str, str, str, NP] | None = None  # (kind, wh, tv, np)
    mod_before: str = ""  # an adjective
    mod_after: str = ""  # a PP or relative clause

    def words(self) -> list[str]:
        noun = self.noun
        if DETS[self.det] == "plur" and not noun.endswith("s"):
            noun = PLURALS.get(noun, noun + "s")
        out = [self.det, *filter(None, [self.mod_before]), noun, *filter(None, [self.mod_after])]
        if self.sbar is not None:
            kind, wh, tv, np = self.sbar
            if kind == "subject":
                out += [wh, tv, *np.words()]
            elif kind == "object":
                out += [wh, *np.words(), tv]
            else:
                out += [*np.words(), tv]
        return out

    def chain(self) -> list[NP]:
        return [self] + (self.sbar[3].chain() if self.sbar else [])


def random_np(rng: random.Random, depth: int, nouns: list[str] = NOUNS) -> NP:
    det = rng.choice(list(DETS))
    sbar = None
    if depth > 0:
        kind = rng.choice(["subject", "object", "reduced"])
        sbar = (kind, rng.choice(WH), rng.choice(TVS), random_np(rng, depth - 1, nouns))
    return NP(det, rng.choice(nouns), sbar)


def text(words: list[str]) -> str:
    """format.py: emptydet -> several, capitalised, a final period."""
    sentence = " ".join(words).replace("emptydet ", "several ")
    return sentence[0].upper() + sentence[1:] + "."


def polarity(dets: list[str]) -> str:
    return "down" if sum(det not in UPWARD for det in dets) % 2 else "up"


def label(edit: str, pol: str) -> str:
    up_label = EDITS[edit][1]
    gold = up_label if pol == "up" else ("unk" if up_label == "yes" else "yes")
    return gold


def pairs_for(premise: str, hypothesis: str, gold: str) -> list[tuple[str, str, str]]:
    """format.py: a yes pair is entailment and its reverse neutral; unk the other way round."""
    forward, backward = ("entailment", "neutral") if gold == "yes" else ("neutral", "entailment")
    return [(premise, hypothesis, forward), (hypothesis, premise, backward)]


def _edited(np: NP, edit: str, item: str) -> NP:
    copy = NP(np.det, np.noun, np.sbar, np.mod_before, np.mod_after)
    if edit == "lex.n":
        copy.noun = item + ("s" if DETS[np.det] == "plur" else "")
    elif edit == "adj":
        copy.mod_before = item
    else:
        copy.mod_after = item
    return copy


def _replace_deepest(np: NP, edit: str, item: str) -> NP:
    if np.sbar is None:
        return _edited(np, edit, item)
    kind, wh, tv, inner = np.sbar
    return NP(np.det, np.noun, (kind, wh, tv, _replace_deepest(inner, edit, item)))


def plain_pairs(rng: random.Random, depth: int, count: int) -> list[tuple[str, str, str, str]]:
    """``count`` (premise, hypothesis, label, genre) rows of ``depthD.tsv``."""
    rows: list[tuple[str, str, str, str]] = []
    edits = list(EDITS) if depth == 0 else list(DEEP_EDITS)
    while len(rows) < count:
        subject, iv, edit = random_np(rng, depth), rng.choice(IVS), rng.choice(edits)
        where = EDITS[edit][0]
        words = ITEMS["pp" if edit.startswith("pp") else edit]
        item = rng.choice(words)
        premise = text([*subject.words(), iv])
        if where == "scope":
            pol = "up" if subject.det in UPWARD else "down"
            verb = item if edit == "lex.iv" else f"{iv} {item}"
            hypothesis = text([*subject.words(), verb])
        else:
            pol = polarity([np.det for np in subject.chain()])
            hypothesis = text([*_replace_deepest(subject, edit, item).words(), iv])
        gold = label(edit, pol)
        genre = f"depth{depth}.{edit}.{pol}"
        rows += [(p, h, lab, genre) for p, h, lab in pairs_for(premise, hypothesis, gold)]
    return rows[:count]


def fronted(
    rows: list[tuple[str, str, str, str]], prefixes: list[str], rng: random.Random
) -> list[tuple[str, str, str, str]]:
    """format.py's adv_dev_* / prep_dev_* files: a prefix and the sentence lowercased."""
    out = []
    for premise, hypothesis, gold, genre in rows:
        prefix = rng.choice(prefixes)
        out.append((prefix + premise.lower(), prefix + hypothesis.lower(), gold, genre))
    return out


def object_pairs(rng: random.Random, count: int) -> list[tuple[str, str, str, str]]:
    """The object variant (cfg_simple_obj.pl, apply_tsurgeon_obj.sh, develop_obj.py)."""
    rows: list[tuple[str, str, str, str]] = []
    while len(rows) < count:
        subject = ["some", rng.choice(OBJ_NOUNS)]
        tv = rng.choice(OBJ_TVS)
        obj = random_np(rng, 0, OBJ_NOUNS)
        edit = rng.choice(OBJ_EDITS)
        words = OBJ_PP if edit == "pp.n" else ITEMS["pp" if edit == "pp.n" else edit]
        item = rng.choice(words)
        pol = "up" if obj.det in UPWARD else "down"
        premise = text([*subject, tv, *obj.words()])
        hypothesis = text([*subject, tv, *_edited(obj, edit, item).words()])
        gold = label(edit, pol)
        genre = f"depth0.{edit}_obj.{pol}"
        rows += [(p, h, lab, genre) for p, h, lab in pairs_for(premise, hypothesis, gold)]
    return rows[:count]


def all_depth0_sentences() -> list[str]:
    """Every sentence of ``gen(0,1)`` of cfg_simple.pl (the yields, as format.py writes them)."""
    return [text([det, NP(det, noun).words()[-1], iv]) for det in DETS for noun in NOUNS
            for iv in IVS]  # fmt: skip


def swipl_yields(grammar: Path, depth: int) -> list[str] | None:
    """The sentences ``plain(depth, 1)`` of a Prolog grammar writes; None without swipl."""
    swipl = shutil.which("swipl")
    if swipl is None or not grammar.is_file():
        return None
    result = subprocess.run(
        [swipl, "-s", str(grammar), "-g", f"plain({depth},1)", "-t", "halt", "-q"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    return [text(line.split()) for line in result.stdout.splitlines() if line.strip()]


def file_types(rows: int, seed: int) -> dict[str, list[tuple[str, str, str, str]]]:
    """Every file type the published scripts write: depth0..depth4 (``rows`` each),
    adverb_first and pp_first (depth 0 fronted), object (``rows``)."""
    rng = random.Random(seed)
    types = {f"depth{depth}": plain_pairs(rng, depth, rows) for depth in range(5)}
    types["adverb_first"] = fronted(types["depth0"], ADVS, rng)
    types["pp_first"] = fronted(types["depth0"], PREPS, rng)
    types["object"] = object_pairs(rng, rows)
    return types


def repeats_a_noun(sentence: str) -> bool:
    """Whether a noun recurs in the sentence (the published grammar allows it)."""
    nouns = [word.rstrip(".").removesuffix("es").removesuffix("s") for word in sentence.split()]
    known = [noun for noun in nouns if noun in {n.removesuffix("s") for n in NOUNS}]
    return len(known) != len(set(known))
