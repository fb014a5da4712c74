"""PCFG SET (Hupkes et al. 2020): string-edit programs and their five tests."""
