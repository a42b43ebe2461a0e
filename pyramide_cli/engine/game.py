"""A game in progress: position, history, undo (R20), move counter (R19), and how it ends.

:class:`Game` is the only mutable piece of the engine, and the object bots play with.  It keeps a
stack of snapshots, as python-chess does: :meth:`Game.push` plays an action and returns an
:class:`ActionRecord` of what happened; :meth:`Game.pop` restores the game exactly as it was before
the last action (history, counter, undo depth) — a take-back for searches, not a move of the game.
The player's undo (R20) is an action of its own, ``undo``: it is written in the history, goes back
one position and leaves the move counter alone, up to 100 deep.

A game ends (:attr:`Game.termination`) when the pyramid is cleared (won), when no action is left
(R17), when no card can ever be removed again (dead), or when the player resigns.  Once it has
ended every action is refused with ``game-over``, ``undo`` included; :meth:`Game.pop` still works.

How a person plays a game (taps, selection, error help) is :class:`~pyramide_cli.engine.taps.TapSession`'s
job; the legal moves of a state come from the deal's tables (:mod:`~pyramide_cli.engine.move_tables`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, fields
from typing import Any, NamedTuple

from . import kernel
from .cards import Card
from .deal import Deal
from .errors import IllegalMoveError
from .layout import PYRAMID_SIZE
from .move_tables import DRAW_ONLY, NO_MOVES, RECYCLE_ONLY, deal_moves, state_of
from .moves import DRAW, RECYCLE, RESIGN, UNDO, Move, MoveKind, Refusal, refusal_error
from .position import POINTS_PER_PYRAMID_CARD, Outcome, Position, Termination
from .text import message_of, text

UNDO_LIMIT = 100
_UNKNOWN: Any = object()
"""A cached termination not worked out yet (``None`` already means "still playing")."""


@dataclass(frozen=True, slots=True)
class ActionRecord:
    """What one action did: returned by :meth:`Game.push`, :meth:`Game.undo` and :meth:`Game.resign`.

    ``points``: the change of score (negative when an undo takes a removal back); ``removed``: the
    cards the action put on the foundation; ``uncovered``: the pyramid cards it left free that were
    covered before; ``score``, ``outcome`` and ``termination`` are the game's after the action.
    """

    move: Move
    points: int
    removed: tuple[Card, ...]
    uncovered: tuple[Card, ...]
    score: int
    outcome: Outcome
    termination: Termination | None

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (card names in the canonical notation)."""
        return {
            "move": str(self.move),
            "points": self.points,
            "removed": [str(card) for card in self.removed],
            "uncovered": [str(card) for card in self.uncovered],
            "score": self.score,
            "status": self.outcome.value,
            "termination": None if self.termination is None else self.termination.value,
        }


def _record_maker() -> Callable[[Move, int, tuple[Card, ...], tuple[Card, ...], int, Outcome, Termination | None],
                                 ActionRecord]:
    """A maker of :class:`ActionRecord` for :meth:`Game.push`: the same object as the class makes,
    with its slots written through their descriptors rather than by the frozen dataclass's
    ``__init__`` (which goes through ``object.__setattr__`` once per field)."""
    new = object.__new__
    set_move, set_points, set_removed, set_uncovered, set_score, set_outcome, set_termination = (
        ActionRecord.__dict__[entry.name].__set__ for entry in fields(ActionRecord))

    def record(move: Move, points: int, removed: tuple[Card, ...], uncovered: tuple[Card, ...], score: int,
               outcome: Outcome, termination: Termination | None) -> ActionRecord:
        made = new(ActionRecord)
        set_move(made, move)
        set_points(made, points)
        set_removed(made, removed)
        set_uncovered(made, uncovered)
        set_score(made, score)
        set_outcome(made, outcome)
        set_termination(made, termination)
        return made

    return record


_record = _record_maker()


class HistoryWalk(NamedTuple):
    """A history played from its deal: the game after the ``played`` entries that could be played,
    and why the next one was refused (``refused`` is ``None`` when the whole history was played)."""

    game: Game
    played: int
    refused: IllegalMoveError | None


