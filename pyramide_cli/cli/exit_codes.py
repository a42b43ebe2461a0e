"""The exit statuses of every ``pyramide`` command, in one place (README and ``--help`` show this table).

Commands added later (``solve``, ``hint``, ``grade`` …) import these names instead of numbers.
"""

from __future__ import annotations

from enum import IntEnum


class ExitStatus(IntEnum):
    OK = 0
    CHECK_FAILED = 1
    """``replay`` found a divergence, or an ``--expect…`` check was not met."""
    USAGE = 2
    """Bad command line (Click's own), or unreadable move, card or rules text."""
    ILLEGAL_MOVE = 3
    """An illegal move or a refused tap (nothing after it was played)."""
    BAD_INPUT = 4
    """A bad deal code, layout file or save file."""
    FILE_ERROR = 5
    """I/O or lock failure: missing file, unwritable folder, file exists, lock timeout."""
    UNWINNABLE = 6
    """``solve``, ``grade``: the deal or position is proven unwinnable."""
    SEARCH_LIMIT = 7
    """``solve``, ``grade``: a search limit was reached before a verdict; ``deal --level``: no deal found."""
    INTERRUPTED = 130
    """Ctrl-C (the shells' 128 + SIGINT): what was already saved stays saved."""


EXIT_STATUS_MEANINGS: tuple[tuple[ExitStatus, str], ...] = (
    (ExitStatus.OK, "success"),
    (ExitStatus.CHECK_FAILED, "check failed: replay diverges from the file, or --expect... not met"),
    (ExitStatus.USAGE, "usage: bad option or argument, unreadable move, card or rules text"),
    (ExitStatus.ILLEGAL_MOVE, "illegal move or refused tap"),
    (ExitStatus.BAD_INPUT, "bad deal code, layout file or save file"),
    (ExitStatus.FILE_ERROR, "file or lock problem: missing, unwritable, exists, locked"),
    (ExitStatus.UNWINNABLE, "solve, grade: unwinnable"),
    (ExitStatus.SEARCH_LIMIT, "solve, grade: search limit reached; deal --level/--daily: no deal found"),
    (ExitStatus.INTERRUPTED, "interrupted (Ctrl-C); what was already saved stays saved"),
)


def exit_status_table() -> str:
    """The table as plain lines, for ``--help`` epilogs."""
    return "\n".join(f"{int(status)}  {meaning}" for status, meaning in EXIT_STATUS_MEANINGS)
