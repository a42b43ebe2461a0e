"""What every command shares: options, turning the project's errors into exit statuses, output.

A command body runs inside :func:`reporting`: a :class:`~pyramide_cli.engine.errors.PyramideError`
becomes one line on stderr (or, with ``--json``, one JSON document on stdout) and the exit status
of its family (:mod:`.exit_codes`).  ``PYRAMIDE_DEBUG=1`` lets the exception through with its
traceback instead.

Text a user controls (file names, deal codes, taps, values read from a file) can hold escape
sequences that would act on the terminal, newlines that would forge a second line, or be 100,000
characters long.  :func:`shown` is the one helper for printing such text in an output line
(``saved to NAME``); :func:`say_error` and the JSON ``error.message`` pass every message through
:func:`one_line`, so an error is always exactly one escaped, bounded line.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional, TypeVar

import typer

from ..engine.errors import (
    CardError, DealCodeError, IllegalMoveError, MoveSyntaxError, PyramideError, RulesError, escaped, quoted,
)
from ..engine.text import message_of, text
from ..i18n import for_display, tr, uses_french_letters
from ..versions import JSON_SCHEMA_VERSION
from .exit_codes import ExitStatus

# This module is on every command's path, the app's (usage errors) and --help's included: it imports
# neither storage nor the board (render, which loads the game engine).  The few functions that need
# them import them when called (bench/bench_cli.py; tests/test_cli_subprocess.py checks what loads).
if TYPE_CHECKING:
    from ..storage.session import PlayResult
    from .render import Extras, Style

# -- options shared by the commands ------------------------------------------------------------
JsonOption = Annotated[bool, typer.Option("--json", help="Print exactly one JSON document (errors included).")]
AsciiOption = Annotated[bool, typer.Option(
    "--ascii", help="Plain ASCII: 10C instead of 10♣, '.' for a gap, no colour.")]
FrenchOption = Annotated[bool, typer.Option(
    "--french", help="French rank letters on the board: R (roi), D (dame), V (valet).")]
RevealOption = Annotated[bool, typer.Option("--reveal", help="Also show the face-down stock, top card first.")]
DbOption = Annotated[Optional[str], typer.Option(
    "--db", metavar="FILE", show_default=False,
    help="The statistics database (default: stats.sqlite3 in $PYRAMIDE_HOME, else the user's data folder).")]


_N = TypeVar("_N", int, float)


def whole_number(value: object) -> int:
    """The value of a whole-number option (``--max-states 1000``), as ``typer.Option(parser=whole_number)``.

    The command converts its numbers itself so that a bad one gets the same one-line message under
    every Typer the pin allows (``'lots' is not a valid int``), never the wording of the validation
    library a Typer release converts with."""
    return _number(value, int, "int")


def real_number(value: object) -> float:
    """The value of a decimal option (``--timeout 2.5``), as ``typer.Option(parser=real_number)``: as
    :func:`whole_number`, the same message under every Typer (``'soon' is not a valid float``)."""
    return _number(value, float, "float")


def _number(value: object, convert: Callable[[Any], _N], name: str) -> _N:
    """``value`` (a str from the command line, or the option's default) converted, else the one-line error."""
    try:
        return convert(value)
    except (TypeError, ValueError):
        raise typer.BadParameter(f"{quoted(value)} is not a valid {name}") from None


class CommandError(PyramideError):
    """An error found by the command line itself, with its exit status and extra JSON fields."""

    def __init__(self, message: str, status: ExitStatus, **details: Any) -> None:
        super().__init__(message)
        self.status = status
        self.details = details


def status_for(error: PyramideError) -> ExitStatus:
    """The exit status of an error family (the table in README and ``pyramide --help``)."""
    from ..storage.files import FileAccessError, FileContentError  # lazy: see the imports
    from ..storage.save import SaveFileError

    if isinstance(error, CommandError):
        return error.status
    if isinstance(error, FileAccessError):
        return ExitStatus.FILE_ERROR
    if isinstance(error, FileContentError):
        return ExitStatus.BAD_INPUT
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


# -- user text in output -----------------------------------------------------------------------
NAME_LIMIT = 200
"""The most characters of a file name or other user text printed in an output line."""
MESSAGE_LIMIT = 500
"""The most characters of an error message (longer ones keep their start and end)."""


def shown(text: object, limit: int = NAME_LIMIT) -> str:
    """User text (a file name, a code, a tap) ready for an output line: control characters, escape
    sequences and undecodable bytes written as escapes (``\\x1b``), and at most ``limit`` characters
    (the start and the end are kept).  Use it wherever a line prints something the user typed or a
    file held: ``echo(text("saved to {name}", name=shown(path)))``."""
    return _bounded(escaped(str(text)), limit)


def one_line(message: str, limit: int = MESSAGE_LIMIT) -> str:
    """An error message as one escaped line of at most about ``limit`` characters.

    The directional marks a Hebrew message carries around card names and numbers (LEFT-TO-RIGHT
    and RIGHT-TO-LEFT MARK, :mod:`pyramide_cli.i18n.bidi`) stay: they come from the translation,
    never from user text (quoted values arrive escaped), and they act on nothing but direction."""
    if "\u200e" not in message and "\u200f" not in message:
        return _bounded(escaped(message), limit)
    parts = re.split("([\u200e\u200f])", message)
    return _bounded("".join(part if part in ("\u200e", "\u200f") else escaped(part) for part in parts), limit)


def _bounded(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    keep = max(limit - 40, 20)
    head, tail = keep * 2 // 3, keep - keep * 2 // 3
    return f"{text[:head]}…[{len(text) - head - tail:,} characters left out]…{text[-tail:]}"


def error_document(message: str, status: ExitStatus, **details: Any) -> dict[str, Any]:
    error = {"kind": kind_of(status), "exit_status": int(status), "message": one_line(message)}
    error.update(details.pop("error", {}))
    return {"ok": False, "error": error, **details}


def emit_json(document: dict[str, Any]) -> None:
    """Print one JSON document on one line, with the schema version first (``docs/cli.md``, "JSON schema"),
    always valid UTF-8: text that is not (a file name with bytes that are not UTF-8) makes the whole
    document ASCII with ``\\u`` escapes instead."""
    import json

    document = {"schema": JSON_SCHEMA_VERSION, **document}
    text = json.dumps(document, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(document)
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def say_error(message: str) -> None:
    """The one line of an error on stderr: ``pyramide: …``, in the reader's language (a
    :class:`~pyramide_cli.engine.text.Text` is translated), escaped and bounded (:func:`one_line`)."""
    sys.stderr.write(for_display(f"pyramide: {one_line(tr(message))}") + "\n")
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
        raise fail(message_of(error), status_for(error), json_output, **details) from None
    except KeyboardInterrupt:
        # Ctrl-C: one line (or one JSON document) and the shells' status for it; what was saved stays saved.
        raise fail(text("interrupted"), ExitStatus.INTERRUPTED, json_output) from None
    except BrokenPipeError:
        # `pyramide show g.yaml | head -1`: the reader left; nothing more to say.
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - silence the flush at exit
        raise typer.Exit(int(ExitStatus.OK)) from None


def usage_error(message: str) -> CommandError:
    return CommandError(message, ExitStatus.USAGE)


def board_style(ascii: bool, french: bool) -> Style:
    """How boards are drawn on stdout; French rank letters when asked or when the language's
    players read them (fr, he, sv)."""
    from .render import style_for  # lazy: see the imports

    return style_for(sys.stdout, ascii=ascii, french=french or uses_french_letters())


def extras_of(data: Any) -> Extras:
    """The :class:`Extras` (time, level, daily, selection) of a :class:`~pyramide_cli.storage.save.SaveData`,
    or none."""
    from .render import Extras  # lazy: see the imports

    if data is None:
        return Extras()
    return Extras(time_played=data.time_played, level=data.level, daily=data.daily, selected=data.selected)


def stats_db(db: str | None) -> Path:
    """The statistics database of ``--db``, else the default one (a path: nothing is opened or imported)."""
    from ..storage.places import default_db_path

    return Path(db) if db is not None else default_db_path()


def echo(text: str = "") -> None:
    """A line of output for a person, in the reader's language (a ``Text`` is translated)."""
    sys.stdout.write(for_display(tr(text)) + "\n")


def print_steps(result: PlayResult, style: Style) -> None:
    """One line per tap or move a batch played (``10C: selected 10♣``), as ``play`` and a session show them."""
    from .steps import describe  # only playing needs it: the other commands never load it
    from .render import card_name

    for step in result.steps:
        echo(text("{input}: {step}", input=step.text, step=describe(step, lambda card: card_name(card, style))))
