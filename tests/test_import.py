"""Your own data: `symcomp import`, extractors, and every command on an imported pool."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from symcomp.cli import cli
from symcomp.data.artifacts import read_examples
from symcomp.data.corpus.importer import ImportOptions, Source, import_corpus
from symcomp.data.splits import read_split
from symcomp.dbca.divergence import divergence
from symcomp.dbca.imported import import_pool
from symcomp.dbca.pool import FeatureOptions
from symcomp.dbca.split import PoolData
from symcomp.errors import DataError

GRAMMARS = Path(__file__).resolve().parents[1] / "grammars"
EN_LINES = Path(__file__).resolve().parents[2] / "shared/peers/ud_lines/en_lines-ud-dev.conllu"

# A COGS-style logical-form grammar: `cat ( x _ 1 ) AND run . agent ( x _ 2 , x _ 1 )`
COGS_GRAMMAR = """
start: clause ("AND" clause)*
clause: NAME "(" arg ")"                        -> noun
      | NAME "." NAME "(" arg "," arg ")"       -> role
arg: "x" "_" NUMBER                             -> var
   | NAME                                       -> const
NAME: /[a-z][a-z_]*/
NUMBER: /[0-9]+/
%ignore " "
"""
COGS_ROWS = [
    ("A cat ran .", "cat ( x _ 1 ) AND run . agent ( x _ 2 , x _ 1 )"),
    (
        "A dog saw Emma .",
        "dog ( x _ 1 ) AND see . agent ( x _ 2 , x _ 1 ) AND see . theme ( x _ 2 , emma )",
    ),
    ("Emma ran .", "run . agent ( x _ 1 , emma )"),
    (
        "A cat saw a dog .",
        "cat ( x _ 1 ) AND dog ( x _ 4 ) AND see . agent ( x _ 2 , x _ 1 ) AND "
        "see . theme ( x _ 2 , x _ 4 )",
    ),
]


def invoke(*args: object) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["-q", *(str(a) for a in args)])
    return result.exit_code, result.output


def write_tsv(path: Path, rows: Sequence[Sequence[str]]) -> Path:
    path.write_text("".join("\t".join(row) + "\n" for row in rows), encoding="utf-8")
    return path


def funql_rows(count: int) -> list[tuple[str, str]]:
    """Questions with FunQL targets over a few functions and states (varied compounds)."""
    functions = ["population_1", "area_1", "capital_1", "size", "density_1", "loc_1"]
    states = ["texas", "ohio", "utah", "maine", "iowa", "idaho", "peru"]
    rows = []
    for number in range(count):
        f = functions[number % len(functions)]
        g = functions[(number * 7 // 3) % len(functions)]
        s = states[(number * 5 // 2) % len(states)]
        if number % 3:
            rows.append((f"what is the {f} of {s} {number}", f"answer({f}(stateid('{s}')))"))
        else:
            target = f"answer({f}({g}(stateid('{s}'))))"
            rows.append((f"what is the {f} of the {g} of {s} {number}", target))
    return rows


# -- GenBench's conformance vectors -------------------------------------------------------------


def test_genbench_conformance_vectors():
    # genbench_cbt europarl_dbca_splits README: comdiv1_de.divergence(...)
    assert divergence([2, 4, 10], [1, 2, 5], 0.5) == 0.0
    assert divergence([2, 0, 6], [0, 5, 5], 0.1) == 0.4793101280037947


# -- TSV, JSONL, parts, duplicates -------------------------------------------------------------


def test_tsv_columns_by_position_and_extra_columns_in_meta(tmp_path: Path):
    source = write_tsv(tmp_path / "cogs.tsv", [(i, o, "in_distribution") for i, o in COGS_ROWS])
    manifest = import_pool([Source(source)], tmp_path / "pool")
    records = list(read_examples(tmp_path / "pool"))
    assert [r["input"] for r in records] == [i for i, _ in COGS_ROWS]
    assert records[0]["meta"] == {"column3": "in_distribution"}
    assert records[0]["id"] == "cogs-1"
    assert manifest["language"] is None
    assert (
        manifest["imported"]["sources"][0]["sha256"]
        == __import__("hashlib").sha256(source.read_bytes()).hexdigest()
    )
    assert manifest["extractor"]["name"] == "ngrams"


def test_tsv_columns_by_header_name_and_id(tmp_path: Path):
    rows = [("key", "lf", "sentence")] + [(f"k{n}", o, i) for n, (i, o) in enumerate(COGS_ROWS)]
    source = write_tsv(tmp_path / "data.tsv", rows)
    options = ImportOptions(input="sentence", output="lf", id="key")
    import_corpus([Source(source)], tmp_path / "pool", options)
    records = list(read_examples(tmp_path / "pool"))
    assert [r["id"] for r in records] == ["k0", "k1", "k2", "k3"]
    assert records[1]["input"] == "A dog saw Emma ." and records[1]["meta"] == {}


def test_jsonl_fields_meta_and_nli_fields(tmp_path: Path):
    lines = [
        {"question": "how big is texas", "funql": "answer(size(stateid(texas)))", "src": "geo"},
        {
            "question": "p",
            "funql": "q",
            "premise": "a dog ran",
            "hypothesis": "a dog moved",
            "label": "entailment",
            "meta": {"depth": 1},
        },
    ]
    path = tmp_path / "geo.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    import_corpus(
        [Source(path)], tmp_path / "pool", ImportOptions(input="question", output="funql")
    )
    first, second = read_examples(tmp_path / "pool")
    assert first["meta"] == {"src": "geo"} and first["output"] == "answer(size(stateid(texas)))"
    assert second["premise"] == "a dog ran" and second["label"] == "entailment"
    assert second["meta"] == {"depth": 1}


def test_parts_write_the_published_split_and_divergence_measures_it(tmp_path: Path):
    rows = funql_rows(90)
    parts = {"train": rows[:60], "dev": rows[60:70], "test": rows[70:85], "gen": rows[85:]}
    args = []
    for name, part in parts.items():
        args += ["--part", f"{name}={write_tsv(tmp_path / f'{name}.tsv', part)}"]
    code, output = invoke("import", *args, "--compounds", "tree:funql", "--out", tmp_path / "p")
    assert code == 0, output
    assert "train 60, dev 10, test 15, gen 5" in output
    published = read_split(tmp_path / "p/splits/published.json")
    assert (len(published.train), len(published.dev), len(published.test)) == (60, 10, 15)
    assert list(published.test) == list(range(70, 85))
    gen = read_split(tmp_path / "p/splits/published-gen.json")
    assert list(gen.test) == list(range(85, 90)) and gen.meta["test_part"] == "gen"
    records = list(read_examples(tmp_path / "p"))
    assert records[0]["meta"]["part"] == "train" and records[-1]["meta"]["part"] == "gen"
    code, output = invoke("divergence", tmp_path / "p", tmp_path / "p/splits/published.json")
    assert code == 0, output
    assert "compound divergence" in output and "unseen compound rate" in output


def test_duplicates_are_reported_and_dropped_on_request(tmp_path: Path):
    rows = [COGS_ROWS[0], COGS_ROWS[1], COGS_ROWS[0], COGS_ROWS[0]]
    source = write_tsv(tmp_path / "dup.tsv", rows)
    code, output = invoke("import", source, "--out", tmp_path / "keep")
    assert code == 0 and "duplicates: 2 rows" in output
    assert len(list(read_examples(tmp_path / "keep"))) == 4
    code, output = invoke("import", source, "--out", tmp_path / "drop", "--duplicates", "drop")
    assert code == 0 and "dropped" in output
    manifest = json.loads((tmp_path / "drop/manifest.json").read_text())
    assert manifest["imported"]["duplicates"] == {"rows": 2, "dropped": 2, "policy": "drop"}
    assert [r["id"] for r in read_examples(tmp_path / "drop")] == ["dup-1", "dup-2"]


# -- round trip ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def scan_pool(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("scan")
    assert invoke("generate", "scan", "--n", 300, "--seed", 3, "--out", root / "pool")[0] == 0
    return root / "pool"


def _triples(folder: Path) -> list[tuple[str, str, str]]:
    return [(r["id"], r["input"], r["output"]) for r in read_examples(folder)]


def test_round_trip_jsonl_and_hf_keep_ids_inputs_outputs(scan_pool: Path, tmp_path: Path):
    original = _triples(scan_pool)
    assert invoke("import", scan_pool / "examples.jsonl", "--out", tmp_path / "j")[0] == 0
    assert _triples(tmp_path / "j") == original
    code, output = invoke("export", scan_pool, "--format", "hf", "--out", tmp_path / "hf")
    assert code == 0, output
    code, output = invoke("import", tmp_path / "hf", "--out", tmp_path / "h")
    assert code == 0, output
    assert _triples(tmp_path / "h") == original
    records = list(read_examples(tmp_path / "h"))
    assert records[0]["meta"]["length"] == next(read_examples(scan_pool))["meta"]["length"]


def test_round_trip_tsv_keeps_inputs_and_outputs(scan_pool: Path, tmp_path: Path):
    # symcomp's tsv export has no id column: ids are numbered, inputs and outputs kept in order
    assert invoke("export", scan_pool, "--format", "tsv", "--out", tmp_path / "t")[0] == 0
    assert invoke("import", tmp_path / "t/examples.tsv", "--out", tmp_path / "p")[0] == 0
    back = [(i, o) for _id, i, o in _triples(tmp_path / "p")]
    assert back == [(i, o) for _id, i, o in _triples(scan_pool)]


# -- extractors ---------------------------------------------------------------------------------


def test_grammar_extractor_gives_dbca_compounds_of_logical_forms(tmp_path: Path):
    (tmp_path / "cogs.lark").write_text(COGS_GRAMMAR)
    source = write_tsv(tmp_path / "cogs.tsv", COGS_ROWS)
    spec = f"grammar:{tmp_path / 'cogs.lark'}"
    import_pool(
        [Source(source)],
        tmp_path / "pool",
        compounds=spec,
        on="output",
        extractor_options={"tokens": "true"},
    )
    manifest = json.loads((tmp_path / "pool/manifest.json").read_text())
    assert manifest["extractor"]["file"] == "grammar.lark"
    assert manifest["extractor"]["options"] == {"start": "start", "tokens": True}
    assert (tmp_path / "pool/grammar.lark").read_text() == COGS_GRAMMAR
    (tmp_path / "cogs.lark").unlink()  # the pool holds its own copy
    data = PoolData.read(tmp_path / "pool")
    features = data.features
    assert features.description["weighting"] == "dbca"
    assert features.description["extractor"]["sha256"] == manifest["extractor"]["sha256"]
    assert "role see theme" in features.atom_names and "var 1" in features.atom_names
    assert any(name.startswith("role see agent(0:var") for name in features.compound_names)


def test_grammar_rows_it_cannot_parse_are_listed_with_a_caret(tmp_path: Path):
    (tmp_path / "cogs.lark").write_text(COGS_GRAMMAR)
    source = write_tsv(tmp_path / "c.tsv", [*COGS_ROWS, ("bad", "cat ( x _ 1 AND")])
    args = ("import", source, "--compounds", f"grammar:{tmp_path / 'cogs.lark'}", "--on", "output")
    code, output = invoke(*args, "--out", tmp_path / "refused")
    assert code == 2 and not (tmp_path / "refused").exists()
    assert f"{source}:5: not parsed by cogs.lark at column 13" in output
    assert "    cat ( x _ 1 AND\n                ^" in output
    code, output = invoke(*args, "--out", tmp_path / "kept", "--unreadable", "drop")
    assert code == 0 and "left out 1 rows" in output
    assert len(list(read_examples(tmp_path / "kept"))) == 4


def test_builtin_mcd_equals_imported_mcd_with_the_same_grammar(tmp_path: Path):
    """An exported PCFG SET pool imported with the language's own grammar file: the same
    DAGs, so the same MCD split and D_C at D_A <= 0.02."""
    assert invoke("generate", "pcfg-set", "--n", 800, "--seed", 0, "--out", tmp_path / "b")[0] == 0
    assert invoke("export", tmp_path / "b", "--format", "tsv", "--out", tmp_path / "t")[0] == 0
    spec = f"grammar:{GRAMMARS / 'pcfg_set.lark'}"
    code, output = invoke(
        "import", tmp_path / "t/examples.tsv", "--compounds", spec, "--out", tmp_path / "i"
    )
    assert code == 0, output
    for pool in ("b", "i"):
        code, output = invoke(
            "split",
            "dbca",
            tmp_path / pool,
            "--seed",
            0,
            "--rounds",
            2,
            "--out",
            tmp_path / f"{pool}.json",
        )
        assert code == 0, output
    built_in, imported = read_split(tmp_path / "b.json"), read_split(tmp_path / "i.json")
    assert imported.meta["features"]["compounds"].startswith("grammar:")
    assert (built_in.train, built_in.test) == (imported.train, imported.test)
    assert imported.meta["compound_divergence"] == built_in.meta["compound_divergence"] > 0.5
    assert imported.meta["atom_divergence"] <= 0.02


def test_python_extractor_runs_only_when_named(tmp_path: Path):
    module = tmp_path / "mine.py"
    module.write_text(
        "def extract(record):\n"
        "    words = record['output'].split()\n"
        "    return words, [a + '>' + b for a, b in zip(words, words[1:])]\n"
    )
    source = write_tsv(tmp_path / "d.tsv", COGS_ROWS)
    spec = f"python:{module}:extract"
    code, output = invoke("import", source, "--compounds", spec, "--out", tmp_path / "p")
    assert code == 0, output
    # the manifest names python code: a later command does not run it unless told to
    code, output = invoke("split", "random", tmp_path / "p", "--out", tmp_path / "r.json")
    assert code == 2 and "never runs code because a file names it" in output
    code, output = invoke(
        "split",
        "random",
        tmp_path / "p",
        "--compounds",
        spec,
        "--test-frac",
        0.25,
        "--out",
        tmp_path / "r.json",
    )
    assert code == 0, output
    assert read_split(tmp_path / "r.json").meta["features"]["extractor"]["name"] == spec


def test_ngrams_on_output(tmp_path: Path):
    source = write_tsv(tmp_path / "d.tsv", COGS_ROWS)
    import_pool([Source(source)], tmp_path / "p", compounds="ngrams", on="output")
    features = PoolData.read(tmp_path / "p").features
    assert "AND" in features.atom_names and "x _" in features.compound_names
    inputs = PoolData.read(tmp_path / "p", FeatureOptions(compounds="ngrams", on="input"))
    assert "Emma" in inputs.features.atom_names


@pytest.mark.skipif(not EN_LINES.is_file(), reason="../shared is absent")
def test_conllu_pool_features_equal_the_extractor_over_the_file(tmp_path: Path):
    from symcomp.data.corpus.conllu import read_conllu
    from symcomp.dbca.extractors.conllu import conllu_atoms_compounds

    assert invoke("import", EN_LINES, "--out", tmp_path / "ud")[0] == 0
    features = PoolData.read(tmp_path / "ud").features
    compounds: Counter[str] = Counter()
    for record in read_conllu(EN_LINES):
        compounds.update(conllu_atoms_compounds(record["syntax"])[1])
    totals = features.compounds.sum_rows(range(len(features)))
    found = {name: totals[i] for i, name in enumerate(features.compound_names)}
    assert found == dict(compounds)
    assert features.description["kept_compounds"] == len(compounds)  # every compound kept


# -- every command on an imported pool ----------------------------------------------------------


@pytest.fixture(scope="module")
def geo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("geo")
    source = write_tsv(root / "geo.tsv", funql_rows(400))
    code, output = invoke("import", source, "--compounds", "tree:funql", "--out", root / "pool")
    assert code == 0, output
    return root


@pytest.mark.parametrize(
    "method", [("dbca", "--rounds", 1), ("random",), ("length",), ("pattern",)]
)
def test_splits_of_an_imported_pool(geo: Path, method: tuple[object, ...]):
    out = geo / f"{method[0]}.json"
    code, output = invoke("split", *method, geo / "pool", "--seed", 0, "--out", out, "--overwrite")
    assert code == 0, output
    meta = read_split(out).meta
    assert meta["features"]["compounds"] == "tree:funql"
    assert meta["features"]["extractor"] == {
        "name": "tree:funql",
        "version": 1,
        "on": "output",
        "options": {},
        "sha256": None,
    }


def test_suite_train_evaluate_export_stats_on_an_imported_pool(geo: Path):
    assert invoke("split", "random", geo / "pool", "--seed", 1, "--out", geo / "r.json")[0] == 0
    code, output = invoke(
        "suite", "from-splits", geo / "pool", geo / "r.json", "--out", geo / "suite", "--no-export"
    )
    assert code == 0, output
    code, output = invoke(
        "train",
        geo / "suite/r",
        "--model",
        "lstms2s",
        "--preset",
        "tiny",
        "--set",
        "epochs=1",
        "--set",
        "threads=1",
        "--out",
        geo / "run",
    )
    assert code == 0, output
    code, output = invoke(
        "evaluate", geo / "suite", "--model", geo / "run", "--model", "oracle", "--threads", 1
    )
    assert code == 0, output
    assert "1.0000" in output  # the oracle answers from the gold outputs
    code, output = invoke("train", geo / "suite/r", "--model", "treelstm", "--out", geo / "t")
    assert code == 2 and "no language to parse them" in output
    for fmt in ("hf", "genbench", "tsv", "srctgt"):
        code, output = invoke(
            "export",
            geo / "pool",
            "--split",
            geo / "r.json",
            "--format",
            fmt,
            "--out",
            geo / f"e-{fmt}",
        )
        assert code == 0, output
    code, output = invoke("stats", geo / "pool")
    assert code == 0 and "400 examples" in output


def test_fixed_test_sweep(geo: Path):
    code, output = invoke(
        "split",
        "sweep",
        geo / "pool",
        "--seed",
        0,
        "--rounds",
        2,
        "--dev-frac",
        0.05,
        "--levels",
        "0,0.5,1",
        "--out",
        geo / "sweep",
    )
    assert code == 0, output
    manifest = json.loads((geo / "sweep/manifest.json").read_text())
    assert [row["level"] for row in manifest["levels"]] == [0.0, 0.5, 1.0]
    splits = [read_split(geo / "sweep" / row["file"]) for row in manifest["levels"]]
    assert len({(s.test, s.dev) for s in splits}) == 1  # one test, one dev
    assert len({len(s.train) for s in splits}) == 1
    assert all(not set(s.train) & set(s.test + s.dev) for s in splits)
    values = [s.meta["compound_divergence"] for s in splits]
    # each level reaches its target, or the lowest D_C a train can have against this test
    assert values[0] <= values[1] < values[2] == manifest["reachable_dc"]
    assert abs(values[1] - 0.5 * values[2]) <= 0.01 or values[1] == values[0]
    assert all("dev_compound_divergence" in s.meta for s in splits)


def test_imported_nli_rows_are_verified(tmp_path: Path):
    pytest.importorskip("z3")
    code, output = invoke(
        "generate", "monotonicity", "--n", 12, "--seed", 0, "--out", tmp_path / "gen"
    )
    assert code == 0, output
    assert invoke("import", tmp_path / "gen/examples.jsonl", "--out", tmp_path / "p")[0] == 0
    record = next(read_examples(tmp_path / "p"))
    assert {"premise", "hypothesis", "label"} <= set(record)
    code, output = invoke("verify", tmp_path / "p", "--language", "monotonicity", "--json")
    assert code == 0, output
    assert json.loads(output)["summary"]["disagree"] == 0


def test_import_refuses_files_and_parts_together(tmp_path: Path):
    source = write_tsv(tmp_path / "d.tsv", COGS_ROWS)
    with pytest.raises(DataError, match="either files or parts"):
        import_corpus([Source(source), Source(source, "train")], tmp_path / "p")


def test_the_sample_corpus_shows_what_the_published_gen_part_tests(tmp_path: Path):
    from symcomp.data.corpus.samples import write_samples

    write_samples(tmp_path / "own")
    own = tmp_path / "own"
    parts = [f"--part={name}={own / name}.tsv" for name in ("train", "dev", "test", "gen")]
    code, output = invoke(
        "import",
        *parts,
        "--compounds",
        f"grammar:{own / 'lf.lark'}",
        "--on",
        "output",
        "--extractor-option",
        "tokens=true",
        "--out",
        tmp_path / "cogs",
    )
    assert code == 0, output
    splits = tmp_path / "cogs/splits"
    _, published = invoke("divergence", tmp_path / "cogs", splits / "published.json", "--json")
    _, gen = invoke("divergence", tmp_path / "cogs", splits / "published-gen.json", "--json")
    low, high = json.loads(published), json.loads(gen)
    assert low["compound_divergence"] < 0.2 < 0.8 < high["compound_divergence"]
    assert high["unseen_compound_rate"] > low["unseen_compound_rate"]
    code, output = invoke("import", own / "corpus.conllu", "--out", tmp_path / "treebank")
    assert code == 0 and "440 examples" in output


def test_a_package_can_add_an_extractor(tmp_path: Path):
    from symcomp.dbca.extractors.base import Extractor, available_extractors, register_extractor

    def first_words(argument: str | None, on: str | None, options: object) -> Extractor:
        def sets(record: Mapping[str, Any]) -> tuple[list[str], list[str]]:
            words = str(record["input"]).split()
            return words[:1], [" ".join(words[:2])]

        return Extractor("first-words", 1, "input", sets=sets)

    register_extractor("first-words", first_words)
    assert "first-words" in available_extractors()
    source = write_tsv(tmp_path / "d.tsv", COGS_ROWS)
    import_pool([Source(source)], tmp_path / "p", compounds="first-words")
    features = PoolData.read(tmp_path / "p").features
    assert features.compound_names == ("A cat", "A dog", "Emma ran")


def test_a_datasets_save_to_disk_folder_imports_with_its_splits(tmp_path: Path):
    datasets = pytest.importorskip("datasets")
    rows = {"question": [i for i, _ in COGS_ROWS], "lf": [o for _, o in COGS_ROWS]}
    whole = datasets.Dataset.from_dict(rows)
    folder = tmp_path / "saved"
    datasets.DatasetDict(
        {"train": whole.select(range(3)), "validation": whole.select([3])}
    ).save_to_disk(str(folder))
    code, output = invoke(
        "import", folder, "--input", "question", "--output", "lf", "--out", tmp_path / "p"
    )
    assert code == 0, output
    records = list(read_examples(tmp_path / "p"))
    assert [r["meta"]["part"] for r in records] == ["train", "train", "train", "dev"]
    assert [r["output"] for r in records] == [o for _, o in COGS_ROWS]
    # train and dev but no test: no published train/dev/test split to write
    assert not (tmp_path / "p/splits/published.json").exists()
