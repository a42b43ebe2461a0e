"""The board's save file: every action played, saved and counted exactly as the line mode does it.

Each tap, undo or resignation is one batch of :func:`~pyramide_cli.storage.session.play_words`: the
save's lock taken, the file re-read and replayed inside it, the action applied, the file written
atomically when something changed, and the game recorded in the statistics by the batch that ends
it (once).  So a board killed at any moment (Ctrl-C, ``kill``, a closed terminal) has lost nothing
but the stopwatch's time since the last action, and another process playing the same file meanwhile
is never overwritten: its actions come first, and :meth:`BoardSession.reload` notices them between
actions.

The stopwatch (R19) is the line mode's :class:`~pyramide_cli.storage.session.Stopwatch`: the wall
time from the board's start to each action, and to its end, each pause counted up to ten minutes.
Watching the solver does not count (:meth:`BoardSession.pause_clock`).

``restart`` of a game in progress keeps it in the games folder and replays the same deal; nothing is
recorded in the statistics for it, so it breaks no streak (a game the player abandons to start over is
neither won nor lost).  ``new`` of a game in progress resigns it first, as the line mode does.
"""

from __future__ import annotations

import functools
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, NoReturn

from ..engine.errors import PyramideError
from ..engine.text import message_of, text
from ..storage.session import MAX_PAUSE, PlayResult, Step, Stopwatch, count_hint, play_words

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..engine.level import Level
    from ..storage.save import SaveData
    from ..storage.stats import StatsDB

NextSave = Callable[["Game", "SaveData", bool, "Level | None"], "SaveData"]
"""Makes the save of the next game: ``(game, data, restart, level)`` (the line mode's ``next_save``)."""


class Record(NamedTuple):
    """The player's record under one set of rules, from the statistics."""

    played: int
    won: int
    streak: int


class Played(NamedTuple):
    """What an action did, for the board to show: the batch, and a line for the message bar."""

    result: PlayResult | None
    message: str | None = None
    refused: Step | None = None


def saving(method: Callable[..., Any]) -> Callable[..., Any]:
    """A :class:`BoardSession` method that reads or writes the save: a hang-up (:meth:`BoardSession.hang_up`)
    that comes meanwhile ends the board only when it is done."""
    @functools.wraps(method)
    def guarded(self: BoardSession, *args: Any, **kwargs: Any) -> Any:
        self.busy += 1
        try:
            return method(self, *args, **kwargs)
        finally:
            self.busy -= 1
            if self.hung_up and not self.busy:
                self.end_now()

    return guarded


