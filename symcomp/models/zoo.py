"""The models by name, their resolved configuration, and building a task from it.

This is the configuration of a run: :class:`RunConfig` (resolved from a preset of
:mod:`symcomp.models.presets` and ``key=value`` overrides, saved in and read back from a run
folder), the vocabularies a configuration derives from its training data, and the task (the
network of :mod:`symcomp.models.nets` with its vocabularies) built from both.

A run's configuration is a model name, a preset and four sections: ``model`` (the model's
config dataclass), ``head`` (classifiers), ``task`` (:class:`TaskConfig`) and ``train``
(:class:`TrainConfig`). ``--set key=value`` overrides any field; a bare key is looked up in
model, train, task, head order (write ``head.hidden`` to reach the head's).

>>> config = resolve("transformer", "small", ["layers=3", "train.lr=0.001", "beam=4"])
>>> config.model_config["layers"], config.train.lr, config.task.beam
(3, 0.001, 4)
"""

from __future__ import annotations

import dataclasses
import math
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

import torch
from torch import nn

from symcomp._util import Record, did_you_mean
from symcomp.errors import DataError, SymcompError
from symcomp.models.inputs.trees import Node
from symcomp.models.inputs.vocab import Labels, Vocab, tokenize
from symcomp.models.nets.bert import BertConfig, BertEncoder
from symcomp.models.nets.bow import BagOfWords, BagOfWordsConfig
from symcomp.models.nets.classifier import Classifier, HeadConfig
from symcomp.models.nets.convs2s import ConvS2S, ConvS2SConfig
from symcomp.models.nets.dice import install_dice
from symcomp.models.nets.lstm_encoder import LSTMEncoder, LSTMEncoderConfig
from symcomp.models.nets.lstms2s import LSTMS2S, LSTMS2SConfig
from symcomp.models.nets.nli_head import NLIHeadConfig, PairClassifier
from symcomp.models.nets.transformer import Transformer, TransformerConfig
from symcomp.models.nets.tree_lstm import TreeLSTM, TreeLSTMConfig, usable_backend
from symcomp.models.presets import PRESETS
from symcomp.models.training.device import seeded
from symcomp.models.training.tasks import (
    PAIR_SEPARATOR,
    ClassifierTask,
    Seq2SeqTask,
    Task,
    TaskConfig,
    split_pair,
    token_inputs,
    tree_inputs,
)
from symcomp.models.training.trainer import TrainConfig


@dataclass(frozen=True)
class ModelSpec:
    kind: Literal["seq2seq", "encoder"]
    config: type
    build: Callable[..., nn.Module]
    inputs: Literal["tokens", "trees"] = "tokens"
    defaults: dict[str, Any] = field(default_factory=dict)


MODELS: dict[str, ModelSpec] = {
    "transformer": ModelSpec("seq2seq", TransformerConfig, Transformer),
    "universal": ModelSpec("seq2seq", TransformerConfig, Transformer, defaults={"universal": True}),
    "lstms2s": ModelSpec("seq2seq", LSTMS2SConfig, LSTMS2S),
    "convs2s": ModelSpec("seq2seq", ConvS2SConfig, ConvS2S),
    "bow": ModelSpec("encoder", BagOfWordsConfig, BagOfWords),
    "lstm": ModelSpec("encoder", LSTMEncoderConfig, LSTMEncoder),
    "treelstm": ModelSpec("encoder", TreeLSTMConfig, TreeLSTM, inputs="trees"),
    "bert": ModelSpec("encoder", BertConfig, BertEncoder),
    "albert": ModelSpec("encoder", BertConfig, BertEncoder, defaults={"tied": True}),
}
SECTIONS = ("model", "train", "task", "head")


