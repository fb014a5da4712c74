"""Harness sample files that are not what the harness wrote for an export of this suite.

Every field symcomp wrote into a document is made again from the suite and the options the
document records, and must be what the sample holds; each field of a sample is checked before
it is used (exit 2 naming the file, the line and the field, never an internal error); the
samples of two exports are never merged. The files are written in the harness's layout
(tests/test_llm_harness.py runs the real harness; tests/test_line_separators.py writes through
its own writer).
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

SYMCOMP = str(Path(sys.executable).with_name("symcomp"))
TEST = "template_right"
NLI_TEST = "protocol-III/train-depth-1-2"
LIMIT = 20
COVER = ("--shots", 2, "--select", "cover")

Doc = dict[str, Any]


def _symcomp(*args: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([SYMCOMP, *map(str, args)], capture_output=True, text=True, check=False)


def _export(suite: Path, out: Path, *options: object) -> list[Doc]:
    """The test documents of an export of one test of ``suite``."""
    done = _symcomp("export", suite, "--format", "lm-eval", "--out", out, *options)
    assert done.returncode == 0, done.stderr
    (data,) = (out / "data").iterdir()
    lines = (data / "test.jsonl").read_text(encoding="utf-8").split("\n")
    return [json.loads(line) for line in lines if line]


@pytest.fixture(scope="module")
def exports(
    scan_suite: Path, mono_suite: Path, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, list[Doc]]:
    root = tmp_path_factory.mktemp("exports")
    every = {
        "plain": _export(scan_suite, root / "plain", "--test", TEST),
        "fresh3": _export(scan_suite, root / "f3", "--test", TEST, "--fresh-words", 3),
        "fresh5": _export(scan_suite, root / "f5", "--test", TEST, "--fresh-words", 5),
        # NLI items, with demonstrations symcomp chose (from a small training part)
        "nli": _export(mono_suite, root / "n", "--test", NLI_TEST, *COVER),
        # worked documents (gold steps and worked text), in fresh words
        "worked": _export(scan_suite, root / "w", "--test", TEST, "--steps", "--fresh-words", 3),
    }
    return {name: docs[:LIMIT] for name, docs in every.items()} | {"fresh3_all": every["fresh3"]}


def _gold(doc: Doc) -> Any:
    """The harness's logged filtered response of a right answer."""
    if "choices" in doc:
        return [[str(0.0 if c == doc["label"] else -5.0), "False"] for c in doc["choices"]]
    return [doc["target"]]


