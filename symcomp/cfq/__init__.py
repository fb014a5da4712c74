"""The pieces of the CFQ-style language: its logical forms, knowledge rules and DAGs."""
