"""The SCAN suite (Lake & Baroni 2018; template splits of Loula et al. 2018), rebuilt from the
grammar: all 20,910 commands, and the published splits as index lists over them.

simple
    random 80/20.
length
    train: action sequences of at most 22 actions; test: longer (the published cut: 22 / 24).
addprim_jump, addprim_turn_left
    train: every command without the primitive, plus the primitive alone repeated to make up
    10 % of train (``meta.oversample``; 1,467 and 2,189 copies as published); test: every other
    command with the primitive.
template_jump_around_right, template_around_right, template_opposite_right, template_right
    test: commands with the held-out template (``jump around right``; ``U around right``,
    ``U opposite right``, ``U right`` for a primitive U); commands using the template with
    ``turn`` instead of a primitive belong to neither part, as in the published files.

Every rule above was checked against the published files (byte sizes or, where the files are in
``../shared/peers/scan``, line by line); ``template_jump_around_right`` could not be checked.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from symcomp._util import Record
from symcomp.core.registry import get_language
from symcomp.core.suite_builder import SuiteBuilder, option
from symcomp.data.generate import PoolSpec, generate
from symcomp.data.splits import Split, random_split
from symcomp.suites.common import load_records, rng_for
from symcomp.suites.folder import SuiteWriter, suite_header

PRIMITIVES = ("walk", "look", "run", "jump")


@dataclass(frozen=True)
class ScanSuiteSpec:
    """Parameters of the SCAN suite (defaults: the published splits)."""

    seed: int = option(0, "Seed of the simple split.")
    simple_train_fraction: float = 0.8
    length_cutoff: int = 22
    export: bool = option(True, "Write .tsv/.src/.tgt files per split.")

    def describe(self) -> dict[str, Any]:
        return {key: getattr(self, key) for key in self.__dataclass_fields__}


def contains(text: str, phrase: str) -> bool:
    """True when the words of ``phrase`` occur consecutively in ``text``.

    >>> contains("turn around right twice", "turn right"), contains("jump right", "jump right")
    (False, True)
    """
    words, wanted = text.split(), phrase.split()
    return any(words[i : i + len(wanted)] == wanted for i in range(len(words) - len(wanted) + 1))


def suite_builder() -> SuiteBuilder:
    """``symcomp suite scan``."""
    return SuiteBuilder("SCAN's published splits rebuilt from the grammar.", ScanSuiteSpec, build)


def build(
    out: Path,
    spec: ScanSuiteSpec,
    *,
    overwrite: bool = False,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Build the SCAN suite into ``out``; return its manifest."""
    language = get_language("scan")
    say = progress or (lambda message: None)
    with SuiteWriter(out, overwrite=overwrite, export=spec.export) as writer:
        say("enumerating SCAN")
        folder = writer.path(".pool/x").parent
        generate(language, folder, PoolSpec(enumerate_all=True), overwrite=True)
        (folder / "examples.jsonl").replace(writer.path("examples.jsonl"))
        (folder / "manifest.json").unlink()
        folder.rmdir()
        records = load_records(writer.path("examples.jsonl"))
        writer.describe("examples.jsonl", "all 20,910 SCAN commands with their action sequences")
        for name, split, description in _splits(records, spec):
            say(f"building {name}")
            writer.add_test(
                name,
                kind="accuracy",
                split=split,
                pool="examples.jsonl",
                records=records,
                description=description,
            )
        header = suite_header("scan", language, spec.seed, spec.describe())
        return writer.finish(header, "SCAN test suite", INTRODUCTION)


INTRODUCTION = (
    "SCAN's published splits rebuilt from the grammar by `symcomp suite scan`. Every "
    "`split.json` indexes `examples.jsonl` (CFQ layout); `meta.oversample` repeats the "
    "primitive in the add-primitive splits, and the exports contain the repetitions."
)


def _splits(records: Sequence[Record], spec: ScanSuiteSpec) -> list[tuple[str, Split, str]]:
    inputs = [str(r["input"]) for r in records]
    everything = range(len(records))
    simple = random_split(
        len(records),
        fractions=(spec.simple_train_fraction, 0.0, 1.0 - spec.simple_train_fraction),
        seed=rng_for(spec.seed, "scan-simple"),
        meta={"method": "random"},
    )
    short = [i for i in everything if records[i]["meta"]["output_length"] <= spec.length_cutoff]
    long = [i for i in everything if records[i]["meta"]["output_length"] > spec.length_cutoff]
    length = Split.of(
        short, [], long, {"method": "output length", "max_train_actions": spec.length_cutoff}
    )
    splits = [
        ("simple", simple, "random 80/20 split"),
        ("length", length, f"train: at most {spec.length_cutoff} actions; test: longer"),
        (
            "addprim_jump",
            _add_primitive(inputs, "jump"),
            "train: no `jump` but `jump` alone (10% of train); test: compositional uses of jump",
        ),
        (
            "addprim_turn_left",
            _add_primitive(inputs, "turn left"),
            "train: no `turn left` but `turn left` alone (10% of train); test: the rest",
        ),
        (
            "template_jump_around_right",
            _template(inputs, ["jump around right"], None),
            "test: commands with `jump around right`",
        ),
    ]
    for direction in ("around right", "opposite right", "right"):
        templates = [f"{primitive} {direction}" for primitive in PRIMITIVES]
        name = "template_" + direction.replace(" ", "_")
        splits.append(
            (
                name,
                _template(inputs, templates, f"turn {direction}"),
                f"test: commands with `U {direction}` (U a primitive); commands with "
                f"`turn {direction}` are in neither part",
            )
        )
    return splits


def _add_primitive(inputs: Sequence[str], primitive: str) -> Split:
    base = [i for i, text in enumerate(inputs) if not contains(text, primitive)]
    alone = inputs.index(primitive)
    test = [i for i, text in enumerate(inputs) if contains(text, primitive) and i != alone]
    copies = round(len(base) / 9)  # the primitive alone is 10 % of the training set
    return Split.of(
        sorted([*base, alone]),
        [],
        test,
        {"method": "add primitive", "primitive": primitive, "oversample": {str(alone): copies}},
    )


def _template(inputs: Sequence[str], templates: Sequence[str], excluded: str | None) -> Split:
    train, test, dropped = [], [], 0
    for index, text in enumerate(inputs):
        if excluded is not None and contains(text, excluded):
            dropped += 1
        elif any(contains(text, template) for template in templates):
            test.append(index)
        else:
            train.append(index)
    return Split.of(
        train,
        [],
        test,
        {
            "method": "held-out template",
            "templates": list(templates),
            "excluded": excluded,
            "excluded_commands": dropped,
        },
    )
