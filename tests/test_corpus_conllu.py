"""Reading CoNLL-U (symcomp.data.corpus.conllu) and its dependency atoms and compounds
(symcomp.dbca.extractors.conllu), on small texts and on UD English LinES (dev)."""

from __future__ import annotations

import tracemalloc
from collections import Counter
from pathlib import Path

import pytest

from symcomp.data.corpus.conllu import read_conllu
from symcomp.dbca.extractors.conllu import conllu_atoms_compounds
from symcomp.errors import DataError

EN_LINES = Path(__file__).resolve().parents[2] / "shared/peers/ud_lines/en_lines-ud-dev.conllu"


def row(*columns: object) -> str:
    """One TAB-separated line."""
    return "\t".join(str(c) for c in columns) + "\n"


def word(i: int, form: str, head: int | str, rel: str, lemma: str | None = None) -> str:
    """A word line with the given ID, FORM, HEAD and DEPREL."""
    return row(i, form, lemma or form.lower(), "X", "_", "_", head, rel, "_", "_")


TWO = word(1, "Dogs", 2, "nsubj", "dog") + word(2, "bark", 0, "root")


def write(tmp_path: Path, text: str | bytes, name: str = "corpus.conllu") -> Path:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


# --- (a) reading ---------------------------------------------------------------------------


def test_sent_id_text_meta_and_lines(tmp_path: Path) -> None:
    text = (
        "# newdoc id = d1\n# newpar\n# sent_id = a\n# text = Dogs bark!\n# speaker = x = y\n"
        + TWO
        + "\n\n# sent_id = b\n"
        + word(1, "Cats", 2, "nsubj", "cat")
        + word(2, "purr", 0, "root")
    )
    first, second = read_conllu(write(tmp_path, text))
    assert first == {
        "id": "a",
        "input": "Dogs bark!",
        "line": 1,
        "meta": {"newdoc id": "d1", "newpar": "", "speaker": "x = y"},
        "syntax": {
            "forms": ["Dogs", "bark"],
            "lemmas": ["dog", "bark"],
            "upos": ["X", "X"],
            "heads": [2, 0],
            "deprels": ["nsubj", "root"],
            "feats": ["_", "_"],
        },
    }
    assert (second["id"], second["input"], second["line"], second["meta"]) == (
        "b",
        "Cats purr",
        10,
        {},
    )


def test_defaults_when_sent_id_and_text_are_absent(tmp_path: Path) -> None:
    path = write(tmp_path, TWO + "\n" + TWO, name="my.corpus.conllu")
    records = list(read_conllu(path))
    assert [r["id"] for r in records] == ["my.corpus-1", "my.corpus-2"]
    assert [r["input"] for r in records] == ["Dogs bark", "Dogs bark"]
    assert [r["line"] for r in records] == [1, 4]


def test_multiword_tokens_and_empty_nodes_are_skipped(tmp_path: Path) -> None:
    text = (
        row("1-2", "don't", *"_" * 8)
        + row(1, "do", "do", "AUX", "_", "Mood=Ind|Tense=Pres", 3, "aux", "_", "_")
        + row(2, "n't", "not", "PART", "_", "Polarity=Neg", 3, "advmod", "_", "_")
        + row(3, "go", "go", "VERB", "_", "_", 0, "root", "_", "_")
        + row("3.1", "went", "go", "VERB", "_", "_", "_", "_", "0:root", "_")
        + row(4, "home", "home", "ADV", "_", "_", 3, "advmod", "3:advmod", "_")
    )
    [record] = read_conllu(write(tmp_path, text))
    syntax = record["syntax"]
    assert syntax["forms"] == ["do", "n't", "go", "home"]
    assert syntax["heads"] == [3, 3, 0, 3]
    assert syntax["feats"] == ["Mood=Ind|Tense=Pres", "Polarity=Neg", "_", "_"]
    assert record["input"] == "don't go home"  # the range's surface form, not "do n't"


def test_crlf_bom_and_extra_blank_lines(tmp_path: Path) -> None:
    text = "\ufeff# sent_id = a\r\n" + TWO.replace("\n", "\r\n") + "\r\n\r\n\n\n" + TWO + "\n\n"
    records = list(read_conllu(write(tmp_path, text)))
    assert [(r["id"], r["line"]) for r in records] == [("a", 1), ("corpus-2", 8)]
    assert records[0]["syntax"]["deprels"] == ["nsubj", "root"]


def test_records_stream_before_a_later_error(tmp_path: Path) -> None:
    records = read_conllu(write(tmp_path, TWO + "\n" + word(1, "x", 7, "root")))
    assert next(records)["id"] == "corpus-1"
    with pytest.raises(DataError, match=r":4: HEAD 7"):
        next(records)


