"""COGS (Kim & Linzen 2020) as a symcomp language."""
