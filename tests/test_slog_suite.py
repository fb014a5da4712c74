"""``symcomp suite slog`` at a small size: SLOG's parts and categories, Alto's depth windows per
case, no sentence twice, every row re-parsed to its logical form, the same bytes for a seed,
and bad options."""

from __future__ import annotations

import json
from collections import Counter
from itertools import product
from pathlib import Path

import pytest
from click.testing import CliRunner

from symcomp.cli import cli
from symcomp.core.registry import get_language
from symcomp.languages.cogs.cases import EXPOSURES
from symcomp.languages.slog.cases import GEN_CASES, GROUPS
from symcomp.languages.slog.deep import all_distinct, fewest_nouns
from symcomp.languages.slog.generation import DRAWS, SlogDrawer, kind_depth
from symcomp.languages.slog.suite import DEV, TEST, TRAIN

SCALE = 0.002
SMALL = ["--scale", str(SCALE), "--n-gen", "16", "--no-export"]
Records = list[dict[str, object]]


def _suite(out: Path, *extra: str) -> Records:
    result = CliRunner().invoke(cli, ["-q", "suite", "slog", *SMALL, *extra, "--out", str(out)])
    assert result.exit_code == 0, result.output
    lines = (out / "examples.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Records]:
    out = tmp_path_factory.mktemp("slog") / "suite"
    return out, _suite(out)


def _meta(record: dict[str, object]) -> dict[str, object]:
    meta = record["meta"]
    assert isinstance(meta, dict)
    return meta


def test_parts_have_slog_composition(small: tuple[Path, Records]) -> None:
    _out, records = small
    parts = Counter((_meta(r)["part"], _meta(r)["category"]) for r in records)
    for part, counts in (("train", TRAIN), ("dev", DEV), ("test", TEST)):
        for category, published in counts.items():
            assert parts[part, category] == max(1, round(published * SCALE)), (part, category)
    assert parts["train", "primitive"] == 183
    assert all(parts["train", category] == 1 for category in EXPOSURES)
    assert {c for (p, c) in parts if p == "gen"} == set(GEN_CASES)
    assert all(parts["gen", case] == 16 for case in GEN_CASES)
    groups = {
        (_meta(r)["category"], _meta(r)["group"]) for r in records if _meta(r)["part"] == "gen"
    }
    assert groups == set(GROUPS.items())


def test_no_sentence_twice_and_every_row_parses_to_its_output(small: tuple[Path, Records]) -> None:
    _out, records = small
    language = get_language("slog")
    texts = [str(r["input"]) for r in records if _meta(r)["category"] != "primitive"]
    assert len(texts) == len(set(texts))
    for record in records:
        tree = language.parse(str(record["input"]))
        assert language.render(language.evaluate(tree)) == record["output"]


def _window(case: str, kind: str) -> tuple[int, int]:
    return DRAWS[case].window(kind)


def test_depth_windows_hold_per_case(small: tuple[Path, Records]) -> None:
    _out, records = small
    language = get_language("slog")
    spread: Counter[tuple[str, int]] = Counter()
    for record in records:
        category = str(_meta(record)["category"])
        if category not in DRAWS:
            continue
        tree = language.parse(str(record["input"]))
        for kind in ("pp", "cp", "cemb"):
            low, high = _window(category, kind)
            assert low <= kind_depth(tree, kind) <= high, (category, kind, record["input"])
            if category.endswith("5-12") and low == 5:
                spread[category, kind_depth(tree, kind)] += 1
    cases = ("CP_5-12", "PP_5-12", "center_embed_5-12")
    assert spread == {(case, level): 2 for case, level in product(cases, range(5, 13))}


def test_standalone_rows_are_half_lower_case(small: tuple[Path, Records]) -> None:
    _out, records = small
    rows = [str(r["input"]) for r in records if _meta(r)["category"] == "standalone_NP_RC"]
    assert rows and not rows[-1][0].islower() and not rows[-1].endswith(".")


def test_the_same_seed_writes_the_same_bytes(small: tuple[Path, Records], tmp_path: Path) -> None:
    out, _records = small
    _suite(tmp_path / "again")
    for name in ("examples.jsonl", "gen/split.json", "test/split.json"):
        assert (tmp_path / "again" / name).read_bytes() == (out / name).read_bytes()


def test_drawn_trees_are_the_parses_of_their_text() -> None:
    language = get_language("slog")
    drawer = SlogDrawer(language, seed=3)
    sentences = [s for case in ("Q_long_mv", "RC_modif_iobj") for s in drawer.take(5, case)]
    for category, case in EXPOSURES.items():
        sentences += drawer.take(1, "in_distribution", case=case, what=category)
    for sentence in sentences:
        assert language.parse(sentence.text) == sentence.tree


def test_distinct_chance_matches_enumeration() -> None:
    probabilities = (0.5, 0.3, 0.2)
    for k in (2, 3):
        exact = sum(
            _prod(probabilities[i] for i in draw)
            for draw in product(range(3), repeat=k)
            if len(set(draw)) == k
        )
        assert all_distinct(probabilities, k) == pytest.approx(exact)
    rules: dict[str, tuple[list[float], list[tuple[str, ...]]]] = {
        "S": ([1.0], [("N", "V", "O")]),
        "O": ([0.5, 1.0], [("N",), ("N", "R", "O")]),
    }
    assert fewest_nouns(rules, "S", {"N": "NOUN"}, frozenset({"R"}), 0) == {"NOUN": 2}


def _prod(values: object) -> float:
    result = 1.0
    for value in values:  # type: ignore[attr-defined]
        result *= value
    return result


def test_deep_draws_match_redrawing_whole_sentences() -> None:
    """The two-step draw of a deep part and Alto's redraw-until-distinct agree on the share of
    sentences with an inanimate object (distinct nouns push it above the grammar's half)."""
    language = get_language("slog")
    shares = []
    for deep in (True, False):
        drawer = SlogDrawer(language, seed=11)
        if not deep:
            drawer._deep = lambda part: None  # type: ignore[method-assign]
        sentences = drawer.take(200, "center_embed_3")
        inanimate = language.grammar.sidecar.lexicon["N_INANIMATE"]
        shares.append(sum(any(w in inanimate for w in s.text.split()) for s in sentences) / 200)
    assert abs(shares[0] - shares[1]) < 0.12


@pytest.mark.parametrize(
    "extra",
    [
        ["--scale", "0"],
        ["--n-gen", "3"],
        ["--case", "PP_13"],
        ["--output", "lisp"],
    ],
)
def test_bad_options_exit_2(extra: list[str], tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["suite", "slog", *extra, "--out", str(tmp_path / "s")])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "s").exists()


def test_varfree_output(tmp_path: Path) -> None:
    records = _suite(tmp_path / "v", "--case", "Q_long_mv", "--output", "varfree")
    gen = [r for r in records if _meta(r)["part"] == "gen"]
    assert len(gen) == 16 and all(" = " in str(r["output"]) for r in gen)
