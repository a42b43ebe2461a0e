"""The ``pyramide`` command line: a Typer app with one module per group of commands, loaded lazily.

A command module registers its commands on the shared app (``from .app import app`` and
``@app.command()``).  :data:`COMMANDS` says which module registers which command, so that
``pyramide play g.yaml draw`` imports ``play_commands`` only, and ``app.narrowed`` hands Typer just
that command to build (Typer reads every registered command's parameters before running one).
``--help``, ``--version`` and no argument at all load none: the help lists the commands from
:data:`SUMMARIES`.  An unknown command (for its "did you mean" hint) and shell completion load and
build every command.

To add commands: write ``cli/<name>_commands.py``, add each command name to :data:`COMMANDS` and its
one-line summary to :data:`SUMMARIES` (registered as ``short_help=SUMMARIES[name]``;
``tests/test_cli_app.py`` fails when a command is registered but not listed, or the reverse, and when
the help listing differs from the commands' own).  Both tables live in :mod:`.app`.  Exit statuses
live in :mod:`.exit_codes`.
"""

from __future__ import annotations

import gc
import importlib
import os
import sys
from collections.abc import Mapping, Sequence
from typing import Any

import typer

from .app import COMMANDS, SUMMARIES, after_root_options, app, narrowed
from .completion import COMPLETE_VAR

__all__ = ["COMMANDS", "SUMMARIES", "after_root_options", "app", "load_commands", "main", "modules_for"]


def modules_for(arguments: Sequence[str], environment: Mapping[str, str]) -> list[str]:
    """The command modules to import to run ``pyramide ARGUMENTS``: the one registering the command
    named first; none when no command is named (``--help``, ``--version``, no argument: the help
    lists the commands from :data:`SUMMARIES`); all of them for an unknown name (its "did you mean"
    hint), after ``--`` and for completion."""
    every = list(dict.fromkeys(COMMANDS.values()))
    arguments = after_root_options(arguments)
    if COMPLETE_VAR in environment:
        return every
    if not arguments or (arguments[0].startswith("-") and arguments[0] != "--"):
        return []
    module = COMMANDS.get(arguments[0])
    return every if module is None else [module]


def load_commands(arguments: Sequence[str] | None = None,
                  environment: Mapping[str, str] | None = None) -> typer.Typer:
    """Import the command modules needed for ``arguments`` (all of them by default); returns the app."""
    if arguments is None:
        names = list(dict.fromkeys(COMMANDS.values()))
    else:
        names = modules_for(arguments, os.environ if environment is None else environment)
    for name in names:
        importlib.import_module(f"{__name__}.{name}")
    return app


def main() -> None:
    """Run ``pyramide`` with the arguments of the process (the ``pyramide`` script and ``python -m
    pyramide_cli`` come here through :mod:`pyramide_cli.__main__`, which pauses the garbage collector
    for the start-up)."""
    arguments = sys.argv[1:]
    if COMPLETE_VAR in os.environ:  # the shell asks for completions (cli/completion.py)
        from .completion import prepare

        prepare()
    for name in ("stdout", "stderr"):
        if getattr(sys, name) is None:  # started with it closed (`>&-`): writing to it fails as it does there
            setattr(sys, name, _closed_stream())
    application = narrowed(load_commands(arguments), after_root_options(arguments))
    # The end of the start-up: what the imports built lives as long as the process, so it is kept out
    # of every later collection (including the one at exit), and the collector works again.
    gc.freeze()
    gc.enable()
    # The name is fixed so that `python -m pyramide_cli` says "pyramide" in usage lines too, and the
    # completion scripts call back the program they were installed for (_PYRAMIDE_COMPLETE).
    status: object = 0
    try:
        application(args=arguments, prog_name="pyramide")
    except SystemExit as done:
        status = done.code
    except OSError as error:  # writing the output failed (`> /dev/full`): what was saved stays saved
        sys.exit(_output_failed(error, 0))
    try:
        sys.stdout.flush()  # what is still buffered, here rather than at exit where a failure is a traceback
    except OSError as error:
        status = _output_failed(error, status)
    try:
        sys.stderr.flush()
    except OSError:
        _silence("stderr")
    sys.exit(status)


def _output_failed(error: OSError, status: object) -> object:
    """Say that the output could not be written (one line on stderr, if it can take one) and return the
    exit status: 5 (a file problem) unless the command failed already, then its own.  A reader that
    left (a broken pipe: `pyramide show g.yaml | head -1`) is not an error."""
    from .common import debugging, say_error
    from .exit_codes import ExitStatus

    if debugging():
        raise error
    _silence("stdout")  # the rest of the output goes nowhere: nothing is left to fail at exit
    if not isinstance(error, BrokenPipeError):
        from ..engine.text import text

        try:
            say_error(text("cannot write the output: {reason}", reason=error.strerror or str(error)))
        except (OSError, ValueError):
            _silence("stderr")  # stderr fails too: the exit status says it
        status = ExitStatus.FILE_ERROR if status in (0, None) else status
    return status


def _silence(name: str) -> None:
    """Send what is left of ``sys.stdout`` or ``sys.stderr`` (and any later write) to the null device."""
    stream = getattr(sys, name)
    try:
        descriptor = os.open(os.devnull, os.O_WRONLY)
        os.dup2(descriptor, stream.fileno())
        os.close(descriptor)
    except (OSError, ValueError):
        setattr(sys, name, open(os.devnull, "w"))  # noqa: SIM115 - lives as long as the process


def _closed_stream() -> Any:
    """A text stream every write to which fails as on a closed descriptor (EBADF)."""
    import errno
    import io

    class Closed(io.RawIOBase):
        def writable(self) -> bool:
            return True

        def fileno(self) -> int:
            raise OSError(errno.EBADF, "Bad file descriptor")

        def write(self, data: Any) -> int:
            raise OSError(errno.EBADF, "Bad file descriptor")

    return io.TextIOWrapper(io.BufferedWriter(Closed()), encoding="utf-8")
