"""``pyramide play FILE --watch`` without a terminal: the solver's line printed one action at a time.

The board's ``--watch`` (``docs/cli.md``, "The board") for scripts and demos: the same line
(:func:`~pyramide_cli.board.adapter.solver_line`, which imports neither Textual nor the board's
app), each action followed by the board, as ``replay --step`` prints a history.  The save is read,
never written.
"""

from __future__ import annotations

from pathlib import Path

from ..engine.text import plural, text
from .common import CommandError, echo, extras_of
from .exit_codes import ExitStatus
from .render import Style, render_board


def print_watch(path: Path, style: Style) -> None:
    """Print the solver's line from the position saved at ``path``; a search that reaches its limit is
    an error (exit 7, as ``solve``); a finished game has no line, and says so."""
    from ..board.adapter import solver_line
    from ..storage.save import load_game

    saved = load_game(path)
    game, extras = saved.game, extras_of(saved.data)
    echo(render_board(game, style, extras))
    if game.is_over:
        echo(text("-- the game is over: there is no line to watch"))
        return
    line = solver_line(game)
    if line.winnable is None:
        raise CommandError(text("The solver reached its search limit: there is no line to show."),
                           ExitStatus.SEARCH_LIMIT)
    if line.winnable:
        echo(plural("-- the solver's winning line from here: {count} action",
                    "-- the solver's winning line from here: {count} actions", len(line.moves)))
    else:
        echo(plural("-- this position cannot be won: the line to the most pyramid cards that can come off "
                    "({most} of 28), {count} action",
                    "-- this position cannot be won: the line to the most pyramid cards that can come off "
                    "({most} of 28), {count} actions", len(line.moves), most=line.most))
    shown = extras._replace(selected=None)  # the line starts with no card selected
    watched = game.copy()
    for number, move in enumerate(line.moves, start=1):
        watched.push(move)
        echo()
        echo(text("-- action {number}: {move}", number=number, move=str(move)))
        echo(render_board(watched, style, shown))
