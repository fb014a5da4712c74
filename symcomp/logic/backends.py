"""Provers by name: the one place that knows every backend (so the protocol imports none).

>>> make_prover("z33")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
symcomp.errors.SymcompError: unknown prover 'z33' (did you mean 'z3'?); provers: portfolio, ...
"""

from __future__ import annotations

from symcomp._util import did_you_mean
from symcomp.errors import SymcompError
from symcomp.logic.prover import DEFAULT_RLIMIT, Prover

PROVERS = ("portfolio", "z3", "eprover")


def make_prover(
    name: str,
    *,
    rlimit: int = DEFAULT_RLIMIT,
    timeout_ms: int | None = None,
    construct: bool = True,
) -> Prover:
    """The backend called ``name``: ``portfolio`` (z3, finite countermodels, E; every verdict
    with its certificate), or one prover alone for comparisons: ``z3`` or ``eprover``.

    With ``construct`` (the default) the portfolio is the third stage, after one-step
    monotonicity derivations and worlds built from the formulas
    (:mod:`symcomp.logic.constructive`); ``construct=False`` runs the solvers on every pair,
    for baselines. The single provers ignore it.

    ``rlimit`` is the deterministic work budget of one problem (z3 resource units; E gets a
    proportional number of processed clauses); ``timeout_ms`` an optional wall-clock safety
    net, off by default because verdicts then depend on the machine.
    """
    if rlimit < 1:
        raise SymcompError(f"`rlimit` must be at least 1, got {rlimit}.")
    if timeout_ms is not None and timeout_ms < 1:
        raise SymcompError(f"`timeout_ms` must be at least 1 ms, got {timeout_ms}.")
    if name == "portfolio":
        from symcomp.logic.portfolio import PortfolioProver

        portfolio = PortfolioProver(rlimit=rlimit, timeout_ms=timeout_ms)
        if not construct:
            return portfolio
        from symcomp.logic.constructive import ConstructiveProver

        return ConstructiveProver(fallback=portfolio)
    if name == "z3":
        from symcomp.logic.prover_z3 import Z3Prover

        return Z3Prover(rlimit=rlimit, timeout_ms=timeout_ms)
    if name == "eprover":
        from symcomp.logic.prover_e import EProver

        return EProver(rlimit=rlimit, timeout_ms=timeout_ms)
    raise SymcompError(
        f"unknown prover {name!r}{did_you_mean(name, PROVERS)}; provers: {', '.join(PROVERS)}."
    )
