"""Training and prediction throughput of every model, on the CPU and (when present) CUDA, with
and without ``torch.compile``: the numbers behind the reproductions' time budgets.

Each model trains for ``--epochs`` epochs on a SCAN random split (seq2seq models) or on a CobA
random partition (encoders), one CPU thread, and reports training examples per second (and
per CPU second), prediction examples per second, and the first epoch's time separately (that
is where ``torch.compile`` pays its compilation). Then the tree-LSTM's two backends head to
head: forward and backward over 2,048 CobA parse trees in batches of 64 (embedding 64, hidden
128, one thread), child-sum and N-ary, trees per second and per CPU second, on every device
(DGL's wheel is CPU-only: off the CPU a ``dgl`` run falls back to ``torch``, and the table says
so). Writes ``perf_train.json`` and ``perf_train.md`` into ``--out``.

    python benchmarks/perf_train.py [--models transformer,lstms2s,...] [--devices cpu,cuda]
        [--compile off,on] [--epochs 2] [--out runs/benchmarks]
    python benchmarks/perf_train.py --models none        # the tree-LSTM backends only
"""

from __future__ import annotations

import argparse
import json
import platform
import tempfile
import time
from functools import partial
from pathlib import Path
from typing import Any

import torch

from symcomp.core.registry import get_language
from symcomp.data.generate import PoolSpec, write_pool
from symcomp.data.splits import random_split
from symcomp.models.inputs.trees import TreeBatch
from symcomp.models.inputs.vocab import UNK, Vocab
from symcomp.models.nets.tree_lstm import TreeLSTM, TreeLSTMConfig
from symcomp.models.runs import read_metrics, train_run
from symcomp.models.zoo import MODELS, on_device, resolve, tree_parser, vocabularies
from symcomp.suites.from_splits import suite_from_splits
from symcomp.suites.reading import Suite, SuiteTest

SEQ2SEQ = ("transformer", "universal", "lstms2s", "convs2s")
ENCODERS = ("bow", "lstm", "treelstm", "bert", "albert")


def scan_data(work: Path) -> SuiteTest:
    pool = work / "scan"
    write_pool(get_language("scan"), pool, PoolSpec(enumerate_all=True))
    split = random_split(20910, fractions=(0.9, 0.0, 0.1), seed=0)
    suite_from_splits(pool, {"random": split}, work / "scan-suite", export=False)
    return Suite.read(work / "scan-suite").test("random")


def coba_data(work: Path) -> SuiteTest:
    builder = get_language("arithmetic").suite_builder()
    assert builder is not None
    spec = builder.make({"in_domain": 4000, "generalisation": 1000, "export": False})
    builder.build(work / "coba", spec)
    return Suite.read(work / "coba").test("random")


def measure(
    data: SuiteTest, model: str, device: str, compiled: bool, args: Any, work: Path
) -> dict[str, Any]:
    preset = "coba" if model in ENCODERS else "small"
    sets = [f"epochs={args.epochs}", "threads=1", "dev_limit=50", f"compile={compiled}"]
    config = resolve(model, preset, sets)
    out = work / "runs" / f"{model}-{device}-{compiled}"
    started = time.perf_counter()
    summary = train_run(data, config, out, device=device, overwrite=True)
    rows = read_metrics(out)
    return {
        "model": model,
        "device": device,
        "compile": compiled,
        "first_epoch_seconds": rows[0]["train_seconds"],
        "train_examples_per_second": rows[-1]["examples_per_second"],
        "train_examples_per_cpu_second": rows[-1]["examples_per_cpu_second"],
        "predict_examples_per_second": summary["predict_examples_per_second"],
        "seconds": round(time.perf_counter() - started, 1),
    }


def _label_id(source: Vocab, label: str) -> int:
    return source.index.get(label, UNK)


