"""Reading corpora symcomp did not generate (TSV, JSONL, CoNLL-U, Hugging Face folders) into
pools: see :mod:`symcomp.data.corpus.importer`."""
