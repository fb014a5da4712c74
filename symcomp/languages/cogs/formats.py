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
from symcomp.languages.cogs.meaning import Conjunct, Phrase, Ref, ordered_conjuncts

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
        f"* {noun.lower()} ( x _ {position} ) ; "
        for position, noun, how in sorted(meaning.mentions)
        if how == "definite"
    )
    body = " AND ".join(
        f"{_predicate(c)} ( {c.render_args()} )" for c in ordered_conjuncts(meaning)
    )
    return prefix + body


def _entity(position: int, word: str, how: str) -> str:
    if how == "name":
        return f"{word} ( {position} )"
    star = "* " if how == "definite" else ""
    return f"{star}{word.lower()} ( {position} )"


def recogs_positional(meaning: Phrase) -> str:
    """ReCOGS with positional indices: entities first, then events with their roles."""
    if meaning.kind != "event":
        return _cogs_primitive(meaning)
    names = {word: position for position, word, how in meaning.mentions if how == "name"}
    entities = [_entity(position, word, how) for position, word, how in sorted(meaning.mentions)]
    body: list[str] = []
    events: set[int] = set()
    for conjunct in ordered_conjuncts(meaning):
        if not conjunct.role:
            continue
        args = " , ".join(
            str(names.get(a, a)) if isinstance(a, str) else str(a) for a in conjunct.args
        )
        if conjunct.role.startswith("nmod"):
            body.append(f"{conjunct.role} ( {args} )")
            continue
        if conjunct.anchor not in events:
            events.add(conjunct.anchor)
            body.append(f"{conjunct.lemma} ( {conjunct.anchor} )")
        body.append(f"{conjunct.role} ( {args} )")
    return " ; ".join(entities) + " ; " + " AND ".join(body) if entities else " AND ".join(body)


def varfree(meaning: Phrase) -> str:
    """The variable-free form: one nested term from the main verb."""
    if meaning.kind not in ("event", "np"):  # "np": a row of one noun phrase (SLOG)
        return meaning.lemma
    roles: dict[int, list[tuple[str, Ref]]] = {}
    nmods: dict[int, list[tuple[str, Ref]]] = {}
    for conjunct in meaning.conjuncts:
        if conjunct.role.startswith("nmod"):
            nmods.setdefault(conjunct.anchor, []).append((conjunct.role, conjunct.args[1]))
        elif conjunct.role:
            roles.setdefault(conjunct.anchor, []).append((conjunct.role, conjunct.args[1]))
    lemmas = {
        c.anchor: c.lemma for c in meaning.conjuncts if c.role and not c.role.startswith("nmod")
    }
    nouns = {position: (word, how) for position, word, how in meaning.mentions}

    def term(ref: Ref, around: frozenset[int]) -> str:
        if isinstance(ref, str):
            return ref
        if ref in roles:
            inner = " , ".join(f"{role} = {term(arg, around)}" for role, arg in roles[ref])
            return f"{lemmas[ref]} ( {inner} )"
        word, how = nouns[ref]
        text = f"* {word}" if how == "definite" else word
        # a noun inside its own modifier (a relative clause's gap, SLOG) is the bare noun
        if ref in nmods and ref not in around:
            inside = around | {ref}
            inner = " , ".join(f"{role} = {term(arg, inside)}" for role, arg in nmods[ref])
            text = f"{text} ( {inner} )"
        return text

    return term(int(meaning.head), frozenset())


RENDERERS: dict[str, Callable[[Phrase], str]] = {
    "cogs": cogs,
    "recogs_positional_index": recogs_positional,
    "varfree": varfree,
}
