"""CobA: arithmetic expressions and their partitions per compositional aspect."""
