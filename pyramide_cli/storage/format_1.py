"""Save format 1's end rule: a history replayed as format 1 recorded it.

Format 1 was written before games could end dead: at a dead position (no card can ever be removed
again) its draws and recycles stayed legal, and so did undo, so a format-1 history may go on past the
point where today's rule ends the game.  The engine knows one rule; this module replays an old
history by the old one:

* :func:`walk` plays a format-1 history.  A history that today's rule also accepts is played by the
  engine (:meth:`Game.walk`); one that goes on past a dead position is walked here, over positions,
  and comes back as a :class:`Format1Game` at the end of it, reported by today's rule (a game
  stuck at a dead position is ``lost``/``dead``).
* :func:`moves` and :func:`status`: the legal moves and the ``status`` format 1 records.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..engine.deal import Deal
from ..engine.game import UNDO_LIMIT, Game, HistoryWalk
from ..engine.moves import DRAW, RECYCLE, Move, MoveKind, Refusal, refusal_error
from ..engine.position import Outcome, Position, Termination


class Format1Game(Game):
    """A game whose history only format 1's end rule allows (it drew on after a dead position): it
    can only ever be written as format 1.  It plays on by today's rule; :meth:`Game.pop` cannot take
    back the history it was read with."""

    __slots__ = ()


def moves(position: Position) -> tuple[Move, ...]:
    """The legal moves by format 1's rule: the removals, then ``draw`` or ``recycle`` when the stock
    allows it, a dead position included."""
    legal = position.removals()
    if position.can_draw:
        legal.append(DRAW)
    elif position.can_recycle:
        legal.append(RECYCLE)
    return tuple(legal)


def status(game: Game) -> Outcome:
    """The status format 1 records: by its end rule a dead position was still ``playing``."""
    if game.termination is Termination.RESIGNED:
        return Outcome.LOST
    position = game.position
    if position.is_won:
        return Outcome.WON
    return Outcome.PLAYING if moves(position) else Outcome.LOST


def walk(deal: Deal, history: Sequence[Move], each: Callable[[int, Move, Game], None] | None = None) -> HistoryWalk:
    """Play a format-1 history up to its first entry that format 1 refuses, as :meth:`Game.walk` does."""
    walked = Game.walk(deal, history, each)
    if walked.refused is None or walked.game.termination is not Termination.DEAD:
        return walked
    return _walk_positions(deal, history, each, walked.played)


def _walk_positions(deal: Deal, history: Sequence[Move], each: Callable[[int, Move, Game], None] | None,
                    told: int) -> HistoryWalk:
    """The whole walk over positions, by format 1's rule: undo (R20) and resign as a game plays them.
    ``each`` is called after the entries past the first ``told`` (the engine's walk told those)."""
    position = Position.start(deal)
    undo: list[Position] = []
    undo_available = move_count = 0
    resigned = False

    def game_after(played: int) -> Format1Game:
        return Format1Game._restore(deal, history[:played], position, move_count=move_count, undo=undo,
                                    undo_available=undo_available, resigned=resigned)

    for played, move in enumerate(history):
        refusal = _refusal(position, move, resigned, undo_available)
        if refusal is not None:
            return HistoryWalk(game_after(played), played, refusal_error(move, refusal))
        if move.kind is MoveKind.UNDO:
            position = undo.pop()
            undo_available -= 1
        elif move.kind is MoveKind.RESIGN:
            resigned = True
        else:
            undo.append(position)
            undo_available = min(undo_available + 1, UNDO_LIMIT)
            move_count += 1
            position = position.apply_unchecked(move)
        if each is not None and played >= told:
            each(played + 1, move, game_after(played + 1))
    return HistoryWalk(game_after(len(history)), len(history), None)


def _refusal(position: Position, move: Move, resigned: bool, undo_available: int) -> Refusal | None:
    """Why format 1 refuses ``move`` here: the game is over only once won, resigned or out of moves."""
    if resigned or not moves(position):
        return Refusal.GAME_OVER
    if move.kind is MoveKind.UNDO:
        return None if undo_available else Refusal.NOTHING_TO_UNDO
    if move.kind is MoveKind.RESIGN:
        return None
    return position.refusal(move) if move.removes_cards else position.stock_refusal(move)