def _write(path: Path, docs: list[Doc], answers: list[Any] | None = None) -> Path:
    """A harness sample file answering ``docs`` (right answers unless given)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    answers = answers if answers is not None else [_gold(doc) for doc in docs]
    lines = [
        {
            "doc_id": i,
            "doc": doc,
            "target": str(doc.get("target")),
            "resps": [[doc.get("worked", "")]],  # a worked document: its gold steps written
            "filtered_resps": answer,
        }
        for i, (doc, answer) in enumerate(zip(docs, answers, strict=True))
    ]
    path.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines), "utf-8")
    return path


def _evaluate(suite: Path, samples: Path, *extra: object) -> subprocess.CompletedProcess[str]:
    return _symcomp("evaluate", suite, "--predictions", samples, "--limit", LIMIT, "--json", *extra)


def _accuracy(done: subprocess.CompletedProcess[str], test: str = TEST) -> float:
    assert done.returncode == 0, done.stderr
    return float(json.loads(done.stdout)["tests"][test]["accuracy"])


def _edited(docs: list[Doc], change: Callable[[Doc], None], first_only: bool = True) -> list[Doc]:
    copies = [json.loads(json.dumps(doc)) for doc in docs]
    for doc in copies[:1] if first_only else copies:
        change(doc)
    return copies


def test_right_answers_score_one(
    scan_suite: Path, mono_suite: Path, exports: dict[str, list[Doc]], tmp_path: Path
) -> None:
    for name in ("plain", "fresh3"):
        samples = _write(tmp_path / name / "samples_t.jsonl", exports[name])
        assert _accuracy(_evaluate(scan_suite, samples)) == 1.0
    samples = _write(tmp_path / "nli" / "samples_t.jsonl", exports["nli"])
    assert _accuracy(_evaluate(mono_suite, samples), NLI_TEST) == 1.0
    samples = _write(tmp_path / "worked" / "samples_t.jsonl", exports["worked"])
    done = _evaluate(scan_suite, samples)
    steps = json.loads(done.stdout)["tests"][TEST]["steps"]
    assert _accuracy(done) == 1.0 and steps["items"] == LIMIT
    assert steps["step_accuracy"] == 1.0 and steps["gold_steps_written"] == 1.0


def _refused(done: subprocess.CompletedProcess[str], *said: str) -> None:
    assert done.returncode == 2, (done.returncode, done.stderr)
    assert all(text in done.stderr for text in said), done.stderr


def test_a_document_with_its_fresh_words_edited_is_refused(
    scan_suite: Path, exports: dict[str, list[Doc]], tmp_path: Path
) -> None:
    # right answers in seed 3's words, every document saying seed 5: scored 0.27, exit 0
    docs = _edited(exports["fresh3"], lambda doc: doc.update(fresh_words=5), first_only=False)
    answers = [_gold(doc) for doc in exports["fresh3"]]
    samples = _write(tmp_path / "samples_t.jsonl", docs, answers)
    _refused(_evaluate(scan_suite, samples), f'{samples}:1: the document\'s "input"', "edited")


def test_an_nli_document_with_its_choices_reversed_is_refused(
    mono_suite: Path, exports: dict[str, list[Doc]], tmp_path: Path
) -> None:
    # the right choice's log-likelihood highest, the choices listed the other way round
    docs = exports["nli"]
    answers = [_gold(doc)[::-1] for doc in docs]
    reversed_docs = _edited(docs, lambda doc: doc["choices"].reverse(), first_only=False)
    samples = _write(tmp_path / "samples_t.jsonl", reversed_docs, answers)
    _refused(_evaluate(mono_suite, samples), f'{samples}:1: the document\'s "choices"')


@pytest.mark.parametrize(
    ("name", "field", "value"),
    [
        ("plain", "id", "0000000000000000"),
        ("plain", "input", "jump"),
        ("plain", "target", "I_JUMP"),
        ("plain", "test", "template_around_right"),
        ("nli", "demonstrations", ""),
        ("nli", "label", "entailment-ish"),
        ("nli", "label_index", 7),
        ("nli", "premise", "A dog runs ."),
        ("worked", "steps", [{"input": "jump", "output": "I_JUMP"}]),
        ("worked", "steps", None),
        ("worked", "worked", "Answer: I_JUMP"),
    ],
)
def test_every_field_symcomp_wrote_is_checked(
    scan_suite: Path,
    mono_suite: Path,
    exports: dict[str, list[Doc]],
    tmp_path: Path,
    name: str,
    field: str,
    value: Any,
) -> None:
    docs = _edited(exports[name], lambda doc: doc.__setitem__(field, value))
    samples = _write(tmp_path / "samples_t.jsonl", docs, [_gold(d) for d in exports[name]])
    suite = mono_suite if name == "nli" else scan_suite
    said = "another suite's" if field == "test" else f'the document\'s "{field}"'
    _refused(_evaluate(suite, samples), f"{samples}:1: ", said)


def test_a_document_saying_another_export_is_refused(
    mono_suite: Path, exports: dict[str, list[Doc]], tmp_path: Path
) -> None:
    similar = {"shots": 2, "select": "similar", "seed": 0, "steps": False}
    docs = _edited(exports["nli"], lambda doc: doc.update(export=similar))
    samples = _write(tmp_path / "one" / "samples_t.jsonl", docs)
    _refused(_evaluate(mono_suite, samples), "two exports", "2 shots by similar")
    docs = _edited(exports["nli"], lambda doc: doc.update(export=similar), first_only=False)
    samples = _write(tmp_path / "all" / "samples_t.jsonl", docs)
    _refused(_evaluate(mono_suite, samples), f'{samples}:1: the document\'s "demonstrations"')


@pytest.mark.parametrize(
    ("name", "worked", "said"),
    [
        # a worked export's documents saying no steps: their steps and worked text are not
        # the export's they record
        ("worked", False, '"steps" ([{'),
        # a plain export's saying steps: the steps the export would write are missing
        ("plain", True, 'the document\'s "steps" is missing'),
    ],
)
def test_a_document_saying_worked_or_not_is_checked(
    scan_suite: Path,
    exports: dict[str, list[Doc]],
    tmp_path: Path,
    name: str,
    worked: bool,
    said: str,
) -> None:
    docs = _edited(exports[name], lambda doc: doc["export"].update(steps=worked), first_only=False)
    samples = _write(tmp_path / "samples_t.jsonl", docs, [_gold(d) for d in exports[name]])
    _refused(_evaluate(scan_suite, samples), f"{samples}:1: ", said)


def test_samples_of_two_exports_are_never_merged(
    scan_suite: Path, exports: dict[str, list[Doc]], tmp_path: Path
) -> None:
    folder = tmp_path / "run"
    _write(folder / "samples_a_2026.jsonl", exports["fresh3"])
    _write(folder / "samples_b_2026.jsonl", exports["fresh5"])
    _refused(_evaluate(scan_suite, folder), "two exports", "fresh words 3", "fresh words 5")
    alone = _write(tmp_path / "one" / "samples_a.jsonl", exports["fresh3"])
    _refused(_evaluate(scan_suite, alone, "--fresh-words", 5), "fresh words 3")


@pytest.mark.parametrize(
    ("name", "change", "said"),
    [
        ("fresh3", lambda doc: doc.update(fresh_words="x"), '"fresh_words" is "x"'),
        ("fresh3", lambda doc: doc.update(fresh_words=-3), '"fresh_words" is -3'),
        ("plain", lambda doc: doc.update(export={"shots": "2"}), '"export" is'),
        ("plain", lambda doc: doc.pop("export"), 'records no "export"'),
        ("nli", lambda doc: doc.update(choices=[]), '"choices" is []'),
    ],
)
def test_malformed_document_fields_are_exit_2(
    scan_suite: Path,
    mono_suite: Path,
    exports: dict[str, list[Doc]],
    tmp_path: Path,
    name: str,
    change: Callable[[Doc], None],
    said: str,
) -> None:
    docs = _edited(exports[name], change)
    samples = _write(tmp_path / "samples_t.jsonl", docs, [_gold(d) for d in exports[name]])
    suite = mono_suite if name == "nli" else scan_suite
    _refused(_evaluate(suite, samples), f"{samples}:1:", said)


@pytest.mark.parametrize(
    ("name", "answer", "said"),
    [
        ("nli", [{"loglikelihood": 0.0}, {"loglikelihood": -1.0}], "filtered_resps[0] is"),
        ("nli", [[int("9" * 400), False], ["-1.0", "False"]], "filtered_resps[0] is"),
        ("nli", [["NaN", "False"], ["-1.0", "False"]], "filtered_resps[0] is"),
        ("nli", [["-1.0", "False"]], "filtered_resps is a list of 1"),
        ("plain", [{"text": "I_JUMP"}], "not the generated text"),
        ("plain", [["-1.0", "False"]], "not the generated text"),
    ],
)
def test_malformed_responses_are_exit_2(
    scan_suite: Path,
    mono_suite: Path,
    exports: dict[str, list[Doc]],
    tmp_path: Path,
    name: str,
    answer: Any,
    said: str,
) -> None:
    docs = exports[name]
    answers = [answer, *(_gold(doc) for doc in docs[1:])]
    samples = _write(tmp_path / "samples_t.jsonl", docs, answers)
    suite = mono_suite if name == "nli" else scan_suite
    _refused(_evaluate(suite, samples), f"{samples}:1:", said)


def test_a_doc_id_past_the_test_is_named(
    scan_suite: Path, exports: dict[str, list[Doc]], tmp_path: Path
) -> None:
    path = _write(tmp_path / "samples_t.jsonl", exports["plain"])
    lines = path.read_text(encoding="utf-8").split("\n")
    last = json.loads(lines[LIMIT - 1])
    last["doc_id"] = 10**6
    lines[LIMIT - 1] = json.dumps(last)
    path.write_text("\n".join(lines), encoding="utf-8")
    _refused(_evaluate(scan_suite, path), f"{path}:{LIMIT}: doc_id 1000000 is past the end of test")


def _plain(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def test_plain_predictions_of_a_fresh_words_export(
    scan_suite: Path, exports: dict[str, list[Doc]], tmp_path: Path
) -> None:
    docs = exports["fresh3_all"]
    right = [{"id": doc["id"], "prediction": doc["target"]} for doc in docs]
    plain = _plain(tmp_path / "plain.jsonl", right)
    # right answers in fresh words, scored against the original words: not without a word
    accuracy, warned = _score(scan_suite, plain)
    assert accuracy < 0.5 and "warning:" in warned and "give its seed (--fresh-words)" in warned
    assert _score(scan_suite, plain, "--fresh-words", 3) == (1.0, "")
    stated = _plain(tmp_path / "stated.jsonl", [{**row, "fresh_words": 3} for row in right])
    assert _score(scan_suite, stated) == (1.0, "")
    other = _symcomp("evaluate", scan_suite, "--predictions", stated, "--fresh-words", 5)
    assert other.returncode == 2 and "give one seed" in other.stderr
    with_inputs = [{**row, "input": doc["input"]} for row, doc in zip(right, docs, strict=True)]
    inputs = _plain(tmp_path / "inputs.jsonl", with_inputs)
    refused = _symcomp("evaluate", scan_suite, "--predictions", inputs, "--test", TEST)
    assert refused.returncode == 2 and f"{inputs}:" in refused.stderr
    assert "export in fresh words (then give its seed: --fresh-words)" in refused.stderr
    assert _score(scan_suite, inputs, "--fresh-words", 3) == (1.0, "")


def _score(suite: Path, predictions: Path, *extra: object) -> tuple[float, str]:
    """The accuracy of plain predictions of one test, and what evaluate said on stderr."""
    done = _symcomp(
        "evaluate", suite, "--predictions", predictions, "--test", TEST, "--json", *extra
    )
    assert done.returncode == 0, done.stderr
    return float(json.loads(done.stdout)["tests"][TEST]["accuracy"]), done.stderr


def test_harness_samples_ask_for_no_seed(
    scan_suite: Path, exports: dict[str, list[Doc]], tmp_path: Path
) -> None:
    """Their documents record the export's fresh words: answers in words no output holds are
    just wrong."""
    docs = exports["plain"]
    samples = _write(tmp_path / "samples_t.jsonl", docs, [["I_ZORBLAX"] for _ in docs])
    done = _evaluate(scan_suite, samples)
    assert _accuracy(done) == 0.0 and "warning" not in done.stderr
