"""COGS's targets and the slots they are forced into: the 12 exposure contexts of train and the
18 lexical generalisation cases (Kim & Linzen 2020, Table 1 and appendix).

A slot is a node of a sampled tree (its alias, and the alias of its parent where that matters)
and the word in it; forcing writes the target there, and where the target's class differs from
the slot's (a name as a dative theme) the node takes the alias of the parseable variant, so the
tree stays the parse of its words. A sentence gets its target in its *last* eligible slot (in
token order): a clause embedded under ``that`` holds it only when it is the last such place,
and a subject target stands in the innermost clause (its clause takes no ``that`` clause).

>>> from lark import Tree
>>> subject, verb = Tree("nsubj_common", ["the", "girl"]), Tree("unergative", ["slept"])
>>> tree = Tree("agent_clause", [subject, verb])
>>> force(tree, CASES["obj_to_subj_common"]).children[0].children
['the', 'cockroach']
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from lark import Tree


@dataclass(frozen=True)
class Slot:
    """Where a target may go: a node ``alias`` (under ``parent`` when given, with a sibling
    verb phrase ``sibling`` when given) whose child ``index`` is replaced; ``becomes`` renames
    the node, ``drops`` removes that many children before ``index`` (a determiner)."""

    alias: str
    index: int
    parent: str | None = None
    sibling: str | None = None
    becomes: str | None = None
    drops: int = 0
    unless: str | None = None  # no eligible slot when the parent has a child of this alias
    np: str | None = None  # the whole noun phrase is replaced: "object" or "theme"


@dataclass(frozen=True)
class Case:
    """A target word, the slots it is forced into, and the case's group."""

    target: str
    slots: tuple[Slot, ...]
    group: str = "lexical"
    pair: str | None = None  # another case whose sentences this case reuses, target swapped
    description: str = ""
    embedded: bool = False

    @property
    def require(self) -> frozenset[str]:
        """Aliases one of which every sentence with an eligible slot holds (the sampler draws
        given that one occurs, :mod:`symcomp.core.conditioned`)."""
        return frozenset(slot.sibling or slot.parent or slot.alias for slot in self.slots)

    def find(self, tree: Tree[Any]) -> list[tuple[Tree[Any], Slot]]:
        """The eligible slots of a tree, in token order."""
        return [(node, slot) for node, parent in _nodes(tree) for slot in self._match(node, parent)]

    def _match(self, node: Tree[Any], parent: Tree[Any] | None) -> Iterator[Slot]:
        for slot in self.slots:
            if node.data != slot.alias:
                continue
            if slot.parent is not None and (parent is None or parent.data != slot.parent):
                continue
            if slot.sibling is not None and not _has_child(parent, slot.sibling):
                continue
            if slot.unless is not None and _has_child(parent, slot.unless):
                continue
            yield slot


def _has_child(node: Tree[Any] | None, alias: str) -> bool:
    return node is not None and any(
        isinstance(child, Tree) and child.data == alias for child in node.children
    )


def _nodes(tree: Tree[Any], parent: Tree[Any] | None = None) -> Iterator[tuple[Tree[Any], Any]]:
    yield tree, parent
    for child in tree.children:
        if isinstance(child, Tree):
            yield from _nodes(child, tree)


Fresh = Callable[[Slot, str], Tree[Any]]  # a new noun phrase around the target for a slot


def force(tree: Tree[Any], case: Case, fresh: Fresh | None = None) -> Tree[Any] | None:
    """A copy of ``tree`` with the target in its last eligible slot; None when it has none.
    A slot with ``np`` gets a whole new noun phrase from ``fresh``."""
    found = case.find(tree)
    if not found:
        return None
    target_node, slot = found[-1]
    if slot.np is not None:
        if fresh is None:
            raise ValueError(f"{slot.alias}: replacing a noun phrase needs `fresh`")
        return _replace(tree, target_node, fresh(slot, case.target))
    return _rewrite(tree, target_node, slot, case.target)


def _replace(tree: Tree[Any], node: Tree[Any], new: Tree[Any]) -> Tree[Any]:
    if tree is node:
        return new
    return Tree(
        tree.data, [_replace(c, node, new) if isinstance(c, Tree) else c for c in tree.children]
    )


def _rewrite(tree: Tree[Any], node: Tree[Any], slot: Slot, word: str) -> Tree[Any]:
    if tree is node:
        children = list(tree.children)
        children[slot.index] = word
        del children[slot.index - slot.drops : slot.index]
        return Tree(slot.becomes or tree.data, children)
    return Tree(
        tree.data,
        [_rewrite(c, node, slot, word) if isinstance(c, Tree) else c for c in tree.children],
    )


DATIVES = ("pp_dative", "double_object_dative")  # active datives: their theme is an object
OBJECTS = ("object_inanimate_np", "object_animate_np")  # any direct object of `object`
THEMES = ("theme_common", "theme_common_pp")


