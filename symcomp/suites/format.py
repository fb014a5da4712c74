"""The suite folder format: what ``manifest.json`` says about each test.

Written by :class:`symcomp.suites.folder.SuiteWriter`, read (and checked) by
:class:`symcomp.suites.reading.Suite`. Paths in an entry are POSIX paths relative to the suite
folder; a test's name is also the name of its folder.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from symcomp.data.safe_paths import check_name
from symcomp.errors import DataError

FORMAT = "symcomp.suite/1"


@dataclass
class TestEntry:
    """What the manifest says about one test of the suite."""

    __test__ = False  # not a pytest test class, despite the name

    kind: str  # how `symcomp evaluate` scores it: accuracy, substitutivity, localism, ...
    split: str  # relative path of split.json
    pool: str  # relative path of the pool the split indexes
    description: str
    aux: dict[str, str] = field(default_factory=dict)  # role -> relative path
    sizes: dict[str, int] = field(default_factory=dict)
    meta: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "split": self.split,
            "pool": self.pool,
            "description": self.description,
            "aux": dict(self.aux),
            "sizes": dict(self.sizes),
            "meta": dict(self.meta),
        }

    @classmethod
    def from_json(cls, name: str, data: Any, source: str) -> TestEntry:
        """Read one ``tests`` entry; the name and the shape of every field are checked
        (paths are confined to the suite when they are opened)."""
        check_name(name, what="test name", source=source, nested=True)
        where = f"{source}: test {name!r}"
        if not isinstance(data, Mapping):
            raise DataError(f"{where} must be a JSON object.")
        for key in ("kind", "split", "pool"):
            if not isinstance(data.get(key), str) or not data[key]:
                raise DataError(f"{where} needs a non-empty string {key!r}.")
        aux = data.get("aux", {})
        if not isinstance(aux, Mapping) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in aux.items()
        ):
            raise DataError(f"{where}: 'aux' must map roles to relative paths.")
        sizes, meta = data.get("sizes", {}), data.get("meta", {})
        if not isinstance(sizes, Mapping) or not isinstance(meta, Mapping):
            raise DataError(f"{where}: 'sizes' and 'meta' must be JSON objects.")
        return cls(
            kind=data["kind"],
            split=data["split"],
            pool=data["pool"],
            description=str(data.get("description", "")),
            aux=dict(aux),
            sizes={str(k): int(v) for k, v in sizes.items() if isinstance(v, int)},
            meta=dict(meta),
        )
