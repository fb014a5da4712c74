"""A third-party symcomp language: the README's toy robot as an installable package.

Everything a language needs is here: ``robot.lark`` (syntax, every alternative aliased),
``robot.toml`` (sampling weights, lexicon, limits) and the semantics below; the package's
``entry_points.txt`` registers ``robot = symcomp_robot:build`` in the ``symcomp.languages``
group, exactly as symcomp registers its own languages.
"""

from __future__ import annotations

from pathlib import Path

from symcomp import Language, Semantics


class Robot(Semantics):
    def step(self, children: list[str]) -> list[str]:
        return [f"STEP_{children[0].upper()}"]

    def twice(self, children: list[list[str]]) -> list[str]:
        return children[0] * 2

    def conjoin(self, children: list[list[str]]) -> list[str]:
        return children[0] + children[1]


def build() -> Language:
    return Language.from_grammar("robot", Path(__file__).with_name("robot.lark"), semantics=Robot)
