"""SCAN-MCD quality (issue 11's targets; slow): Table 3 at the paper's sizes and construction."""

import pytest

import symcomp
from symcomp.data.generate import PoolSpec, generate
from symcomp.data.splits import Split
from symcomp.dbca.baselines import SplitSizes
from symcomp.dbca.mcd import McdConfig
from symcomp.dbca.split import BASELINES, PoolData, baseline, mcd, overlap

THRESHOLDS = {"output_length": 22, "input_length": 8}  # the paper's N


@pytest.mark.slow
def test_scan_mcd_splits_reach_the_papers_divergence(tmp_path):
    generate(symcomp.get_language("scan"), tmp_path / "scan", PoolSpec(enumerate_all=True))
    data = PoolData.read(tmp_path / "scan")
    assert len(data) == 20_910
    sizes = SplitSizes.from_fractions(len(data), train=0.4, test=0.05, dev=0.05)
    config = McdConfig(sizes.train, sizes.held_out, seeding="off", rounds=0)
    splits: dict[str, Split] = {}
    for seed in (1, 2, 3):
        splits[f"MCD{seed}"] = mcd(data, sizes, config, seed, distinct_from=dict(splits))
    for split in splits.values():
        assert split.meta["target_met"] is True
        assert split.meta["atom_divergence"] <= 0.02 and split.meta["dev_atom_divergence"] <= 0.02
        assert split.meta["compound_divergence"] >= 0.73
    assert overlap(splits["MCD2"].test, splits["MCD1"].test) <= 0.3
    assert overlap(splits["MCD3"].test, splits["MCD2"].test) <= 0.3
    baselines = {
        method: baseline(data, method, sizes, seed=0, max_train_length=THRESHOLDS.get(method))
        for method in BASELINES
    }
    assert baselines["random"].meta["compound_divergence"] <= 0.10
    weakest = min(split.meta["compound_divergence"] for split in splits.values())
    for method, split in baselines.items():
        assert weakest > split.meta["compound_divergence"], method
