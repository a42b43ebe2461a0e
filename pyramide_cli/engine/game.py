"""A game in progress: position, history, undo (R20), move counter (R19), taps and selection (R11–R15).

:class:`Game` is the only mutable piece of the engine.  Undo is a stack of earlier positions
(``push``/``pop`` as in python-chess), so it needs no inverse-move logic and restores the exact
position and score; the move counter is kept apart and never goes down.

Taps are how a person plays (R11–R14): tap a card to select it, tap a second one to pair them,
tap a free king to remove it, tap the stock to draw or recycle.  A tap never raises for a refusal:
it returns a :class:`TapResult` with a machine-readable :class:`~pyramide_cli.engine.moves.Refusal` and,
with error help on (R15), the message a player sees.

The selection survives an action only while the selected card stays playable (a selected pyramid
card stays selected through draws; a selected waste card is unselected once it is covered).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import Enum

from .cards import Card, looks_like_card, parse_card
from .deal import Deal
from .errors import CardError, IllegalMoveError, MoveSyntaxError, UnknownWordError
from .moves import DRAW, RECYCLE, UNDO, Move, MoveKind, Refusal
from .position import Outcome, Position

UNDO_LIMIT = 100
STOCK = "stock"
WASTE = "waste"


class TapAction(Enum):
    SELECTED = "selected"
    DESELECTED = "deselected"
    MOVED = "moved"
    REFUSED = "refused"


@dataclass(frozen=True, slots=True)
class TapResult:
    """What a tap did: ``move`` when it removed, drew or recycled; ``refusal`` when refused.

    ``message`` is the player-facing text of a refusal, ``None`` with error help off (R15).
    """

    action: TapAction
    move: Move | None = None
    refusal: Refusal | None = None
    message: str | None = None

    @property
    def ok(self) -> bool:
        return self.action is not TapAction.REFUSED


@dataclass(frozen=True, slots=True)
class HistoryWalk:
    """A history played from its deal: the game after the ``played`` entries that could be played,
    and why the next one was refused (``refused`` is ``None`` when the whole history was played)."""

    game: Game
    played: int
    refused: IllegalMoveError | None


class Game:
    """A deal being played.  ``assist`` switches error help (R15) on or off."""

    def __init__(self, deal: Deal, assist: bool = True) -> None:
        self.deal = deal
        self.assist = assist
        self.position = Position.start(deal)
        self.history: list[Move] = []
        self.move_count = 0
        self.selected: Card | None = None
        self._undo_stack: deque[Position] = deque(maxlen=UNDO_LIMIT)

    @classmethod
    def replay(cls, deal: Deal, history: Iterable[Move], assist: bool = True) -> Game:
        """The game after playing ``history`` (undos included); raises on the first illegal entry."""
        walked = cls.walk(deal, history, assist)
        if walked.refused is not None:
            raise IllegalMoveError(f"action {walked.played + 1} of the history: {walked.refused}",
                                   walked.refused.refusal)
        return walked.game

    @classmethod
    def walk(cls, deal: Deal, history: Iterable[Move], assist: bool = True,
             each: Callable[[int, Move, Game], None] | None = None) -> HistoryWalk:
        """Play ``history`` from the deal up to its first illegal entry: the one replay loop.

        Loading a save, ``replay`` (its check, ``--upto`` and ``--step``) and :meth:`replay` all
        replay through here, so a history means the same thing everywhere.  ``each(number, move,
        game)`` is called after every entry played (``number`` counts from 1).
        """
        game = cls(deal, assist)
        played = 0
        for move in history:
            try:
                game.apply(move)
            except IllegalMoveError as error:
                return HistoryWalk(game, played, error)
            played += 1
            if each is not None:
                each(played, move, game)
        return HistoryWalk(game, played, None)

    # -- reading ------------------------------------------------------------------------------
    @property
    def score(self) -> int:
        return self.position.score

    @property
    def outcome(self) -> Outcome:
        return self.position.outcome

    @property
    def undo_depth(self) -> int:
        """How many actions can still be undone (at most 100, R20)."""
        return len(self._undo_stack)

    def legal_moves(self) -> list[Move]:
        """Legal actions of the position, plus ``undo`` when something can be undone."""
        moves = self.position.legal_moves()
        if self._undo_stack:
            moves.append(UNDO)
        return moves

    # -- moves --------------------------------------------------------------------------------
    def refusal(self, move: Move) -> Refusal | None:
        if move.kind is MoveKind.UNDO:
            return None if self._undo_stack else Refusal.NOTHING_TO_UNDO
        return self.position.refusal(move)

    def can_apply(self, move: Move) -> bool:
        return self.refusal(move) is None

    def apply(self, move: Move) -> Move:
        """Play a move (or ``undo``); raises :class:`IllegalMoveError` and changes nothing if refused."""
        if move.kind is MoveKind.UNDO:
            if not self._undo_stack:
                raise IllegalMoveError("illegal move 'undo': nothing to undo", Refusal.NOTHING_TO_UNDO)
            self.position = self._undo_stack.pop()
            self.history.append(UNDO)
            self.selected = None
            return move
        after = self.position.apply(move)
        self._undo_stack.append(self.position)
        self.position = after
        self.history.append(move)
        self.move_count += 1
        if self.selected is not None and not after.is_playable(self.selected):
            self.selected = None
        return move

    def undo(self) -> Move:
        return self.apply(UNDO)

    # -- taps ---------------------------------------------------------------------------------
    def tap(self, target: Card | str) -> TapResult:
        """Tap a card, ``'stock'`` or ``'waste'`` (the top waste card), as a player would."""
        if self.position.is_won:
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

    def _tap_stock(self) -> TapResult:
        for move in (DRAW, RECYCLE):
            if self.position.refusal(move) is None:
                self.apply(move)
                return TapResult(TapAction.MOVED, move)
        return self._refuse(self.position.refusal(RECYCLE) if self.position.talon else Refusal.NOTHING_TO_DRAW)

    def _tap_card(self, card: Card) -> TapResult:
        position, selected = self.position, self.selected
        if card == selected:
            self.selected = None
            return TapResult(TapAction.DESELECTED)
        if selected is not None and card.rank + selected.rank == 13:
            pair = Move.pair(selected, card)
            if position.refusal(pair) is None:  # includes a card and the one covering it (cover-pair)
                self.apply(pair)
                self.selected = None
                return TapResult(TapAction.MOVED, pair)
        not_in_play = position.play_refusal(card)
        if not_in_play is not None:
            return self._refuse(not_in_play)
        if card.is_king:
            king = Move.king(card)
            refusal = position.refusal(king)
            if refusal is None:
                self.apply(king)
                return TapResult(TapAction.MOVED, king)
            return self._refuse(refusal)
        if selected is None:
            self.selected = card
            return TapResult(TapAction.SELECTED)
        # Two playable cards that do not make 13 (R13), or that may not pair here: the second stays selected.
        refusal = position.refusal(Move.pair(selected, card))
        self.selected = card
        return self._refuse(refusal or Refusal.SUM_NOT_13)

    def _refuse(self, refusal: Refusal) -> TapResult:
        return TapResult(TapAction.REFUSED, refusal=refusal, message=refusal.message if self.assist else None)

    # -- text input ---------------------------------------------------------------------------
    def play(self, text: str) -> TapResult:
        """Play one word of input: a tap (``7C``, ``stock``, ``waste``) or a move (``10C+3S``, ``draw``, ``undo``).

        A single card name is a tap.  A refused *move* leaves everything unchanged and comes back
        as a refused result; unreadable text raises :class:`MoveSyntaxError`.
        """
        action = parse_input(text)
        if not isinstance(action, Move):
            return self.tap(action)
        refusal = self.refusal(action)
        if refusal is not None:
            return self._refuse(refusal)
        self.apply(action)
        return TapResult(TapAction.MOVED, action)


def parse_input(text: str) -> Card | str | Move:
    """Read one word of input as :meth:`Game.play` does: ``'stock'``/``'waste'`` or a card (taps), or a move.

    Raises :class:`MoveSyntaxError` quoting the text when it is neither.
    """
    word = text.strip()
    lowered = word.lower()
    if lowered in (STOCK, WASTE):
        return lowered
    if " " in word or "+" in word or lowered in ("draw", "recycle", "undo"):
        return Move.parse(word)
    try:
        return parse_card(word)
    except CardError as error:
        if looks_like_card(word):
            raise MoveSyntaxError(str(error)) from None
        raise UnknownWordError(
            f"unknown word {text.strip()!r}: a tap or move is a card (7C), a pair (10C+3S), stock, waste, "
            "draw, recycle or undo", word) from None
