"""Write ``grammars/cogs.lark``, ``grammars/cogs.toml`` and ``grammars/cogs.lemmas.json`` from
SLOG's IRTG transcription of the COGS grammar (``bingzhilee/SLOG`` at
1c55df85006d58b842520c79dcb8e1b43df2836f, ``generation_scripts/grammars/``, MIT licence)::

    python -m symcomp.languages.cogs.make_grammar PATH/TO/SLOG/generation_scripts/grammars [OUT_DIR]

The IRTG grammar is a generator, not a parser: ``NP_animate_nsubj`` and ``NP_animate_dobj_noPP``
derive the same strings, and whether ``the girl`` before ``rolled`` is an agent or a theme shows
only after the verb. The Lark grammar below is the same language refactored for an LALR(1)
parser: one noun-phrase rule per surface context, the subject of an unaccusative clause written
at the clause (``unaccusative_animate``), and a few alternatives that only the generalisation
cases use (a subject with a PP, a target noun in a slot its class never fills in training), at
weight 0 in the main table. Each Lark alternative names the IRTG rule paths it stands for
(:data:`PATHS`); its weight is the sum over those paths of the product of their IRTG weights, so
the refactored grammar draws every sentence with the probability the IRTG gives it. Where one
Lark rule stands for several IRTG nonterminals (:data:`SAME`), their weights must agree, and
the script checks it.

Words come from ``lexicon.irtg``: one terminal per category (categories with the same words and
weights, such as the four animate-noun categories, share one), Zipf(1.4) over list order as
SLOG's ``|zipf`` filter computes it. What COGS adds (its generalisation targets, ``lended`` for
SLOG's ``lent``, the infinitive forms of the unergatives for the primitives) is in
:data:`COGS_WORDS`, :data:`LENDED` and :func:`_unergative_lemmas`.
"""

from __future__ import annotations

import json
import logging
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from symcomp.errors import GrammarError, SymcompError
from symcomp.languages.cogs.irtg import Lexicon, read_irtg_file, read_lexicon, read_rules

LOG = logging.getLogger(__name__)
VERSION = "1.2.0"
ZIPF_A = 1.4  # SLOG's cogs-preprocess.py: zipf.pmf(k, 1.4) plus a uniform leftover
SOURCE = "bingzhilee/SLOG@1c55df85006d58b842520c79dcb8e1b43df2836f generation_scripts/grammars"

# Where COGS departs from SLOG's transcription of its grammar (IRTG rule: SLOG's weight, COGS's).
# An animate direct object is a common noun, a common noun with a PP or a name: SLOG gives
# .25/.25/.5, and every published COGS split has about a third of each (common / with PP / name:
# train 0.329 / 0.334 / 0.337 of 2,461 animate objects, dev 0.359 / 0.324 / 0.317 of 290, test
# 0.337 / 0.356 / 0.307 of 309), which deduplication cannot make of .5 (sampling SLOG's weights
# with COGS's rejections gave names about 0.48). COGS's own grammar file is not
# public; uniform thirds are its rule as the data shows it, not weights fitted to frequencies.
COGS_WEIGHTS = {
    "NP_animate_dobj -> Det N_common_animate_dobj": (0.25, 1 / 3),
    "NP_animate_dobj -> Det N_common_animate_dobj PP_loc": (0.25, 1 / 3),
    "NP_animate_dobj -> N_prop_dobj": (0.5, 1 / 3),
}

# IRTG grammar files: the main one and the structural generalisation cases (weight tables)
TABLES = {
    "main": "main-grammar.irtg",
    "pp_recursion": "recursion_pp_gen-grammar.irtg",
    "cp_recursion": "recursion_cp_gen-grammar.irtg",
    "obj_pp_to_subj_pp": "PP_modifying_subject_NP_gen-grammar.irtg",
}

