"""Prover resources: per-language lambda-term lexicons, axioms and known-answer problems."""
