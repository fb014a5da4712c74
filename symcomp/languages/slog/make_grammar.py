"""Write ``grammars/slog.lark``, ``grammars/slog.toml`` and ``grammars/slog.lemmas.json`` from
SLOG's IRTG grammars (``bingzhilee/SLOG`` at 1c55df85006d58b842520c79dcb8e1b43df2836f,
``generation_scripts/grammars/``, MIT licence)::

    python -m symcomp.languages.slog.make_grammar PATH/TO/SLOG/generation_scripts/grammars [OUT]

SLOG (Li et al. 2023) is the COGS grammar with relative clauses, wh-questions and deeper
recursion, one IRTG file per generalisation case. ``slog.lark`` is their union written for an
LALR(1) parser: the COGS clauses of ``cogs.lark`` (the same rule names), plus relative clauses
(``that`` and a clause with one gap: the head noun fills the gap's role) on the noun phrases
SLOG modifies, and questions (``Who``/``What`` as an argument, do-support with the bare verb,
the question mark). Each alternative names in its semantics (:mod:`.semantics`) the order of
its verb's roles as the IRTG rule composes them (the variable-free form's order, which COGS's
logical form keeps), so a role follows the argument's underlying position, not where the
filler surfaces.

The words are ``lexicon.irtg``'s (read with :func:`symcomp.languages.cogs.irtg.read_lexicon`),
Zipf(1.4) over list order, with SLOG's spelling ``lent``; COGS's generalisation targets (in
SLOG's train through COGS's exposure rows) are ``unsampled`` words. The sidecar's main table
is COGS's weights on the alternatives ``slog.lark`` shares with ``cogs.lark`` (SLOG's own at 0);
SLOG's parts and gen cases are drawn from their IRTG grammars' rules, which
:mod:`symcomp.languages.slog.tables` writes to ``slog.tables.json`` (why not weight tables over
``slog.lark``: that module's docstring).
"""

from __future__ import annotations

import json
import logging
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from symcomp.languages.cogs.irtg import Lexicon, read_irtg_file, read_lexicon
from symcomp.languages.cogs.make_grammar import (
    COGS_LEMMAS,
    COGS_WORDS,
    TERMINALS,
    alto_lines,
    lexicon_lines,
    run_script,
    terminal_entry,
    write_files,
)
from symcomp.languages.slog.tables import SLOG_TERMINALS, main_weights, tables_text

LOG = logging.getLogger(__name__)
VERSION = "0.3.0"
SOURCE = "bingzhilee/SLOG@1c55df85006d58b842520c79dcb8e1b43df2836f generation_scripts/grammars"


