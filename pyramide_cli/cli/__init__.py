"""The ``pyramide`` command line: a Typer app with one module per group of commands, loaded lazily.

A command module registers its commands on the shared app (``from .app import app`` and
``@app.command()``).  :data:`COMMANDS` says which module registers which command, so that
``pyramide play g.yaml draw`` imports ``play_commands`` only, and ``app.narrowed`` hands Typer just
that command to build (Typer reads every registered command's parameters before running one).
Help, an unknown command (for its "did you mean" hint), no command at all, and shell completion
load and build every command; ``--version`` loads none.

To add commands: write ``cli/<name>_commands.py`` and add each command name to :data:`COMMANDS`
(``tests/test_cli_app.py`` fails when a command is registered but not listed, or the reverse).
Exit statuses live in :mod:`.exit_codes`.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Mapping, Sequence

import typer

from .app import after_root_options, app, narrowed
from .completion import COMPLETE_VAR

__all__ = ["COMMANDS", "after_root_options", "app", "load_commands", "main", "modules_for"]

COMMANDS: dict[str, str] = {
    "serve": "bot_commands",
    "tournament": "bot_commands",
    "calibrate": "calibrate_commands",
    "deal": "deal_commands",
    "show": "deal_commands",
    "grade": "grade_commands",
    "play": "play_commands",
    "replay": "replay_commands",
    "solve": "solve_commands",
    "hint": "solve_commands",
    "survey": "survey_commands",
    "stats": "stats_commands",
}
"""Command name → the module of ``pyramide_cli.cli`` that registers it (modules load in this order, and
``--help`` and completion list their commands in that order)."""


def modules_for(arguments: Sequence[str], environment: Mapping[str, str]) -> list[str]:
    """The command modules to import to run ``pyramide ARGUMENTS``: the one registering the command
    named first, none for ``--version``, or all of them (help, an unknown name, no argument, completion)."""
    every = list(dict.fromkeys(COMMANDS.values()))
    arguments = after_root_options(arguments)
    if COMPLETE_VAR in environment or not arguments:
        return every
    if arguments[0] == "--version":
        return []
    module = COMMANDS.get(arguments[0])
    return every if module is None else [module]


def load_commands(arguments: Sequence[str] | None = None,
                  environment: Mapping[str, str] | None = None) -> typer.Typer:
    """Import the command modules needed for ``arguments`` (all of them by default); returns the app."""
    names = modules_for([] if arguments is None else arguments, os.environ if environment is None else environment)
    for name in names:
        importlib.import_module(f"{__name__}.{name}")
    return app


def main() -> None:
    """Entry point of the ``pyramide`` script."""
    arguments = sys.argv[1:]
    if COMPLETE_VAR in os.environ:  # the shell asks for completions (cli/completion.py)
        from .completion import prepare

        prepare()
    # The name is fixed so that `python -m pyramide_cli` says "pyramide" in usage lines too, and the
    # completion scripts call back the program they were installed for (_PYRAMIDE_COMPLETE).
    narrowed(load_commands(arguments), after_root_options(arguments))(args=arguments, prog_name="pyramide")
