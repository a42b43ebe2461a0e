"""Playing a save file: lock it, replay it, apply taps and moves, write it back only if it changed.

This is what ``pyramide play`` does for each batch of input (all the arguments of one command, or
one line of an interactive or piped session); bots written in Python can call :func:`play_words`.

* The batch is checked for unreadable text first, so a typo changes nothing.
* Taps and moves apply in order; the first refusal stops the batch.  What came before it stays
  played, and a refused pair tap leaves its *second* card selected (R13) — so the file is written
  when anything changed, including only the selection.  Anything else refused changes nothing and
  the file stays byte-for-byte the same.
* The whole batch runs under the save's lock, re-reading the file inside it, so two processes
  playing the same save take turns and neither loses the other's moves.  A session keeps the game
  it last wrote in memory (:class:`KeptSave`) and, under the lock, reads the file and compares it
  with the text it wrote: the same text is the same game, so only a file another process changed
  is parsed and replayed again.  Each line of a long session then costs about the same, instead of
  a replay of the whole game.
* Given a statistics database (``stats``), the batch that ends the game records it there, once,
  after the save is written (:mod:`.stats`); a database that cannot take it gives a warning, never
  an error.  Without one nothing is recorded: bots and scripts calling this ask for it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from ..engine.cards import Card
from .files import SAVE_OUTPUT, SaveLock, read_head
from ..engine.game import Game
from ..engine.moves import CARD_REFUSALS, Move
from ..engine.taps import TapResult, TapSession, parse_input
from .save import FORMAT_VERSION, SavedGame, SaveData, load_game, read_save_text, write_save

if TYPE_CHECKING:
    from .stats import StatsDB

MAX_PAUSE = 600.0
"""Longest stretch without input that the stopwatch counts (seconds): a game left open overnight
does not count the night."""


def check_word(text: str) -> None:
    """Raise :class:`MoveSyntaxError` when ``text`` is neither a tap nor a move (as ``TapSession.play`` reads it)."""
    parse_input(text)


class Step(NamedTuple):
    """One tap or move and what it did; ``score``, ``selected``, ``waste_top`` and ``pass_number`` are after it."""

    text: str
    result: TapResult
    points: int
    score: int
    selected: Card | None
    waste_top: Card | None
    pass_number: int
    card: Card | None = None
    """For a refused pair move (``KC+QC``): the card the refusal is about (the one already removed)."""

    @property
    def ok(self) -> bool:
        return self.result.ok


class PlayResult(NamedTuple):
    steps: list[Step]
    """The steps that were played (not the refused one)."""
    refused: Step | None
    game: Game
    data: SaveData
    written: bool
    text: str
    """The file's text after the batch."""
    changed_elsewhere: bool
    """True when the file on disk differed from ``expected_text``: another process played it."""
    ended: bool = False
    """True when this batch ended the game (won, lost, dead or resigned)."""
    warnings: Sequence[str] = ()
    """Lines for the player that are no error: a game the statistics could not take."""


def _step(text: str, result: TapResult, session: TapSession, score_before: int) -> Step:
    game = session.game
    position = game.position
    return Step(text, result, game.score - score_before, game.score, session.selected, position.waste_top,
                position.pass_number, refused_card(game, text, result))


def refused_card(game: Game, text: str, result: TapResult) -> Card | None:
    """Which of the two cards a refused pair move names is blocked, removed or out of play.

    A refused move changes nothing, so ``game`` still holds the position it was refused in.
    """
    if result.refusal not in CARD_REFUSALS:
        return None
    action = parse_input(text)
    if not isinstance(action, Move) or len(action.cards) < 2:
        return None
    return next((card for card in action.cards if game.position.play_refusal(card) is result.refusal), None)