@dataclass(frozen=True)
class RunConfig:
    model: str
    preset: str
    model_config: dict[str, Any]
    head: NLIHeadConfig
    task: TaskConfig
    train: TrainConfig

    @property
    def spec(self) -> ModelSpec:
        return MODELS[self.model]

    def to_json(self) -> dict[str, Any]:
        return {
            "model": self.model,
            "preset": self.preset,
            "model_config": dict(self.model_config),
            "head": asdict(self.head),
            "task": asdict(self.task),
            "train": asdict(self.train),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RunConfig:
        spec = model_spec(str(data["model"]))
        return cls(
            str(data["model"]),
            str(data["preset"]),
            asdict(spec.config(**data["model_config"])),
            NLIHeadConfig(**data["head"]),
            TaskConfig(**data["task"]),
            TrainConfig(**data["train"]),
        )


# settings that change how a model computes, not what it computes: a run may continue (or be
# loaded) with another value, since the weights and numbers are the same
COMPUTATION_ONLY = frozenset({"backend"})


def on_device(config: RunConfig, device: torch.device) -> tuple[RunConfig, str | None]:
    """The configuration a run uses on ``device``, and a note when a setting the device cannot
    run (the tree-LSTM's DGL backend off the CPU) was replaced by one it can."""
    backend = config.model_config.get("backend")
    if backend is None:
        return config, None
    chosen, note = usable_backend(str(backend), device)
    if note is None:
        return config, None
    changed = {**config.model_config, "backend": chosen}
    return dataclasses.replace(config, model_config=changed), note


def same_weights(first: dict[str, Any], second: dict[str, Any]) -> bool:
    """True when two model configurations build the same network (they may differ in
    :data:`COMPUTATION_ONLY` settings)."""

    def kept(settings: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in settings.items() if k not in COMPUTATION_ONLY}

    return kept(first) == kept(second)


def model_spec(name: str) -> ModelSpec:
    if name not in MODELS:
        raise SymcompError(
            f"unknown model {name!r}{did_you_mean(name, MODELS)}; use one of {', '.join(MODELS)}."
        )
    return MODELS[name]


def resolve(model: str, preset: str = "small", sets: Sequence[str] = ()) -> RunConfig:
    """The configuration of ``model`` under ``preset`` with ``key=value`` overrides."""
    spec = model_spec(model)
    presets = PRESETS.get(model, {})
    if preset not in presets:
        raise SymcompError(
            f"model {model} has no preset {preset!r}; presets: {', '.join(presets) or 'none'}."
        )
    chosen = presets[preset]
    values = {
        "model": {**spec.defaults, **chosen.get("model", {})},
        "train": dict(chosen.get("train", {})),
        "task": dict(chosen.get("task", {})),
        "head": dict(chosen.get("head", {})),
    }
    classes = {
        "model": spec.config,
        "train": TrainConfig,
        "task": TaskConfig,
        "head": NLIHeadConfig,
    }
    for item in sets:
        section, key, value = _parse_set(item, classes)
        values[section][key] = value
    try:
        built = {name: classes[name](**values[name]) for name in SECTIONS}
    except (TypeError, ValueError) as error:
        raise SymcompError(f"bad configuration for {model}/{preset}: {error}.") from None
    for section in SECTIONS:
        _check_values(section, asdict(built[section]))
    return RunConfig(
        model, preset, asdict(built["model"]), built["head"], built["task"], built["train"]
    )


_AT_LEAST_ONE = frozenset(
    {"batch_size", "eval_batch_size", "beam", "epochs", "layers", "hidden", "embedding"}
    | {"d_model", "heads", "ff", "arity", "out", "decoder_layers", "max_positions"}
)
_NOT_NEGATIVE = frozenset(
    {"lr", "weight_decay", "clip", "max_minutes", "label_smoothing", "warmup", "patience"}
    | {"dev_limit", "max_output", "max_children", "random_shift", "decay_steps", "momentum"}
    | {"threads", "length_penalty", "seed"}
)


def _check_values(section: str, values: dict[str, Any]) -> None:
    """Numbers a run cannot use (NaN, a zero batch, negative epochs) are refused up front."""
    for key, value in values.items():
        if isinstance(value, bool) or not isinstance(value, int | float):
            continue
        problem = None
        if isinstance(value, float) and not math.isfinite(value):
            problem = "must be a finite number"
        elif key in _AT_LEAST_ONE and value < 1:
            problem = "must be at least 1"
        elif key in _NOT_NEGATIVE and value < 0:
            problem = "must not be negative"
        elif "dropout" in key and not 0 <= value < 1:
            problem = "must lie in [0, 1)"
        if problem:
            raise SymcompError(f"setting {section}.{key}={value}: {key} {problem}.")


def _parse_set(item: str, classes: dict[str, type]) -> tuple[str, str, Any]:
    key, equals, text = item.partition("=")
    if not equals:
        raise SymcompError(f"setting {item!r}: write key=value (e.g. layers=3).")
    section, dot, name = key.strip().rpartition(".")
    candidates = [section] if dot else list(SECTIONS)
    if dot and section not in classes:
        raise SymcompError(
            f"setting {item!r}: unknown section {section!r}; use {', '.join(SECTIONS)}."
        )
    for candidate in candidates:
        hints = typing.get_type_hints(classes[candidate])
        fields = {f.name for f in dataclasses.fields(classes[candidate])}
        if name in fields:
            return candidate, name, _convert(text.strip(), hints[name], item)
    known = sorted({f.name for c in candidates for f in dataclasses.fields(classes[c])})
    raise SymcompError(f"setting {item!r}: unknown key {name!r}{did_you_mean(name, known)}.")


def _convert(text: str, hint: Any, item: str) -> Any:
    origin, arguments = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        if text.lower() in ("none", "null") and type(None) in arguments:
            return None
        hint = next(a for a in arguments if a is not type(None))
        origin, arguments = typing.get_origin(hint), typing.get_args(hint)
    if origin is Literal:
        if text not in arguments:
            raise SymcompError(f"setting {item!r}: choose one of {', '.join(map(str, arguments))}.")
        return text
    try:
        if hint is bool:
            if text.lower() not in ("true", "false", "1", "0", "yes", "no"):
                raise ValueError(text)
            return text.lower() in ("true", "1", "yes")
        return hint(text)
    except ValueError:
        raise SymcompError(f"setting {item!r}: {text!r} is not a {hint.__name__}.") from None


# -- building ------------------------------------------------------------------------------------


def input_parser(
    config: RunConfig, data: Mapping[str, Any], source: str = "the run's data"
) -> Callable[[str], Node] | None:
    """The parser that gives a tree model its input trees (None: the model reads tokens).

    ``data`` names the language of the data as a manifest does: ``language`` (None: an
    imported pool) and ``fresh_words`` (the renaming of a suite in fresh words, whose inputs
    only the renamed language parses); ``source`` is where it was read."""
    if config.spec.inputs != "trees":
        return None
    from symcomp.core.fresh_words import language_of

    language = language_of(data, source)
    if language is None:
        raise DataError(
            f"{config.model} reads parse trees of its inputs, and this suite is over an "
            f"imported pool with no language to parse them; train a sequence model (lstms2s, "
            f"transformer) or give the pool a language."
        )
    return tree_parser(language, config)


def vocabularies(
    config: RunConfig, train: Sequence[Record], parse: Callable[[str], Node] | None
) -> dict[str, Any]:
    """Vocabularies and data-derived settings from the training records."""
    if config.spec.kind == "seq2seq":
        targets = [tokenize(str(r["output"])) for r in train]
        longest = max((len(t) for t in targets), default=1)
        return {
            "source": Vocab.build(tokenize(str(r["input"])) for r in train).to_json(),
            "target": Vocab.build(targets).to_json(),
            "max_output": config.task.max_output or max(2 * longest, longest + 20) + 1,
        }
    pairs = bool(train) and all(
        ("premise" in r and "hypothesis" in r) or PAIR_SEPARATOR in str(r["input"]) for r in train
    )
    texts = [t for r in train for t in (split_pair(r) if pairs else (str(r["input"]),))]
    if parse is not None:
        source = Vocab.build(parse(text).labels() for text in texts)
    else:
        source = Vocab.build(tokenize(text) for text in texts)
    labels = Labels.build(str(r["output"]) for r in train)
    return {"source": source.to_json(), "labels": list(labels.names), "pairs": pairs}


def build_task(
    config: RunConfig,
    vocab: dict[str, Any],
    parse: Callable[[str], Node] | None = None,
) -> Task:
    """The model of ``config`` inside its task, from saved vocabularies (see
    :func:`vocabularies`), initialised from the configuration's seed."""
    with seeded(config.train.seed):
        task = _task(config, vocab, parse)
    task.seed = config.train.seed
    return task


def _task(config: RunConfig, vocab: dict[str, Any], parse: Callable[[str], Node] | None) -> Task:
    spec = config.spec
    model_config = spec.config(**config.model_config)
    source = Vocab.from_json(vocab["source"])
    if spec.kind == "seq2seq":
        if config.task.numbers != "learned":
            raise SymcompError("DICE number embeddings (numbers=dice) are for encoders.")
        target = Vocab.from_json(vocab["target"])
        seq2seq = spec.build(model_config, len(source), len(target))
        return Seq2SeqTask(seq2seq, source, target, config.task, int(vocab["max_output"]))
    labels = Labels(tuple(vocab["labels"]))
    encoder = spec.build(model_config, len(source))
    if config.task.numbers == "dice" and not install_dice(encoder, source.tokens):
        raise SymcompError(f"{config.model} has no token embedding to give DICE numbers.")
    pairs = bool(vocab.get("pairs"))
    module: nn.Module
    if pairs:
        module = PairClassifier(encoder, len(labels), config.head)
    else:
        module = Classifier(
            encoder, len(labels), HeadConfig(config.head.hidden, config.head.dropout)
        )
    if spec.inputs == "trees":
        if parse is None:
            raise SymcompError(f"{config.model} reads parse trees: it needs the language's parser.")
        arity = model_config.arity if model_config.variant == "nary" else None
        encode, collate = tree_inputs(parse, source, arity)
    else:
        encode, collate = token_inputs(source)
    return ClassifierTask(module, labels, config.task, encode, collate, pairs)


def tree_parser(language: Any, config: RunConfig) -> Callable[[str], Node]:
    """Text -> :class:`Node` through ``language.parse`` (cached; long child lists folded)."""
    from functools import lru_cache

    from symcomp.models.inputs.trees import from_lark

    model_config = config.model_config
    limit = config.task.max_children or None
    if model_config.get("variant") == "nary":
        limit = int(model_config["arity"])

    @lru_cache(maxsize=1 << 17)
    def parse(text: str) -> Node:
        return from_lark(language.parse(text), limit)

    return parse
