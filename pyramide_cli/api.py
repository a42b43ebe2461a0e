"""The functions of the public API that reach beyond the engine: save files and hints.

Everything here is re-exported by ``pyramide_cli`` (see ``docs/api.md``); bots import it from
there.  These are thin doors onto the storage and analysis layers (``solve`` is the solver's own,
:func:`pyramide_cli.solver.solve`), with budgets counted in positions so an answer never depends on
the machine's load.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from .engine.game import Game
from .engine.position import Position
from .engine.taps import TapSession
from .storage.files import FileAccessError, SaveLock, check_output
from .storage.save import SaveData, SaveFileError, load_game, read_save, write_save

if TYPE_CHECKING:
    from .analysis.hint import Hint
    from .solver import Limits


def read_game(path: Path | str) -> Game:
    """The game a save file holds, replayed from its deal code and checked against what it records.

    Raises :class:`FileAccessError` (missing, unreadable) or :class:`SaveFileError` (naming the
    bad field).  A save of format 1 is read too (``docs/cli.md``).
    """
    return load_game(path).game


def write_game(path: Path | str, game: Game | TapSession, *, overwrite: bool = False) -> None:
    """Write ``game`` to a save file atomically, under the save's lock, as ``pyramide`` does.

    An existing file is refused with :class:`FileAccessError` unless ``overwrite``; when it holds a
    save of the same deal, what the game does not know (time played, hints, level, daily date,
    leading comments) is kept.  Only a game played from the start of its deal can be saved.  A
    :class:`TapSession` is written with its selection and error help.
    """
    session = game if isinstance(game, TapSession) else TapSession(game)
    # The name is checked as given before its lock is taken (a refused name gets no X.lock beside it),
    # and again under the lock, where nothing can change it before the write.
    spelled = str(path)
    check_output(spelled, overwrite, how_to_force="overwrite=True")
    with SaveLock(spelled):
        target = check_output(spelled, overwrite, how_to_force="overwrite=True")  # replaces only a save
        base = None
        if target.exists():
            try:
                previous = read_save(target)
            except (SaveFileError, FileAccessError):
                previous = None
            if previous is not None and previous.deal == session.game.deal.code:
                base = previous
        write_save(target, SaveData.from_game(session.game, base, selected=session.selected, assist=session.assist))


def hint(target: Game | TapSession | Position, *, limits: Limits | None = None) -> Hint:
    """The hint for a game, a tap session (its taps start from its selection) or a position: the next
    action of a winning line when there is one.

    ``limits`` bounds the search (``None``: ``pyramide hint``'s budget, 300,000 positions); past
    ``limits.max_states`` it falls back to the strategy tips of the sources and says so.  Returns a
    :class:`~pyramide_cli.analysis.hint.Hint`; the game is not changed.
    """
    from .analysis.hint import HINT_LIMITS, hint_for

    limits = HINT_LIMITS if limits is None else limits
    if isinstance(target, TapSession):
        return hint_for(target.game, limits, selected=target.selected)
    return hint_for(target, limits)
