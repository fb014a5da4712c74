"""A tiny causal language model made offline, for running the harness on an export without a
model hub: a one-word-a-token tokenizer fitted to the texts it will see, a two-layer Llama
from a config with seeded random weights, and (optionally) a few hundred steps that make it
answer some prompts exactly, so that a check of the scores sees right and wrong answers.

It is not a baseline: it knows nothing but what it memorised. ``save_tiny_lm`` writes a
folder that ``lm-eval run --model hf --model_args pretrained=FOLDER`` (and
``transformers.AutoModelForCausalLM``) loads with ``HF_HUB_OFFLINE=1``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SPECIALS = ("<unk>", "<s>", "</s>", "<pad>")
# the environment of a harness run that must not reach a model or dataset hub
OFFLINE = {
    "HF_HUB_OFFLINE": "1",
    "HF_DATASETS_OFFLINE": "1",
    "TRANSFORMERS_OFFLINE": "1",
    "HF_HUB_DISABLE_TELEMETRY": "1",
    "TOKENIZERS_PARALLELISM": "false",
}
NEWLINE = "\n"  # a token of its own: the harness's tasks stop generating at a line break


@dataclass(frozen=True)
class TinyLMConfig:
    """Size and training of the tiny model (``steps`` 0: random weights only)."""

    hidden: int = 64
    layers: int = 2
    heads: int = 4
    max_positions: int = 4096
    steps: int = 300
    learning_rate: float = 3e-3
    seed: int = 0


def vocabulary(texts: Iterable[str]) -> dict[str, int]:
    """Token -> id: the special tokens, the line break, then every whitespace-separated word
    of ``texts`` in sorted order.

    >>> vocabulary(["b a", "a c"])["c"]
    7
    """
    words = sorted({word for text in texts for word in text.split()})
    return {token: i for i, token in enumerate([*SPECIALS, NEWLINE, *words])}


def save_tiny_lm(
    folder: Path,
    texts: Iterable[str],
    *,
    memorise: Sequence[tuple[str, str]] = (),
    config: TinyLMConfig | None = None,
) -> Path:
    """Write a tiny model and its tokenizer (words of ``texts``) into ``folder``; when
    ``memorise`` holds (prompt, answer) pairs, train it to continue each prompt with
    `` answer`` and a line break. Returns ``folder``."""
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    settings = config or TinyLMConfig()
    pairs = list(memorise)
    vocab = vocabulary([*texts, *(p for pair in pairs for p in pair)])
    tokenizer = _tokenizer(vocab)
    torch.manual_seed(settings.seed)
    model = LlamaForCausalLM(
        LlamaConfig(
            vocab_size=len(vocab),
            hidden_size=settings.hidden,
            intermediate_size=2 * settings.hidden,
            num_hidden_layers=settings.layers,
            num_attention_heads=settings.heads,
            num_key_value_heads=settings.heads,
            max_position_embeddings=settings.max_positions,
            bos_token_id=vocab["<s>"],
            eos_token_id=vocab["</s>"],
            pad_token_id=vocab["<pad>"],
            tie_word_embeddings=False,
        )
    )
    if pairs and settings.steps:
        _memorise(model, [_ids(tokenizer, vocab, p, a) for p, a in pairs], settings)
    model.save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


def _tokenizer(vocab: dict[str, int]) -> Any:
    from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers
    from transformers import PreTrainedTokenizerFast

    core = Tokenizer(models.WordLevel(vocab=vocab, unk_token="<unk>"))
    # words between spaces, and each line break a token of its own: a worked answer spans
    # lines, and a blank line (two breaks) ends it
    core.pre_tokenizer = pre_tokenizers.Sequence(
        [
            pre_tokenizers.Split(NEWLINE, "isolated"),
            pre_tokenizers.Split(Regex(r"[^\S\n]+"), "removed"),
        ]
    )
    # words joined by single spaces, as they are (no clean-up: ` , ` stays, as PCFG writes
    # it); a line break joined without one (WordPiece glues a `##` piece to the word before
    # it), so that two breaks are the text "\n\n"
    core.decoder = decoders.Sequence(
        [
            decoders.Replace(NEWLINE, "##" + NEWLINE),
            decoders.WordPiece(prefix="##", cleanup=False),
        ]
    )
    return PreTrainedTokenizerFast(  # type: ignore[no-untyped-call]
        tokenizer_object=core,
        unk_token="<unk>",
        bos_token="<s>",
        eos_token="</s>",
        pad_token="<pad>",
    )


def _ids(tokenizer: Any, vocab: dict[str, int], prompt: str, answer: str) -> tuple[list[int], int]:
    """The ids of prompt, answer and line break, and where the answer starts (the prompt is
    encoded as the harness encodes a context: no special tokens)."""
    context = tokenizer.encode(prompt, add_special_tokens=False)
    answer_ids = tokenizer.encode(answer, add_special_tokens=False)
    return [*context, *answer_ids, vocab[NEWLINE]], len(context)


def _memorise(model: Any, sequences: list[tuple[list[int], int]], settings: TinyLMConfig) -> None:
    """Train on the answers (and their line breaks) only, one sequence at a time."""
    import torch

    optimiser = torch.optim.Adam(model.parameters(), lr=settings.learning_rate)
    model.train()
    for step in range(settings.steps):
        ids, start = sequences[step % len(sequences)]
        inputs = torch.tensor([ids])
        labels = inputs.clone()
        labels[0, :start] = -100  # the prompt is given, not learned
        loss = model(input_ids=inputs, labels=labels).loss
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
    model.eval()
