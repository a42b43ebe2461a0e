"""A game in progress: position, history, undo (R20), move counter (R19), taps and selection (R11–R15),
and how it ends.

:class:`Game` is the only mutable piece of the engine, and the object bots play with.  It keeps a
stack of snapshots, as python-chess does: :meth:`Game.push` plays an action and returns an
:class:`ActionRecord` of what happened; :meth:`Game.pop` restores the game exactly as it was before
the last action (history, counter, selection, undo depth) — a take-back for searches, not a move of
the game.  The player's undo (R20) is an action of its own, ``undo``: it is written in the history,
goes back one position and leaves the move counter alone, up to 100 deep.

A game ends (:attr:`Game.termination`) when the pyramid is cleared (won), when no action is left
(R17), when no card can ever be removed again (dead), or when the player resigns.  Once it has
ended every action is refused with ``game-over``, ``undo`` included; :meth:`Game.pop` still works.

Taps are how a person plays (R11–R14): tap a card to select it, tap a second one to pair them,
tap a free king to remove it, tap the stock to draw or recycle.  A tap never raises for a refusal:
it returns a :class:`TapResult` with a machine-readable :class:`~pyramide_cli.engine.moves.Refusal` and,
with error help on (R15), the message a player sees.

The selection survives an action only while the selected card stays playable (a selected pyramid
card stays selected through draws; a selected waste card is unselected once it is covered).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from enum import Enum
from typing import Any, NamedTuple

from . import kernel
from .cards import Card, looks_like_card, parse_card
from .deal import Deal
from .errors import CardError, IllegalMoveError, MoveSyntaxError, UnknownWordError, quoted
from .layout import COVER_MASK, PYRAMID_SIZE, free_slots
from .moves import DRAW, RECYCLE, RESIGN, UNDO, Move, MoveKind, Refusal, refusal_error
from .playout import DRAW_ACTION, RECYCLE_ACTION, PlayoutTables
from .position import POINTS_PER_PYRAMID_CARD, Outcome, Position, Termination
from .text import message_of, text

UNDO_LIMIT = 100
STOCK = "stock"
WASTE = "waste"
_UNKNOWN: Any = object()
"""A cached termination not worked out yet (``None`` already means "still playing")."""


class TapAction(Enum):
    SELECTED = "selected"
    DESELECTED = "deselected"
    MOVED = "moved"
    REFUSED = "refused"


class ActionRecord(NamedTuple):
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


_new_record = tuple.__new__
"""Makes an :class:`ActionRecord` from its fields in order, without the Python-level ``__new__``."""


# A NamedTuple rather than a dataclass: it is built ~7x faster, and every command pays for it at start-up.
class TapResult(NamedTuple):
    """What a tap did: ``move`` and its ``record`` when it removed, drew or recycled; ``refusal`` when refused.

    ``message`` is the player-facing text of a refusal, ``None`` with error help off (R15).
    """

    action: TapAction
    move: Move | None = None
    refusal: Refusal | None = None
    message: str | None = None
    record: ActionRecord | None = None

    @property
    def ok(self) -> bool:
        return self.action is not TapAction.REFUSED


# A NamedTuple rather than a dataclass: it is built ~7x faster, and every command pays for it at start-up.
class HistoryWalk(NamedTuple):
    """A history played from its deal: the game after the ``played`` entries that could be played,
    and why the next one was refused (``refused`` is ``None`` when the whole history was played)."""

    game: Game
    played: int
    refused: IllegalMoveError | None


_NO_MOVES: tuple[Move, ...] = ()

_GOING_ON: dict[Move, tuple[ActionRecord, ...]] = {
    stock_move: tuple(ActionRecord(stock_move, 0, (), (), POINTS_PER_PYRAMID_CARD * (PYRAMID_SIZE - left),
                                   Outcome.PLAYING, None) for left in range(PYRAMID_SIZE + 1))
    for stock_move in (DRAW, RECYCLE)}
"""The record of a draw or a recycle after which the game goes on, by pyramid cards left: it only
depends on that, and records are immutable, so these 58 are made once (most actions are draws)."""


class Game:
    """A deal being played from its start (or from any position, :meth:`from_position`).

    ``assist`` switches error help (R15) on or off.  ``dead_ends=False`` plays by the end rule of
    save format 1, where draws and recycles stay legal at a dead position (only to replay old saves).
    """

    __slots__ = (
        "deal", "assist", "start", "history", "move_count", "selected", "_dead_ends", "_format_1", "_table", "_state",
        "_position", "_undo", "_undo_available", "_resigned", "_stack", "_legal", "_termination", "_quiet",
    )

    def __init__(self, deal: Deal, assist: bool = True, *, dead_ends: bool = True,
                 position: Position | None = None) -> None:
        self.deal = deal
        self.assist = assist
        self.start = Position.start(deal) if position is None else position
        self.history: list[Move] = []
        self.move_count = 0
        self.selected: Card | None = None
        self._dead_ends = dead_ends
        self._format_1 = not dead_ends
        self._table = _deal_moves(deal)
        self._state = _state_of(self.start)
        """The position as bare values: (pyramid, talon, drawn, recycles, foundation), as in :class:`Position`."""
        self._position: Position | None = self.start
        """The :class:`Position` of ``_state``, made when first asked for."""
        self._undo: tuple[tuple[Any, ...], Any] | None = None
        """The states undo goes back to, newest first, as a linked list ``(state, rest)``."""
        self._undo_available = 0
        self._resigned = False
        self._stack: list[tuple[Any, ...]] = []
        self._legal: tuple[Move, ...] | None = None
        self._termination: Any = _UNKNOWN
        self._quiet = 0
        """How many positions after this one are known to offer only a draw or a recycle (0: unknown).

        Between two removals draws and recycles are forced; when a position offers nothing else, the
        kernel says how many of them come before a removal is possible (``removal_distance``, asked
        instead of the bare dead-game test), and :meth:`push` skips working out the moves of the
        positions in between: about 30 of the 70 positions of a random game under ``T``."""

    # -- construction ---------------------------------------------------------------------------
    @classmethod
    def from_code(cls, code: str, assist: bool = True) -> Game:
        """A new game of the deal with this code (``PY1-T-AAAAAAB``)."""
        return cls(Deal.from_code(code), assist)

    @classmethod
    def from_position(cls, position: Position, assist: bool = True) -> Game:
        """A game that starts at ``position`` (its history starts empty there)."""
        return cls(position.deal, assist, position=position)

    @classmethod
    def replay(cls, deal: Deal, history: Iterable[Move | str], assist: bool = True, *,
               dead_ends: bool = True) -> Game:
        """The game after playing ``history`` (undos included); raises on the first illegal entry."""
        walked = cls.walk(deal, history, assist, dead_ends=dead_ends)
        if walked.refused is not None:
            raise IllegalMoveError(text("action {number} of the history: {reason}", number=walked.played + 1,
                                        reason=message_of(walked.refused)), walked.refused.refusal)
        return walked.game

    @classmethod
    def walk(cls, deal: Deal, history: Iterable[Move | str], assist: bool = True, *, dead_ends: bool = True,
             each: Callable[[int, Move, Game], None] | None = None) -> HistoryWalk:
        """Play ``history`` from the deal up to its first illegal entry: the one replay loop.

        Loading a save, ``replay`` (its check, ``--upto`` and ``--step``) and :meth:`replay` all
        replay through here, so a history means the same thing everywhere.  ``each(number, move,
        game)`` is called after every entry played (``number`` counts from 1).  ``dead_ends=False``
        replays by the end rule of save format 1.
        """
        game = cls(deal, assist, dead_ends=dead_ends)
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

    def copy(self) -> Game:
        """An independent game in the same state, with the same history and take-back stack."""
        clone = Game.__new__(Game)
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
        self._state, self._position = _state_of(position), position
        self._legal, self._termination, self._quiet = None, _UNKNOWN, 0

    @property
    def score(self) -> int:
        return POINTS_PER_PYRAMID_CARD * (PYRAMID_SIZE - self._state[0].bit_count())  # type: ignore[no-any-return]

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
    def dead_ends(self) -> bool:
        """True (the rule of save format 2): a dead position ends the game."""
        return self._dead_ends

    @property
    def played_by_format_1(self) -> bool:
        """True when (part of) the history was played by save format 1's end rule: it may then draw
        on after a dead position, and only format 1 can record it."""
        return self._format_1

    def use_dead_end_rule(self) -> None:
        """Switch a game replayed by the end rule of save format 1 to today's rule (dead ends the game)."""
        self._dead_ends = True
        self._legal, self._termination, self._quiet = None, _UNKNOWN, 0
        self._stack = [snapshot[:-3] + (None, _UNKNOWN, 0) for snapshot in self._stack]

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
            self._legal, self._termination, self._quiet = _NO_MOVES, Termination.RESIGNED, 0
        else:
            self._legal, self._termination, self._quiet = self._table.outlook(self._state, self._dead_ends)

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
        return self.position.refusal(move, dead_ends=self._dead_ends) or Refusal.NOT_IN_PLAY

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
        self._stack.append((state, self._position, self.move_count, self._undo, self._undo_available,
                            self._resigned, self.selected, legal, self._termination, self._quiet))
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
            self._legal = _DRAW_ONLY if after[1] >> after[2] else _RECYCLE_ONLY  # the stock, or else the waste
            self._termination = termination = None
            self._quiet = quiet - 1
        else:
            self._legal, termination, self._quiet = table.outlook(after, self._dead_ends)
            self._termination = termination
        if self.selected is not None and (termination is not None or not self.position.is_playable(self.selected)):
            self.selected = None  # a selected card stays selected only while it is in play
        left = after[0].bit_count()
        if termination is None and not removed:
            return _GOING_ON[move][left]  # type: ignore[no-any-return]
        return _new_record(ActionRecord, (
            move, POINTS_PER_PYRAMID_CARD * (pyramid.bit_count() - left), removed, uncovered,
            POINTS_PER_PYRAMID_CARD * (PYRAMID_SIZE - left),
            Outcome.PLAYING if termination is None else termination.outcome, termination))

    def _game_action(self, move: Move) -> ActionRecord:
        """The rest of :meth:`push` for ``undo`` and ``resign`` (already on the stack and in the history)."""
        pyramid = self._state[0]
        if move.kind is MoveKind.UNDO:
            self._state, self._undo = self._undo  # type: ignore[misc]
            self._undo_available -= 1
        else:
            self._resigned = True
        self.selected = None
        self._position = None
        self._evaluate()
        termination = self._termination
        left = self._state[0].bit_count()
        return _new_record(ActionRecord, (
            move, POINTS_PER_PYRAMID_CARD * (pyramid.bit_count() - left), (), (),
            POINTS_PER_PYRAMID_CARD * (PYRAMID_SIZE - left),
            Outcome.PLAYING if termination is None else termination.outcome, termination))

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
         self.selected, self._legal, self._termination, self._quiet) = self._stack.pop()
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

    # -- taps ---------------------------------------------------------------------------------
    def tap(self, target: Card | str) -> TapResult:
        """Tap a card, ``'stock'`` or ``'waste'`` (the top waste card), as a player would."""
        if self.is_over:
            return self._refuse(Refusal.GAME_OVER)
        if isinstance(target, str) and not isinstance(target, Card):
            if target == STOCK:
                return self._tap_stock()
            if target == WASTE:
                top = self.position.waste_top
                if top is None:
                    return self._refuse(Refusal.NOT_IN_PLAY)
                target = top
            else:
                raise ValueError(f"cannot tap {target!r}")
        return self._tap_card(target)

    def _moved(self, move: Move) -> TapResult:
        return TapResult(TapAction.MOVED, move, record=self.push(move))

    def _tap_stock(self) -> TapResult:
        for move in (DRAW, RECYCLE):
            if self.refusal(move) is None:
                return self._moved(move)
        return self._refuse(self.refusal(RECYCLE) if self.position.talon else Refusal.NOTHING_TO_DRAW)  # type: ignore[arg-type]

    def _tap_card(self, card: Card) -> TapResult:
        position, selected = self.position, self.selected
        if card == selected:
            self.selected = None
            return TapResult(TapAction.DESELECTED)
        if selected is not None and card.rank + selected.rank == 13:
            pair = Move.pair(selected, card)
            if self.refusal(pair) is None:  # includes a card and the one covering it (cover-pair)
                result = self._moved(pair)
                self.selected = None
                return result
        not_in_play = position.play_refusal(card)
        if not_in_play is not None:
            return self._refuse(not_in_play)
        if card.is_king:
            king = Move.king(card)
            refusal = self.refusal(king)
            return self._refuse(refusal) if refusal is not None else self._moved(king)
        if selected is None:
            self.selected = card
            return TapResult(TapAction.SELECTED)
        # Two playable cards that do not make 13 (R13), or that may not pair here: the second stays selected.
        refusal = self.refusal(Move.pair(selected, card))
        self.selected = card
        return self._refuse(refusal or Refusal.SUM_NOT_13)

    def _refuse(self, refusal: Refusal) -> TapResult:
        return TapResult(TapAction.REFUSED, refusal=refusal, message=refusal.message if self.assist else None)

    # -- text input ---------------------------------------------------------------------------
    def play(self, text: str) -> TapResult:
        """Play one word of input: a tap (``7C``, ``stock``, ``waste``) or a move (``10C+3S``, ``draw``,
        ``undo``, ``resign``).

        A single card name is a tap.  A refused *move* leaves everything unchanged and comes back
        as a refused result; unreadable text raises :class:`MoveSyntaxError`.
        """
        action = parse_input(text)
        if not isinstance(action, Move):
            return self.tap(action)
        refusal = self.refusal(action)
        if refusal is not None:
            return self._refuse(refusal)
        return self._moved(action)


