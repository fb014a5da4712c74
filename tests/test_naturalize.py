import json
from collections import Counter

import pytest

import symcomp
from symcomp.core.resources import grammar_file
from symcomp.data.generate import PoolSpec, generate
from symcomp.data.naturalize import LengthDepthTarget, histogram
from symcomp.errors import DataError


def test_quotas_sum_to_n_and_follow_the_target():
    target = LengthDepthTarget(5, 1, {(0, 1): 1, (5, 1): 2, (5, 2): 7})
    for n in (1, 7, 10, 999):
        quotas = target.quotas(n)
        assert sum(quotas.values()) == n
    assert target.quotas(100) == {(0, 1): 10, (5, 1): 20, (5, 2): 70}


def test_json_round_trip_and_validation(tmp_path):
    target = histogram([(3, 1), (7, 2), (8, 2)], provenance={"data": "toy"})
    path = tmp_path / "t.json"
    path.write_text(json.dumps(target.to_json()))
    assert LengthDepthTarget.load(path).counts == {(0, 1): 1, (5, 2): 2}
    path.write_text('{"format": "other"}')
    with pytest.raises(DataError, match=r"t.json: not a length/depth histogram"):
        LengthDepthTarget.load(path)
    path.write_text("{")
    with pytest.raises(DataError, match=r"t.json:1: not valid JSON"):
        LengthDepthTarget.load(path)


def test_naturalised_pool_matches_the_target_cells_exactly(tmp_path):
    pcfg = symcomp.get_language("pcfg-set")
    target = LengthDepthTarget.from_json(
        json.loads(grammar_file("pcfg_set.target.json").read_text())
    )
    manifest = generate(pcfg, tmp_path / "n", PoolSpec(n=600, seed=0, naturalize=target))
    records = [
        json.loads(line) for line in (tmp_path / "n/examples.jsonl").read_text().splitlines()
    ]
    cells = Counter(
        target.cell(length=r["meta"]["length"], depth=r["meta"]["depth"]) for r in records
    )
    assert cells == Counter({cell: q for cell, q in target.quotas(600).items() if q})
    assert manifest["parameters"]["naturalize"]["provenance"]["commit"].startswith("4f75bdd7")
    assert manifest["filters"]["rejected"]["naturalize_cell_full"] > 0


def test_random_weights_redraw_each_rules_split():
    pcfg = symcomp.get_language("pcfg-set")
    import random

    weights = pcfg.random_weights(random.Random(0))
    unary = sum(
        weights[f] for f in ("copy", "reverse", "shift", "echo", "swap_first_last", "repeat")
    )
    binary = sum(weights[f] for f in ("append", "prepend", "remove_first", "remove_second"))
    assert unary + binary == pytest.approx(1.0)
    assert weights["copy"] == pytest.approx(weights["repeat"])
    assert weights["call"] + weights["string"] == pytest.approx(1.0)
    assert "repeat_twin" not in weights  # weight-0 alternatives stay unsampled
