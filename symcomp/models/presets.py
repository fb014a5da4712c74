"""Named configurations: the papers' setups and small ones that train in minutes on a CPU.

Each preset gives overrides for the model's config and for the ``train``, ``task`` and
``head`` sections (see :mod:`symcomp.models.zoo`). ``hupkes`` follows Hupkes et al. 2020's
training scripts (OpenNMT-py / fairseq settings; see docs/models.md for what is approximated);
``small`` is the default; ``tiny`` is for tests and demos.
"""

from __future__ import annotations

from typing import Any

Preset = dict[str, dict[str, Any]]

_SMALL_TRAIN = {"optimizer": "adam", "lr": 1e-3, "clip": 5.0, "epochs": 20, "patience": 5}
_ENCODER_TRAIN = {**_SMALL_TRAIN, "epochs": 30, "patience": 5, "dev_metric": "dev_accuracy"}
_TINY_TRAIN = {"optimizer": "adam", "lr": 3e-3, "clip": 5.0, "epochs": 5}
# CobA's setup: AdamW with polynomial (linear) decay after a warm-up, frozen DICE numbers
_COBA_TRAIN = {
    "optimizer": "adamw",
    "lr": 1e-3,
    "weight_decay": 0.01,
    "schedule": "polynomial",
    "warmup": 200,
    "clip": 1.0,
    "epochs": 30,
}
_COBA_TASK = {"numbers": "dice", "batch_size": 64}

_TRANSFORMER: dict[str, Preset] = {
    "hupkes": {
        "model": {"d_model": 512, "heads": 8, "ff": 2048, "layers": 6, "dropout": 0.1},
        "train": {
            "optimizer": "adam",
            "lr": 1.0,
            "beta2": 0.998,
            "schedule": "noam",
            "warmup": 8000,
            "noam_dim": 512,
            "clip": 0.0,
            "epochs": 25,
        },
        "task": {"batch_size": 64},
    },
    "small": {  # SCAN simple: 0.977 in 8 CPU-minutes (benchmarks/train_scan.py)
        "model": {"d_model": 64, "heads": 4, "ff": 256, "layers": 3, "dropout": 0.0},
        "train": {**_SMALL_TRAIN, "lr": 2e-3, "schedule": "rsqrt", "warmup": 500},
        "task": {"batch_size": 32},
    },
    "tiny": {
        "model": {"d_model": 32, "heads": 2, "ff": 64, "layers": 1, "dropout": 0.0},
        "train": _TINY_TRAIN,
        "task": {"batch_size": 32},
    },
}

PRESETS: dict[str, dict[str, Preset]] = {
    "lstms2s": {
        "hupkes": {
            "model": {"embedding": 512, "hidden": 500, "layers": 2, "dropout": 0.3},
            "train": {"optimizer": "sgd", "lr": 1.0, "clip": 5.0, "epochs": 25},
            "task": {"batch_size": 64},
        },
        "small": {  # SCAN simple: 1.0 in 8 CPU-minutes (benchmarks/train_scan.py)
            "model": {"embedding": 64, "hidden": 128, "layers": 1, "dropout": 0.1},
            "train": {**_SMALL_TRAIN, "lr": 2e-3, "schedule": "rsqrt", "warmup": 500},
            "task": {"batch_size": 64},
        },
        "tiny": {
            "model": {"embedding": 16, "hidden": 32, "layers": 1, "dropout": 0.0},
            "train": _TINY_TRAIN,
            "task": {"batch_size": 32},
        },
    },
    "transformer": _TRANSFORMER,
    # Keysers et al. 2020 compare it with the LSTM and the Transformer: the Transformer's setups,
    # but its tiny one applies the shared layer twice
    "universal": {
        **_TRANSFORMER,
        "tiny": {**_TRANSFORMER["tiny"], "model": {**_TRANSFORMER["tiny"]["model"], "layers": 2}},
    },
    "convs2s": {
        "hupkes": {
            "model": {
                "embedding": 768,
                "encoder": "512x3*9,1024x3*4,2048x1*2",
                "decoder": "512x3*9,1024x3*4,2048x1*2",
                "out": 512,
                "dropout": 0.1,
            },
            "train": {
                "optimizer": "sgd",
                "lr": 0.25,
                "momentum": 0.99,
                "nesterov": True,
                "clip": 0.1,
                "epochs": 25,
            },
            "task": {"batch_size": 64, "beam": 5},
        },
        "small": {
            "model": {"embedding": 128, "encoder": "128x3*4", "decoder": "128x3*4", "out": 128},
            "train": {**_SMALL_TRAIN, "clip": 1.0},
            "task": {"batch_size": 64},
        },
        "tiny": {
            "model": {"embedding": 16, "encoder": "32x3*2", "decoder": "32x3*2", "out": 16},
            "train": _TINY_TRAIN,
            "task": {"batch_size": 32},
        },
    },
    "bow": {
        "small": {"model": {"embedding": 128}, "train": _ENCODER_TRAIN},
        "coba": {"model": {"embedding": 128}, "train": _COBA_TRAIN, "task": _COBA_TASK},
        "tiny": {"model": {"embedding": 16, "dropout": 0.0}, "train": _TINY_TRAIN},
    },
    "lstm": {
        "small": {"model": {"embedding": 64, "hidden": 128}, "train": _ENCODER_TRAIN},
        "coba": {
            "model": {"embedding": 64, "hidden": 128},
            "train": _COBA_TRAIN,
            "task": _COBA_TASK,
        },
        "tiny": {"model": {"embedding": 16, "hidden": 16, "dropout": 0.0}, "train": _TINY_TRAIN},
    },
    "treelstm": {
        "small": {"model": {"embedding": 64, "hidden": 128}, "train": _ENCODER_TRAIN},
        "coba": {  # CobA's tree-LSTM is N-ary: every operator has two ordered operands
            "model": {"embedding": 64, "hidden": 128, "variant": "nary", "arity": 2},
            "train": _COBA_TRAIN,
            "task": _COBA_TASK,
        },
        "tiny": {"model": {"embedding": 16, "hidden": 16, "dropout": 0.0}, "train": _TINY_TRAIN},
    },
    "bert": {
        "small": {
            "model": {"d_model": 128, "heads": 4, "ff": 256, "layers": 4},
            "train": {**_ENCODER_TRAIN, "lr": 5e-4, "schedule": "warmup", "warmup": 500},
        },
        "tiny": {
            "model": {"d_model": 32, "heads": 2, "ff": 64, "layers": 1, "dropout": 0.0},
            "train": _TINY_TRAIN,
        },
    },
    "albert": {
        "coba": {  # random left-padding: inputs start at a random position while training
            "model": {
                "d_model": 128,
                "heads": 4,
                "ff": 256,
                "layers": 4,
                "embedding": 64,
                "random_shift": 16,
            },
            "train": {**_COBA_TRAIN, "lr": 5e-4},
            "task": _COBA_TASK,
        },
        "small": {
            "model": {"d_model": 128, "heads": 4, "ff": 256, "layers": 4, "embedding": 64},
            "train": {**_ENCODER_TRAIN, "lr": 5e-4, "schedule": "warmup", "warmup": 500},
        },
        "tiny": {
            "model": {"d_model": 32, "heads": 2, "ff": 64, "layers": 2, "embedding": 16},
            "train": _TINY_TRAIN,
        },
    },
}