# Lark terminal <- IRTG categories (all listed categories must have the same words)
TERMINALS: dict[str, tuple[str, ...]] = {
    "N_ANIMATE": (
        "N_common_animate_dobj",
        "N_common_animate_iobj",
        "N_common_animate_nsubj",
        "N_common_animate_nsubjpass",
    ),
    "N_INANIMATE": (
        "N_common_inanimate_dobj",
        "N_common_inanimate_nsubjpass",
        "N_common_inanimate_nsubj",
    ),
    "N_PROPER": ("N_prop_dobj", "N_prop_iobj", "N_prop_nsubj", "N_prop_nsubjpass"),
    "N_ON": ("N_on",),
    "N_IN": ("N_in",),
    "N_BESIDE": ("N_beside",),
    "V_UNERGATIVE": ("V_unerg",),
    "V_UNACCUSATIVE": ("V_unacc",),
    "V_OMISSIBLE": ("V_trans_omissible",),
    "V_TRANSITIVE": ("V_trans_not_omissible",),
    "V_INF_TAKING": ("V_inf_taking",),
    "V_INF": ("V_inf",),
    "V_DATIVE": ("V_dat",),
    "V_CP_TAKING": ("V_cp_taking",),
    "V_OMISSIBLE_PP": ("V_trans_omissible_pp",),
    "V_TRANSITIVE_PP": ("V_trans_not_omissible_pp",),
    "V_UNACCUSATIVE_PP": ("V_unacc_pp",),
    "V_DATIVE_PP": ("V_dat_pp",),
    "V_OMISSIBLE_LEMMA": ("V_trans_omissible_inf",),
    "V_TRANSITIVE_LEMMA": ("V_trans_not_omissible_inf",),
    "V_UNACCUSATIVE_LEMMA": ("V_unacc_inf",),
    "DET": ("Det",),
}

# COGS's generalisation targets (Kim & Linzen 2020, Table 1 and appendix): parseable in the
# classes the generalisation set uses, never drawn by the main table (weight 0)
COGS_WORDS: dict[str, tuple[str, ...]] = {
    "N_ANIMATE": ("hedgehog", "shark", "cockroach", "cobra", "hippo"),
    "N_PROPER": ("Lina", "Paula", "Charlie"),
    "V_UNACCUSATIVE": ("shattered",),
    "V_OMISSIBLE": ("baked",),
    "V_TRANSITIVE": ("blessed", "squeezed"),
    "V_TRANSITIVE_PP": ("blessed", "squeezed"),
    "V_DATIVE": ("teleported", "shipped"),
    "V_DATIVE_PP": ("teleported", "shipped"),
    "V_INF": ("crawl",),
    "V_UNERGATIVE_LEMMA": ("crawl",),
}
COGS_LEMMAS = {
    "shattered": "shatter",
    "baked": "bake",
    "blessed": "bless",
    "squeezed": "squeeze",
    "teleported": "teleport",
    "shipped": "ship",
    "lended": "lend",
}
LENDED = ("lent", "lended")  # COGS writes the regular past of `lend` (active and passive)

# Lark alias <- IRTG rule paths (sum over paths of the product of rule weights)
PATHS: dict[str, list[list[str]]] = {}
# Lark rule standing for several IRTG nonterminals: their alternatives' weights must agree
SAME: dict[str, list[tuple[str, str]]] = {}


