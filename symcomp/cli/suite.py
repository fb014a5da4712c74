"""``symcomp suite``: build compositionality test suites; one subcommand per suite family.

Suite families register subcommands on :func:`suite` from their own modules
(``@suite.command("name")``).
"""

from __future__ import annotations

from symcomp.cli.app import cli


@cli.group()
def suite() -> None:
    """Build a test suite (pool, splits and auxiliary test files) into a folder."""
