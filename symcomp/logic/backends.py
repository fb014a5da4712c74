"""Provers by name: the one place that knows every backend (so the protocol imports none).

>>> make_prover("z33")
Traceback (most recent call last):
...
symcomp.errors.SymcompError: unknown prover 'z33' (did you mean 'z3'?); provers: z3, eprover.
"""

from __future__ import annotations

from symcomp._util import did_you_mean
from symcomp.errors import SymcompError
from symcomp.logic.prover import DEFAULT_TIMEOUT_MS, Prover

PROVERS = ("z3", "eprover")


def make_prover(name: str, *, timeout_ms: int = DEFAULT_TIMEOUT_MS) -> Prover:
    """The backend called ``name`` (``z3`` or ``eprover``) with a per-problem timeout."""
    if timeout_ms < 1:
        raise SymcompError(f"the timeout must be at least 1 ms, got {timeout_ms}.")
    if name == "z3":
        from symcomp.logic.prover_z3 import Z3Prover

        return Z3Prover(timeout_ms=timeout_ms)
    if name == "eprover":
        from symcomp.logic.prover_e import EProver

        return EProver(timeout_ms=timeout_ms)
    raise SymcompError(
        f"unknown prover {name!r}{did_you_mean(name, PROVERS)}; provers: {', '.join(PROVERS)}."
    )