def _paths() -> None:
    agent = "S -> NP_animate_nsubj VP_external"
    cp = "S -> NP_animate_nsubj VP_CP"
    vp = {
        "unergative": "V_unerg",
        "unaccusative_transitive": "V_unacc NP_dobj",
        "omitted_object": "V_trans_omissible",
        "omissible_transitive": "V_trans_omissible NP_dobj",
        "transitive": "V_trans_not_omissible NP_dobj",
        "infinitival": "V_inf_taking INF V_inf",
        "pp_dative": "V_dat NP_inanimate_dobj PP_iobj",
        "double_object_dative": "V_dat NP_animate_iobj NP_inanimate_dobj",
        "clausal_complement": "V_cp_taking C S",
    }
    # vp_external only follows an agent subject: its weights are joint with the S rule
    for alias, rhs in vp.items():
        PATHS[alias] = [[agent, f"VP_external -> {rhs}"]]
    PATHS["clausal_complement"].append([cp, "VP_CP -> V_cp_taking C S"])
    PATHS["agent_clause"] = [path for alias in vp for path in PATHS[alias]]
    internal = ["S -> VP_internal", "VP_internal -> NP_unacc_subj V_unacc"]
    PATHS["unaccusative_inanimate"] = [
        [*internal, "NP_unacc_subj -> NP_inanimate_dobj_noPP"],
        [*internal, "NP_unacc_subj -> NP_inanimate_nsubj"],
    ]
    PATHS["unaccusative_animate"] = [
        [*internal, "NP_unacc_subj -> NP_animate_dobj_noPP"],
        [*internal, "NP_unacc_subj -> NP_animate_nsubj"],
    ]
    PATHS["passive_clause"] = [["S -> NP_inanimate_nsubjpass VP_passive"]]
    PATHS["passive_dative_clause"] = [["S -> NP_animate_nsubjpass VP_passive_dat"]]
    PATHS["declarative"] = [[]]
    PATHS["primitive_row"] = []
    by = " BY NP_animate_nsubj"
    for alias, rhs in {
        "passive_transitive": "V_trans_not_omissible_pp",
        "passive_omissible": "V_trans_omissible_pp",
        "passive_unaccusative": "V_unacc_pp",
        "passive_dative": "V_dat_pp PP_iobj",
    }.items():
        PATHS[alias] = [[f"VP_passive -> AUX {rhs}"]]
        PATHS[f"{alias}_by"] = [[f"VP_passive -> AUX {rhs}{by}"]]
    PATHS["passive_recipient"] = [["VP_passive_dat -> AUX V_dat_pp NP_inanimate_dobj"]]
    PATHS["passive_recipient_by"] = [[f"VP_passive_dat -> AUX V_dat_pp NP_inanimate_dobj{by}"]]
    _np_paths()


def _np_paths() -> None:
    common, proper = "Det N_common_animate_{}", "N_prop_{}"
    for rule, irtg, cat in (
        ("nsubj", "NP_animate_nsubj", "nsubj"),
        ("nsubjpass", "NP_animate_nsubjpass", "nsubjpass"),
        ("iobj", "NP_animate_iobj", "iobj"),
    ):
        PATHS[f"{rule}_common"] = [[f"{irtg} -> {common.format(cat)}"]]
        PATHS[f"{rule}_proper"] = [[f"{irtg} -> {proper.format(cat)}"]]
        PATHS[f"{rule}_common_pp"] = [[f"{irtg} -> {common.format(cat)} PP_loc"]]
    PATHS.pop("iobj_common_pp")
    SAME["nsubj"] = [("NP_animate_nsubj", "NP_animate_dobj_noPP")]
    inanimate = "Det N_common_inanimate_{}"
    PATHS["nsubjpass_inanimate_common"] = [
        [f"NP_inanimate_nsubjpass -> {inanimate.format('nsubjpass')}"]
    ]
    PATHS["nsubjpass_inanimate_common_pp"] = [
        [f"NP_inanimate_nsubjpass -> {inanimate.format('nsubjpass')} PP_loc"]
    ]
    PATHS["unacc_subject_common"] = [[f"NP_inanimate_dobj_noPP -> {inanimate.format('dobj')}"]]
    PATHS["unacc_subject_common_pp"] = [
        [f"NP_inanimate_nsubj -> {inanimate.format('dobj')} PP_loc"]
    ]
    PATHS["object_inanimate_np"] = [["NP_dobj -> NP_inanimate_dobj"]]
    PATHS["object_animate_np"] = [["NP_dobj -> NP_animate_dobj"]]
    obj = inanimate.format("dobj")
    for rule in ("inanimate", "theme"):
        PATHS[f"{rule}_common"] = [[f"NP_inanimate_dobj -> {obj}"]]
        PATHS[f"{rule}_common_pp"] = [[f"NP_inanimate_dobj -> {obj} PP_loc"]]
    for alias in ("theme_proper", "theme_animate", "theme_animate_pp"):
        PATHS[alias] = []  # a target noun in the dative theme slot (generalisation only)
    animate = common.format("dobj")
    PATHS["animate_common"] = [[f"NP_animate_dobj -> {animate}"]]
    PATHS["animate_common_pp"] = [[f"NP_animate_dobj -> {animate} PP_loc"]]
    PATHS["animate_proper"] = [[f"NP_animate_dobj -> {proper.format('dobj')}"]]
    for prep, noun in (("on", "NP_on"), ("in", "NP_in"), ("beside", "NP_beside")):
        PATHS[f"pp_{prep}"] = [[f"PP_loc -> P_{prep} {noun}"]]
        PATHS[f"{prep}_np"] = [[f"{noun} -> Det N_{prep}"]]
        PATHS[f"{prep}_np_pp"] = [[f"{noun} -> Det N_{prep} PP_loc"]]
    for alias, terminal in PRIMITIVES.items():
        PATHS[alias] = [[]]  # uniform; `primitive_row` (weight 0) keeps them out of draws
        del terminal


