"""Scoring models on suites: accuracy and its breakdowns, substitutivity consistency, localism
consistency (model in the loop), overgeneralisation profiles, and the report card."""
