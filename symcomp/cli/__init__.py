"""The ``symcomp`` command line (click); see ``symcomp --help``.

Every module of this package registers its commands on :data:`symcomp.cli.app.cli` when
imported; all of them are imported here, so a new command is a new module. Command modules
import the library lazily, inside the command functions, to keep ``symcomp --help`` fast.
"""

import importlib
import pkgutil

from symcomp.cli.app import cli
from symcomp.data.signals import end_with_command

for _module in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
    if _module.name != "app":
        importlib.import_module(f"{__name__}.{_module.name}")


def main() -> None:
    """Console-script entry point: one command, then the process ends (so once the command
    is done, a stopping signal is ignored; see `symcomp.data.signals`)."""
    end_with_command()
    cli(prog_name="symcomp")


__all__ = ["cli", "main"]