def _objects() -> tuple[Slot, ...]:
    """Every direct object and every theme of an active dative, whatever noun phrase the
    grammar drew there, is replaced by a noun phrase of the target (the published gen rows
    spread the target evenly over the five verb phrases that have an object)."""
    themes = [Slot(alias, 0, dative, np="theme") for alias in THEMES for dative in DATIVES]
    return (*(Slot(alias, 0, np="object") for alias in OBJECTS), *themes)


def _subject(noun: str, parent: str = "agent_clause", sibling: str | None = None) -> Slot:
    """A subject slot; the target's clause is the innermost one (never a clause that takes a
    clausal complement), as in every published gen row."""
    index = 1 if noun == "common" else 0
    return Slot(f"nsubj_{noun}", index, parent, sibling, unless="clausal_complement")


PASSIVE = tuple(Slot(alias, 1) for alias in ("passive_transitive", "passive_transitive_by"))
UNACCUSATIVE = (
    Slot("unaccusative_animate", 1),
    Slot("unaccusative_inanimate", 1),
)

# the generalisation cases (COGS's names); `pair`: the same sentences as another case
CASES: dict[str, Case] = {
    "subj_to_obj_common": Case("hedgehog", _objects()),
    "subj_to_obj_proper": Case("Lina", _objects()),
    "obj_to_subj_common": Case("cockroach", (_subject("common"),)),
    "obj_to_subj_proper": Case("Charlie", (_subject("proper"),)),
    "prim_to_subj_common": Case("shark", (_subject("common"),)),
    "prim_to_subj_proper": Case("Paula", (_subject("proper"),)),
    "prim_to_obj_common": Case("shark", _objects(), pair="subj_to_obj_common"),
    "prim_to_obj_proper": Case("Paula", _objects(), pair="subj_to_obj_proper"),
    "prim_to_inf_arg": Case("crawl", (Slot("infinitival", 2),)),
    "active_to_passive": Case("blessed", PASSIVE),
    "passive_to_active": Case("squeezed", (Slot("transitive", 0),)),
    "obj_omitted_transitive_to_transitive": Case("baked", (Slot("omissible_transitive", 0),)),
    "unacc_to_transitive": Case("shattered", (Slot("unaccusative_transitive", 0),)),
    "do_dative_to_pp_dative": Case("teleported", (Slot("pp_dative", 0),)),
    "pp_dative_to_do_dative": Case("shipped", (Slot("double_object_dative", 0),)),
    "only_seen_as_transitive_subj_as_unacc_subj": Case(
        "cobra", (_subject("common", "unaccusative_animate"),)
    ),
    "only_seen_as_unacc_subj_as_unerg_subj": Case(
        "hippo", (_subject("common", sibling="unergative"),)
    ),
    "only_seen_as_unacc_subj_as_obj_omitted_transitive_subj": Case(
        "hippo", (_subject("common", sibling="omitted_object"),)
    ),
}

# the structural cases: weight tables of the sidecar (the recursion ones with depth windows)
STRUCTURAL = ("obj_pp_to_subj_pp", "cp_recursion", "pp_recursion")

# the exposure example of each target in train (COGS's category names)
EXPOSURES: dict[str, Case] = {
    "exposure_example_unacc_subj": Case("hippo", (_subject("common", "unaccusative_animate"),)),
    "exposure_example_unacc": Case("shattered", UNACCUSATIVE),
    "exposure_example_subj_common": Case("hedgehog", (_subject("common"),)),
    "exposure_example_obj_proper": Case("Charlie", (Slot("animate_proper", 0),)),
    "exposure_example_pp_dative": Case("shipped", (Slot("pp_dative", 0),)),
    "exposure_example_subj_proper": Case("Lina", (_subject("proper"),)),
    "exposure_example_obj_common": Case(
        "cockroach", (Slot("animate_common", 1), Slot("animate_common_pp", 1))
    ),
    "exposure_example_transitive_subj": Case("cobra", (_subject("common", sibling="transitive"),)),
    "exposure_example_obj_omitted_transitive": Case("baked", (Slot("omitted_object", 0),)),
    "exposure_example_active": Case("blessed", (Slot("transitive", 0),)),
    "exposure_example_do_dative": Case("teleported", (Slot("double_object_dative", 0),)),
    "exposure_example_passive": Case("squeezed", PASSIVE),
}


@dataclass(frozen=True)
class Primitives:
    """How many primitive rows of each class train holds (COGS: every verb, 20 nouns of each
    animacy and 20 names, plus the targets seen only as primitives)."""

    nouns: int = 20
    names: int = 20
    targets: dict[str, str] = field(
        default_factory=lambda: {
            "shark": "primitive_animate",
            "Paula": "primitive_proper",
            "crawl": "primitive_unergative",
        }
    )


def target_words() -> list[str]:
    """Every target word, in case order (the suite's target-word list)."""
    words = [case.target for case in CASES.values()]
    return list(dict.fromkeys(words))