def test_memory_stays_bounded(tmp_path: Path) -> None:
    sentence = "# text = a b c d e\n" + "".join(
        word(i, "w", 0 if i == 1 else 1, "dep") for i in range(1, 6)
    )
    path = write(tmp_path, "\n".join([sentence] * 12_000))
    tracemalloc.start()
    try:
        count = sum(1 for _ in read_conllu(path))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert count == 12_000
    assert path.stat().st_size > 1_200_000
    assert peak < 500_000  # one sentence at a time, not the file (less than half its text)


# --- (b) errors ----------------------------------------------------------------------------

ERRORS = [
    pytest.param(TWO.encode() + b"\n" + word(1, "caf\xe9", 0, "root").encode("latin-1"), 4,
                 "byte 0xe9 at byte offset 64 is not valid UTF-8", id="not-utf8"),
    pytest.param("", 1, "the file holds no sentence", id="empty-file"),
    pytest.param("\n\n  \n", 1, "the file holds no sentence", id="blank-file"),
    pytest.param(TWO + "\n" + "1\tx\tx\tX\t_\t_\t0\troot\t_\n", 4,
                 "9 TAB-separated columns, expected 10", id="nine-columns"),
    pytest.param(TWO + "\n" + "1\tx\tx\tX\t_\t_\t0\troot\t_\t_\t_\n", 4,
                 "11 TAB-separated columns, expected 10", id="eleven-columns"),
    pytest.param("1  x  x  X  _  _  0  root  _  _\n", 1,
                 "1 TAB-separated columns, expected 10", id="spaces-not-tabs"),
    pytest.param(row(1, "x", "", "X", "_", "_", 0, "root", "_", "_"), 1,
                 "column 3 (LEMMA) is empty", id="empty-column"),
    pytest.param(TWO + "\n" + word(1, "a", 2, "nsubj") + word(2, "b", "x", "root"), 5,
                 "HEAD 'x' is not an integer; column 7 must hold the number of the head token",
                 id="head-not-integer"),
    pytest.param(word(1, "a", "_", "root"), 1, "HEAD '_' is not an integer", id="head-blank"),
    pytest.param(word(1, "a", "1.0", "root"), 1, "HEAD '1.0' is not an integer",
                 id="head-float"),
    pytest.param(TWO + word(3, "c", 4, "obj"), 3,
                 "HEAD 4 is out of range; column 7 must be 0 (the root) or the ID of a word "
                 "of this sentence (1..3)", id="head-too-large"),
    pytest.param(word(1, "a", -1, "root"), 1, "HEAD -1 is out of range", id="head-negative"),
    pytest.param("# sent_id = s\n" + word(1, "a", 0, "root") + word(2, "b", 3, "obj")
                 + word(3, "c", 4, "obj") + word(4, "d", 2, "obj"), 3,
                 "cycle with no path to the root (2 'b' -> 3 'c' -> 4 'd' -> 2 'b'",
                 id="cycle"),
    pytest.param(word(1, "a", 0, "root") + word(2, "b", 3, "obj") + word(3, "c", 2, "obj"), 2,
                 "(2 'b' -> 3 'c' -> 2 'b'", id="cycle-from-later-word"),
    pytest.param(word(1, "a", 1, "root"), 1, "cycle with no path to the root (1 'a' -> 1 'a'",
                 id="own-head"),
    pytest.param(TWO + "\n# sent_id = s2\n# text = nothing here\n\n" + TWO, 4,
                 "this sentence has no word lines", id="only-comments"),
    pytest.param(row("1-2", "don't", *"_" * 8), 1, "this sentence has no word lines",
                 id="only-a-range"),
    pytest.param(word(1, "a", 0, "root") + word(3, "c", 1, "obj"), 2,
                 "ID 3 where 2 was expected; number the word lines 1, 2, 3", id="id-gap"),
    pytest.param(word(1, "a", 0, "root") + word(1, "b", 1, "obj"), 2,
                 "ID 1 where 2 was expected", id="id-repeated"),
    pytest.param(word(2, "a", 0, "root"), 1, "ID 2 where 1 was expected", id="id-not-from-1"),
    pytest.param(word(0, "a", 0, "root"), 1, "ID 0 where 1 was expected", id="id-zero"),
    pytest.param(row("x", "a", "a", "X", "_", "_", 0, "root", "_", "_"), 1,
                 "ID 'x' is not a word number (1, 2, ...), a range (1-2) or an empty node",
                 id="id-not-a-number"),
    pytest.param(row("2-1", "a", *"_" * 8) + word(1, "a", 0, "root"), 1,
                 "ID '2-1' is not a word number", id="id-backward-range"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "line", "fragment"), ERRORS)