class _Snapshot(NamedTuple):
    """What :meth:`Game.pop` restores: the game's fields before an action (one per action played).

    A NamedTuple, made with ``tuple.__new__`` on :meth:`Game.push`'s path and unpacked by
    :meth:`Game.pop` in this order."""

    state: tuple[Any, ...]
    position: Position | None
    move_count: int
    undo: tuple[tuple[Any, ...], Any] | None
    undo_available: int
    resigned: bool
    legal: tuple[Move, ...] | None
    termination: Any
    quiet: int


_new_tuple = tuple.__new__
"""Makes a :class:`_Snapshot` from its fields in order, without the Python-level ``__new__``."""

_GOING_ON: dict[Move, tuple[ActionRecord, ...]] = {
    stock_move: tuple(ActionRecord(stock_move, 0, (), (), POINTS_PER_PYRAMID_CARD * (PYRAMID_SIZE - left),
                                   Outcome.PLAYING, None) for left in range(PYRAMID_SIZE + 1))
    for stock_move in (DRAW, RECYCLE)}
"""The record of a draw or a recycle after which the game goes on, by pyramid cards left: it only
depends on that, and records are immutable, so these 58 are made once (most actions are draws)."""


class Game:
    """A deal being played from its start (or from any position, :meth:`from_position`)."""

    __slots__ = (
        "deal", "start", "history", "move_count", "_table", "_state", "_position", "_undo", "_undo_available",
        "_resigned", "_stack", "_legal", "_termination", "_quiet",
    )

    def __init__(self, deal: Deal, *, position: Position | None = None) -> None:
        self.deal = deal
        self.start = Position.start(deal) if position is None else position
        self.history: list[Move] = []
        self.move_count = 0
        self._table = deal_moves(deal)
        self._state = state_of(self.start)
        """The position as bare values: (pyramid, talon, drawn, recycles, foundation), as in :class:`Position`."""
        self._position: Position | None = self.start
        """The :class:`Position` of ``_state``, made when first asked for."""
        self._undo: tuple[tuple[Any, ...], Any] | None = None
        """The states undo goes back to, newest first, as a linked list ``(state, rest)``."""
        self._undo_available = 0
        self._resigned = False
        self._stack: list[_Snapshot] = []
        self._legal: tuple[Move, ...] | None = None
        self._termination: Any = _UNKNOWN
        self._quiet = 0
        """How many positions after this one are known to offer only a draw or a recycle (0: unknown).

        Between two removals draws and recycles are forced; when a position offers nothing else, the
        kernel says how many of them come before a removal is possible (``removal_distance``, asked
        instead of the bare dead-game test), and :meth:`push` skips working out the moves of the
        positions in between, which are many in a game that mostly draws."""

    # -- construction ---------------------------------------------------------------------------
    @classmethod
    def from_code(cls, code: str) -> Game:
        """A new game of the deal with this code (``PY1-T-AAAAAAB``)."""
        return cls(Deal.from_code(code))

    @classmethod
    def from_position(cls, position: Position) -> Game:
        """A game that starts at ``position`` (its history starts empty there)."""
        return cls(position.deal, position=position)

    @classmethod
    def replay(cls, deal: Deal, history: Iterable[Move | str]) -> Game:
        """The game after playing ``history`` (undos included); raises on the first illegal entry."""
        walked = cls.walk(deal, history)
        if walked.refused is not None:
            raise IllegalMoveError(text("action {number} of the history: {reason}", number=walked.played + 1,
                                        reason=message_of(walked.refused)), walked.refused.refusal)
        return walked.game

    @classmethod
    def walk(cls, deal: Deal, history: Iterable[Move | str],
             each: Callable[[int, Move, Game], None] | None = None) -> HistoryWalk:
        """Play ``history`` from the deal up to its first illegal entry: the one replay loop.

        Loading a save, ``replay`` (its check, ``--upto`` and ``--step``) and :meth:`replay` all
        replay through here, so a history means the same thing everywhere.  ``each(number, move,
        game)`` is called after every entry played (``number`` counts from 1).
        """
        game = cls(deal)
        played = 0
        for move in history:
            try:
                game.push(move)
            except IllegalMoveError as error:
                return HistoryWalk(game, played, error)
            played += 1
            if each is not None:
                each(played, game.history[-1], game)
        return HistoryWalk(game, played, None)

    @classmethod
    def _restore(cls, deal: Deal, history: Sequence[Move], position: Position, *, move_count: int,
                 undo: Sequence[Position], undo_available: int, resigned: bool) -> Game:
        """A game at ``position`` with ``history`` as its record, for a reader of records that this
        engine's rule did not write (save format 1): the history is kept, not played, so :meth:`pop`
        cannot take it back.  ``undo``: the positions undo goes back to, oldest first, of which the
        last ``undo_available`` may be reached."""
        game = cls(deal)
        game.history = list(history)
        game.move_count = move_count
        for earlier in undo:
            game._undo = (state_of(earlier), game._undo)
        game._undo_available = undo_available
        game._resigned = resigned
        game._state, game._position = state_of(position), position
        return game

    def copy(self) -> Game:
        """An independent game in the same state, with the same history and take-back stack."""
        kind = type(self)
        clone = kind.__new__(kind)
        for name in Game.__slots__:
            setattr(clone, name, getattr(self, name))
        clone.history = list(self.history)
        clone._stack = list(self._stack)
        return clone

    # -- reading ------------------------------------------------------------------------------
    @property
    def position(self) -> Position:
        """The current position (an immutable value)."""
        position = self._position
        if position is None:
            position = self._position = Position(self.deal, *self._state)
        return position

    @position.setter
    def position(self, position: Position) -> None:
        """Put the game at another position of its deal (tests and analysis; the history is not changed)."""
        self._state, self._position = state_of(position), position
        self._legal, self._termination, self._quiet = None, _UNKNOWN, 0

    @property
    def score(self) -> int:
        pyramid: int = self._state[0]
        return POINTS_PER_PYRAMID_CARD * (PYRAMID_SIZE - pyramid.bit_count())

    @property
    def termination(self) -> Termination | None:
        """Why the game ended (cleared, no-moves, dead, resigned), or ``None`` while it goes on."""
        if self._termination is _UNKNOWN:
            self._evaluate()
        return self._termination  # type: ignore[no-any-return]

    @property
    def outcome(self) -> Outcome:
        termination = self.termination
        return Outcome.PLAYING if termination is None else termination.outcome

    @property
    def is_over(self) -> bool:
        termination = self._termination
        if termination is _UNKNOWN:
            self._evaluate()
            termination = self._termination
        return termination is not None


    @property
    def undo_depth(self) -> int:
        """How many actions can still be undone (at most 100, R20; 0 once the game is over)."""
        return 0 if self.is_over else self._undo_available

    @property
    def can_undo(self) -> bool:
        return self.undo_depth > 0

    @property
    def legal_moves(self) -> tuple[Move, ...]:
        """The legal moves now: a tuple, removals first, then ``draw`` or ``recycle``; empty once the
        game is over.  Worked out once per position (on first use) and kept while the game stays there;
        ``undo`` and ``resign`` are game actions, not moves (see :attr:`can_undo`)."""
        legal = self._legal
        if legal is None:
            self._evaluate()
            legal = self._legal
        return legal  # type: ignore[return-value]

    def peek(self) -> Move:
        """The last action played (``IndexError`` when there is none)."""
        return self.history[-1]

    def _evaluate(self) -> None:
        """Work out the legal moves and the termination of the current state together (one pass)."""
        if self._resigned:
            self._legal, self._termination, self._quiet = NO_MOVES, Termination.RESIGNED, 0
        else:
            self._legal, self._termination, self._quiet = self._table.outlook(self._state)


    # -- actions ------------------------------------------------------------------------------
    def refusal(self, move: Move) -> Refusal | None:
        """Why ``move`` (or ``undo``/``resign``) would be refused now, or ``None`` (the ``verify`` of pokerkit)."""
        legal = self.legal_moves
        if move in legal:
            return None
        if self.is_over:
            return Refusal.GAME_OVER
        kind = move.kind
        if kind is MoveKind.UNDO:
            return None if self._undo_available else Refusal.NOTHING_TO_UNDO
        if kind is MoveKind.RESIGN:
            return None
        return self.position.refusal(move) or Refusal.NOT_IN_PLAY

    def can_push(self, move: Move) -> bool:
        return self.refusal(move) is None

    can_apply = can_push

    def push(self, move: Move | str) -> ActionRecord:
        """Play a move, ``undo`` or ``resign`` (a :class:`Move` or its text) and say what it did.

        Raises :class:`IllegalMoveError` (with ``refusal``) and changes nothing when it is refused.
        Bots push many moves: this path is written for speed (bare values, few calls; moves are
        compared by identity, there is one :class:`Move` per move).
        """
        legal = self._legal
        if legal is None or move not in legal:  # the quick way in: a move of the list just read
            if isinstance(move, str):
                move = Move.parse(move)
            refusal = self.refusal(move)
            if refusal is not None:
                raise refusal_error(move, refusal)
            legal = self._legal
        state = self._state
        self._stack.append(_new_tuple(_Snapshot, (state, self._position, self.move_count, self._undo,
                                                  self._undo_available, self._resigned, legal, self._termination,
                                                  self._quiet)))
        self.history.append(move)
        pyramid, talon, drawn, recycles, foundation = state
        removed: tuple[Card, ...] = move.cards
        uncovered: tuple[Card, ...] = ()
        table = self._table
        if removed:
            after, uncovered = table.removal(state, move)
        elif move is DRAW:
            after = (pyramid, talon, kernel.draw(talon, drawn, table.draw_count), recycles, foundation)
        elif move is RECYCLE:
            after = (pyramid, talon, 0, recycles + 1, foundation)
        else:
            return self._game_action(move)
        # A move: the state before it is where undo goes back to (R20).
        self._state = after
        self._position = None
        self._undo = (state, self._undo)
        if self._undo_available < UNDO_LIMIT:
            self._undo_available += 1
        self.move_count += 1
        quiet = self._quiet
        if quiet:  # a draw or recycle on the way to a removal the kernel has seen (see _quiet)
            self._legal = DRAW_ONLY if after[1] >> after[2] else RECYCLE_ONLY  # the stock, or else the waste
            self._termination = termination = None
            self._quiet = quiet - 1
        else:
            self._legal, termination, self._quiet = table.outlook(after)
            self._termination = termination
        left = after[0].bit_count()
        if termination is None:
            if not removed:
                return _GOING_ON[move][left]  # type: ignore[no-any-return]
            key = (pyramid, move)
            record = table.records.get(key)
            if record is None:
                record = table.records[key] = _record(
                    move, POINTS_PER_PYRAMID_CARD * (pyramid.bit_count() - left), removed,
                    uncovered, POINTS_PER_PYRAMID_CARD * (PYRAMID_SIZE - left), Outcome.PLAYING, None)
            return record
        return _record(move, POINTS_PER_PYRAMID_CARD * (pyramid.bit_count() - left), removed,
                       uncovered, POINTS_PER_PYRAMID_CARD * (PYRAMID_SIZE - left), termination.outcome, termination)

    def _game_action(self, move: Move) -> ActionRecord:
        """The rest of :meth:`push` for ``undo`` and ``resign`` (already on the stack and in the history)."""
        pyramid = self._state[0]
        if move.kind is MoveKind.UNDO:
            self._state, self._undo = self._undo  # type: ignore[misc]
            self._undo_available -= 1
        else:
            self._resigned = True
        self._position = None
        self._evaluate()
        termination = self._termination
        left = self._state[0].bit_count()
        return _record(move, POINTS_PER_PYRAMID_CARD * (pyramid.bit_count() - left), (), (),
                       POINTS_PER_PYRAMID_CARD * (PYRAMID_SIZE - left),
                       Outcome.PLAYING if termination is None else termination.outcome, termination)

    apply = push
    """The older name of :meth:`push`."""

    def pop(self) -> Move:
        """Take the last action back as if it had never been played (``IndexError`` when there is none).

        Unlike ``undo`` this is not an action of the game: it works after the end, removes the
        entry from the history and restores the move counter.  Searches use it.
        """
        if not self._stack:
            raise IndexError("pop from a game with no actions")
        (self._state, self._position, self.move_count, self._undo, self._undo_available, self._resigned,
         self._legal, self._termination, self._quiet) = self._stack.pop()
        return self.history.pop()

    def undo(self) -> ActionRecord:
        """The player's undo (R20): back one position, written in the history, the counter unchanged."""
        return self.push(UNDO)

    def resign(self) -> ActionRecord:
        """Give the game up: it ends as lost (``resigned``)."""
        return self.push(RESIGN)

    def __repr__(self) -> str:
        ending = self.outcome.value if self.termination is None else f"{self.outcome.value} ({self.termination.value})"
        return f"<Game {self.deal.code} score {self.score} moves {self.move_count} {ending}>"