PRIMITIVES = {
    "primitive_animate": "N_ANIMATE",
    "primitive_inanimate": "N_INANIMATE",
    "primitive_proper": "N_PROPER",
    "primitive_omissible": "V_OMISSIBLE_LEMMA",
    "primitive_transitive": "V_TRANSITIVE_LEMMA",
    "primitive_unaccusative": "V_UNACCUSATIVE_LEMMA",
    "primitive_unergative": "V_UNERGATIVE_LEMMA",
}

LARK = """\
// COGS (Kim & Linzen 2020) as an LALR(1) grammar: written by symcomp.languages.cogs.make_grammar
// from SLOG's IRTG transcription of the COGS grammar ({source}, MIT licence); do not edit by
// hand. Every rule keeps its tokens (`!`): the semantics counts token positions.
!start: sentence "." -> declarative
      | primitive -> primitive_row

!primitive: {primitives}

// clauses; an unaccusative subject is written at the clause, so the parser decides agent or
// theme after the verb (IRTG: S -> VP_internal, VP_internal -> NP_unacc_subj V_unacc)
!sentence: nsubj vp_external -> agent_clause
         | unacc_subject V_UNACCUSATIVE -> unaccusative_inanimate
         | nsubj V_UNACCUSATIVE -> unaccusative_animate
         | nsubjpass_inanimate vp_passive -> passive_clause
         | nsubjpass vp_passive_dative -> passive_dative_clause

!vp_external: V_UNERGATIVE -> unergative
            | V_UNACCUSATIVE object -> unaccusative_transitive
            | V_OMISSIBLE -> omitted_object
            | V_OMISSIBLE object -> omissible_transitive
            | V_TRANSITIVE object -> transitive
            | V_INF_TAKING "to" V_INF -> infinitival
            | V_DATIVE theme pp_iobj -> pp_dative
            | V_DATIVE iobj theme -> double_object_dative
            | V_CP_TAKING "that" sentence -> clausal_complement

!vp_passive: "was" V_TRANSITIVE_PP -> passive_transitive
           | "was" V_TRANSITIVE_PP "by" nsubj -> passive_transitive_by
           | "was" V_OMISSIBLE_PP -> passive_omissible
           | "was" V_OMISSIBLE_PP "by" nsubj -> passive_omissible_by
           | "was" V_UNACCUSATIVE_PP -> passive_unaccusative
           | "was" V_UNACCUSATIVE_PP "by" nsubj -> passive_unaccusative_by
           | "was" V_DATIVE_PP pp_iobj -> passive_dative
           | "was" V_DATIVE_PP pp_iobj "by" nsubj -> passive_dative_by

!vp_passive_dative: "was" V_DATIVE_PP theme -> passive_recipient
                  | "was" V_DATIVE_PP theme "by" nsubj -> passive_recipient_by

// noun phrases, one rule per surface context (`_pp`: with a prepositional phrase)
!nsubj: DET N_ANIMATE -> nsubj_common
      | N_PROPER -> nsubj_proper
      | DET N_ANIMATE pp -> nsubj_common_pp

!nsubjpass: DET N_ANIMATE -> nsubjpass_common
          | N_PROPER -> nsubjpass_proper
          | DET N_ANIMATE pp -> nsubjpass_common_pp

!nsubjpass_inanimate: DET N_INANIMATE -> nsubjpass_inanimate_common
                    | DET N_INANIMATE pp -> nsubjpass_inanimate_common_pp

!unacc_subject: DET N_INANIMATE -> unacc_subject_common
              | DET N_INANIMATE pp -> unacc_subject_common_pp

!iobj: DET N_ANIMATE -> iobj_common
     | N_PROPER -> iobj_proper

!object: object_inanimate -> object_inanimate_np
       | object_animate -> object_animate_np

!object_inanimate: DET N_INANIMATE -> inanimate_common
                 | DET N_INANIMATE pp -> inanimate_common_pp

!object_animate: DET N_ANIMATE -> animate_common
               | DET N_ANIMATE pp -> animate_common_pp
               | N_PROPER -> animate_proper

// the theme of a dative (IRTG: NP_inanimate_dobj); the last three only in generalisation
!theme: DET N_INANIMATE -> theme_common
      | DET N_INANIMATE pp -> theme_common_pp
      | N_PROPER -> theme_proper
      | DET N_ANIMATE -> theme_animate
      | DET N_ANIMATE pp -> theme_animate_pp

!pp_iobj: "to" iobj

!pp: "on" np_on -> pp_on
   | "in" np_in -> pp_in
   | "beside" np_beside -> pp_beside

!np_on: DET N_ON -> on_np
      | DET N_ON pp -> on_np_pp
!np_in: DET N_IN -> in_np
      | DET N_IN pp -> in_np_pp
!np_beside: DET N_BESIDE -> beside_np
          | DET N_BESIDE pp -> beside_np_pp

{terminals}
%ignore " "
"""


