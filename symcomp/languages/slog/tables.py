"""SLOG's IRTG grammars as rule tables to draw from (``grammars/slog.tables.json``).

SLOG built every part of its data with Alto from one IRTG grammar per part
(``generation_scripts/grammars/``, MIT licence). Those grammars are not weight tables over one
grammar: each names its own nonterminals per context (``VP_RC_agent`` inside a relative clause,
``C_VP_external`` inside a clause a relative clause embeds, ``VP_main_anim_subj`` in the main
clause), with their own weights, and ``slog.lark`` writes each of those contexts with one rule
(``vp_external``). Weights on ``slog.lark``'s alternatives could only give the average over
contexts, so symcomp draws a part's sentences from its IRTG rules (:data:`GRAMMARS`) as Alto
did, and parses them with ``slog.lark`` for their tree and logical form.

:func:`tables_text` writes, per table, every rule ``LHS -> RHS`` with its weight (a rule
written twice with two meanings, as in ``RC_modifying_dobj_NP_main``, counts twice: Alto
draws either), and per preterminal where its words come from: a ``slog.lark`` terminal (the
words and Zipf weights of the sidecar's lexicon) or the fixed words of ``lexicon.irtg``.
Three parts of SLOG's train have no grammar in the repository (:data:`HAND`): their rules are
written here, read off the shape of SLOG's train rows.

>>> table = rule_table([("S", ("NP", "VP"), 0.5), ("S", ("NP", "VP"), 0.5), ("NP", ("N",), 1)])
>>> table
{'S': [[1.0, 'NP VP']], 'NP': [[1.0, 'N']]}
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from symcomp.errors import GrammarError
from symcomp.languages.cogs import make_grammar as cogs_grammar
from symcomp.languages.cogs.irtg import Lexicon, read_irtg_file, read_rules, rule_list
from symcomp.languages.cogs.make_grammar import TERMINALS, with_cogs_weights

# rule table <- SLOG's IRTG grammar (main: COGS's in-distribution sentences, with COGS's weights)
GRAMMARS: dict[str, str] = {
    "main": "main-grammar.irtg",
    "object_rc": "RC_modifying_dobj_NP_main-grammar.irtg",
    "pp_recursion": "recursion_pp_gen-grammar.irtg",
    "cp_recursion": "recursion_cp_gen-grammar.irtg",
    "center_embedding": "recursion_center_embedding_grammar.irtg",
    "pp_modif_iobj": "PP_modifying_iobj_NP_gen-grammar.irtg",
    "pp_modif_subj": "PP_modifying_subject_NP_gen-grammar.irtg",
    "rc_iobj_extracted": "RC_iobj_extracted_in_objectNP_gen-grammar.irtg",
    "rc_modif_iobj": "RC_modifying_iobj_NP_gen-grammar.irtg",
    "rc_modif_subj": "RC_modifying_subject_NP_gen-grammar.irtg",
    "q_dobj_ditransitive": "wh_Q_dobj_ditransV_gen-grammar.irtg",
    "q_iobj_ditransitive": "wh_Q_iobj_ditransV_gen-grammar.irtg",
    "q_long_movement": "wh_Q_obj_long_mv_grammar.irtg",
    "q_modified_nps": "wh_Q_PP_RC_modif_NP_gen-grammar.irtg",
    "q_subj_active": "wh_Q_subj_unseen_active_v_gen-grammar.irtg",
    "q_subj_passive": "wh_Q_subj_passive_gen-grammar.irtg",
}

Rules = list[tuple[str, tuple[str, ...], float]]

# Parts of SLOG's train that no grammar in the repository draws: (base table, added rules; the
# added start rules replace the base's). Standalone noun phrases: a common noun with one PP
# (every published row has PP depth 1), or with a relative clause as the object-RC grammar
# draws it. Simple wh-questions: `Who` as the agent of a transitive verb with an unmodified
# object, or `Who`/`What` as its theme under do-support; the three shares are those of SLOG's
# 2,328 train rows (698 / 598 / 1,032), the other weights SLOG's usual halves and thirds.
_VERBS = ("V_unacc", "V_trans_omissible", "V_trans_not_omissible")
HAND: dict[str, tuple[str, Rules]] = {
    "standalone_pp": (
        "main",
        [
            ("S", ("Det", "N_common_animate_dobj", "PP_loc"), 0.5),
            ("S", ("Det", "N_common_inanimate_dobj", "PP_loc"), 0.5),
        ],
    ),
    "standalone_rc": (
        "object_rc",
        [
            ("S", ("NP_animate_dobj_RC_modified",), 0.5),
            ("S", ("NP_inanimate_dobj_RC_modified",), 0.5),
        ],
    ),
    "wh_simple": (
        "main",
        [
            ("S", ("WHO", "V_Q_agent", "NP_Q_object"), 0.3),
            ("S", ("WHO", "AUX_did", "NP_animate_nsubj", "V_Q_lemma"), 0.25),
            ("S", ("WHAT", "AUX_did", "NP_animate_nsubj", "V_Q_lemma"), 0.45),
            *(("V_Q_agent", (verb,), 1 / 3) for verb in _VERBS),
            *(("V_Q_lemma", (f"{verb}_inf",), 1 / 3) for verb in _VERBS),
            ("NP_Q_object", ("NP_inanimate_dobj_noPP",), 0.5),
            ("NP_Q_object", ("NP_animate_dobj_noPP",), 0.5),
        ],
    ),
}

# Alto's depth measures: how many rules with one of these preterminals lie on a path
MARKERS: dict[str, tuple[str, ...]] = {
    "pp": ("P_on", "P_in", "P_beside"),
    "cp": ("C",),
    "cemb": ("Rel_pron",),
}

# preterminals whose words are a slog.lark terminal's (SLOG_TERMINALS: the do-support lemmas)
SLOG_TERMINALS: dict[str, tuple[str, ...]] = {
    "V_DATIVE_LEMMA": ("V_dat_inf",),
    "V_CP_TAKING_LEMMA": ("V_cp_taking_inf",),
}


def rule_table(rules: Iterable[tuple[str, tuple[str, ...], float]]) -> dict[str, list[list[Any]]]:
    """``{lhs: [[weight, "RHS1 RHS2"], ...]}`` in file order; a rule listed twice sums."""
    table: dict[str, dict[str, float]] = {}
    for lhs, rhs, weight in rules:
        alternatives = table.setdefault(lhs, {})
        key = " ".join(rhs)
        alternatives[key] = alternatives.get(key, 0.0) + float(weight)
    return {lhs: [[w, rhs] for rhs, w in alts.items()] for lhs, alts in table.items()}


def grammar_rules(irtg_dir: Path, name: str) -> Rules:
    """The rules of one table's grammar; the main grammar with COGS's weights
    (:data:`symcomp.languages.cogs.make_grammar.COGS_WEIGHTS`: SLOG's train holds COGS's)."""
    filename = GRAMMARS[name]
    text = read_irtg_file(irtg_dir / filename)
    rules = rule_list(text)
    if name != "main":
        return rules
    corrected = with_cogs_weights(read_rules(text), filename)
    return [(lhs, rhs, corrected[f"{lhs} -> {' '.join(rhs)}".strip()]) for lhs, rhs, _ in rules]


def all_tables(irtg_dir: Path) -> dict[str, Rules]:
    """Every table's rules: the grammars' and the hand-written parts'."""
    tables = {name: grammar_rules(irtg_dir, name) for name in GRAMMARS}
    for name, (base, added) in HAND.items():
        replaced = {lhs for lhs, _, _ in added}
        kept = [rule for rule in tables[base] if rule[0] not in replaced]
        tables[name] = [*kept, *added]
    return tables