class BoardSession:
    """One board on one save file."""

    def __init__(self, path: Path, assist: bool | None, stats: StatsDB | Path | None,
                 next_save: NextSave | None = None, clock: Callable[[], float] = time.monotonic,
                 paused: bool = False) -> None:
        self.path, self.assist, self.stats, self.next_save = path, assist, stats, next_save
        self.clock = clock
        self.stopwatch = Stopwatch(clock)
        self.paused = paused
        """True while the solver's line is watched (from the start with ``play --watch``)."""
        self.held = 0.0
        """Time played before the clock was paused, not yet saved."""
        self.busy = 0
        """How many save reads or writes are under way (:func:`saving`)."""
        self.hung_up = 0
        """The exit status a hang-up asked for (128 + the signal), 0 without one."""
        self.last = play_words(path, [], assist, stats=stats)
        self.warnings: list[str] = list(self.last.warnings)

    # -- what the board shows -----------------------------------------------------------------------
    @property
    def game(self) -> Game:
        return self.last.game

    @property
    def data(self) -> SaveData:
        return self.last.data

    def time_played(self) -> float:
        """The save's time plus the time since the last action (R19); a finished game's clock stands."""
        if self.game.is_over:
            return self.data.time_played
        if self.paused:
            return self.data.time_played + self.held
        return self.data.time_played + min(max(self.clock() - self.stopwatch.last, 0.0), MAX_PAUSE)

    # -- actions ----------------------------------------------------------------------------------
    def _lap(self) -> float:
        if self.paused:
            held, self.held = self.held, 0.0
            return held
        return self.stopwatch.lap()

    @saving
    def play(self, word: str) -> Played:
        """One tap or move, saved at once; a lock that does not come or a bad file gives a message."""
        try:
            result = play_words(self.path, [word], self.assist, self._lap(), expected_text=self.last.text,
                                stats=self.stats)
        except PyramideError as error:
            return Played(None, message_of(error))
        self.last = result
        self.warnings.extend(result.warnings)
        message = None
        if result.changed_elsewhere:
            message = text("The file was played by another process meanwhile: its moves are included.")
        return Played(result, message, result.refused)

    @saving
    def count_hint(self) -> None:
        """A hint shown is counted in the save, as the line mode counts it."""
        try:
            count_hint(self.path, self._lap())
            self.last = play_words(self.path, [], self.assist, stats=self.stats)
        except PyramideError:
            pass

    @saving
    def reload(self) -> bool:
        """Re-read the save when another process changed it; True when it had changed."""
        try:
            current = self.path.read_text(encoding="utf-8")
        except OSError:
            return False
        if current == self.last.text:
            return False
        try:
            self.last = play_words(self.path, [], self.assist, stats=self.stats)
        except PyramideError:
            return False
        return True

    @saving
    def finish(self) -> None:
        """The time since the last action into the save (the end of the board, as the line mode's ``quit``)."""
        lap = self._lap()
        if lap and not self.game.is_over:
            try:
                self.last = play_words(self.path, [], self.assist, lap, stats=self.stats)
            except PyramideError:
                pass

    def hang_up(self, number: int) -> None:
        """SIGHUP: the terminal is gone.  The time since the last action is saved and the process ends at
        once (``os._exit``): Textual's own shutdown writes to the terminal and can wait for it forever.
        A hang-up during a save ends the board when that save is done."""
        self.hung_up = 128 + number
        if not self.busy:
            self.end_now()

    def end_now(self) -> NoReturn:
        code, self.hung_up = self.hung_up, 0
        self.finish()
        os._exit(code)

    def pause_clock(self, paused: bool) -> None:
        """Stop the stopwatch while the solver's line is watched (watching is not playing): the time
        played before it still counts, the time spent watching does not."""
        if paused and not self.paused:
            self.held = min(max(self.clock() - self.stopwatch.last, 0.0), MAX_PAUSE)
        elif not paused and self.paused:
            self.stopwatch.last = self.clock() - self.held
            self.held = 0.0
        self.paused = paused

    # -- the next game ----------------------------------------------------------------------------
    @saving
    def next_game(self, restart: bool, level: Level | None = None) -> str:
        """``restart`` (the same deal) or ``new`` (a new deal, same rules; of ``level`` when one is given,
        else of the game's level); returns the line to show.

        A game in progress is kept in the games folder; under ``new`` it is resigned first (counted as
        lost, as in the line mode), under ``restart`` it is not counted at all.
        """
        from ..storage.archive import replace_game
        from ..storage.places import games_folder

        if self.next_save is None:
            return text("A new game cannot be dealt here.")
        if not restart and self.data.history and not self.game.is_over:
            outcome = self.play("resign")
            if outcome.result is None:
                return outcome.message or ""
        try:
            new = self.next_save(self.game, self.data, restart, level)
            replaced = replace_game(self.path, new, games_folder(), self.stats, self.last.text)
        except PyramideError as error:
            return message_of(error)
        if replaced.warning is not None:
            self.warnings.append(replaced.warning)
        self.stopwatch.lap()  # the new game's clock starts now
        self.last = play_words(self.path, [], self.assist, stats=self.stats)
        if not replaced.replaced:
            return text("The file was played by another process meanwhile: nothing was replaced.")
        if restart:
            return text("The same deal again: {code}.", code=new.deal)
        return text("A new deal: {code}.", code=new.deal)

    def record(self) -> Record | None:
        """The player's record under this game's rules (played, won, current streak), or ``None``
        without a statistics database or when it cannot be read."""
        if self.stats is None:
            return None
        from ..storage.stats import StatsDB, StatsError, filtered, summarize

        database = self.stats if isinstance(self.stats, StatsDB) else StatsDB(self.stats)
        try:
            games = filtered(database.games(), rules=self.game.deal.rules.name)
        except StatsError:
            return None
        summary = summarize(games)
        return Record(summary.played, summary.won, summary.current_streak)
