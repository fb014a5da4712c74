"""LSTM sequence-to-sequence with attention (OpenNMT-py's ``-encoder_type brnn`` model).

Encoder: a bidirectional LSTM whose two directions each have ``hidden // 2`` units; their final
states, concatenated, start the decoder. Decoder: an LSTM fed the previous token's embedding
and the previous attentional vector (input feeding), global "general" attention over the
encodings (Luong et al. 2015), ``tanh(W [context; h])`` as the attentional vector.

Training and decoding run the same ``step``, one token at a time.

>>> import torch
>>> model = LSTMS2S(LSTMS2SConfig(embedding=8, hidden=16, layers=1), 10, 12)
>>> model(torch.tensor([[4, 5, 0]]), torch.tensor([[1, 6, 7]])).shape
torch.Size([1, 3, 12])
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn

from symcomp.models.inputs.vocab import PAD
from symcomp.models.nets.decoding import State


@dataclass(frozen=True)
class LSTMS2SConfig:
    embedding: int = 64
    hidden: int = 128  # decoder units; each encoder direction has hidden // 2 when bidirectional
    layers: int = 1
    dropout: float = 0.1
    bidirectional: bool = True
    input_feed: bool = True


class LSTMS2S(nn.Module):
    def __init__(self, config: LSTMS2SConfig, src_vocab: int, tgt_vocab: int) -> None:
        super().__init__()
        if config.bidirectional and config.hidden % 2:
            raise ValueError(f"a bidirectional encoder needs an even hidden size ({config.hidden})")
        self.config = config
        directions = 2 if config.bidirectional else 1
        between = config.dropout if config.layers > 1 else 0.0
        self.src_embed = nn.Embedding(src_vocab, config.embedding, padding_idx=PAD)
        self.tgt_embed = nn.Embedding(tgt_vocab, config.embedding, padding_idx=PAD)
        self.encoder = nn.LSTM(
            config.embedding,
            config.hidden // directions,
            config.layers,
            batch_first=True,
            bidirectional=config.bidirectional,
            dropout=between,
        )
        feed = config.hidden if config.input_feed else 0
        self.decoder = nn.LSTM(
            config.embedding + feed, config.hidden, config.layers, batch_first=True, dropout=between
        )
        self.score = nn.Linear(config.hidden, config.hidden, bias=False)  # "general" attention
        self.combine = nn.Linear(2 * config.hidden, config.hidden, bias=False)
        self.generator = nn.Linear(config.hidden, tgt_vocab)
        self.dropout = nn.Dropout(config.dropout)

    def encode(self, src: torch.Tensor) -> State:  # src [B, S]
        lengths = (src != PAD).sum(1).clamp(min=1).cpu()
        packed = nn.utils.rnn.pack_padded_sequence(
            self.dropout(self.src_embed(src)), lengths, batch_first=True, enforce_sorted=False
        )
        output, (h, c) = self.encoder(packed)
        memory, _ = nn.utils.rnn.pad_packed_sequence(
            output, batch_first=True, total_length=src.size(1)
        )  # [B, S, H]
        h, c = self._bridge(h), self._bridge(c)  # [B, L, H]
        feed = memory.new_zeros(src.size(0), self.config.hidden)  # [B, H]
        return {"memory": memory, "src_mask": src != PAD, "h": h, "c": c, "feed": feed}

    def _bridge(self, state: torch.Tensor) -> torch.Tensor:
        """[L * dirs, B, H / dirs] final encoder states -> [B, L, H] decoder start states."""
        if self.config.bidirectional:
            state = torch.cat([state[0::2], state[1::2]], dim=-1)  # [L, B, H]
        return state.transpose(0, 1)

    def step(self, state: State, prefix: torch.Tensor) -> tuple[torch.Tensor, State]:
        logits, state = self._step(state, prefix[:, -1])
        return torch.log_softmax(logits.float(), dim=-1), state

    def _step(self, state: State, token: torch.Tensor) -> tuple[torch.Tensor, State]:
        """[B, V] logits of the token after ``token`` [B], and the next state."""
        x = self.dropout(self.tgt_embed(token))  # [B, E]
        if self.config.input_feed:
            x = torch.cat([x, state["feed"]], dim=-1)  # [B, E + H]
        hidden = (state["h"].transpose(0, 1).contiguous(), state["c"].transpose(0, 1).contiguous())
        out, (h, c) = self.decoder(x[:, None], hidden)  # out [B, 1, H]
        query = out[:, 0]  # [B, H]
        scores = torch.einsum("bh,bsh->bs", self.score(query), state["memory"])  # [B, S]
        weights = torch.softmax(scores.masked_fill(~state["src_mask"], float("-inf")), dim=-1)
        context = torch.einsum("bs,bsh->bh", weights, state["memory"])  # [B, H]
        attentional = torch.tanh(self.combine(torch.cat([context, query], dim=-1)))  # [B, H]
        attentional = self.dropout(attentional)
        new = dict(state, h=h.transpose(0, 1), c=c.transpose(0, 1), feed=attentional)
        return self.generator(attentional), new

    def forward(self, src: torch.Tensor, tgt_in: torch.Tensor) -> torch.Tensor:
        """[B, T, V] logits of the next token at each position of ``tgt_in`` [B, T]."""
        state = self.encode(src)
        outputs = []
        for t in range(tgt_in.size(1)):
            logits, state = self._step(state, tgt_in[:, t])
            outputs.append(logits)
        return torch.stack(outputs, dim=1)
