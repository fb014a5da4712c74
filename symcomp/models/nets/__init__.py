"""The networks, one file each with its config dataclass at the top: ``nn.Module`` s only.

Sequence to sequence: ``transformer`` (also the Universal Transformer), ``lstms2s``, ``convs2s``
(``decoding``: greedy and beam search over any of them). Encoders: ``bow``, ``lstm_encoder``,
``tree_lstm`` (DGL imported through ``dgl_import``), ``bert`` (also ALBERT), with ``dice``
number embeddings; heads: ``classifier`` and ``nli_head``. They read token ids and tree batches
(:mod:`symcomp.models.inputs`) and know nothing of training or run folders.
"""