class KeptSave:
    """The save a session last read or wrote, game included, to play on without replaying it.

    :meth:`take` hands it over only while the file holds exactly the text it was kept with (the
    caller holds the save's lock, so the file cannot change between the comparison and the write),
    and only once: a batch that fails midway leaves nothing kept, and the next one reads the file.
    """

    __slots__ = ("path", "saved")

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self.saved: SavedGame | None = None

    def take(self) -> SavedGame | None:
        saved, self.saved = self.saved, None
        if saved is None or read_save_text(self.path) != saved.text:
            return None  # another process played the file (or it is gone): read it again
        saved.session.assist = saved.data.assist  # as the file says, like a game read from it
        return saved

    def keep(self, saved: SavedGame) -> None:
        # A format-1 save is replayed by that format's end rule when it is read: it is always read again.
        self.saved = saved if saved.data.format == FORMAT_VERSION else None


def play_words(
    path: Path | str,
    words: Sequence[str],
    assist: bool | None = None,
    time_added: float = 0.0,
    expected_text: str | None = None,
    stats: StatsDB | Path | None = None,
    kept: KeptSave | None = None,
) -> PlayResult:
    """Apply ``words`` to the save at ``path`` under its lock (see the module docstring).

    ``assist`` overrides the file's error-help setting for this batch only (R15); ``time_added``
    is stopwatch time to add (R19) unless the game was already over; ``stats`` is the database
    (or its path) that records the game if this batch ends it; ``kept`` (a session's, for this
    path) holds the save as the last batch left it, and is given the save as this one leaves it.
    """
    for word in words:
        check_word(word)
    if kept is None or kept.saved is None:
        _refuse_non_saves(path)
    with SaveLock(path):
        saved = None if kept is None else kept.take()
        if saved is None:
            saved = load_game(path)
        session, game = saved.session, saved.game
        if assist is not None:
            session.assist = assist
        was_over = game.is_over
        if was_over:
            time_added = 0.0
        steps: list[Step] = []
        refused = None
        for word in words:
            score_before = game.score
            result = session.play(word)
            step = _step(word, result, session, score_before)
            if not result.ok:
                refused = step
                break
            steps.append(step)
        data = saved.updated(session, time_added)
        written = data != saved.data
        text = write_save(path, data) if written else saved.text
        ended = not was_over and game.is_over
        warnings = []
        if ended and stats is not None:
            from .stats import GameRecord, StatsDB, record_game

            database = stats if isinstance(stats, StatsDB) else StatsDB(stats)
            warning = record_game(database, GameRecord.of_game(game, data))
            if warning is not None:
                warnings.append(warning)
        if kept is not None:
            kept.keep(SavedGame(saved.path, text, data, session))
    changed_elsewhere = expected_text is not None and saved.text != expected_text
    return PlayResult(steps, refused, game, data, written, text, changed_elsewhere, ended, warnings)


def count_hint(path: Path | str, time_added: float = 0.0) -> SaveData:
    """Add one to the save's ``hints`` (a hint the play prompt gave), under the save's lock.

    A finished game counts no hint (there is none to give).  The statistics record the count when
    the game ends; ``pyramide hint FILE`` never changes the save, so its hints are not counted.
    """
    from dataclasses import replace

    with SaveLock(path):
        saved = load_game(path)
        if saved.game.is_over:
            return saved.data
        data = replace(saved.updated(saved.session, time_added), hints=saved.data.hints + 1)
        write_save(path, data)
        return data


def _refuse_non_saves(path: Path | str) -> None:
    """Refuse what is not a save before taking its lock, so that no lock file is left beside it: a
    FIFO or a device at once (reading it would wait for ever), any other file by reading it."""
    if not SAVE_OUTPUT.recognises(read_head(path)):
        load_game(path)  # raises, naming what is wrong (a file that is a save after all just goes on)


class Stopwatch:
    """Wall time between inputs of a session (R19), each pause counted up to :data:`MAX_PAUSE`."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.last = clock()

    def lap(self) -> float:
        now = self.clock()
        elapsed = min(max(now - self.last, 0.0), MAX_PAUSE)
        self.last = now
        return elapsed