def with_cogs_weights(
    rules: Mapping[str, float], filename: str, *, strict: bool = True
) -> dict[str, float]:
    """The rules with :data:`COGS_WEIGHTS` in place of SLOG's weights where a rule has SLOG's
    weight; a generalisation table's own weight (a PP forced, say) is kept. ``strict``: any other
    weight is an error (the main grammar: the source is not the revision corrected).

    >>> key = "NP_animate_dobj -> Det N_common_animate_dobj"
    >>> with_cogs_weights({key: 0.25}, "main-grammar.irtg")[key]
    0.3333333333333333
    >>> with_cogs_weights({key: 0.0}, "recursion_pp_gen-grammar.irtg", strict=False)[key]
    0.0
    """
    corrected = dict(rules)
    for key, (slog, cogs) in COGS_WEIGHTS.items():
        if key not in rules:
            continue  # absent from this table: weight 0 there
        if rules[key] == slog:
            corrected[key] = cogs
        elif strict:
            raise GrammarError(
                f"{filename}: {key} has weight {rules[key]}, not SLOG's {slog} that "
                "COGS_WEIGHTS corrects; check the source revision."
            )
    return corrected


def alias_weights(rules: Mapping[str, float]) -> dict[str, float]:
    """Each Lark alias's weight under one IRTG grammar (0 where a path's rule is absent)."""
    weights = {}
    for alias, paths in PATHS.items():
        total = 0.0
        for path in paths:
            product = 1.0
            for key in path:
                product *= rules.get(key, 0.0)
            total += product
        weights[alias] = round(total, 12)
    weights["declarative"] = 1.0
    return weights


def check_same(rules: Mapping[str, float], name: str) -> None:
    """A Lark rule standing for several IRTG nonterminals needs the same weights in each."""
    for pairs in SAME.values():
        for first, second in pairs:
            a = _distribution(rules, first)
            b = _distribution(rules, second)
            if a and b and a != b:
                raise GrammarError(
                    f"{name}: {first} {a} and {second} {b} differ, but the Lark grammar writes "
                    f"them as one rule; give them their own rules."
                )