def test_errors_name_file_and_line(
    tmp_path: Path, text: str | bytes, line: int, fragment: str
) -> None:
    path = write(tmp_path, text)
    with pytest.raises(DataError) as caught:
        list(read_conllu(path))
    message = str(caught.value)
    assert message.startswith(f"{path}:{line}: "), message
    assert fragment in message, message
    assert message.endswith("."), message  # the how-to-fix part is a full sentence


def test_error_names_the_file_as_given(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path, TWO + "\n" + word(1, "x", "y", "root"))
    monkeypatch.chdir(tmp_path)
    with pytest.raises(DataError, match=r"^corpus\.conllu:4: HEAD 'y' is not an integer;"):
        list(read_conllu(Path("corpus.conllu")))


# --- extractor on hand-made syntax -----------------------------------------------------------

SAW = {
    "forms": ["I", "saw", "her", "dogs"],
    "lemmas": ["I", "see", "she", "dog"],
    "upos": ["PRON", "VERB", "PRON", "NOUN"],
    "heads": [2, 0, 4, 2],
    "deprels": ["nsubj", "root", "nmod:poss", "obj"],
    "feats": ["Case=Nom", "Tense=Past", "_", "Number=Plur"],
}


def test_extractor_forms_and_options() -> None:
    atoms, compounds = conllu_atoms_compounds(SAW)
    assert atoms == ["I", "-nsubj->", "see", "she", "-nmod:poss->", "dog", "-obj->"]
    assert compounds == ["see -nsubj-> I", "dog -nmod:poss-> she", "see -obj-> dog"]
    atoms, compounds = conllu_atoms_compounds(SAW, relation_subtypes=False, morphology=True)
    assert atoms == [
        "I+Case=Nom", "-nsubj->", "see+Tense=Past", "she", "-nmod->", "dog+Number=Plur", "-obj->",
    ]  # fmt: skip
    assert compounds == [
        "see+Tense=Past -nsubj-> I+Case=Nom",
        "dog+Number=Plur -nmod-> she",
        "see+Tense=Past -obj-> dog+Number=Plur",
    ]


def test_extractor_single_word_sentence() -> None:
    one = {"lemmas": ["hello"], "heads": [0], "deprels": ["root"], "feats": ["_"]}
    assert conllu_atoms_compounds(one) == (["hello"], [])


def unescape(text: str) -> str:
    """Inverse of the extractor's escaping (written here from its documented rules)."""
    pairs = {"\\": "\\", "s": " ", "+": "+", "-": "-"}
    out, chars = [], iter(text)
    for char in chars:
        out.append(pairs[next(chars)] if char == "\\" else char)
    return "".join(out)


@pytest.mark.parametrize(
    ("lemmas", "rel"),
    [
        (["a b", "c"], "obj"),
        (["a", "b c"], "obj"),
        (["x -obj-> y", "z"], "obj"),
        (["-obj->", "obj"], "obj"),
        (["a\\", "s"], "obj"),
        (["a\\s", "b"], "o b"),
        (["->", "-"], "x->y"),
    ],
)
def test_compounds_split_back_into_their_parts(lemmas: list[str], rel: str) -> None:
    syntax = {"lemmas": lemmas, "heads": [0, 1], "deprels": ["root", rel], "feats": ["_", "_"]}
    atoms, [compound] = conllu_atoms_compounds(syntax)
    head, arrow, dependent = compound.split(" ")
    parts = (unescape(head), unescape(arrow[1:-2]), unescape(dependent))
    assert parts == (lemmas[0], rel, lemmas[1])
    lemma_atoms = [atoms[0], atoms[1]]
    assert [unescape(a) for a in lemma_atoms] == lemmas
    assert not any(a.startswith("-") and a.endswith("->") for a in lemma_atoms)
    assert atoms[2] == arrow


def test_lemma_and_relation_atoms_never_coincide() -> None:
    syntax = {"lemmas": ["-case->", "case"], "heads": [0, 1], "deprels": ["root", "case"]}
    syntax["feats"] = ["_", "_"]
    atoms, _ = conllu_atoms_compounds(syntax)
    assert atoms == ["\\-case->", "case", "-case->"]
    assert len(set(atoms)) == 3


