"""Writing a fixed-test sweep (:func:`symcomp.dbca.split.sweep`) into a folder.

The folder holds one split file per level (``level-0.json``, ``level-0.25.json``, ...), all
with one test and dev, and ``manifest.json``: the seed, the levels, the reachable maximum and
each level's file, D_A and D_C (and dev's). It is assembled aside and moved into place whole.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from symcomp.data.artifacts import MANIFEST, assembled, file_record, write_json
from symcomp.data.splits import Split
from symcomp.version import __version__

FORMAT = "symcomp.sweep/1"
MEASURES = (
    "atom_divergence",
    "compound_divergence",
    "dev_atom_divergence",
    "dev_compound_divergence",
    "target_met",
)


def level_name(level: float) -> str:
    """The split file of a level.

    >>> level_name(0.25), level_name(1.0)
    ('level-0.25.json', 'level-1.json')
    """
    return f"level-{level:g}.json"


def write_sweep(
    out: Path, splits: Mapping[float, Split], seed: int, *, overwrite: bool = False
) -> dict[str, Any]:
    """Write the splits of a sweep and its manifest into ``out``; return the manifest."""
    names = tuple(level_name(level) for level in splits)
    with assembled(out, overwrite=overwrite, names=(*names, MANIFEST), kind="sweep") as work:
        files: dict[str, Any] = {}
        levels: list[dict[str, Any]] = []
        for level, split in splits.items():
            name = level_name(level)
            write_json(work / name, split.to_json())
            files[name] = file_record(work / name)
            row = {"level": level, "file": name}
            row.update({key: split.meta[key] for key in MEASURES if key in split.meta})
            levels.append(row)
        first = next(iter(splits.values())).meta
        manifest = {
            "format": FORMAT,
            "symcomp_version": __version__,
            "seed": seed,
            "pool": first.get("pool"),
            "reachable_dc": first.get("sweep", {}).get("reachable_dc"),
            "sizes": first.get("sizes"),
            "levels": levels,
            "files": files,
        }
        write_json(work / MANIFEST, manifest)
    return manifest
