"""The ``pyramide`` command line: a Typer app with one module per group of commands.

To add commands, write ``cli/<name>_commands.py`` using ``from .app import app`` and
``@app.command()``, then import it below.  Exit statuses live in :mod:`.exit_codes`.
"""

from __future__ import annotations

import os
import sys

from .app import app, narrowed
from .completion import COMPLETE_VAR
from . import (  # noqa: F401 - they register commands
    bot_commands, calibrate_commands, deal_commands, grade_commands, play_commands, replay_commands, solve_commands,
    stats_commands,
)

__all__ = ["app", "main"]


def main() -> None:
    """Entry point of the ``pyramide`` script."""
    if COMPLETE_VAR in os.environ:  # the shell asks for completions (cli/completion.py)
        from .completion import prepare

        prepare()
    # The name is fixed so that `python -m pyramide_cli` says "pyramide" in usage lines too, and the
    # completion scripts call back the program they were installed for (_PYRAMIDE_COMPLETE).
    narrowed(app, sys.argv[1:])(prog_name="pyramide")
