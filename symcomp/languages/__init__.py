"""The built-in languages: PCFG SET, PCFG-LET and SCAN (built lazily by the registry)."""
