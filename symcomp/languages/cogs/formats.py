"""The output formats of a COGS meaning: COGS's logical form, ReCOGS's positional variant and
the variable-free form.

``cogs`` (Kim & Linzen 2020)
    Definite nouns first, in token order, each ``* noun ( x _ i ) ;``; then every other
    conjunct, anchored at its head token, in token order, joined by ``AND``.
``recogs_positional_index`` (Wu et al. 2023, ``frankaging/ReCOGS``)
    Nouns and names as entity atoms ``noun ( i )`` / ``Emma ( i )`` (definites with ``*``),
    then each event ``verb ( e )`` with its roles as separate atoms ``agent ( e , i )``.
``varfree`` (Qiu et al. 2022, as SLOG writes it)
    One nested term from the main verb: ``verb ( role = argument , ... )``, a noun with its
    modifiers as ``noun ( nmod . on = ... )``, definites marked ``*``.

Primitives are COGS's λ-terms in ``cogs`` and the bare word in the other formats.

>>> from symcomp.languages.cogs.meaning import Phrase
>>> render(Phrase(1, "ball", lemma="ball", kind="noun"), "cogs")
'LAMBDA a . ball ( a )'
"""

from __future__ import annotations

from collections.abc import Callable

from symcomp.errors import DataError
from symcomp.languages.cogs.meaning import Conjunct, Phrase, ordered_conjuncts, ref_text

FORMATS = ("cogs", "recogs_positional_index", "varfree")


def render(meaning: Phrase, output: str) -> str:
    """The text of a meaning in one of :data:`FORMATS`."""
    if output not in RENDERERS:
        raise DataError(f"unknown COGS output format {output!r}; choose from {', '.join(FORMATS)}.")
    return RENDERERS[output](meaning)


def _cogs_primitive(meaning: Phrase) -> str:
    word = meaning.lemma
    if meaning.kind == "noun":
        return f"LAMBDA a . {word} ( a )"
    if meaning.kind == "name":
        return word
    if meaning.kind == "transitive":
        return (
            f"LAMBDA a . LAMBDA b . LAMBDA e . {word} . agent ( e , b ) AND "
            f"{word} . theme ( e , a )"
        )
    role = "theme" if meaning.kind == "unaccusative" else "agent"
    return f"LAMBDA a . LAMBDA e . {word} . {role} ( e , a )"


def _predicate(conjunct: Conjunct) -> str:
    return f"{conjunct.lemma} . {conjunct.role}" if conjunct.role else conjunct.lemma


def cogs(meaning: Phrase) -> str:
    """COGS's logical form."""
    if meaning.kind != "event":
        return _cogs_primitive(meaning)
    prefix = "".join(
        f"* {noun} ( x _ {position} ) ; " for position, noun in sorted(meaning.definites)
    )
    body = " AND ".join(
        f"{_predicate(c)} ( {c.render_args()} )" for c in ordered_conjuncts(meaning)
    )
    return prefix + body


RENDERERS: dict[str, Callable[[Phrase], str]] = {"cogs": cogs}
del ref_text
