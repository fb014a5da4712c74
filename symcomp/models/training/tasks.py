"""Tasks: what the trainer optimises and how a model answers with strings.

A task binds a model to its vocabularies and data. It offers the trainer exactly what a
model-agnostic trainer needs (``module``, ``train_batches(epoch)``, ``loss(batch)``,
``validate()``) and offers evaluation ``predict(list[str]) -> list[str]``.

:class:`Seq2SeqTask`
    token sequence to token sequence (teacher-forced cross-entropy; greedy or beam decoding).
:class:`ClassifierTask`
    input (tokens, a parse tree, or a premise/hypothesis pair of either) to a label string.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import torch
import torch.nn.functional as F  # noqa: N812
from torch import nn

from symcomp._util import Record
from symcomp.models.inputs.trees import Node, TreeBatch
from symcomp.models.inputs.vocab import BOS, EOS, IGNORE, PAD, UNK, Labels, Vocab, tokenize
from symcomp.models.nets.decoding import decode
from symcomp.models.training.data import length_batches, pad_sequences

log = logging.getLogger(__name__)
PAIR_SEPARATOR = "|||"


@dataclass(frozen=True)
class TaskConfig:
    batch_size: int = 64
    eval_batch_size: int = 256
    beam: int = 1
    length_penalty: float = 0.0
    max_output: int = 0  # longest decoded output; 0: from the training data
    label_smoothing: float = 0.0
    dev_limit: int = 2000  # dev examples decoded per epoch for the dev accuracy (0: all)
    max_children: int = 0  # tree inputs: fold longer child lists (0: no folding)
    numbers: Literal["learned", "dice"] = "learned"  # dice: frozen DICE number embeddings


def same(prediction: str, target: str) -> bool:
    return prediction.split() == target.split()


class Task:
    """Shared machinery: prepared examples, length batches, dev validation, prediction."""

    module: nn.Module
    config: TaskConfig
    seed: int = 0

    def __init__(self) -> None:
        self.train: list[Any] = []
        self.dev: list[Any] = []
        self.dev_records: list[Record] = []

    # -- what subclasses define ---------------------------------------------------------------

    def prepare(self, record: Record) -> Any:
        """A training example from a record."""
        raise NotImplementedError

    def size(self, example: Any) -> int:
        """Length used to batch similar examples together."""
        raise NotImplementedError

    def loss_terms(self, examples: Sequence[Any]) -> tuple[torch.Tensor, torch.Tensor, int]:
        """(mean loss, correct predictions as a 0-d tensor, predictions counted) of a batch."""
        raise NotImplementedError

    def predict_inputs(self, inputs: Sequence[str]) -> list[str]:
        """Answers for one batch of input strings."""
        raise NotImplementedError

    def input_size(self, text: str) -> int:
        return len(text.split())

    # -- the trainer's interface --------------------------------------------------------------

    @property
    def device(self) -> torch.device:
        return next(self.module.parameters()).device

    def attach(self, train: Sequence[Record], dev: Sequence[Record]) -> None:
        """Prepare the training and dev examples."""
        self.train = [self.prepare(r) for r in train]
        limit = self.config.dev_limit
        self.dev_records = list(dev[:limit] if limit else dev)
        self.dev = [self.prepare(r) for r in self.dev_records]

    def train_batches(self, epoch: int) -> list[list[Any]]:
        sizes = [self.size(example) for example in self.train]
        order = length_batches(sizes, self.config.batch_size, self.seed, epoch)
        return [[self.train[i] for i in batch] for batch in order]

    def loss(self, batch: Sequence[Any]) -> tuple[torch.Tensor, dict[str, torch.Tensor | float]]:
        loss, correct, count = self.loss_terms(batch)
        return loss, {"correct": correct, "count": float(count)}

    @torch.no_grad()
    def validate(self) -> dict[str, float]:
        """Dev loss (teacher-forced) and dev accuracy (predicted strings, exact match)."""
        if not self.dev:
            return {}
        total, weight = 0.0, 0
        sizes = [self.size(example) for example in self.dev]
        for batch in length_batches(sizes, self.config.eval_batch_size, None):
            loss, _, count = self.loss_terms([self.dev[i] for i in batch])
            total += float(loss) * count
            weight += count
        answers = self.predict([str(r["input"]) for r in self.dev_records])
        right = sum(
            same(a, str(r["output"])) for a, r in zip(answers, self.dev_records, strict=True)
        )
        return {"dev_loss": total / max(weight, 1), "dev_accuracy": right / len(self.dev)}

    @torch.no_grad()
    def predict(self, inputs: list[str]) -> list[str]:
        """One answer per input string (batched by length, returned in input order)."""
        was_training = self.module.training
        self.module.eval()
        answers: dict[int, str] = {}
        sizes = [self.input_size(text) for text in inputs]
        for batch in length_batches(sizes, self.config.eval_batch_size, None):
            for i, answer in zip(
                batch, self.predict_inputs([inputs[i] for i in batch]), strict=True
            ):
                answers[i] = answer
        self.module.train(was_training)
        return [answers[i] for i in range(len(inputs))]


class Seq2SeqTask(Task):
    """Token sequence to token sequence; ``module`` has ``forward(src, tgt_in)`` and decodes."""

    def __init__(
        self, module: nn.Module, source: Vocab, target: Vocab, config: TaskConfig, max_output: int
    ) -> None:
        super().__init__()
        self.module, self.source, self.target = module, source, target
        self.config, self.max_output = config, max_output

    def prepare(self, record: Record) -> tuple[list[int], list[int]]:
        src = self.source.encode(tokenize(str(record["input"])))
        tgt = [BOS, *self.target.encode(tokenize(str(record["output"]))), EOS]
        return src, tgt

    def size(self, example: tuple[list[int], list[int]]) -> int:
        return len(example[0]) * 1000 + len(example[1])

    def loss_terms(self, examples: Sequence[Any]) -> tuple[torch.Tensor, torch.Tensor, int]:
        src = pad_sequences([e[0] for e in examples]).to(self.device)  # [B, S]
        tgt = pad_sequences([e[1] for e in examples]).to(self.device)  # [B, T + 1]
        logits = self.module(src, tgt[:, :-1])  # [B, T, V]
        gold = tgt[:, 1:]  # [B, T]
        loss = F.cross_entropy(
            logits.float().reshape(-1, logits.size(-1)),
            gold.reshape(-1),
            ignore_index=PAD,
            label_smoothing=self.config.label_smoothing,
        )
        hits = (logits.argmax(-1) == gold) | (gold == PAD)  # [B, T]
        return loss, hits.all(1).sum(), len(examples)

    def predict_inputs(self, inputs: Sequence[str]) -> list[str]:
        """Decoded answers; inputs longer than the model's positions get "" (a wrong answer,
        not a crash: localism feeds a model its own, possibly very long, outputs)."""
        encoded = [self.source.encode(tokenize(text)) for text in inputs]
        limit = self.capacity()
        readable = [i for i, ids in enumerate(encoded) if limit is None or len(ids) <= limit]
        if len(readable) < len(encoded):
            log.warning(
                "%d input(s) longer than the model's %d positions answered with an empty "
                "prediction",
                len(encoded) - len(readable),
                limit,
            )
        answers = [""] * len(inputs)
        if not readable:
            return answers
        src = pad_sequences([encoded[i] for i in readable]).to(self.device)
        max_len = self.max_output if limit is None else min(self.max_output, limit - 1)
        out = decode(
            self.module,  # type: ignore[arg-type]
            src,
            max_len,
            self.config.beam,
            self.config.length_penalty,
        )
        for i, row in zip(readable, out.tolist(), strict=True):
            answers[i] = " ".join(self.target.decode(row))
        return answers

    def capacity(self) -> int | None:
        """The most positions the model reads (None: unbounded, as an LSTM)."""
        limit = getattr(getattr(self.module, "config", None), "max_positions", None)
        return int(limit) if limit is not None else None


InputOf = Callable[[str], Any]


class ClassifierTask(Task):
    """Input to label. ``encode_input`` turns an input string into the encoder's example
    (token ids or a tree); ``collate`` batches those; pairs are split at ``|||`` (or read from
    ``premise``/``hypothesis`` fields) and encoded side by side."""

    def __init__(
        self,
        module: nn.Module,
        labels: Labels,
        config: TaskConfig,
        encode_input: InputOf,
        collate: Callable[[Sequence[Any]], Any],
        pairs: bool,
    ) -> None:
        super().__init__()
        self.module, self.labels, self.config = module, labels, config
        self.encode_input, self.collate, self.pairs = encode_input, collate, pairs

    def _input(self, record: Record) -> Any:
        if not self.pairs:
            return self.encode_input(str(record["input"]))
        premise, hypothesis = split_pair(record)
        return self.encode_input(premise), self.encode_input(hypothesis)

    def prepare(self, record: Record) -> tuple[Any, int]:
        return self._input(record), self.labels.encode(str(record["output"]))

    def size(self, example: tuple[Any, int]) -> int:
        return _size(example[0])

    def _batch(self, inputs: Sequence[Any]) -> Any:
        if self.pairs:
            return self.collate([i[0] for i in inputs]), self.collate([i[1] for i in inputs])
        return self.collate(inputs)

    def loss_terms(self, examples: Sequence[Any]) -> tuple[torch.Tensor, torch.Tensor, int]:
        logits = self.module(_to(self._batch([e[0] for e in examples]), self.device))  # [B, C]
        gold = torch.tensor([e[1] for e in examples], device=self.device)
        loss = F.cross_entropy(
            logits.float(), gold, ignore_index=IGNORE, label_smoothing=self.config.label_smoothing
        )
        return loss, (logits.argmax(-1) == gold).sum(), len(examples)

    def predict_inputs(self, inputs: Sequence[str]) -> list[str]:
        prepared = [self._input({"input": text}) for text in inputs]
        logits = self.module(_to(self._batch(prepared), self.device))  # [B, C]
        return [self.labels.names[i] for i in logits.argmax(-1).tolist()]


def split_pair(record: Record) -> tuple[str, str]:
    """(premise, hypothesis) from the fields, or from ``input`` split at ``|||``."""
    if "premise" in record and "hypothesis" in record:
        return str(record["premise"]), str(record["hypothesis"])
    text = str(record["input"])
    if PAIR_SEPARATOR not in text:
        raise ValueError(f"a pair input is 'premise {PAIR_SEPARATOR} hypothesis'; got {text!r}")
    premise, _, hypothesis = text.partition(PAIR_SEPARATOR)
    return premise.strip(), hypothesis.strip()


def _size(item: Any) -> int:
    if isinstance(item, tuple):
        return sum(_size(part) for part in item)
    if isinstance(item, Node):
        return item.size()
    return len(item)


def _to(batch: Any, device: torch.device) -> Any:
    if isinstance(batch, tuple):
        return tuple(_to(part, device) for part in batch)
    return batch.to(device)


def token_inputs(vocab: Vocab) -> tuple[InputOf, Callable[[Sequence[Any]], Any]]:
    """Encoders over token ids: ids of the whitespace tokens, padded batches."""
    return (lambda text: vocab.encode(tokenize(text))), pad_sequences


def tree_inputs(
    parse: Callable[[str], Node], labels: Vocab, arity: int | None
) -> tuple[InputOf, Callable[[Sequence[Any]], Any]]:
    """Tree encoders: parse trees, level-ordered tree batches."""

    def collate(trees: Sequence[Any]) -> TreeBatch:
        return TreeBatch.build(trees, lambda label: labels.index.get(label, UNK), arity)

    return parse, collate
