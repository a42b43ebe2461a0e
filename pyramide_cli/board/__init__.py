"""The full-screen board of ``pyramide play FILE`` at a terminal (issue 22; ``docs/cli.md``, "The board").

The board is a layer of its own, the only one that imports Textual: ``cli`` → ``board`` →
``analysis``/``storage`` → ``engine``.  :mod:`.adapter` holds every call into the engine,
:mod:`.session` plays and saves exactly as the line mode does (``storage.session.play_words``),
:mod:`.layout` draws the board as text with what each piece taps, :mod:`.app` is the Textual app.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..storage.stats import StatsDB
    from .layout import Style
    from .session import NextSave


def run_board(path: Path, assist: bool | None, stats: StatsDB | Path | None, style: Style, *,
              refusal_line: Callable[[Any, Callable[[Any], str]], str], color: bool = True,
              watch: bool = False, next_save: NextSave | None = None,
              end_message: Callable[[Any], str] | None = None, messages: tuple[str, ...] = ()) -> None:
    """Open the board on the save at ``path`` until the player quits (or the terminal goes away).

    ``next_save``, ``end_message`` and ``refusal_line`` are the line mode's own (passed in by the
    command line, which the board does not import), so both say the same things; ``messages`` are
    shown on the message line at the start.

    Every action is saved as it is played; at the end the time since the last action is saved too.
    """
    import signal

    from .app import BoardApp
    from .session import BoardSession

    session = BoardSession(path, assist, stats, next_save, paused=watch)
    if hasattr(signal, "SIGHUP"):  # a plain handler: it runs even while Textual waits on a terminal that is gone
        signal.signal(signal.SIGHUP, lambda number, frame: session.hang_up(number))
    app = BoardApp(session, style, color=color, watch=watch, end_message=end_message, refusal_line=refusal_line,
                   messages=messages)
    try:
        app.run(mouse=True)
    except OSError:  # the terminal went away: what was played is saved already
        pass
    finally:
        session.finish()