def _distribution(rules: Mapping[str, float], lhs: str) -> list[tuple[str, float]]:
    """An IRTG nonterminal's alternatives (categories reduced to their shape) and weights."""
    found = []
    for key, weight in rules.items():
        left, right = key.split(" -> ")
        if left == lhs:
            shape = " ".join(
                part.rsplit("_", 1)[0] if part.startswith("N_") else part for part in right.split()
            )
            found.append((shape, weight))
    return sorted(found)


def terminal_entries(lexicon: Lexicon) -> dict[str, dict[str, object]]:
    """The sidecar's [lexicon]: words, Zipf or explicit weights, and COGS's unsampled words."""
    entries = {
        terminal: terminal_entry(lexicon, terminal, categories, dict([LENDED]))
        for terminal, categories in TERMINALS.items()
    }
    entries["V_UNERGATIVE_LEMMA"] = {"words": _unergative_lemmas(lexicon)}
    for terminal, targets in COGS_WORDS.items():
        entries[terminal]["unsampled"] = list(targets)
    return entries


def terminal_entry(
    lexicon: Lexicon,
    terminal: str,
    categories: Sequence[str],
    rename: Mapping[str, str] | None = None,
) -> dict[str, object]:
    """The sidecar entry of ``terminal``: the words of its ``lexicon.irtg`` categories (which
    must agree), each renamed as ``rename`` says, with Zipf(1.4) or the explicit weights."""
    found = [lexicon.categories[name] for name in categories]
    if any(category != found[0] for category in found):
        raise GrammarError(f"lexicon.irtg: the categories {categories} of {terminal} differ.")
    renamed = rename or {}
    entry: dict[str, object] = {"words": [renamed.get(word, word) for word in found[0].words]}
    if found[0].zipf:
        entry["zipf"] = ZIPF_A
    else:
        entry["weights"] = list(found[0].weights)
    return entry


def _unergative_lemmas(lexicon: Lexicon) -> list[str]:
    """SLOG lists no infinitives of the unergatives; COGS's primitives need them."""
    return [lexicon.lemmas[word] for word in lexicon.categories["V_unerg"].words]


def lemmas(lexicon: Lexicon) -> dict[str, str]:
    """Every inflected verb form of the grammar with its lemma (for the semantics)."""
    table = {
        LENDED[1] if form == LENDED[0] else form: lemma for form, lemma in lexicon.lemmas.items()
    }
    table.update(COGS_LEMMAS)
    return dict(sorted(table.items()))


def lark_text() -> str:
    """The grammar text (rules as above, one pattern terminal per lexical class)."""
    terminals = "\n".join(f"{name}: /[A-Za-z]+/" for name in [*TERMINALS, "V_UNERGATIVE_LEMMA"])
    primitives = "\n           | ".join(f"{t} -> {a}" for a, t in PRIMITIVES.items())
    return LARK.format(source=SOURCE, terminals=terminals, primitives=primitives)


