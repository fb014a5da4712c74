"""SCAN-MCD quality (the issue's targets; slow): three seeds, a random split, Table 3's order."""

import pytest

import symcomp
from symcomp.data.generate import PoolSpec, generate
from symcomp.dbca.baselines import SplitSizes
from symcomp.dbca.mcd import McdConfig
from symcomp.dbca.split import BASELINES, PoolData, baseline, mcd


@pytest.mark.slow
def test_scan_mcd_splits_reach_the_papers_divergence(tmp_path):
    generate(symcomp.get_language("scan"), tmp_path / "scan", PoolSpec(enumerate_all=True))
    data = PoolData.read(tmp_path / "scan")
    assert len(data) == 20_910
    sizes = SplitSizes.from_fractions(len(data), train=0.4, test=0.1)
    config = McdConfig(train_size=sizes.train, test_size=sizes.held_out)
    splits = [mcd(data, sizes, config, seed) for seed in (0, 1, 2)]
    for split in splits:
        assert split.meta["atom_divergence"] <= 0.02
        assert split.meta["compound_divergence"] >= 0.70
    assert len({tuple(split.test) for split in splits}) == 3
    baselines = {method: baseline(data, method, sizes, seed=0) for method in BASELINES}
    assert baselines["random"].meta["compound_divergence"] <= 0.10
    weakest = min(split.meta["compound_divergence"] for split in splits)
    for method, split in baselines.items():
        assert weakest > split.meta["compound_divergence"], method