def word_sources(lexicon: Lexicon, used: Iterable[str]) -> dict[str, dict[str, Any]]:
    """Per preterminal: ``{"terminal": T}`` (a slog.lark terminal's words and weights) or
    ``{"words": [...], "weights": [...]}`` (fixed words of ``lexicon.irtg``)."""
    terminal_of = {
        category: terminal
        for terminal, categories in {**TERMINALS, **SLOG_TERMINALS}.items()
        for category in categories
    }
    sources: dict[str, dict[str, Any]] = {}
    for category in sorted(set(used)):
        if category in terminal_of:
            sources[category] = {"terminal": terminal_of[category]}
            continue
        found = lexicon.categories.get(category)
        if found is None or found.zipf:
            raise GrammarError(f"lexicon.irtg: no words for the preterminal {category!r}.")
        sources[category] = {"words": list(found.words), "weights": list(found.weights)}
    return sources


def preterminals(tables: Mapping[str, Rules]) -> set[str]:
    """The symbols of the tables that no rule rewrites (their words come from the lexicon)."""
    found = set()
    for rules in tables.values():
        left = {lhs for lhs, _, _ in rules}
        found |= {symbol for _, rhs, _ in rules for symbol in rhs if symbol not in left}
    return found


def tables_text(irtg_dir: Path, lexicon: Lexicon, source: str) -> str:
    """``slog.tables.json``: the source, depth markers, word sources and rule tables."""
    tables = all_tables(irtg_dir)
    data = {
        "source": source,
        "start": "S",
        "markers": MARKERS,
        "words": word_sources(lexicon, preterminals(tables)),
        "tables": {name: rule_table(rules) for name, rules in tables.items()},
    }
    return json.dumps(data, indent=1) + "\n"


