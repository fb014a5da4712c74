"""The ten PCFG SET functions by arity (``tasks/default.py`` of MathijsMul/pcfg-set)."""

UNARY = ("copy", "reverse", "shift", "echo", "swap_first_last", "repeat")
BINARY = ("append", "prepend", "remove_first", "remove_second")
