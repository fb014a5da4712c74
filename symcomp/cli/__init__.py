"""The ``symcomp`` command line (click); see ``symcomp --help``."""

from symcomp.cli import commands as _commands  # noqa: F401  (registers the commands)
from symcomp.cli.app import cli


def main() -> None:
    """Console-script entry point."""
    cli(prog_name="symcomp")


__all__ = ["cli", "main"]
