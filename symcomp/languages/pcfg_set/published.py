"""The published PCFG SET data as a suite: ``symcomp suite import pcfg-set DIR --out SUITE``.

``DIR`` is the ``data/pcfgset`` folder of i-machine-think/am-i-compositional::

    pcfgset/{dev,test}.{src,tgt}               the task (train.{src,tgt} used when present)
    pcfgset/per_function_test/test_<f>.{src,tgt}
    systematicity/test.{src,tgt}, productivity/test.{src,tgt}
    substitutivity/<condition>/test.src, test_twin.src, test.tgt
    localism/unrolled_test.tsv, localism/increasing_string_length/increasing_length.{src,tgt}
    overgeneralisation/test_pcfg_ratio=<R>_{original.src,original.tgt,exception.tgt}

Every test keeps the published test set line for line (repeated inputs included, so scores
weigh them as the authors' scripts do). Training files are imported when present (the public
snapshot lacks every ``train.src``); a test's dev part is the shared ``pcfgset/dev`` set.
Each target is checked against the program's meaning (the exception targets against the
exception semantics): a difference is an error naming the file and line, as is a missing file.

The manifest records where a published prediction tree (``model_predictions/<model>/``) keeps
each test's files (``prediction_tree``), so ``symcomp evaluate SUITE --runs TREE`` scores
every run of a model.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from symcomp._util import Record, split_lines
from symcomp.core.language import Language
from symcomp.core.registry import get_language
from symcomp.core.suite_builder import SuiteImporter
from symcomp.data.safe_paths import resolves_inside
from symcomp.data.splits import Split
from symcomp.errors import DataError, SymcompError
from symcomp.languages.pcfg_set.functions import BINARY, UNARY
from symcomp.languages.pcfg_set.suite import (
    EXCEPTION_PAIRS,
    HELD_OUT_PAIRS,
    TWINNED,
    exception_output,
    first_pair,
)
from symcomp.suites.folder import SuiteWriter, suite_header
from symcomp.suites.unroll import read_records

CONDITIONS = ("equally_distributed", "primitive")
RATIO = re.compile(r"\d+(\.\d+)?([eE][-+]?\d+)?")  # a plain decimal, as the published names
BOM = "\ufeff"
SOURCE = "the data/pcfgset folder of i-machine-think/am-i-compositional"


def importer() -> SuiteImporter:
    """``symcomp suite import pcfg-set``."""
    return SuiteImporter(SOURCE, import_published)


def import_published(
    source: Path,
    out: Path,
    *,
    overwrite: bool = False,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Write the published test sets in ``source`` as a suite in ``out``; return its manifest."""
    language = get_language("pcfg-set")
    say = progress or (lambda message: None)
    folder = _Published(source, language)
    folder.check_complete()
    with SuiteWriter(out, overwrite=overwrite, export=False) as writer:
        builder = _Importer(folder, writer)
        for name, step in builder.steps():
            say(f"importing {name}")
            step()
        header = suite_header(
            "pcfg-set",
            language,
            None,
            {"construction": "published", "source": str(source.resolve())},
            prediction_tree=builder.layout,
        )
        return writer.finish(header, "PCFG SET test suite (published data)", INTRODUCTION)


INTRODUCTION = (
    "The published test sets of Hupkes et al. (2020), imported by `symcomp suite import "
    "pcfg-set`. `symcomp evaluate` scores prediction files on it, or a model's whole published "
    "prediction tree (`model_predictions/<model>`: `manifest.json` records where the tree keeps "
    "each test's files)."
)


