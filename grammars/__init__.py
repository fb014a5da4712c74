"""Grammars of the built-in languages (``<name>.lark`` + sidecar ``<name>.toml``)."""
