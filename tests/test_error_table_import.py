"""Bad input to ``symcomp import`` and to the extractors, as a table (lark's style).

Each case writes its files, runs one command and must end with exit code 2 (never a traceback
or the internal-error code 3), a message holding the fragment (``FILE:LINE:`` for a malformed
row) and no output folder: nothing half-written. Placeholders: ``{t}`` is the case's folder.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from symcomp.cli import cli

WORD = "{n}\t{form}\t{form}\tX\t_\t_\t{head}\t{rel}\t_\t_"
GOOD_TSV = b"jump twice\tJUMP JUMP\nwalk\tWALK\n"
GOOD_LARK = b'start: "jump" "twice" -> twice | "walk" -> walk\n%ignore " "\n'
FUNQL_TSV = b"how big is texas\tanswer(size(stateid(texas)))\n"


def sentence(*words: tuple[int | str, str], comments: tuple[str, ...] = ("# sent_id = s1",)) -> str:
    """A CoNLL-U block: (head, relation) per word, forms w1, w2, ..."""
    lines = list(comments)
    for number, (head, rel) in enumerate(words, start=1):
        lines.append(WORD.format(n=number, form=f"w{number}", head=head, rel=rel))
    return "\n".join(lines) + "\n\n"


GOOD_SENTENCE = sentence((0, "root"), (1, "obj"))


def conllu(text: str) -> dict[str, bytes]:
    return {"c.conllu": text.encode()}


# case, files, command (after `symcomp`), fragment
CASES: list[tuple[str, dict[str, bytes], tuple[str, ...], str]] = [
    # -- CoNLL-U ------------------------------------------------------------------------------
    (
        "conllu-head-not-integer",
        conllu(GOOD_SENTENCE + sentence((0, "root"), ("x", "obj"))),
        ("import", "{t}/c.conllu"),
        "c.conllu:7: HEAD 'x' is not an integer",
    ),
    (
        "conllu-head-too-large",
        conllu(sentence((0, "root"), (7, "obj"))),
        ("import", "{t}/c.conllu"),
        "c.conllu:3: HEAD 7 is out of range",
    ),
    (
        "conllu-head-negative",
        conllu(sentence((0, "root"), (-1, "obj"))),
        ("import", "{t}/c.conllu"),
        "c.conllu:3: HEAD",
    ),
    (
        "conllu-cycle",
        conllu(sentence((0, "root"), (3, "obj"), (2, "obj"))),
        ("import", "{t}/c.conllu"),
        "c.conllu:3: the heads form a cycle",
    ),
    (
        "conllu-own-head",
        conllu(sentence((0, "root"), (2, "obj"))),
        ("import", "{t}/c.conllu"),
        "cycle",
    ),
    (
        "conllu-missing-columns",
        conllu("# sent_id = a\n1\tw\tw\tX\t_\t_\t0\troot\t_\n\n"),
        ("import", "{t}/c.conllu"),
        "c.conllu:2: 9 TAB-separated columns, expected 10",
    ),
    (
        "conllu-extra-columns",
        conllu("1\tw\tw\tX\t_\t_\t0\troot\t_\t_\textra\n\n"),
        ("import", "{t}/c.conllu"),
        "c.conllu:1: 11 TAB-separated columns, expected 10",
    ),
    (
        "conllu-empty-sentence",
        conllu(GOOD_SENTENCE + "# sent_id = s2\n# text = nothing\n\n"),
        ("import", "{t}/c.conllu"),
        "c.conllu:5: this sentence has no word lines",
    ),
    (
        "conllu-ids-out-of-order",
        conllu("1\tw\tw\tX\t_\t_\t0\troot\t_\t_\n3\tv\tv\tX\t_\t_\t1\tobj\t_\t_\n\n"),
        ("import", "{t}/c.conllu"),
        "c.conllu:2: ID 3 where 2 was expected",
    ),
    (
        "conllu-bad-id",
        conllu("x\tw\tw\tX\t_\t_\t0\troot\t_\t_\n\n"),
        ("import", "{t}/c.conllu"),
        "c.conllu:1: ID 'x'",
    ),
    (
        "conllu-empty-column",
        conllu("1\tw\t\tX\t_\t_\t0\troot\t_\t_\n\n"),
        ("import", "{t}/c.conllu"),
        "c.conllu:1: column 3 (LEMMA) is empty",
    ),
    ("conllu-empty-file", {"c.conllu": b""}, ("import", "{t}/c.conllu"), "holds no sentence"),
    ("conllu-blank-file", {"c.conllu": b"\n\n\n"}, ("import", "{t}/c.conllu"), "no sentence"),
    (
        "conllu-latin1",
        {"c.conllu": GOOD_SENTENCE.replace("w2", "caf\xe9").encode("latin-1")},
        ("import", "{t}/c.conllu"),
        "c.conllu:3: byte 0xe9",
    ),
    (
        "conllu-output-comment-missing",
        conllu(GOOD_SENTENCE),
        ("import", "{t}/c.conllu", "--output", "translation"),
        "c.conllu:1: the sentence has no comment '# translation = ...'",
    ),
    (
        "conllu-extractor-with-on",
        conllu(GOOD_SENTENCE),
        ("import", "{t}/c.conllu", "--on", "input"),
        "extractor conllu reads each sentence's syntax",
    ),
    (
        "conllu-extractor-bad-option",
        conllu(GOOD_SENTENCE),
        ("import", "{t}/c.conllu", "--extractor-option", "subtypes=false"),
        "extractor conllu has no option subtypes; it takes relation_subtypes, morphology",
    ),
    (
        "conllu-extractor-option-not-boolean",
        conllu(GOOD_SENTENCE),
        ("import", "{t}/c.conllu", "--extractor-option", "morphology=maybe"),
        "option morphology must be true or false",
    ),
    (
        "conllu-extractor-on-a-tsv",
        {"d.tsv": GOOD_TSV},
        ("import", "{t}/d.tsv", "--compounds", "conllu"),
        "d.tsv:1: the example has no syntax",
    ),
    # -- TSV --------------------------------------------------------------------------------
    (
        "tsv-fewer-columns",
        {"d.tsv": GOOD_TSV + b"run\n"},
        ("import", "{t}/d.tsv"),
        "d.tsv:3: has 1 column, the first row has 2",
    ),
    (
        "tsv-more-columns",
        {"d.tsv": GOOD_TSV + b"run\tRUN\textra\n"},
        ("import", "{t}/d.tsv"),
        "d.tsv:3: has 3 columns, the first row has 2",
    ),
    (
        "tsv-header-count",
        {"d.tsv": b"in\tout\n" + b"a\tb\tc\n"},
        ("import", "{t}/d.tsv", "--input", "in", "--output", "out"),
        "d.tsv:2: has 3 columns, the header has 2",
    ),
    ("tsv-empty-file", {"d.tsv": b""}, ("import", "{t}/d.tsv"), "d.tsv: holds no examples"),
    ("tsv-blank-lines-only", {"d.tsv": b"\n\n"}, ("import", "{t}/d.tsv"), "holds no examples"),
    (
        "tsv-latin1",
        {"d.tsv": GOOD_TSV + "caf\xe9\tX\n".encode("latin-1")},
        ("import", "{t}/d.tsv"),
        "d.tsv:3: byte 0xe9 at column 4 is not UTF-8",
    ),
    ("tsv-binary", {"d.tsv": bytes(range(256))}, ("import", "{t}/d.tsv"), "is not UTF-8"),
    (
        "tsv-unknown-column-name",
        {"d.tsv": b"sentence\tlf\na\tb\n"},
        ("import", "{t}/d.tsv", "--input", "question", "--output", "lf"),
        "d.tsv:1: no column named 'question' in the header (sentence, lf); choose the input "
        "column with --input",
    ),
    (
        "tsv-column-beyond-width",
        {"d.tsv": GOOD_TSV},
        ("import", "{t}/d.tsv", "--output", "5"),
        "d.tsv:1: the output column is 5, but the rows have 2 columns",
    ),
    (
        "tsv-column-zero",
        {"d.tsv": GOOD_TSV},
        ("import", "{t}/d.tsv", "--input", "0"),
        "columns are numbered from 1",
    ),
    (
        "tsv-repeated-ids",
        {"d.tsv": b"a\tx\tX\na\ty\tY\n"},
        ("import", "{t}/d.tsv", "--id", "1", "--input", "2", "--output", "3"),
        "d.tsv:2: id 'a' (the file's) was already used at",
    ),
    (
        "tsv-unknown-suffix",
        {"d.csv": GOOD_TSV},
        ("import", "{t}/d.csv"),
        "cannot tell the format from the suffix '.csv'; give --format",
    ),
    (
        "tsv-folder-given",
        {"sub/d.tsv": GOOD_TSV},
        ("import", "{t}/sub", "--format", "tsv"),
        "is a folder; give a tsv file",
    ),
    # -- JSONL ----------------------------------------------------------------------------
    (
        "jsonl-missing-field",
        {"d.jsonl": b'{"input": "a", "output": "b"}\n{"input": "c"}\n'},
        ("import", "{t}/d.jsonl"),
        "d.jsonl:2: no field 'output' (fields: input)",
    ),
    (
        "jsonl-named-field-missing",
        {"d.jsonl": b'{"input": "a", "output": "b"}\n'},
        ("import", "{t}/d.jsonl", "--output", "sparql"),
        "d.jsonl:1: no field 'sparql'",
    ),
    (
        "jsonl-not-json",
        {"d.jsonl": b'{"input": "a", "output": "b"}\n{"input": \n'},
        ("import", "{t}/d.jsonl"),
        "d.jsonl:2: not valid JSON",
    ),
    (
        "jsonl-array",
        {"d.jsonl": b"[1, 2]\n"},
        ("import", "{t}/d.jsonl"),
        "d.jsonl:1: each line must be a JSON object",
    ),
    (
        "jsonl-number-input",
        {"d.jsonl": b'{"input": 3, "output": "b"}\n'},
        ("import", "{t}/d.jsonl"),
        "d.jsonl:1: field 'input' is not a string",
    ),
    (
        "jsonl-nan",
        {"d.jsonl": b'{"input": "a", "output": "b", "w": NaN}\n'},
        ("import", "{t}/d.jsonl"),
        "d.jsonl:1:",
    ),
    ("jsonl-empty-file", {"d.jsonl": b""}, ("import", "{t}/d.jsonl"), "holds no examples"),
    (
        "jsonl-latin1",
        {"d.jsonl": '{"input": "caf\xe9", "output": "b"}\n'.encode("latin-1")},
        ("import", "{t}/d.jsonl"),
        "d.jsonl:1: byte 0xe9",
    ),
    # -- Hugging Face folders ---------------------------------------------------------------
    (
        "hf-two-configurations",
        {
            "h/data/a/train.jsonl": b'{"input": "a", "output": "b"}\n',
            "h/data/b/train.jsonl": b'{"input": "a", "output": "b"}\n',
        },
        ("import", "{t}/h"),
        "holds 2 configurations (a, b); choose one with --config",
    ),
    (
        "hf-unknown-configuration",
        {"h/data/a/train.jsonl": b'{"input": "a", "output": "b"}\n'},
        ("import", "{t}/h", "--config", "z"),
        "has no configuration 'z'; it has a",
    ),
    (
        "hf-given-a-file",
        {"d.jsonl": b'{"input": "a", "output": "b"}\n'},
        ("import", "{t}/d.jsonl", "--format", "hf"),
        "a Hugging Face dataset is a folder",
    ),
    (
        "hf-bad-line",
        {"h/data/train.jsonl": b'{"input": "a", "output": "b"}\n{"input"\n'},
        ("import", "{t}/h"),
        "train.jsonl:2: not valid JSON",
    ),
    (
        "hf-not-a-dataset",
        {"h/notes.txt": b"hello\n"},
        ("import", "{t}/h"),
        "h/train:1: no field 'input' or 'output' (fields: text)",
    ),
    # -- extractors -----------------------------------------------------------------------
    (
        "extractor-unknown",
        {"d.tsv": GOOD_TSV},
        ("import", "{t}/d.tsv", "--compounds", "trees"),
        "unknown extractor 'trees' (did you mean 'tree'?)",
    ),
    (
        "extractor-tree-without-notation",
        {"d.tsv": FUNQL_TSV},
        ("import", "{t}/d.tsv", "--compounds", "tree"),
        "tree:funql or tree:sexpr",
    ),
    (
        "extractor-tree-unknown-notation",
        {"d.tsv": FUNQL_TSV},
        ("import", "{t}/d.tsv", "--compounds", "tree:lisp"),
        "got tree:lisp",
    ),
    (
        "extractor-tree-unbalanced",
        {"d.tsv": FUNQL_TSV + b"q\tanswer(size(texas)\n"},
        ("import", "{t}/d.tsv", "--compounds", "tree:funql"),
        "d.tsv:2: ",
    ),
    (
        "extractor-tree-option",
        {"d.tsv": FUNQL_TSV},
        ("import", "{t}/d.tsv", "--compounds", "tree:funql", "--extractor-option", "n=2"),
        "extractor tree has no option n; it takes none",
    ),
    (
        "extractor-option-without-equals",
        {"d.tsv": GOOD_TSV},
        ("import", "{t}/d.tsv", "--extractor-option", "n"),
        "write KEY=VALUE",
    ),
    (
        "extractor-ngrams-zero",
        {"d.tsv": GOOD_TSV},
        ("import", "{t}/d.tsv", "--extractor-option", "n=0"),
        "n must be at least 1",
    ),
    (
        "extractor-ngrams-not-a-number",
        {"d.tsv": GOOD_TSV},
        ("import", "{t}/d.tsv", "--extractor-option", "n=two"),
        "n must be a whole number",
    ),
    (
        "grammar-missing-file",
        {"d.tsv": GOOD_TSV},
        ("import", "{t}/d.tsv", "--compounds", "grammar:{t}/none.lark"),
        "cannot read it",
    ),
    (
        "grammar-parses-no-row",
        {"d.tsv": GOOD_TSV, "g.lark": b'start: "run"\n'},
        ("import", "{t}/d.tsv", "--compounds", "grammar:{t}/g.lark"),
        "reads none of the 2 rows",
    ),
    (
        "grammar-parses-some-rows",
        {"d.tsv": GOOD_TSV + b"run\tRUN\n", "g.lark": GOOD_LARK},
        ("import", "{t}/d.tsv", "--compounds", "grammar:{t}/g.lark"),
        "cannot read 1 of 3 rows; nothing was written",
    ),
    (
        "grammar-does-not-compile",
        {"d.tsv": GOOD_TSV, "g.lark": b"start: (\n"},
        ("import", "{t}/d.tsv", "--compounds", "grammar:{t}/g.lark"),
        "Lark cannot compile it",
    ),
    (
        "grammar-not-utf8",
        {"d.tsv": GOOD_TSV, "g.lark": b'start: "caf\xe9"\n'},
        ("import", "{t}/d.tsv", "--compounds", "grammar:{t}/g.lark"),
        "is not UTF-8",
    ),
    (
        "grammar-without-file",
        {"d.tsv": GOOD_TSV},
        ("import", "{t}/d.tsv", "--compounds", "grammar"),
        "needs the grammar file: grammar:PATH.lark",
    ),
    (
        "python-no-function",
        {"d.tsv": GOOD_TSV, "m.py": b"x = 1\n"},
        ("import", "{t}/d.tsv", "--compounds", "python:{t}/m.py:extract"),
        "has no function 'extract'",
    ),
    (
        "python-no-module",
        {"d.tsv": GOOD_TSV},
        ("import", "{t}/d.tsv", "--compounds", "python:no_such_module_x:f"),
        "no module named",
    ),
    (
        "python-import-fails",
        {"d.tsv": GOOD_TSV, "m.py": b"raise ValueError('boom')\n"},
        ("import", "{t}/d.tsv", "--compounds", "python:{t}/m.py:f"),
        "raised ValueError: boom",
    ),
    (
        "python-returns-wrong-type",
        {"d.tsv": GOOD_TSV, "m.py": b"def f(record):\n    return 'atoms'\n"},
        ("import", "{t}/d.tsv", "--compounds", "python:{t}/m.py:f"),
        "d.tsv:1: python:",
    ),
    (
        "python-raises",
        {"d.tsv": GOOD_TSV, "m.py": b"def f(record):\n    return 1 / 0\n"},
        ("import", "{t}/d.tsv", "--compounds", "python:{t}/m.py:f"),
        "raised ZeroDivisionError",
    ),
    (
        "python-not-strings",
        {"d.tsv": GOOD_TSV, "m.py": b"def f(record):\n    return [1], []\n"},
        ("import", "{t}/d.tsv", "--compounds", "python:{t}/m.py:f"),
        "every atom and compound is",
    ),
    # -- usage ------------------------------------------------------------------------------
    (
        "files-and-parts",
        {"d.tsv": GOOD_TSV},
        ("import", "{t}/d.tsv", "--part", "train={t}/d.tsv"),
        "not both",
    ),
    ("nothing-to-import", {}, ("import",), "nothing to import"),
    (
        "part-twice",
        {"d.tsv": GOOD_TSV},
        ("import", "--part", "train={t}/d.tsv", "--part", "train={t}/d.tsv"),
        "given twice",
    ),
    (
        "part-name-with-slash",
        {"d.tsv": GOOD_TSV},
        ("import", "--part", "a/b={t}/d.tsv"),
        "part name",
    ),
    ("part-without-file", {}, ("import", "--part", "train="), "give a file after '='"),
    ("missing-file", {}, ("import", "{t}/none.tsv"), "none.tsv: no such file or folder"),
]


def invoke(*args: object) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["-q", *(str(a) for a in args)])
    return result.exit_code, result.output


@pytest.mark.parametrize(
    ("case", "files", "args", "fragment"), CASES, ids=[case[0] for case in CASES]
)
def test_bad_import(
    tmp_path: Path, case: str, files: dict[str, bytes], args: tuple[str, ...], fragment: str
) -> None:
    for name, data in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(data)
    command = [arg.replace("{t}", str(tmp_path)) for arg in args]
    out = tmp_path / "pool"
    if len(command) > 0:
        command += ["--out", str(out)]
    code, output = invoke(*command)
    assert "Traceback" not in output, output
    assert code == 2, f"{case}: exit {code}: {output}"
    assert " ".join(fragment.split()) in " ".join(output.split()), f"{case}: {output}"
    assert not out.exists(), f"{case}: {out} was written"


def test_the_table_is_long_enough():
    assert len(CASES) >= 40


def test_a_pool_that_names_python_code_is_not_run(tmp_path: Path):
    (tmp_path / "m.py").write_text("def f(record):\n    return ['a'], ['b']\n")
    (tmp_path / "d.tsv").write_bytes(GOOD_TSV * 3)
    spec = f"python:{tmp_path / 'm.py'}:f"
    assert (
        invoke("import", tmp_path / "d.tsv", "--compounds", spec, "--out", tmp_path / "p")[0] == 0
    )
    marker = tmp_path / "PWNED"
    (tmp_path / "m.py").write_text(f"import os\nos.makedirs({str(marker)!r})\n")
    code, output = invoke(
        "split", "random", tmp_path / "p", "--test-frac", 0.5, "--out", tmp_path / "r.json"
    )
    assert code == 2 and "never runs code because a file names it" in output
    assert not marker.exists()


def test_a_manifest_grammar_outside_the_pool_is_refused(tmp_path: Path):
    (tmp_path / "g.lark").write_bytes(GOOD_LARK)
    (tmp_path / "d.tsv").write_bytes(GOOD_TSV)
    spec = f"grammar:{tmp_path / 'g.lark'}"
    assert (
        invoke("import", tmp_path / "d.tsv", "--compounds", spec, "--out", tmp_path / "p")[0] == 0
    )
    manifest = json.loads((tmp_path / "p/manifest.json").read_text())
    manifest["extractor"]["file"] = "../g.lark"
    (tmp_path / "p/manifest.json").write_text(json.dumps(manifest))
    code, output = invoke(
        "split", "random", tmp_path / "p", "--test-frac", 0.5, "--out", tmp_path / "r.json"
    )
    assert code == 2 and "is not a path inside" in output


def test_an_existing_pool_is_replaced_only_with_overwrite(tmp_path: Path):
    (tmp_path / "d.tsv").write_bytes(GOOD_TSV)
    assert invoke("import", tmp_path / "d.tsv", "--out", tmp_path / "p")[0] == 0
    before = (tmp_path / "p/examples.jsonl").read_bytes()
    (tmp_path / "d.tsv").write_bytes(GOOD_TSV + b"run\tRUN\n")
    code, output = invoke("import", tmp_path / "d.tsv", "--out", tmp_path / "p")
    assert code == 2 and "overwrite" in output
    assert (tmp_path / "p/examples.jsonl").read_bytes() == before
    (tmp_path / "bad.tsv").write_bytes(b"a\tb\nc\n")
    code, output = invoke("import", tmp_path / "bad.tsv", "--out", tmp_path / "p", "--overwrite")
    assert code == 2 and (tmp_path / "p/examples.jsonl").read_bytes() == before
    kept = ["examples.jsonl", "features", "manifest.json"]  # the first import's, whole
    assert sorted(p.name for p in (tmp_path / "p").iterdir()) == kept
    code, output = invoke("import", tmp_path / "d.tsv", "--out", tmp_path / "p", "--overwrite")
    assert code == 0 and len(list((tmp_path / "p/examples.jsonl").open())) == 3