LARK = """\
// SLOG (Li et al. 2023) as an LALR(1) grammar: written by symcomp.languages.slog.make_grammar
// from SLOG's IRTG grammars ({source}, MIT licence); do not edit by hand. Every rule keeps its
// tokens (`!`): the semantics counts token positions.
!start: sentence "." -> declarative
      | question "?" -> interrogative
      | np_row -> standalone_row
      | primitive -> primitive_row

!primitive: {primitives}

// SLOG's standalone noun phrases (train): lower-case determiner, no full stop
!np_row: DET N_ANIMATE pp -> row_animate_pp
       | DET N_INANIMATE pp -> row_inanimate_pp
       | DET N_ANIMATE rc -> row_animate_rc
       | DET N_INANIMATE rc -> row_inanimate_rc

// clauses (as cogs.lark; subjects may carry a relative clause)
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
            | V_DATIVE iobj_plain theme -> double_object_dative
            | V_DATIVE DET N_ANIMATE pp theme -> double_object_iobj_pp
            | V_DATIVE DET N_ANIMATE rc_t -> double_object_iobj_rc
            | V_CP_TAKING "that" sentence -> clausal_complement

!vp_passive: "was" V_TRANSITIVE_PP -> passive_transitive
           | "was" V_TRANSITIVE_PP "by" agent -> passive_transitive_by
           | "was" V_OMISSIBLE_PP -> passive_omissible
           | "was" V_OMISSIBLE_PP "by" agent -> passive_omissible_by
           | "was" V_UNACCUSATIVE_PP -> passive_unaccusative
           | "was" V_UNACCUSATIVE_PP "by" agent -> passive_unaccusative_by
           | "was" V_DATIVE_PP pp_iobj -> passive_dative
           | "was" V_DATIVE_PP pp_iobj_plain "by" agent -> passive_dative_by
           | "was" V_DATIVE_PP "to" DET N_ANIMATE rc_b -> passive_dative_iobj_rc_by

!vp_passive_dative: "was" V_DATIVE_PP theme -> passive_recipient
                  | "was" V_DATIVE_PP theme_plain "by" agent -> passive_recipient_by
                  | "was" V_DATIVE_PP DET N_INANIMATE rc_b -> passive_recipient_theme_rc_by

// relative clauses: `that` and a clause with a gap; the head noun fills the gap's role
!rc: "that" vp_external -> rc_agent
   | "that" V_UNACCUSATIVE -> rc_unaccusative
   | "that" vp_passive -> rc_passive
   | "that" vp_passive_dative -> rc_passive_recipient
   | "that" nsubj V_TRANSITIVE -> rc_theme_transitive
   | "that" nsubj V_OMISSIBLE -> rc_theme_omissible
   | "that" nsubj V_UNACCUSATIVE -> rc_theme_unaccusative
   | "that" nsubj V_DATIVE pp_iobj_plain -> rc_theme_pp_dative
   | "that" nsubj V_DATIVE iobj_plain -> rc_theme_double_object
   | "that" nsubj V_DATIVE theme_plain "to" -> rc_recipient

// a relative clause on a double-object recipient, and the theme after it: each `_t` rule is
// the rule without `_t` with a theme at its right edge (`gave a girl that rolled a cake`: the
// cake is the theme; LALR(1) cannot wait for the clause's end to see whether a theme follows);
// `_b`: a by-phrase of the outer passive at the right edge of a relative clause
{twins}
!by_agent: "by" agent

!theme_last: DET N_INANIMATE -> theme_last_common
           | DET N_INANIMATE pp -> theme_last_common_pp

// questions: the wh-word is an argument; do-support takes the bare verb
!question: wh vp_external -> wh_agent
         | wh V_UNACCUSATIVE -> wh_unaccusative
         | wh vp_passive -> wh_passive
         | wh vp_passive_dative -> wh_passive_recipient
         | wh "did" nsubj lemma_transitive -> wh_theme
         | wh "did" nsubj V_DATIVE_LEMMA iobj_plain -> wh_theme_double_object
         | wh "did" nsubj V_DATIVE_LEMMA pp_iobj -> wh_theme_pp_dative
         | wh "did" nsubj V_DATIVE_LEMMA theme "to" -> wh_recipient
         | wh "did" nsubj V_CP_TAKING_LEMMA "that" wh_clause -> wh_long

!wh_clause: nsubj verb_transitive -> wh_clause_theme
          | nsubj V_CP_TAKING "that" wh_clause -> wh_clause_complement

!wh: "Who" -> who
   | "What" -> what

!lemma_transitive: V_TRANSITIVE_LEMMA -> lemma_transitive_plain
                 | V_OMISSIBLE_LEMMA -> lemma_omissible
                 | V_UNACCUSATIVE_LEMMA -> lemma_unaccusative

!verb_transitive: V_TRANSITIVE -> verb_transitive_plain
                | V_OMISSIBLE -> verb_omissible
                | V_UNACCUSATIVE -> verb_unaccusative

// noun phrases, one rule per surface context (`_pp`: a PP, `_rc`: a relative clause)
!nsubj: DET N_ANIMATE -> nsubj_common
      | N_PROPER -> nsubj_proper
      | DET N_ANIMATE pp -> nsubj_common_pp
      | DET N_ANIMATE rc -> nsubj_common_rc

!agent: DET N_ANIMATE -> agent_common
      | N_PROPER -> agent_proper
      | DET N_ANIMATE pp -> agent_common_pp

!nsubjpass: DET N_ANIMATE -> nsubjpass_common
          | N_PROPER -> nsubjpass_proper
          | DET N_ANIMATE pp -> nsubjpass_common_pp
          | DET N_ANIMATE rc -> nsubjpass_common_rc

!nsubjpass_inanimate: DET N_INANIMATE -> nsubjpass_inanimate_common
                    | DET N_INANIMATE pp -> nsubjpass_inanimate_common_pp
                    | DET N_INANIMATE rc -> nsubjpass_inanimate_common_rc

!unacc_subject: DET N_INANIMATE -> unacc_subject_common
              | DET N_INANIMATE pp -> unacc_subject_common_pp
              | DET N_INANIMATE rc -> unacc_subject_common_rc

!iobj: iobj_plain -> iobj_np
     | DET N_ANIMATE pp -> iobj_common_pp
     | DET N_ANIMATE rc -> iobj_common_rc

!iobj_plain: DET N_ANIMATE -> iobj_common
           | N_PROPER -> iobj_proper

!object: object_inanimate -> object_inanimate_np
       | object_animate -> object_animate_np

!object_inanimate: DET N_INANIMATE -> inanimate_common
                 | DET N_INANIMATE pp -> inanimate_common_pp
                 | DET N_INANIMATE rc -> inanimate_common_rc

!object_animate: DET N_ANIMATE -> animate_common
               | DET N_ANIMATE pp -> animate_common_pp
               | DET N_ANIMATE rc -> animate_common_rc
               | N_PROPER -> animate_proper

!theme: theme_plain -> theme_np
      | DET N_INANIMATE rc -> theme_common_rc

!theme_plain: DET N_INANIMATE -> theme_common
            | DET N_INANIMATE pp -> theme_common_pp

!pp_iobj: "to" iobj
!pp_iobj_plain: "to" iobj_plain -> pp_iobj_plain_np
              | "to" DET N_ANIMATE pp -> pp_iobj_common_pp

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

PRIMITIVES = {
    "primitive_animate": "N_ANIMATE",
    "primitive_inanimate": "N_INANIMATE",
    "primitive_proper": "N_PROPER",
    "primitive_omissible": "V_OMISSIBLE_LEMMA",
    "primitive_transitive": "V_TRANSITIVE_LEMMA",
    "primitive_unaccusative": "V_UNACCUSATIVE_LEMMA",
    "primitive_unergative": "V_UNERGATIVE_LEMMA",
    "primitive_dative": "V_DATIVE_LEMMA",
    "primitive_cp_taking": "V_CP_PRIMITIVE",
}


def terminal_entries(lexicon: Lexicon) -> dict[str, dict[str, object]]:
    """The sidecar's [lexicon]: SLOG's words (``lent``), Zipf or explicit weights, and COGS's
    targets as unsampled words (SLOG's train holds COGS's exposure rows)."""
    entries = {
        terminal: terminal_entry(lexicon, terminal, categories)
        for terminal, categories in {**TERMINALS, **SLOG_TERMINALS}.items()
    }
    unergatives = lexicon.categories["V_unerg"].words
    entries["V_UNERGATIVE_LEMMA"] = {"words": [lexicon.lemmas[word] for word in unergatives]}
    for terminal, targets in COGS_WORDS.items():
        entries[terminal]["unsampled"] = list(targets)
    # a primitive row is one word: a clause-taking verb that is also transitive (`like`) is
    # read as the transitive verb, so the primitive class keeps only the others
    others = {w for t in ("V_OMISSIBLE_LEMMA", "V_TRANSITIVE_LEMMA") for w in _words(entries[t])}
    cp = [w for w in _words(entries["V_CP_TAKING_LEMMA"]) if w not in others]
    entries["V_CP_PRIMITIVE"] = {"words": cp}
    return entries


def _words(entry: dict[str, object]) -> list[str]:
    words = entry["words"]
    assert isinstance(words, list)
    return [str(word) for word in words]


def lemmas(lexicon: Lexicon) -> dict[str, str]:
    """Every inflected verb form with its lemma (SLOG's table and COGS's targets)."""
    table = dict(lexicon.lemmas)
    table.update({form: lemma for form, lemma in COGS_LEMMAS.items() if form != "lended"})
    return dict(sorted(table.items()))


TWIN_RULES: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = (
    (
        "rc",
        (
            ('"that" vp{s}', "rc_agent"),
            ('"that" V_UNACCUSATIVE {last}', "rc_unaccusative"),
            ('"that" vp_passive{s}', "rc_passive"),
            ('"that" vp_passive_dative{s}', "rc_passive_recipient"),
            ('"that" nsubj V_TRANSITIVE {last}', "rc_theme_transitive"),
            ('"that" nsubj V_OMISSIBLE {last}', "rc_theme_omissible"),
            ('"that" nsubj V_UNACCUSATIVE {last}', "rc_theme_unaccusative"),
            ('"that" nsubj V_DATIVE pp_iobj_plain {last}', "rc_theme_pp_dative"),
            ('"that" nsubj V_DATIVE iobj_plain {last}', "rc_theme_double_object"),
            ('"that" nsubj V_DATIVE theme_plain "to" {last}', "rc_recipient"),
        ),
    ),
    (
        "vp",
        (
            ("V_UNERGATIVE {last}", "unergative"),
            ("V_UNACCUSATIVE object{s}", "unaccusative_transitive"),
            ("V_OMISSIBLE {last}", "omitted_object"),
            ("V_OMISSIBLE object{s}", "omissible_transitive"),
            ("V_TRANSITIVE object{s}", "transitive"),
            ('V_INF_TAKING "to" V_INF {last}', "infinitival"),
            ("V_DATIVE theme pp_iobj_plain{s}", "pp_dative"),
            ("V_DATIVE iobj_plain theme_plain {last}", "double_object_dative"),
            ('V_CP_TAKING "that" sentence{s}', "clausal_complement"),
        ),
    ),
    (
        "sentence",
        (
            ("nsubj vp{s}", "agent_clause"),
            ("unacc_subject V_UNACCUSATIVE {last}", "unaccusative_inanimate"),
            ("nsubj V_UNACCUSATIVE {last}", "unaccusative_animate"),
            ("nsubjpass_inanimate vp_passive{s}", "passive_clause"),
            ("nsubjpass vp_passive_dative{s}", "passive_dative_clause"),
        ),
    ),
    (
        "vp_passive",
        (
            ('"was" V_TRANSITIVE_PP {last}', "passive_transitive"),
            ('"was" V_TRANSITIVE_PP "by" agent {last}', "passive_transitive_by"),
            ('"was" V_OMISSIBLE_PP {last}', "passive_omissible"),
            ('"was" V_OMISSIBLE_PP "by" agent {last}', "passive_omissible_by"),
            ('"was" V_UNACCUSATIVE_PP {last}', "passive_unaccusative"),
            ('"was" V_UNACCUSATIVE_PP "by" agent {last}', "passive_unaccusative_by"),
            ('"was" V_DATIVE_PP pp_iobj_plain{s}', "passive_dative"),
            ('"was" V_DATIVE_PP pp_iobj_plain "by" agent {last}', "passive_dative_by"),
        ),
    ),
    (
        "vp_passive_dative",
        (
            ('"was" V_DATIVE_PP theme_plain {last}', "passive_recipient"),
            ('"was" V_DATIVE_PP theme_plain "by" agent {last}', "passive_recipient_by"),
        ),
    ),
    (
        "pp_iobj_plain",
        (
            ('"to" iobj_plain {last}', "pp_iobj_plain_np"),
            ('"to" DET N_ANIMATE pp {last}', "pp_iobj_common_pp"),
        ),
    ),
    (
        "object",
        (
            ("DET N_INANIMATE {last}", "inanimate_common"),
            ("DET N_INANIMATE pp {last}", "inanimate_common_pp"),
            ("DET N_ANIMATE {last}", "animate_common"),
            ("DET N_ANIMATE pp {last}", "animate_common_pp"),
            ("N_PROPER {last}", "animate_proper"),
        ),
    ),
)
# the `_b` twins (a by-phrase at the right edge) leave out the passives without `by`: `was
# held by Emma` is their `_by` rule, so the by-phrase goes to the inner verb
WITHOUT_BY = frozenset(
    {
        "passive_transitive",
        "passive_omissible",
        "passive_unaccusative",
        "passive_dative",
        "passive_recipient",
    }
)


def twins(suffix: str, last: str, skip: frozenset[str] = frozenset()) -> str:
    """The ``_t`` or ``_b`` rules: each rule of :data:`TWIN_RULES` with ``last`` at its right
    edge, the alternatives named in ``skip`` left out."""
    rules = []
    for name, alternatives in TWIN_RULES:
        kept = [(rhs, alias) for rhs, alias in alternatives if alias not in skip]
        lines = [f"{rhs.format(s=suffix, last=last)} -> {alias}{suffix}" for rhs, alias in kept]
        rules.append(f"!{name}{suffix}: " + "\n    | ".join(lines))
    return "\n\n".join(rules) + "\n"


def lark_text(terminals: Sequence[str]) -> str:
    """The grammar text (rules as above, one pattern terminal per lexical class)."""
    lines = "\n".join(f"{name}: /[A-Za-z]+/" for name in terminals)
    primitives = "\n           | ".join(f"{t} -> {a}" for a, t in PRIMITIVES.items())
    twin_text = twins("_t", "theme_last") + "\n" + twins("_b", "by_agent", WITHOUT_BY)
    return LARK.format(source=SOURCE, terminals=lines, primitives=primitives, twins=twin_text)


def _toml_value(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


def sidecar_text(entries: dict[str, dict[str, object]], weights: Mapping[str, float]) -> str:
    """The sidecar: the main table (COGS's weights, :func:`.tables.main_weights`), lexicons,
    the no-noun-twice constraint and COGS's depth caps. SLOG's parts and gen cases are drawn
    from their IRTG grammars (``slog.tables.json``), not from weight tables here."""
    lines = [
        f"# SLOG: written by symcomp.languages.slog.make_grammar from {SOURCE}",
        "# (MIT licence); do not edit by hand. The main table is COGS's (main-grammar.irtg's",
        "# rule probabilities multiplied along the rule paths each alternative stands for);",
        "# SLOG's constructions are 0 here: symcomp suite slog draws them from slog.tables.json.",
        "[language]",
        f'version = "{VERSION}"',
        'description = "SLOG sentences and questions to logical forms (Li et al. 2023)"',
        "words_in_several_classes = true",
        "",
        "[weights]",
        *(f"{alias} = {weight!r}" for alias, weight in weights.items()),
        "",
        "[lexicon]",
    ]
    lines += lexicon_lines(entries)
    lines += alto_lines(
        [
            "# PP and CP depth as Alto's CogsCorpusGenerator counts them; the main table keeps"
            " both",
            "# <= 2 (SLOG's README runs Alto with PP and CP depth 0-2)",
        ]
    )
    return "\n".join(lines) + "\n"


def write(irtg_dir: Path, out_dir: Path) -> list[Path]:
    """Read ``lexicon.irtg`` in ``irtg_dir``; write the grammar, sidecar and lemmas to
    ``out_dir``; return the paths written."""
    lexicon = read_lexicon(read_irtg_file(irtg_dir / "lexicon.irtg"))
    entries = terminal_entries(lexicon)
    grammar = lark_text(list(entries))
    weights = main_weights(irtg_dir, grammar)
    outputs = {
        out_dir / "slog.lark": grammar,
        out_dir / "slog.toml": sidecar_text(entries, weights),
        out_dir / "slog.lemmas.json": json.dumps(lemmas(lexicon), indent=1) + "\n",
        out_dir / "slog.tables.json": tables_text(irtg_dir, lexicon, SOURCE),
    }
    return write_files(outputs)


def main(argv: Sequence[str]) -> None:
    """``python -m symcomp.languages.slog.make_grammar IRTG_DIR [OUT_DIR]`` (default OUT_DIR:
    the repository's ``grammars/``)."""
    run_script(argv, write, __doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
