"""Monotonicity NLI (Yanaka et al. 2020): polarity, replacements, pair generation,
the entailment checker of `symcomp verify` and protocols I-IV."""
