"""First-order logic: formulas, lambda terms with beta-reduction, and provers (z3, E)."""
