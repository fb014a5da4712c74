"""A suite as lm-evaluation-harness tasks: ``symcomp export SUITE --format lm-eval``.

The export folder holds one task per test with a non-empty test part, a group that names them
all, the data as local JSON lines and a manifest; ``lm-eval run --include_path FOLDER
--tasks GROUP`` runs it::

    manifest.json              what was exported, how, and each test's demonstration coverage
    GROUP.yaml                 the group: every task, exact match (or accuracy) averaged by size
    tasks/TASK.yaml            one task: the prompt template, the data files, the metric
    data/CONFIG/train.jsonl    the test's training part (demonstrations are drawn from it)
    data/CONFIG/test.jsonl     the test part, in the suite's order (the harness's doc_id)

Sequence outputs are ``generate_until`` tasks scored by exact match after the harness's
``remove_whitespace`` filter; NLI suites (records with ``premise``, ``hypothesis`` and
``label``) are ``multiple_choice`` over their labels, scored by accuracy. Targets and inputs
are written on one line (their whitespace runs joined by single spaces, as CFQ's
preprocessing does), since generation stops at the first newline.

Demonstrations (``shots`` > 0) come from the test's training part: ``random`` is the
harness's own seeded few-shot sampler (``num_fewshot``; change its seed with ``lm-eval
--seed``); ``similar`` and ``cover`` are chosen per item by symcomp from the structures of the
item's input (:mod:`symcomp.dbca.demonstrations`) and written into the item's
``demonstrations`` field, in the harness's own few-shot layout (then ``num_fewshot`` is 0).
The manifest records, per test, the share of each item's coverable structures that its
demonstrations hold under each method.

With ``steps`` (worked demonstrations, :mod:`symcomp.core.steps`) every document also carries
its gold ``steps`` and its ``worked`` text (steps, then the answer line); a demonstration shows
the worked text, the model writes its own steps and answer, generation stops at the blank
line after the answer (or at a next ``Input:``), and the harness's ``regex`` filter takes the
answer line: the task's ``exact_match`` is answer accuracy.

Every document carries the suite's identity (``test``, and ``suite``: the test's sha256), so
that ``symcomp evaluate`` can refuse a sample file of another suite, and the options that
shaped it (``fresh_words``, and ``export``: shots, select, seed and steps), from which
``symcomp evaluate`` makes the document again (:class:`ExportedDocuments`) and compares every
field the export wrote, the worked ``steps`` and ``worked`` included.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from symcomp._util import Record
from symcomp.core.fresh_strings import fresh_seed
from symcomp.core.fresh_words import rename_records
from symcomp.core.language import Language
from symcomp.core.steps import ANSWER_PATTERN, FIELD, RecordSteps, Step, steps_json, worked_text
from symcomp.data.artifacts import (
    MANIFEST,
    atomic_writer,
    file_record,
    longest_file_name,
    move_into_place,
    previous_output,
    staging_in,
    write_json,
    writing_into,
)
from symcomp.data.export import is_nli, label_names
from symcomp.errors import DataError
from symcomp.llm.prompts import (
    DEMONSTRATIONS,
    FEWSHOT_DELIMITER,
    PROMPTS,
    Prompt,
    demonstration_block,
    verbatim,
)
from symcomp.suites.exporting import fresh_renaming, steps_language
from symcomp.suites.reading import Suite

FORMAT = "symcomp.export.lm-eval/2"  # 2: every document carries `export`
EXPORT = "export"  # the document field holding the options that shaped it
ENTRY_FIELDS = ("shots", "select", "seed", "steps")  # what `export` records
SELECTIONS = ("random", "similar", "cover")
# generation budget: BPE tokenizers split a symbolic word into several pieces
# (``I_TURN_LEFT`` is five for GPT-2), so a task allows 8 tokens a word of its longest target
TOKENS_PER_WORD = 8
MIN_GEN_TOKENS = 32
_TASK_NAME = re.compile(r"[^a-z0-9_]+")
SHOWN = 5  # tests named in a message, at most


@dataclass(frozen=True)
class HarnessOptions:
    """How a suite becomes harness tasks.

    ``shots`` demonstrations per item chosen by ``select`` (``random``, ``similar`` or
    ``cover``) with ``seed``; ``instruction`` goes before every prompt (the harness's
    ``description``); ``fresh_words`` renames the language's open-class words with that seed
    (the same mapping for items and demonstrations); ``data_root`` is where the harness will
    find the ``data`` folder (default: the export folder, as an absolute path: the harness
    reads ``data_files`` relative to its working directory); ``prefix`` starts every task
    name (default ``symcomp_`` and the suite folder's name); ``steps`` makes the tasks worked
    (demonstrations show their steps, then their answer; see the module)."""

    shots: int = 0
    select: str = "random"
    seed: int = 0
    instruction: str | None = None
    fresh_words: int | None = None
    data_root: str | None = None
    prefix: str | None = None
    steps: bool = False

    def document_entry(self) -> dict[str, Any]:
        """The options that shape a document (its demonstrations, and, worked, its steps),
        written into each one: with the suite, they are what ``symcomp evaluate`` makes the
        document again from.

        >>> HarnessOptions(shots=2, select="cover", steps=True).document_entry()
        {'shots': 2, 'select': 'cover', 'seed': 0, 'steps': True}
        """
        return {key: getattr(self, key) for key in ENTRY_FIELDS}

    def __post_init__(self) -> None:
        if self.shots < 0:
            raise DataError(f"`shots` must be 0 or more, got {self.shots}.")
        if self.seed < 0:
            raise DataError(f"`seed` must be 0 or more, got {self.seed}.")
        if self.fresh_words is not None:
            fresh_seed(self.fresh_words)
        if self.select not in SELECTIONS:
            raise DataError(
                f"unknown demonstration selection {self.select!r}; choose one of "
                f"{', '.join(SELECTIONS)}."
            )


@dataclass(frozen=True)
class _Task:
    """One exported task: its name, test, configuration folder and documents."""

    name: str
    test: str
    config: str
    prompt: Prompt
    train: list[dict[str, Any]]
    items: list[dict[str, Any]]
    choices: tuple[str, ...]
    coverage: dict[str, Any]


def task_prefix(suite: Path, prefix: str | None = None) -> str:
    """The task-name prefix: ``prefix``, or ``symcomp_`` and the suite folder's name, in the
    lower-case letters, digits and underscores the harness's task names are made of.

    >>> task_prefix(Path("runs/SCAN-mcd.v2"))
    'symcomp_scan_mcd_v2'
    """
    raw = prefix if prefix is not None else f"symcomp_{suite.name}"
    return _TASK_NAME.sub("_", raw.lower()).strip("_") or "symcomp"


def export_lm_eval(
    suite: Path,
    target: Path,
    options: HarnessOptions,
    *,
    tests: Sequence[str] | None = None,
    overwrite: bool = False,
    progress: Callable[[int], None] | None = None,
) -> Path:
    """Write the tests of ``suite`` (all, or ``tests``) as harness tasks into ``target``;
    return it. Everything is built before the first file is written; the folder is assembled
    aside and moved into place, so an interrupted export leaves the previous one or none."""
    folder = Suite.read(suite)
    context = _Context(folder, _language_of(folder, options), options)
    prefix = task_prefix(folder.root, options.prefix)
    step = progress or (lambda count: None)
    names = folder.chosen(tests)
    _check_shots(folder, names, options.shots, prefix)
    tasks = []
    for name in names:
        task = _build_task(context, name, prefix)
        step(len(task.items))
        if task.items:
            tasks.append(task)
    if not tasks:
        raise DataError(f"{folder.root}: every chosen test has an empty test part; nothing to run.")
    _check_unique(tasks)
    _check_name_lengths(tasks, prefix, target)
    written = (MANIFEST, f"{prefix}.yaml", "tasks", "data")
    with writing_into(target, overwrite=overwrite, names=written, kind="export"):
        replaced = previous_output(target, "export")
        with staging_in(target) as work:
            root = options.data_root or str(target.resolve())
            files = _write_tasks(work, tasks, prefix, root, options)
            described = _manifest(folder, tasks, prefix, options, work, files)
            write_json(work / MANIFEST, {**described, "fresh_words": context.fresh_entry})
            move_into_place(work, target, replaced)
    return target


def _check_shots(folder: Suite, names: Sequence[str], shots: int, prefix: str) -> None:
    """Refuse ``shots`` larger than a test's training part (its distinct items), whichever
    ``select``: the harness's own draw fails the whole group ("Sample larger than
    population"), and symcomp's would silently give fewer. A test without a training part
    is exported without demonstrations (the manifest says so)."""
    if not shots:
        return
    short = {}
    for name in names:
        test = folder.test(name)
        size = len(_distinct(test.train))
        if test.test and 0 < size < shots:  # a test with no test part is not exported
            short[name] = size
    if short:
        shown = [
            f"test {name!r} (task {task_name(prefix, name)}): {size:,}"
            for name, size in list(short.items())[:SHOWN]
        ]
        more = f"; and {len(short) - SHOWN:,} more" if len(short) > SHOWN else ""
        raise DataError(
            f"`shots` {shots} asks for more demonstrations than the training part of "
            f"{len(short):,} test{'s' if len(short) > 1 else ''} holds (distinct items): "
            f"{'; '.join(shown)}{more}. Pass `shots` {min(short.values())} or fewer, or "
            f"export the other tests (`tests`)."
        )


def _language_of(folder: Suite, options: HarnessOptions) -> Language | None:
    """The suite's language (renamed with ``fresh_words``); demonstrations chosen by
    structure and fresh words need one."""
    if folder.language is None:
        if options.fresh_words is not None or (options.shots and options.select != "random"):
            raise DataError(
                f"{folder.root} is a suite over an imported pool (no language): fresh words "
                f"and `similar`/`cover` demonstrations need a language's parser; use `random`."
            )
        return None
    return folder.load_language()


class _Context:
    """What every test of one export shares: the suite, its language as written and as the
    items are shown (in fresh words, when asked), and one reader of input structures, so that
    a record the tests share is parsed once."""

    def __init__(self, folder: Suite, language: Language | None, options: HarnessOptions):
        self.folder, self.written, self.options = folder, language, options
        self.shown = language
        self.fresh_entry: dict[str, Any] | None = None  # the manifest's fresh_words
        if language is not None and options.fresh_words is not None:
            self.written, self.fresh_entry = fresh_renaming(folder, options.fresh_words)
            self.shown = self.written.with_fresh_words(options.fresh_words)  # parses new words
        self.steps_of: RecordSteps | None = None  # the steps the items show
        if options.steps:
            self.steps_of = RecordSteps(steps_language(folder, options.fresh_words))
        self.reader: Any = None
        if self.shown is not None and options.shots and options.select != "random":
            from symcomp.dbca.demonstrations import StructureReader

            self.reader = StructureReader(self.shown, remember=True)

    def renamed(self, records: Sequence[Record]) -> list[Record]:
        """``records`` as the items are shown: in fresh words, when asked."""
        if self.written is None or self.options.fresh_words is None:
            return list(records)
        return rename_records(self.written, records, self.options.fresh_words)


def _build_task(context: _Context, name: str, prefix: str) -> _Task:
    options = context.options
    parts = _parts(context, name)
    coverage: dict[str, Any] = {}
    if options.shots and parts.items and not parts.train:
        coverage = {"note": "no training part: exported without demonstrations"}
    elif options.shots and parts.items:
        coverage = _demonstrate(context, parts)
    config = name.replace("/", "-")
    return _Task(
        task_name(prefix, name),
        name,
        config,
        parts.prompt,
        parts.train_docs,
        parts.item_docs,
        parts.choices,
        coverage,
    )


@dataclass(frozen=True)
class _Parts:
    """A test's documents as the export writes them (demonstrations not yet chosen), and the
    records they show (in fresh words, when asked)."""

    prompt: Prompt
    choices: tuple[str, ...]
    train: list[Record]
    items: list[Record]
    train_docs: list[dict[str, Any]]
    item_docs: list[dict[str, Any]]


def _parts(context: _Context, name: str, positions: Sequence[int] | None = None) -> _Parts:
    """The parts of test ``name``: every item, or the items at ``positions`` of its test part
    (then the training part only where symcomp chooses demonstrations from it)."""
    options = context.options
    test = context.folder.test(name)
    distinct = _distinct(test.train)
    nli = is_nli([*distinct, *test.test])
    choices = tuple(label_names(str(r["label"]) for r in [*distinct, *test.test])) if nli else ()
    chosen = test.test if positions is None else [test.test[i] for i in positions]
    symcomp_chooses = bool(options.shots) and options.select != "random"
    train = context.renamed(distinct if positions is None or symcomp_chooses else [])
    items = context.renamed(chosen)
    shared = {
        "test": name,
        "suite": test.digest,
        "fresh_words": options.fresh_words,
        EXPORT: options.document_entry(),
    }
    return _Parts(
        PROMPTS["nli" if nli else "worked" if context.steps_of else "sequence"],
        choices,
        train,
        items,
        [_worked(context, r, _document(r, choices, shared)) for r in train],
        [_worked(context, r, _document(r, choices, shared)) for r in items],
    )


class ExportedDocuments:
    """The test documents an export of ``suite`` with ``options`` wrote, made again from the
    suite: what ``symcomp evaluate`` checks the harness's logged documents against. The
    suite's language (renamed, when asked) and its reader of input structures are shared by
    every test asked for."""

    def __init__(self, suite: Suite, options: HarnessOptions) -> None:
        self.context = _Context(suite, _language_of(suite, options), options)

    def items(self, test: str, positions: Sequence[int]) -> list[dict[str, Any]]:
        """The documents of the items at ``positions`` of ``test``'s test part, with their
        demonstrations."""
        parts = _parts(self.context, test, positions)
        options = self.context.options
        if options.shots and options.select != "random" and parts.items and parts.train:
            pool = _pool(self.context, parts)
            if pool is not None:
                chosen = pool.select(
                    parts.items, shots=options.shots, method=options.select, seed=options.seed
                )
                _write_demonstrations(parts, chosen)
        return parts.item_docs


def task_name(prefix: str, test: str) -> str:
    """The harness task of ``test``: the prefix, then the test's name in the letters, digits
    and underscores of task names.

    >>> task_name("symcomp_mono", "protocol-III/train-depth-1-2")
    'symcomp_mono_protocol_iii_train_depth_1_2'
    """
    return f"{prefix}_{_TASK_NAME.sub('_', test.replace('/', '-').lower()).strip('_')}"


def _distinct(records: Sequence[Record]) -> list[Record]:
    """The training part without its oversampled repeats (by id, first occurrence kept): a
    demonstration pool holds each example once."""
    seen: set[str] = set()
    kept = []
    for record in records:
        key = str(record["id"])
        if key not in seen:
            seen.add(key)
            kept.append(record)
    return kept


def _document(record: Record, choices: Sequence[str], shared: Mapping[str, Any]) -> dict[str, Any]:
    """A harness document: the example's id, its text fields on one line, the answer, an
    empty ``demonstrations`` field (filled per item by ``similar`` and ``cover``) and the
    suite's identity."""
    doc: dict[str, Any] = {"id": str(record["id"])}
    if choices:
        doc["premise"] = _one_line(record["premise"])
        doc["hypothesis"] = _one_line(record["hypothesis"])
        doc["label"] = str(record["label"])
        doc["label_index"] = choices.index(str(record["label"]))
        doc["choices"] = list(choices)  # read back by `symcomp evaluate` (the harness's argmax)
    else:
        doc["input"] = _one_line(record["input"])
        doc["target"] = _one_line(record["output"])
    doc[DEMONSTRATIONS] = ""
    return {**doc, **shared}


def _worked(context: _Context, record: Record, doc: dict[str, Any]) -> dict[str, Any]:
    """A document with its gold steps and its worked text, when the export has steps; a
    record whose output is not the language's interpretation of its input (an exception
    to learn) has none, and its worked text is its answer line alone."""
    if context.steps_of is None or "target" not in doc:
        return doc
    steps = context.steps_of(record)
    worked = worked_text(steps or [Step(doc["input"], doc["target"])])
    return {**doc, FIELD: steps_json(steps), "worked": worked}


def _one_line(text: Any) -> str:
    return " ".join(str(text).split())


def _demonstrate(context: _Context, parts: _Parts) -> dict[str, Any]:
    """Choose demonstrations for every item (written into its document unless the harness
    draws them: ``random``) and measure each method's coverage; return the coverage table
    (method -> queries, mean and minimum share of coverable structures held)."""
    from symcomp.dbca.demonstrations import coverage_summary

    options = context.options
    pool = _pool(context, parts)
    if pool is None:  # an imported pool: only the harness's random draw
        return {}
    table: dict[str, Any] = {}
    for method in SELECTIONS:
        chosen = pool.select(parts.items, shots=options.shots, method=method, seed=options.seed)
        table[method] = coverage_summary(pool.coverage(parts.items, chosen))
        if method == options.select and method != "random":
            _write_demonstrations(parts, chosen)
    return table


def _pool(context: _Context, parts: _Parts) -> Any:
    """The demonstration pool of a test's training part (None without a language)."""
    if context.shown is None:
        return None
    from symcomp.dbca.demonstrations import DemonstrationPool, StructureReader

    context.reader = context.reader or StructureReader(context.shown, remember=True)
    return DemonstrationPool(parts.train, language=context.shown, reader=context.reader)


def _write_demonstrations(parts: _Parts, chosen: Sequence[Sequence[int]]) -> None:
    """Each item's chosen demonstrations (pool positions) into its document."""
    for doc, picks in zip(parts.item_docs, chosen, strict=True):
        doc[DEMONSTRATIONS] = demonstration_block(
            parts.prompt, [parts.train_docs[i] for i in picks]
        )


def _check_name_lengths(tasks: Sequence[_Task], prefix: str, target: Path) -> None:
    """Refuse a prefix that makes a task's file name longer than the file system allows,
    before anything is written (the prefix starts the group's and every task's file name)."""
    limit = longest_file_name(target)
    longest = max([prefix, *(task.name for task in tasks)], key=lambda name: len(name.encode()))
    size = len(f"{longest}.yaml".encode())
    if size > limit:
        allowed = len(prefix.encode()) - (size - limit)
        shortened = f"at most {allowed} characters" if allowed > 0 else "a shorter one"
        raise DataError(
            f"the task-name prefix is too long ({len(prefix):,} characters): the task file "
            f"{longest[:24]}....yaml would have a name of {size:,} bytes, and {limit} is the "
            f"most a file name may have there (the file system's limit, less what the "
            f"temporary name it is written under adds); give a prefix of {shortened}."
        )


def _check_unique(tasks: Sequence[_Task]) -> None:
    seen: dict[str, str] = {}
    for task in tasks:
        if task.name in seen:
            raise DataError(
                f"the tests {seen[task.name]!r} and {task.test!r} both become the task "
                f"{task.name!r} (task names keep only lower-case letters, digits and _); "
                f"export one of them with `tests`."
            )
        seen[task.name] = task.test


# -- writing -----------------------------------------------------------------------------------


def _write_tasks(
    work: Path, tasks: Sequence[_Task], prefix: str, root: str, options: HarnessOptions
) -> list[Path]:
    import yaml

    files: list[Path] = []
    for task in tasks:
        data = work / "data" / task.config
        data.mkdir(parents=True, exist_ok=True)
        for part, docs in (("train", task.train), ("test", task.items)):
            if not docs:
                continue  # a test without a training part (the harness cannot read no rows)
            path = data / f"{part}.jsonl"
            with atomic_writer(path) as handle:
                handle.writelines(json.dumps(doc, ensure_ascii=False) + "\n" for doc in docs)
            files.append(path)
        path = work / "tasks" / f"{task.name}.yaml"
        path.parent.mkdir(exist_ok=True)
        config = task_config(task, f"{root.rstrip('/')}/data/{task.config}", options)
        files.append(_write_yaml(path, config, yaml))
    group = {
        "group": prefix,
        "task": [task.name for task in tasks],
        "aggregate_metric_list": [
            {"metric": _metric(tasks[0]), "aggregation": "mean", "weight_by_size": True}
        ],
        "metadata": {"version": 1.0},
    }
    files.append(_write_yaml(work / f"{prefix}.yaml", group, yaml))
    return files


def _write_yaml(path: Path, data: Mapping[str, Any], yaml: Any) -> Path:
    with atomic_writer(path) as handle:
        yaml.dump(
            dict(data),
            handle,
            Dumper=_dumper(yaml),
            sort_keys=False,
            allow_unicode=True,
            width=100,
        )
    return path


def _dumper(yaml: Any) -> Any:
    """PyYAML's safe dumper, writing a string with a line break in double quotes (``"a\\nb"``)
    rather than folded over several lines: the template reads as it is written."""

    class Dumper(yaml.SafeDumper):  # type: ignore[misc]
        pass

    def string(dumper: Any, text: str) -> Any:
        style = '"' if "\n" in text else None
        return dumper.represent_scalar("tag:yaml.org,2002:str", text, style=style)

    Dumper.add_representer(str, string)
    return Dumper


def _metric(task: _Task) -> str:
    return "acc" if task.choices else "exact_match"


def task_config(task: _Task, data: str, options: HarnessOptions) -> dict[str, Any]:
    """The YAML of one task (see the module)."""
    harness_draws = options.shots > 0 and options.select == "random" and bool(task.train)
    files = {"train": f"{data}/train.jsonl", "test": f"{data}/test.jsonl"}
    config: dict[str, Any] = {
        "task": task.name,
        "dataset_path": "json",
        "dataset_kwargs": {"data_files": files},
        "training_split": "train",
        "test_split": "test",
        "fewshot_split": "train",
        "num_fewshot": options.shots if harness_draws else 0,
        "doc_to_text": task.prompt.doc_to_text,
        "target_delimiter": task.prompt.delimiter,
        "fewshot_delimiter": FEWSHOT_DELIMITER,
    }
    if not task.train:
        del files["train"], config["training_split"], config["fewshot_split"]
    if options.instruction:
        # the harness renders `description` as a Jinja template per document: the
        # instruction is text, and reaches the model as written
        config["description"] = verbatim(options.instruction.rstrip() + "\n\n")
    if task.choices:
        config |= {
            "output_type": "multiple_choice",
            "doc_to_target": "label_index",
            "doc_to_choice": list(task.choices),
            "metric_list": [{"metric": "acc", "aggregation": "mean", "higher_is_better": True}],
        }
    else:
        config |= _generation(task)
    if task.prompt.kind == "worked":  # demonstrations show their steps; the answer is scored
        config["fewshot_config"] = {"doc_to_target": task.prompt.answer_field}
    config["metadata"] = {"version": 1.0, "symcomp_test": task.test}
    return config


def _generation(task: _Task) -> dict[str, Any]:
    worked = task.prompt.kind == "worked"
    field = task.prompt.answer_field if worked else "target"
    longest = max(len(str(doc[field]).split()) for doc in task.items)
    # worked answers span lines: stop at the blank line after the answer, as demonstrations
    # end, or at a next input; then the answer line is the one scored
    first: dict[str, Any] = {"function": "remove_whitespace"}
    name = "remove_whitespace"
    if worked:
        first, name = {"function": "regex", "regex_pattern": ANSWER_PATTERN}, "answer"
    return {
        "output_type": "generate_until",
        "doc_to_target": "target",
        "generation_kwargs": {
            "until": [FEWSHOT_DELIMITER, "\nInput:"] if worked else ["\n"],
            "do_sample": False,
            "max_gen_toks": max(MIN_GEN_TOKENS, TOKENS_PER_WORD * longest),
        },
        "filter_list": [{"name": name, "filter": [first, {"function": "take_first"}]}],
        "metric_list": [{"metric": "exact_match", "aggregation": "mean", "higher_is_better": True}],
    }


def _without_steps(task: _Task) -> dict[str, Any]:
    """How many documents of a worked task have no steps (their output is not the
    language's interpretation of their input), per part; nothing for a task without steps."""
    parts = {"train": task.train, "test": task.items}
    if not any(FIELD in doc for docs in parts.values() for doc in docs):
        return {}
    return {"without_steps": {p: sum(d[FIELD] is None for d in docs) for p, docs in parts.items()}}


def _manifest(
    folder: Suite,
    tasks: Sequence[_Task],
    prefix: str,
    options: HarnessOptions,
    work: Path,
    files: Sequence[Path],
) -> dict[str, Any]:
    manifest = folder.manifest
    header = {
        key: manifest.get(key)
        for key in ("language", "grammar_version", "grammar_sha256", "seed", "symcomp_version")
    }
    return {
        "format": FORMAT,
        **header,
        "source": {"suite": str(folder.root), "suite_kind": manifest.get("suite")},
        "group": prefix,
        "options": {
            "shots": options.shots,
            "select": options.select,
            "seed": options.seed,
            "instruction": options.instruction,
            "fresh_words": options.fresh_words,
            "steps": options.steps,
        },
        "tasks": {
            task.name: {
                "test": task.test,
                "items": len(task.items),
                "train": len(task.train),
                "output_type": "multiple_choice" if task.choices else "generate_until",
                "coverage": task.coverage,
                **_without_steps(task),
            }
            for task in tasks
        },
        "files": {path.relative_to(work).as_posix(): file_record(path) for path in files},
    }