_MOVE_WORDS = ("draw", "recycle", "undo", "resign")


class _ActionMoves(dict):  # type: ignore[type-arg]
    """The :class:`Move` of each action of the tables, made on first use (``moves[action]``), and
    the action of each move made (``masks[move]``: the pyramid and talon bits it removes)."""

    def __init__(self, cards: tuple[Card, ...]) -> None:
        super().__init__({(DRAW_ACTION, 0): DRAW, (RECYCLE_ACTION, 0): RECYCLE})
        self.cards = cards
        self.masks: dict[Move, tuple[int, int]] = {}

    def __missing__(self, action: tuple[int, int]) -> Move:
        pyramid_bits, talon_bits = action
        cards = self.cards  # the deal's 52 cards: the pyramid's slots, then the talon
        both = pyramid_bits | talon_bits << PYRAMID_SIZE  # a removal is one card (a king) or two
        first = both & -both
        card = cards[first.bit_length() - 1]
        other = both ^ first
        move = self[action] = Move.pair(card, cards[other.bit_length() - 1]) if other else Move.king(card)
        self.masks[move] = action
        return move


class _DealMoves:
    """One deal's moves for games: the legal moves of a state as a tuple of :class:`Move`, and how a
    move changes the bare state — so that a game's legal moves and its moves cost little.

    The rules are the random player's tables (:class:`PlayoutTables`: the pyramid-only removals of
    a pyramid shape; :meth:`kernel.TalonCards.steps_at`: the removals with talon cards), tested equal
    to :meth:`Position.legal_moves`, and :meth:`legal` keeps their order.  What this class adds is a
    cache per pyramid shape of its pyramid-only removals as moves: a shape stays for many draws (86 %
    of the states of random games under ``T`` meet a shape already seen), so most states only ask
    the kernel for the talon's removals.
    """

    __slots__ = ("cards", "deal", "draw_count", "layout_index", "moves", "recycle_limit", "removal_distance",
                 "shape_of", "shapes", "steps_at", "strict")

    def __init__(self, deal: Deal) -> None:
        self.deal = deal
        talon_cards = kernel.for_deal(deal)
        self.shape_of = PlayoutTables(deal).shape
        self.steps_at = talon_cards.steps_at
        self.removal_distance = talon_cards.removal_distance
        """The dead-game test: how many draws and recycles before a removal (``None``: never)?"""
        self.draw_count = deal.rules.draw_count
        self.recycle_limit = deal.rules.recycle_limit
        self.cards = deal.cards
        self.layout_index = deal.layout_index
        self.strict = deal.rules.strict
        self.moves = _ActionMoves(deal.cards)
        self.shapes: dict[int, tuple[tuple[Move, ...], dict[int, tuple[int, ...]]]] = {}

    def outlook(self, state: tuple[Any, ...],
                dead_ends: bool = True) -> tuple[tuple[Move, ...], Termination | None, int]:
        """The legal moves of a state, how a game there has ended (``None``: it goes on) and how many
        positions after it are known to offer only a draw or a recycle (see ``Game._quiet``), worked
        out together.  ``dead_ends=False``: save format 1's end rule, a dead position draws on.

        The moves come in the order of :meth:`PlayoutTables.actions`: the pyramid-only removals, the
        removals with talon cards (:meth:`kernel.TalonCards.steps_at`), then ``draw`` or ``recycle``.
        """
        pyramid, talon, drawn, recycles, _ = state
        if not pyramid and not (self.strict and talon):
            return _NO_MOVES, Termination.CLEARED, 0
        shape = self.shapes.get(pyramid)
        if shape is None:
            masks, partners = self.shape_of(pyramid)
            moves = self.moves
            shape = self.shapes[pyramid] = (tuple([moves[bits, 0] for bits in masks]) if masks else (), partners)
        legal, partners = shape
        with_talon: list[tuple[int, int]] = []
        self.steps_at(talon, drawn, partners, with_talon)
        if with_talon:
            moves = self.moves
            if len(with_talon) == 1:  # most often: the waste top with one pyramid card, or a king
                legal += (moves[with_talon[0]],)
            else:
                legal += tuple([moves[action] for action in with_talon])
        if legal:
            if talon >> drawn:
                return legal + _DRAW_ONLY, None, 0
            if kernel.can_recycle(talon, drawn, recycles, self.recycle_limit):
                return legal + _RECYCLE_ONLY, None, 0
            return legal, None, 0
        if talon >> drawn:
            legal = _DRAW_ONLY
        elif kernel.can_recycle(talon, drawn, recycles, self.recycle_limit):
            legal = _RECYCLE_ONLY
        else:
            return _NO_MOVES, Termination.NO_MOVES, 0
        # Only a draw or a recycle: the dead-game test, and how far the next removal is.
        distance = self.removal_distance(pyramid, talon, drawn, recycles)
        if distance is None:
            return (_NO_MOVES, Termination.DEAD, 0) if dead_ends else (legal, None, 0)
        return legal, None, distance - 1

    def removal(self, state: tuple[Any, ...], move: Move) -> tuple[tuple[Any, ...], tuple[Card, ...]]:
        """The state after a legal removal (as :meth:`Position.apply_unchecked`) and the pyramid cards it
        uncovered (free now, covered before)."""
        pyramid, talon, drawn, recycles, foundation = state
        pyramid_bits, talon_bits = self.moves.masks[move]  # a legal move was made by this table
        talon &= ~talon_bits
        drawn = kernel.drawn_after_removal(talon, drawn)
        after = pyramid & ~pyramid_bits, talon, drawn, recycles, foundation + move.cards
        if not pyramid_bits:
            return after, ()
        cards = self.cards
        return after, tuple([cards[slot] for slot in free_slots(after[0]) if pyramid & COVER_MASK[slot]])


