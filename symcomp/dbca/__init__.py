"""Distribution-based compositionality assessment (Keysers et al. 2020): compounds of
rule-application DAGs, their weights and divergences, and split searches (MCD, NQG swap)."""
