"""Monotonicity NLI (Yanaka et al. 2020): polarity, replacements, pair generation, and the
entailment checker of `symcomp verify`."""
