"""Atom/compound extractors: how the examples of an imported pool become DBCA features."""