class _Published:
    """The files of a published folder, read and checked line by line."""

    def __init__(self, root: Path, language: Language) -> None:
        if not root.is_dir():
            raise DataError(f"{root} is not a folder; give {SOURCE}.")
        self.root = root
        self.language = language
        self.cache: dict[str, Record] = {}

    def ratios(self) -> list[str]:
        """The exception ratios of the overgeneralisation files, each a decimal in 0..1 (a
        DataError naming the file otherwise)."""
        found = []
        for path in sorted(
            (self.root / "overgeneralisation").glob("test_pcfg_ratio=*_original.src")
        ):
            ratio = path.name.removeprefix("test_pcfg_ratio=").removesuffix("_original.src")
            if not RATIO.fullmatch(ratio) or not 0.0 <= float(ratio) <= 1.0:
                raise DataError(
                    f"{path}: the ratio {ratio!r} in its name is not a decimal number between 0 "
                    f"and 1; published files are named test_pcfg_ratio=<R>_original.src with R "
                    f"such as 0.001. Rename or remove the file."
                )
            found.append(ratio)
        return sorted(found, key=float)

    def required(self) -> list[str]:
        files = ["pcfgset/dev.src", "pcfgset/dev.tgt", "pcfgset/test.src", "pcfgset/test.tgt"]
        files += [
            f"{test}/test.{end}"
            for test in ("systematicity", "productivity")
            for end in ("src", "tgt")
        ]
        files += [
            f"substitutivity/{condition}/{name}"
            for condition in CONDITIONS
            for name in ("test.src", "test_twin.src", "test.tgt")
        ]
        files += [
            "localism/unrolled_test.tsv",
            "localism/increasing_string_length/increasing_length.src",
            "localism/increasing_string_length/increasing_length.tgt",
        ]
        files += [
            f"pcfgset/per_function_test/test_{function}.{end}"
            for function in UNARY + BINARY
            for end in ("src", "tgt")
        ]
        files += [
            f"overgeneralisation/test_pcfg_ratio={ratio}_{part}"
            for ratio in self.ratios()
            for part in ("original.src", "original.tgt", "exception.tgt")
        ]
        return files

    def check_complete(self) -> None:
        if not self.ratios():
            raise DataError(
                f"{self.root / 'overgeneralisation'}: no test_pcfg_ratio=<R>_original.src; "
                f"give {SOURCE}."
            )
        for relative in self.required():
            if not (self.root / relative).is_file():
                raise DataError(
                    f"{self.root / relative}: missing; a published PCFG SET folder ({SOURCE}) "
                    f"holds every test file (training files are optional)."
                )

    def path(self, relative: str) -> Path:
        """``root / relative``, refused when a symbolic link leads it out of the folder."""
        path = self.root / relative
        if not resolves_inside(self.root, path):
            raise DataError(
                f"{path} leads out of {self.root} (symbolic links resolve it to "
                f"{os.path.realpath(path)}); symcomp imports only files inside the folder. "
                f"Copy the file into the folder instead of linking it."
            )
        return path

    def raw_lines(self, relative: str) -> list[str]:
        """The lines of a file as written (errors name the file, and the line of a byte that
        is not UTF-8)."""
        path = self.path(relative)
        try:
            data = path.read_bytes()
        except OSError as error:
            raise DataError(f"cannot read {path}: {error.strerror or error}.") from None
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            line = data[: error.start].count(b"\n") + 1
            raise DataError(
                f"{path}:{line}: not UTF-8 text (byte {data[error.start]:#04x}); the published "
                f"files are UTF-8."
            ) from None
        # lines end at "\n" only (str.splitlines also ends them at form feeds and other
        # separators, and line numbers in messages would then differ from an editor's)
        return split_lines(text)

    def lines(self, relative: str) -> list[str]:
        """The lines of a file, spaces normalised; a blank line in an input file (``.src``)
        is an error naming it (it would shift every line after it)."""
        lines = [" ".join(line.split()) for line in self.raw_lines(relative)]
        if relative.endswith(".src"):
            blank = next((n for n, line in enumerate(lines, start=1) if not line), None)
            if blank is not None:
                raise DataError(
                    f"{self.root / relative}:{blank}: a blank line; a published input file holds "
                    f"one program per line. Remove the line (and its partner in the other files)."
                )
        return lines

    def aligned(self, *relatives: str) -> list[tuple[str, ...]]:
        """Rows of line-aligned files (an error when their line counts differ)."""
        columns = [self.lines(relative) for relative in relatives]
        counts = {
            relative: len(column) for relative, column in zip(relatives, columns, strict=True)
        }
        if len(set(counts.values())) > 1:
            shown = ", ".join(f"{self.root / r}: {n:,} lines" for r, n in counts.items())
            shortest = min(counts.values())
            longer = next(r for r, n in counts.items() if n > shortest)
            raise DataError(
                f"{self.root / longer}:{shortest + 1}: no partner line; line-aligned files "
                f"differ in length ({shown})."
            )
        return list(zip(*columns, strict=True))

    def has(self, *relatives: str) -> bool:
        return all((self.root / relative).is_file() for relative in relatives)

    def parsed(self, text: str, where: tuple[str, int]) -> Record:
        """The example record of an input (errors name its file and line)."""
        record = self.cache.get(text)
        if record is None:
            at = f"{self.root / where[0]}:{where[1]}"
            if BOM in text:
                raise DataError(
                    f"{at}: a byte-order mark (U+FEFF) in the input; save the file as UTF-8 "
                    f"without one."
                )
            try:
                record = self.language.record(self.language.example(text))
            except SymcompError as error:
                raise DataError(f"{at}: {error}") from None
            except RecursionError:
                raise DataError(
                    f"{at}: the program is nested too deeply to process (Python's recursion "
                    f"limit); remove the line."
                ) from None
            self.cache[text] = record
        return record

    def record(
        self, text: str, target: str, source: tuple[str, int], at: tuple[str, int]
    ) -> Record:
        """The example of an input (read at ``source``: file, line), its target (read at
        ``at``) checked against its meaning."""
        record = self.parsed(text, source)
        if record["output"] != target:
            raise DataError(
                f"{self.root / at[0]}:{at[1]}: target {target[:60]!r} is not the meaning "
                f"of the input ({str(record['output'])[:60]!r}); the files are not PCFG SET data."
            )
        return record

    def examples(self, src: str, tgt: str) -> list[Record]:
        return [
            self.record(text, target, (src, number), (tgt, number))
            for number, (text, target) in enumerate(self.aligned(src, tgt), start=1)
        ]

    def train(self, folder: str) -> list[Record]:
        """The training set of a test when the folder has it (the public snapshot does not)."""
        if not self.has(f"{folder}/train.src", f"{folder}/train.tgt"):
            return []
        return self.examples(f"{folder}/train.src", f"{folder}/train.tgt")