def tree_backends(data: SuiteTest, device: str, trees: int = 2048, batch: int = 64) -> list[Any]:
    """Trees per (CPU) second of forward + backward for each backend and variant."""
    where = torch.device(device)
    texts = [str(r["input"]) for r in data.train][:trees]
    rows = []
    for variant in ("childsum", "nary"):
        config = resolve("treelstm", "coba", [f"variant={variant}"])
        parse = tree_parser(get_language("arithmetic"), config)
        source = Vocab.from_json(vocabularies(config, data.train, parse)["source"])
        arity = 2 if variant == "nary" else None
        batches = [
            TreeBatch.build(
                [parse(t) for t in texts[i : i + batch]],
                partial(_label_id, source),
                arity,
            ).to(where)
            for i in range(0, len(texts), batch)
        ]
        for backend in ("torch", "dgl"):
            asked = resolve("treelstm", "coba", [f"variant={variant}", f"backend={backend}"])
            used, note = on_device(asked, where)
            torch.manual_seed(0)
            model = TreeLSTM(TreeLSTMConfig(**used.model_config), len(source)).to(where)
            model(batches[0]).sum().backward()  # warm-up (allocations, DGL's first import)
            wall, cpu = time.perf_counter(), time.process_time()
            for tree_batch in batches:
                model(tree_batch).sum().backward()
            if where.type == "cuda":
                torch.cuda.synchronize()
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            rows.append(
                {
                    "variant": variant,
                    "backend": backend,
                    "device": device,
                    "ran_with": used.model_config["backend"],
                    "note": note or "",
                    "trees_per_second": round(len(texts) / wall, 1),
                    "trees_per_cpu_second": round(len(texts) / cpu, 1),
                }
            )
    return rows


def markdown(rows: list[dict[str, Any]], meta: dict[str, Any]) -> str:
    lines = [
        "# Training throughput",
        "",
        f"{meta['machine']}; torch {meta['torch']}; one CPU thread; last epoch's rate "
        "(the first includes compilation).",
        "",
        "| model | device | compile | first epoch s | train ex/s | train ex/CPU-s | predict ex/s |",
        "|---|---|---|---:|---:|---:|---:|",
    ]
    lines += [
        f"| {r['model']} | {r['device']} | {r['compile']} | {r['first_epoch_seconds']} | "
        f"{r['train_examples_per_second']} | {r['train_examples_per_cpu_second']} | "
        f"{r['predict_examples_per_second']} |"
        for r in rows
    ]
    lines += [
        "",
        "## Tree-LSTM backends",
        "",
        "Forward + backward over 2,048 CobA trees in batches of 64, embedding 64, hidden 128.",
        "",
        "| variant | backend | device | ran with | trees/s | trees/CPU-s |",
        "|---|---|---|---|---:|---:|",
    ]
    lines += [
        f"| {r['variant']} | {r['backend']} | {r['device']} | {r['ran_with']} | "
        f"{r['trees_per_second']} | {r['trees_per_cpu_second']} |"
        for r in meta["tree_backends"]
    ]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default=",".join(MODELS))
    parser.add_argument("--devices", default="cpu,cuda" if torch.cuda.is_available() else "cpu")
    parser.add_argument("--compile", default="off,on")
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--out", type=Path, default=Path("runs/benchmarks"))
    args = parser.parse_args()
    torch.set_num_threads(1)
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        scan, coba = scan_data(work), coba_data(work)
        for model in [m for m in args.models.split(",") if m in MODELS]:
            data = scan if model in SEQ2SEQ else coba
            for device in args.devices.split(","):
                for compiled in (c == "on" for c in args.compile.split(",")):
                    rows.append(measure(data, model, device, compiled, args, work))
                    print(json.dumps(rows[-1]))
        backends = [row for d in args.devices.split(",") for row in tree_backends(coba, d)]
    meta = {
        "machine": f"{platform.platform()}, Python {platform.python_version()}",
        "torch": torch.__version__,
        "tree_backends": backends,
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "perf_train.json").write_text(json.dumps({**meta, "rows": rows}, indent=2))
    (args.out / "perf_train.md").write_text(markdown(rows, meta))
    print(markdown(rows, meta))


if __name__ == "__main__":
    main()