_DRAW_ONLY = (DRAW,)
_RECYCLE_ONLY = (RECYCLE,)


def _deal_moves(deal: Deal) -> _DealMoves:
    """The :class:`_DealMoves` of ``deal``, shared by its games: the last few deals' are kept."""
    known = _DEAL_MOVES.get(id(deal))
    if known is None or known.deal is not deal:
        if len(_DEAL_MOVES) >= _DEALS_KEPT:
            del _DEAL_MOVES[next(iter(_DEAL_MOVES))]  # the oldest
        known = _DEAL_MOVES[id(deal)] = _DealMoves(deal)
    return known


_DEAL_MOVES: dict[int, _DealMoves] = {}
_DEALS_KEPT = 8
"""Few: a deal's tables grow with the positions its games meet, and a process that plays many deals
(a tournament, a server) would otherwise keep tens of thousands of objects alive for nothing; the
garbage collector goes through them again and again.  Random games under ``T`` ran ~12 % slower
with 64 deals kept than with 8 (bench/bench_bots.py, 100 deals of 5 games)."""


def _state_of(position: Position) -> tuple[Any, ...]:
    return position.pyramid, position.talon, position.drawn, position.recycles, position.foundation


def parse_input(entry: str) -> Card | str | Move:
    """Read one word of input as :meth:`Game.play` does: ``'stock'``/``'waste'`` or a card (taps), or a move.

    Raises :class:`MoveSyntaxError` quoting the text when it is neither.
    """
    word = entry.strip()
    lowered = word.lower()
    if lowered in (STOCK, WASTE):
        return lowered
    if " " in word or "+" in word or lowered in _MOVE_WORDS:
        return Move.parse(word)
    try:
        return parse_card(word)
    except CardError as error:
        if looks_like_card(word):
            raise MoveSyntaxError(message_of(error)) from None
        raise UnknownWordError(text(
            "unknown word {word}: a tap or move is a card (7C), a pair (10C+3S), stock, waste, "
            "draw, recycle, undo or resign", word=quoted(word)), word) from None