class _Importer:
    """Writes each published test as a suite test, and records the prediction tree."""

    def __init__(self, folder: _Published, writer: SuiteWriter) -> None:
        self.folder = folder
        self.writer = writer
        self.language = folder.language
        self.layout: dict[str, dict[str, Any]] = {}
        self._dev: list[Record] | None = None

    def steps(self) -> list[tuple[str, Callable[[], None]]]:
        steps: list[tuple[str, Callable[[], None]]] = [
            ("task", self.task),
            ("systematicity", functools.partial(self.plain, "systematicity")),
            ("productivity", functools.partial(self.plain, "productivity")),
        ]
        steps += [
            (f"substitutivity/{c}", functools.partial(self.substitutivity, c)) for c in CONDITIONS
        ]
        steps += [("localism", self.localism)]
        steps += [
            (f"overgeneralisation/ratio={r}", functools.partial(self.overgeneralisation, r))
            for r in self.folder.ratios()
        ]
        steps += [("per_function", self.per_function)]
        return steps

    @property
    def dev(self) -> list[Record]:
        if self._dev is None:
            self._dev = self.folder.examples("pcfgset/dev.src", "pcfgset/dev.tgt")
        return self._dev

    def add(
        self,
        name: str,
        kind: str,
        parts: Sequence[Sequence[Record]],
        description: str,
        *,
        meta: dict[str, Any] | None = None,
        aux: dict[str, str] | None = None,
    ) -> None:
        """A test whose pool is its train, dev and test records, in that order."""
        train, dev, test = parts
        pool = [*train, *dev, *test]
        split = Split.of(
            range(len(train)),
            range(len(train), len(train) + len(dev)),
            range(len(train) + len(dev), len(pool)),
            {"method": "published", **(meta or {})},
        )
        self.writer.write_records(f"{name}/examples.jsonl", pool, "the published train/dev/test")
        self.writer.add_test(
            name,
            kind=kind,
            split=split,
            pool=f"{name}/examples.jsonl",
            records=pool,
            aux=aux,
            description=description,
        )

    def task(self) -> None:
        test = self.folder.examples("pcfgset/test.src", "pcfgset/test.tgt")
        parts = (self.folder.train("pcfgset"), self.dev, test)
        self.add("task", "accuracy", parts, "the published random split (pcfgset/)")
        self.layout["task"] = {"kind": "predictions", "files": ["pcfgset/run={run}.txt"]}

    def plain(self, name: str) -> None:
        test = self.folder.examples(f"{name}/test.src", f"{name}/test.tgt")
        meta: dict[str, Any] = {}
        if name == "systematicity":
            meta["held_out_pairs"] = [list(pair) for pair in HELD_OUT_PAIRS]
        parts = (self.folder.train(name), self.dev, test)
        self.add(name, "accuracy", parts, f"the published {name} test", meta=meta)
        self.layout[name] = {"kind": "predictions", "files": [f"{name}/run={{run}}.txt"]}

    def substitutivity(self, condition: str) -> None:
        base = f"substitutivity/{condition}"
        rows = self.folder.aligned(f"{base}/test.src", f"{base}/test_twin.src", f"{base}/test.tgt")
        originals: dict[str, Record] = {}
        twins: list[Record] = []
        pairs = []
        for number, (text, twin_text, target) in enumerate(rows, start=1):
            at = (f"{base}/test.tgt", number)
            original = originals.setdefault(
                text, self.folder.record(text, target, (f"{base}/test.src", number), at)
            )
            twin = self.folder.record(twin_text, target, (f"{base}/test_twin.src", number), at)
            twins.append(twin)
            pairs.append(
                {"original": original["id"], "synonym": twin["id"], "function": _twinned(twin_text)}
            )
        test = [*originals.values(), *twins]
        self.writer.write_records(f"{base}/pairs.jsonl", pairs, "the published pairs, line by line")
        parts = (self.folder.train(base), self.dev, test)
        meta = {"twinned": list(TWINNED), "pairs": len(pairs)}
        aux = {"pairs": f"{base}/pairs.jsonl"}
        self.add(
            base, "substitutivity", parts, f"the published {condition} test", meta=meta, aux=aux
        )
        self.layout[base] = {
            "kind": "predictions",
            "files": [f"{base}/run={{run}}.txt", f"{base}/run={{run}}_synonym.txt"],
        }

    def localism(self) -> None:
        where = "localism/unrolled_test.tsv"
        lines = self.folder.raw_lines(where)
        records = read_records(lines, str(self.folder.root / where))
        numbers = [n for n, line in enumerate(lines, start=1) if line.startswith("original")]
        test = [
            self.folder.record(" ".join(r.source.split()), r.target, (where, n), (where, n))
            for r, n in zip(records, numbers, strict=True)
        ]
        self.writer.write_text(
            "localism/unrolled_test.tsv", lines, "the published unrolled records, verbatim"
        )
        corpus = self.increasing_length()
        self.writer.write_records(
            "localism/increasing_length.jsonl", corpus, "the published increasing-length corpus"
        )
        aux = {
            "unrolled": "localism/unrolled_test.tsv",
            "increasing_length": "localism/increasing_length.jsonl",
        }
        parts: tuple[list[Record], ...] = ([], self.dev, test)
        self.add("localism", "localism", parts, "the published unrolled test records", aux=aux)
        self.layout["localism"] = {"kind": "trace", "files": ["localism/run={run}.txt"]}

    def increasing_length(self) -> list[Record]:
        base = "localism/increasing_string_length/increasing_length"
        corpus = []
        for record in self.folder.examples(f"{base}.src", f"{base}.tgt"):
            words = str(record["input"]).split()
            lengths = [len(part.split()) for part in " ".join(words[1:]).split(",")]
            meta = {**record["meta"], "function": words[0], "string_length": max(lengths)}
            corpus.append({**record, "meta": meta})
        return corpus

    def overgeneralisation(self, ratio: str) -> None:
        base = f"overgeneralisation/test_pcfg_ratio={ratio}"
        rows = self.folder.aligned(
            f"{base}_original.src", f"{base}_original.tgt", f"{base}_exception.tgt"
        )
        exceptions = []
        for number, (text, rule, expected) in enumerate(rows, start=1):
            record = self.folder.record(
                text, rule, (f"{base}_original.src", number), (f"{base}_original.tgt", number)
            )
            pair = first_pair(record, EXCEPTION_PAIRS)
            output = exception_output(self.language, text, pair) if pair else None
            if output != expected:
                raise DataError(
                    f"{self.folder.root / base}_exception.tgt:{number}: {expected[:60]!r} is not "
                    f"the exception target of the input (an exception pair read as remapped)."
                )
            exceptions.append(
                {
                    "id": record["id"],
                    "input": text,
                    "rule_output": rule,
                    "exception_output": expected,
                    "pair": list(pair or ()),
                }
            )
        name = f"overgeneralisation/ratio={ratio}"
        self.writer.write_records(
            f"{name}/exceptions.jsonl", exceptions, "the published exceptions"
        )
        train = self._overgeneralisation_train(ratio)
        meta = {"ratio": float(ratio), "exceptions": len(exceptions)}
        aux = {"exceptions": f"{name}/exceptions.jsonl"}
        self.add(
            name,
            "overgeneralisation",
            (train, self.dev, []),
            f"exceptions at {ratio}",
            meta=meta,
            aux=aux,
        )
        self.layout[name] = {
            "kind": "epoch_log",
            "files": [f"overgeneralisation/*ratio={ratio}_run={{run}}.txt"],
        }

    def _overgeneralisation_train(self, ratio: str) -> list[Record]:
        src = f"overgeneralisation/train_pcfg_ratio={ratio}.src"
        tgt = f"overgeneralisation/train_pcfg_ratio={ratio}.tgt"
        if not self.folder.has(src, tgt):
            return []
        rows = self.folder.aligned(src, tgt)
        # exceptions carry their exception targets: import them as written
        records = []
        for number, (text, target) in enumerate(rows, start=1):
            record = self.folder.parsed(text, (src, number))
            meta = {**record["meta"], "output_length": len(target.split())}
            records.append({**record, "output": target, "meta": meta})
        return records

    def per_function(self) -> None:
        corpus = []
        for function in UNARY + BINARY:
            base = f"pcfgset/per_function_test/test_{function}"
            for record in self.folder.examples(f"{base}.src", f"{base}.tgt"):
                corpus.append({**record, "meta": {**record["meta"], "function": function}})
        parts: tuple[list[Record], ...] = ([], [], corpus)
        self.add("per_function", "accuracy", parts, "the published per-function test")


def _twinned(text: str) -> str:
    """The function whose synonym a twin input uses."""
    return next((w.removesuffix("_twin") for w in text.split() if w.endswith("_twin")), "")
