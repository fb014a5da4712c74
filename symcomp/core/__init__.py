"""The core: grammars, sidecars, sampling, semantics, languages and their registry,
derivations and examples. Knows nothing of pools, splits, provers or models."""
