"""What every command shares: options, turning the project's errors into exit statuses, output.

A command body runs inside :func:`reporting`: a :class:`~pyramide_cli.engine.errors.PyramideError`
becomes one line on stderr (or, with ``--json``, one JSON document on stdout) and the exit status
of its family (:mod:`.exit_codes`).  ``PYRAMIDE_DEBUG=1`` lets the exception through with its
traceback instead.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from ..engine.errors import CardError, DealCodeError, IllegalMoveError, MoveSyntaxError, PyramideError, RulesError
from ..storage.files import FileAccessError
from ..storage.save import SaveFileError
from ..storage.session import PlayResult, describe
from .render import Extras, Style, card_name, style_for
from ..versions import JSON_SCHEMA_VERSION
from .exit_codes import ExitStatus

# -- options shared by the commands ------------------------------------------------------------
JsonOption = Annotated[bool, typer.Option("--json", help="Print exactly one JSON document (errors included).")]
AsciiOption = Annotated[bool, typer.Option("--ascii", help="Plain ASCII: 10C instead of 10♣, '.' for a gap, no colour.")]
FrenchOption = Annotated[bool, typer.Option("--french", help="French rank letters on the board: R (roi), D (dame), V (valet).")]
RevealOption = Annotated[bool, typer.Option("--reveal", help="Also show the face-down stock, top card first.")]
DbOption = Annotated[Optional[str], typer.Option(
    "--db", metavar="FILE", show_default=False,
    help="The statistics database (default: stats.sqlite3 in $PYRAMIDE_HOME, else the user's data folder).")]


class CommandError(PyramideError):
    """An error found by the command line itself, with its exit status and extra JSON fields."""

    def __init__(self, message: str, status: ExitStatus, **details: Any) -> None:
        super().__init__(message)
        self.status = status
        self.details = details


def status_for(error: PyramideError) -> ExitStatus:
    """The exit status of an error family (the table in README and ``pyramide --help``)."""
    if isinstance(error, CommandError):
        return error.status
    if isinstance(error, FileAccessError):
        return ExitStatus.FILE_ERROR
    if isinstance(error, IllegalMoveError):
        return ExitStatus.ILLEGAL_MOVE
    if isinstance(error, (DealCodeError, SaveFileError)):
        return ExitStatus.BAD_INPUT
    if isinstance(error, (MoveSyntaxError, CardError, RulesError)):
        return ExitStatus.USAGE
    return ExitStatus.BAD_INPUT


def kind_of(status: ExitStatus) -> str:
    """``illegal-move``, ``bad-input`` … (the ``error.kind`` of a JSON error document)."""
    return status.name.lower().replace("_", "-")


def error_document(message: str, status: ExitStatus, **details: Any) -> dict[str, Any]:
    error = {"kind": kind_of(status), "exit_status": int(status), "message": message}
    error.update(details.pop("error", {}))
    return {"ok": False, "error": error, **details}


def emit_json(document: dict[str, Any]) -> None:
    """Print one JSON document on one line, with the schema version first (``docs/cli.md``, "JSON schema")."""
    import json

    sys.stdout.write(json.dumps({"schema": JSON_SCHEMA_VERSION, **document}, ensure_ascii=False) + "\n")
    sys.stdout.flush()


def say_error(message: str) -> None:
    sys.stderr.write(f"pyramide: {message}\n")
    sys.stderr.flush()


def fail(message: str, status: ExitStatus, json_output: bool, **details: Any) -> typer.Exit:
    """Report an error (one stderr line, or one JSON document) and return the ``Exit`` to raise."""
    if json_output:
        emit_json(error_document(message, status, **details))
    else:
        say_error(message)
    return typer.Exit(int(status))


def debugging() -> bool:
    return os.environ.get("PYRAMIDE_DEBUG", "") not in ("", "0")


@contextmanager
def reporting(json_output: bool) -> Iterator[None]:
    """Run a command body; turn the project's errors into their documented exit status."""
    try:
        yield
    except PyramideError as error:
        if debugging():
            raise
        details = error.details if isinstance(error, CommandError) else {}
        raise fail(str(error), status_for(error), json_output, **details) from None
    except BrokenPipeError:
        # `pyramide show g.yaml | head -1`: the reader left; nothing more to say.
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - silence the flush at exit
        raise typer.Exit(int(ExitStatus.OK)) from None


def usage_error(message: str) -> CommandError:
    return CommandError(message, ExitStatus.USAGE)


def board_style(ascii: bool, french: bool) -> Style:
    return style_for(sys.stdout, ascii=ascii, french=french)


def extras_of(data: Any) -> Extras:
    """The :class:`Extras` (time, level, daily) of a :class:`~pyramide_cli.storage.save.SaveData`, or none."""
    if data is None:
        return Extras()
    return Extras(time_played=data.time_played, level=data.level, daily=data.daily)


def counted(count: int, one: str, many: str) -> str:
    """``one`` or ``many`` filled in with ``count`` ("1 position", "2 positions").

    The shape of gettext's ``ngettext`` (two whole templates and the number), so a catalog can
    take it over for languages with other plural rules.
    """
    return (one if count == 1 else many).format(count=count)


def stats_db(db: str | None) -> Path:
    """The statistics database of ``--db``, else the default one (a path: nothing is opened or imported)."""
    from ..storage.places import default_db_path

    return Path(db) if db is not None else default_db_path()


def echo(text: str = "") -> None:
    sys.stdout.write(text + "\n")


def print_steps(result: PlayResult, style: Style) -> None:
    """One line per tap or move a batch played (``10C: selected 10♣``), as ``play`` and a session show them."""
    for step in result.steps:
        echo(f"{step.text}: {describe(step, lambda card: card_name(card, style))}")