def test_morphology_escapes_plus() -> None:
    syntax = {"lemmas": ["C++", "a"], "heads": [0, 1], "deprels": ["root", "dep"]}
    syntax["feats"] = ["_", "A=B|C=D"]
    _, compounds = conllu_atoms_compounds(syntax, morphology=True)
    assert compounds == ["C\\+\\+ -dep-> a+A=B+C=D"]


@pytest.mark.parametrize(
    "syntax",
    [
        {"lemmas": ["a"], "heads": [0], "deprels": ["root"]},
        {"lemmas": ["a", "b"], "heads": [0], "deprels": ["root"], "feats": ["_", "_"]},
        {"lemmas": ["a"], "heads": [2], "deprels": ["root"], "feats": ["_"]},
    ],
)
def test_extractor_rejects_malformed_syntax(syntax: dict[str, list[object]]) -> None:
    with pytest.raises(DataError, match="syntax"):
        conllu_atoms_compounds(syntax)


# --- (c) UD English LinES dev --------------------------------------------------------------


@pytest.fixture(scope="module")
def en_lines() -> Path:
    if not EN_LINES.is_file():
        pytest.skip(f"{EN_LINES} is absent")
    return EN_LINES


def independent_counts(path: Path, subtypes: bool) -> tuple[Counter[str], Counter[str]]:
    """Atoms and compounds straight from the definition, by plain string splitting."""
    atoms: Counter[str] = Counter()
    compounds: Counter[str] = Counter()
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        rows = [line.split("\t") for line in block.splitlines() if line and line[0] != "#"]
        rows = [r for r in rows if r[0].isdigit()]  # drops 1-2 ranges and 8.1 empty nodes
        lemma = {r[0]: r[2] for r in rows}
        for r in rows:
            atoms[r[2]] += 1
            if r[6] != "0":
                rel = r[7] if subtypes else r[7].split(":")[0]
                atoms[f"-{rel}->"] += 1
                compounds[f"{lemma[r[6]]} -{rel}-> {r[2]}"] += 1
    return atoms, compounds


def test_en_lines_needs_no_escapes(en_lines: Path) -> None:
    # the independent count writes plain strings; that is right only if nothing needs escaping
    for line in en_lines.read_text(encoding="utf-8").splitlines():
        if line and line[0] != "#":
            lemma, rel = line.split("\t")[2], line.split("\t")[7]
            assert " " not in lemma + rel and "\\" not in lemma + rel, line
            assert not (lemma.startswith("-") and lemma.endswith("->")), line


def test_en_lines_sentence_count_and_ids(en_lines: Path) -> None:
    records = list(read_conllu(en_lines))
    assert len(records) == 1118
    assert records[0]["id"] == "en_lines-ud-dev-doc1-3177"
    assert records[0]["line"] == 1
    assert records[0]["meta"] == {"newdoc id": "1"}
    assert len({r["id"] for r in records}) == 1118


@pytest.mark.parametrize("subtypes", [True, False])
def test_en_lines_matches_independent_count(en_lines: Path, subtypes: bool) -> None:
    atoms: Counter[str] = Counter()
    compounds: Counter[str] = Counter()
    for record in read_conllu(en_lines):
        a, c = conllu_atoms_compounds(record["syntax"], relation_subtypes=subtypes)
        atoms.update(a)
        compounds.update(c)
    expected_atoms, expected_compounds = independent_counts(en_lines, subtypes)
    assert atoms == expected_atoms
    assert compounds == expected_compounds
    assert (atoms["-nmod:poss->"] > 0) is subtypes  # the option did change something
    assert sum(compounds.values()) == sum(v for k, v in atoms.items() if k.startswith("-"))


def test_en_lines_spot_check(en_lines: Path) -> None:
    # en_lines-ud-dev-doc2-3393 "But that's what I happen to be.", triples read off by hand
    [record] = [r for r in read_conllu(en_lines) if r["id"] == "en_lines-ud-dev-doc2-3393"]
    assert record["line"] == 4980
    assert record["syntax"]["forms"][1:3] == ["that", "'s"]  # the range "that's" is skipped
    _, compounds = conllu_atoms_compounds(record["syntax"])
    assert compounds == [
        "happen -cc-> but",
        "happen -nsubj:outer-> that",
        "happen -cop-> be",
        "happen -dislocated-> what",
        "happen -nsubj-> I",
        "what -mark-> to",
        "what -cop-> be",
        "happen -punct-> .",
    ]
    atoms, compounds = conllu_atoms_compounds(record["syntax"], relation_subtypes=False)
    assert compounds[1] == "happen -nsubj-> that"
    assert Counter(atoms)["-cop->"] == 2 and "happen" in atoms and "-root->" not in atoms