# slog.lark's rules around COGS's: their one alternative drawn in the main table, and the
# by-phrase agent, drawn as COGS draws a subject
WRAPPERS = {"iobj_np": 1.0, "theme_np": 1.0, "pp_iobj_plain_np": 1.0, "declarative": 1.0}
AGENT = {"agent_common": "nsubj_common", "agent_proper": "nsubj_proper"}
AGENT["agent_common_pp"] = "nsubj_common_pp"
STARTS = {"interrogative": 0.0, "standalone_row": 0.0, "primitive_row": 0.0}


def rule_aliases(lark: str) -> dict[str, list[str]]:
    """Each rule of a Lark grammar text with the aliases of its alternatives, in order.

    >>> rule_aliases('!a: "x" -> one\\n   | "y" -> two\\n!b: a -> three\\n')
    {'a': ['one', 'two'], 'b': ['three']}
    """
    rules: dict[str, list[str]] = {}
    current = ""
    for line in lark.splitlines():
        head = re.match(r"^!?(\w+):", line)
        if head:
            current = head.group(1)
        if current and "->" in line:
            rules.setdefault(current, []).extend(re.findall(r"-> (\w+)", line))
    return rules


def main_weights(irtg_dir: Path, lark: str) -> dict[str, float]:
    """The sidecar's main table: COGS's weights (``main-grammar.irtg`` through
    ``cogs.make_grammar``'s rule paths, with COGS's corrections) on the alternatives that
    ``slog.lark`` shares with ``cogs.lark``, so the Lark sampler draws COGS's in-distribution
    sentences; SLOG's own constructions are 0 there (their tables are the IRTG grammars).
    """
    if not cogs_grammar.PATHS:
        cogs_grammar._paths()  # fills the module's PATHS once
    filename = GRAMMARS["main"]
    rules = with_cogs_weights(read_rules(read_irtg_file(irtg_dir / filename)), filename)
    cogs = cogs_grammar.alias_weights(rules)
    known = {**cogs, **WRAPPERS, **{a: cogs[s] for a, s in AGENT.items()}, **STARTS}
    weights = {}
    for aliases in rule_aliases(lark).values():
        if any(alias in known for alias in aliases):  # the rule is weighted: every alternative
            weights.update({alias: known.get(alias, 0.0) for alias in aliases})
    return weights