def _toml_value(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


def lexicon_lines(entries: Mapping[str, Mapping[str, object]]) -> list[str]:
    """The sidecar's ``[lexicon]`` lines, one per terminal."""
    lines = []
    for terminal, entry in entries.items():
        body = ", ".join(f"{key} = {_toml_value(value)}" for key, value in entry.items())
        lines.append(f"{terminal} = {{ {body} }}")
    return lines


def alto_lines(depth_note: Sequence[str]) -> list[str]:
    """The sidecar's ``[constraints]`` and ``[depths.*]``: Alto's rejections (no noun twice) and
    COGS's PP and CP depth caps (2), ``depth_note`` the comment above the caps."""
    nouns = ["N_ANIMATE", "N_INANIMATE", "N_PROPER", "N_ON", "N_IN", "N_BESIDE"]
    return [
        "",
        "# Alto's CogsCorpusGenerator skips a sentence that uses one noun twice",
        "[constraints]",
        f"distinct = {{ nouns = {_toml_value(nouns)} }}",
        "",
        *depth_note,
        "[depths.pp]",
        'aliases = ["pp_on", "pp_in", "pp_beside"]',
        "max = 2",
        "",
        "[depths.cp]",
        'aliases = ["clausal_complement"]',
        "max = 2",
    ]


def sidecar_text(tables: Mapping[str, dict[str, float]], lexicon: Lexicon) -> str:
    """The sidecar: main weights, lexicons, constraints, depth caps and the gen tables."""
    main = tables["main"]
    lines = [
        f"# COGS: written by symcomp.languages.cogs.make_grammar from {SOURCE}",
        "# (MIT licence); do not edit by hand. Weights are the IRTG rule probabilities",
        "# multiplied along the rule paths each Lark alternative stands for.",
        "[language]",
        f'version = "{VERSION}"',
        'description = "COGS sentences to logical forms (Kim & Linzen 2020)"',
        "words_in_several_classes = true",
        "",
        "[weights]",
        *(f"{alias} = {weight!r}" for alias, weight in main.items()),
        "",
        "[lexicon]",
    ]
    lines += lexicon_lines(terminal_entries(lexicon))
    lines += alto_lines(
        ["# PP and CP depth as Alto's CogsCorpusGenerator counts them; COGS keeps both <= 2"]
    )
    for name, weights in tables.items():
        if name == "main":
            continue
        changed = {alias: w for alias, w in weights.items() if w != main[alias]}
        lines += ["", f"[tables.{name}]", f'description = "{TABLES[name]}"']
        if name.endswith("_recursion"):
            kind = name.split("_")[0]
            lines.append(f"depths = {{ {kind} = {{ min = 3, max = 12 }} }}")
        lines += [f"[tables.{name}.weights]", *(f"{a} = {w!r}" for a, w in changed.items())]
    return "\n".join(lines) + "\n"


def write(irtg_dir: Path, out_dir: Path) -> list[Path]:
    """Read the IRTG files in ``irtg_dir``; write the grammar, sidecar and lemmas to
    ``out_dir``; return the paths written."""
    _paths()
    lexicon = read_lexicon(read_irtg_file(irtg_dir / "lexicon.irtg"))
    tables = {}
    for name, filename in TABLES.items():
        rules = read_rules(read_irtg_file(irtg_dir / filename))
        if name == "main":
            check_same(rules, filename)
        rules = with_cogs_weights(rules, filename, strict=name == "main")
        tables[name] = alias_weights(rules)
    outputs = {
        out_dir / "cogs.lark": lark_text(),
        out_dir / "cogs.toml": sidecar_text(tables, lexicon),
        out_dir / "cogs.lemmas.json": json.dumps(lemmas(lexicon), indent=1) + "\n",
    }
    return write_files(outputs)


def main(argv: Sequence[str]) -> None:
    """``python -m symcomp.languages.cogs.make_grammar IRTG_DIR [OUT_DIR]`` (default OUT_DIR:
    the repository's ``grammars/``)."""
    run_script(argv, write, __doc__)


def run_script(
    argv: Sequence[str], write: Callable[[Path, Path], list[Path]], doc: str | None
) -> None:
    """A grammar-writing script's command line: ``IRTG_DIR [OUT_DIR]`` (default OUT_DIR: the
    repository's ``grammars/``), each file written logged."""
    if len(argv) not in (1, 2):
        raise SystemExit(doc.split("\n\n")[1] if doc else "IRTG_DIR [OUT_DIR]")
    out = Path(argv[1]) if len(argv) == 2 else Path(__file__).parents[3] / "grammars"
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    try:
        written = write(Path(argv[0]), out)
    except SymcompError as error:  # a wrong folder or a changed source: the message, exit 2
        LOG.error("error: %s", error)
        raise SystemExit(2) from None
    for path in written:
        LOG.info("wrote %s", path)


def write_files(outputs: Mapping[Path, str]) -> list[Path]:
    """Write each text to its path (UTF-8); the paths written."""
    for path, text in outputs.items():
        path.write_text(text, encoding="utf-8")
    return list(outputs)


if __name__ == "__main__":
    main(sys.argv[1:])
