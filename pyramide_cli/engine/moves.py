"""Moves and their canonical ASCII notation, and the reasons a move or tap is refused.

Notation (round-trips through :meth:`Move.parse` and ``str``):

=============  ==========================================================
``10C+3S``     remove a pair (R6); the higher rank is written first
``KD``         remove a king (R7)
``draw``       turn the top stock card (or three, under ``draw-3``) onto the waste (R8)
``recycle``    turn the waste back into the stock (R9)
``undo``       take back the last action (R20)
``resign``     give the game up: it ends as lost (a game's action, like ``undo``)
=============  ==========================================================

Input is forgiving: any case, ``10♣+3♠``, ``10c 3s``, ``T♣+3♠``, French ``RD``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from typing import Any

from .cards import Card, pairs_to_thirteen, parse_card
from .errors import CardError, IllegalMoveError, MoveSyntaxError
from .text import message_of, text
from .text import text as make_text


class MoveKind(Enum):
    PAIR = "pair"
    KING = "king"
    DRAW = "draw"
    RECYCLE = "recycle"
    UNDO = "undo"
    RESIGN = "resign"


_INSTANCES: dict[tuple[Any, tuple[Card, ...]], Any] = {}
"""Every :class:`Move` made so far, by kind and cards: one instance per move."""


@dataclass(frozen=True, slots=True, eq=False)
class Move:
    """One action.  Build with :meth:`parse`, :meth:`pair`, :meth:`king`, or take :data:`DRAW`,
    :data:`RECYCLE`, :data:`UNDO`, :data:`RESIGN`.

    A value, and ``Move.parse(str(move)) == move``.  There is one instance per move (however it is
    built, copied or unpickled), so equal moves are the same object and comparing or hashing a move
    costs what it costs for an ``int``: bots and searches compare moves all the time.
    """

    kind: MoveKind
    cards: tuple[Card, ...] = ()

    def __new__(cls, kind: MoveKind, cards: tuple[Card, ...] = ()) -> Move:
        key = (kind, tuple(cards))
        move = _INSTANCES.get(key)
        if move is None:
            move = _INSTANCES[key] = object.__new__(cls)
        return move

    def __reduce__(self) -> tuple[type[Move], tuple[MoveKind, tuple[Card, ...]]]:
        return (Move, (self.kind, self.cards))

    @classmethod
    def pair(cls, first: Card, second: Card) -> Move:
        """A pair; the two cards in either order give the same move (R6)."""
        cached = _PAIRS.get((first, second))
        if cached is not None:
            return cached
        if first == second:
            raise MoveSyntaxError(text("a pair needs two different cards, not {card} twice", card=str(first)))
        high, low = (first, second) if first.rank > second.rank or (
            first.rank == second.rank and first > second) else (second, first)
        move = cls(MoveKind.PAIR, (Card(high), Card(low)))
        _PAIRS[(first, second)] = _PAIRS[(second, first)] = move
        return move

    @classmethod
    def king(cls, card: Card) -> Move:
        cached = _KINGS.get(card)
        if cached is None:
            cached = _KINGS[card] = cls(MoveKind.KING, (Card(card),))
        return cached

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read a move in the notation; raises :class:`MoveSyntaxError` quoting the text."""
        if not isinstance(text, str):
            raise MoveSyntaxError(make_text("not a move: {text!r}", text=text))
        word = text.strip().lower()
        if word in _WORDS:
            return _WORDS[word]
        parts = [part for part in re.split(r"\s*\+\s*|\s+", text.strip()) if part]
        if not parts or len(parts) > 2 or (("+" in text) and len(parts) != 2):
            raise MoveSyntaxError(make_text(
                "not a move: {text!r} (expected a pair like 10C+3S, a king like KD, draw, recycle, undo or resign)",
                text=text))
        try:
            cards = [parse_card(part) for part in parts]
        except CardError as error:
            raise MoveSyntaxError(make_text("not a move: {text!r}: {reason}", text=text,
                                        reason=message_of(error))) from None
        if len(cards) == 2:
            if cards[0] == cards[1]:
                raise MoveSyntaxError(make_text("not a move: {text!r} names the same card twice", text=text))
            return cls.pair(cards[0], cards[1])
        if not cards[0].is_king:
            raise MoveSyntaxError(make_text(
                "not a move: {text!r} is a single card that is not a king; name a pair such as {card}+…",
                text=text, card=str(cards[0])))
        return cls.king(cards[0])

    @property
    def is_game_action(self) -> bool:
        """``undo`` and ``resign`` act on a game (its history), not on a position."""
        return self.kind is MoveKind.UNDO or self.kind is MoveKind.RESIGN

    @property
    def removes_cards(self) -> bool:
        return self.kind in (MoveKind.PAIR, MoveKind.KING)

    @property
    def adds_to_thirteen(self) -> bool:
        """For a pair: do the two values add to 13?  For a king: is it a king?"""
        if self.kind is MoveKind.PAIR:
            return pairs_to_thirteen(*self.cards)
        if self.kind is MoveKind.KING:
            return self.cards[0].is_king
        return False

    def notation(self, symbols: bool = False, french: bool = False) -> str:
        """The canonical text (``symbols``/``french`` give display forms that still parse back)."""
        if self.cards:
            return "+".join(card.name(symbols, french) for card in self.cards)
        return self.kind.value

    def __str__(self) -> str:
        return self.notation()

    def __repr__(self) -> str:
        return f"Move.parse({self.notation()!r})"


DRAW = Move(MoveKind.DRAW)
RECYCLE = Move(MoveKind.RECYCLE)
UNDO = Move(MoveKind.UNDO)
RESIGN = Move(MoveKind.RESIGN)
_WORDS = {"draw": DRAW, "recycle": RECYCLE, "undo": UNDO, "resign": RESIGN}
_PAIRS: dict[tuple[int, int], Move] = {}
_KINGS: dict[int, Move] = {}


class Refusal(Enum):
    """Why a move or a tap was refused: a stable machine-readable code and a message (R11, R13)."""

    BLOCKED = "blocked"
    SUM_NOT_13 = "sum-not-13"
    NOT_A_KING = "not-a-king"
    NOT_IN_PLAY = "not-in-play"
    ALREADY_REMOVED = "already-removed"
    STOCK_EMPTY = "stock-empty"
    NOTHING_TO_DRAW = "nothing-to-draw"
    STOCK_NOT_EMPTY = "stock-not-empty"
    NOTHING_TO_RECYCLE = "nothing-to-recycle"
    RECYCLE_LIMIT = "recycle-limit"
    NOTHING_TO_UNDO = "nothing-to-undo"
    GAME_OVER = "game-over"

    @property
    def message(self) -> str:
        """The message a player sees with error help on (R11, R13 use the rules' exact texts)."""
        return _MESSAGES[self]

    @property
    def reason(self) -> str:
        """:attr:`message` as the end of a longer sentence (``illegal move '7C+7S': the sum must equal 13``)."""
        return _REASONS[self]

    def message_about(self, card: str) -> str:
        """The message naming the card it is about (``Q♣ has already been removed``), for input that
        names two cards; a refusal that is not about one card keeps :attr:`message`."""
        if self is Refusal.BLOCKED:
            return text("{card} is blocked by another card", card=card)
        if self is Refusal.NOT_IN_PLAY:
            return text("{card} is not in play", card=card)
        if self is Refusal.ALREADY_REMOVED:
            return text("{card} has already been removed", card=card)
        return self.message


_MESSAGES = {
    Refusal.BLOCKED: text("This card is blocked by another card"),
    Refusal.SUM_NOT_13: text("The sum must equal 13"),
    Refusal.NOT_A_KING: text("Only a king is removed alone"),
    Refusal.NOT_IN_PLAY: text("This card is not in play"),
    Refusal.ALREADY_REMOVED: text("This card has already been removed"),
    Refusal.STOCK_EMPTY: text("The stock is empty: recycle the waste"),
    Refusal.NOTHING_TO_DRAW: text("Nothing left to draw"),
    Refusal.STOCK_NOT_EMPTY: text("The stock is not empty yet"),
    Refusal.NOTHING_TO_RECYCLE: text("The waste is empty: nothing to recycle"),
    Refusal.RECYCLE_LIMIT: text("No recycles left"),
    Refusal.NOTHING_TO_UNDO: text("Nothing to undo"),
    Refusal.GAME_OVER: text("The game is over"),
}
_REASONS = {
    Refusal.BLOCKED: text("this card is blocked by another card"),
    Refusal.SUM_NOT_13: text("the sum must equal 13"),
    Refusal.NOT_A_KING: text("only a king is removed alone"),
    Refusal.NOT_IN_PLAY: text("this card is not in play"),
    Refusal.ALREADY_REMOVED: text("this card has already been removed"),
    Refusal.STOCK_EMPTY: text("the stock is empty: recycle the waste"),
    Refusal.NOTHING_TO_DRAW: text("nothing left to draw"),
    Refusal.STOCK_NOT_EMPTY: text("the stock is not empty yet"),
    Refusal.NOTHING_TO_RECYCLE: text("the waste is empty: nothing to recycle"),
    Refusal.RECYCLE_LIMIT: text("no recycles left"),
    Refusal.NOTHING_TO_UNDO: text("nothing to undo"),
    Refusal.GAME_OVER: text("the game is over"),
}
CARD_REFUSALS = frozenset({Refusal.BLOCKED, Refusal.NOT_IN_PLAY, Refusal.ALREADY_REMOVED})
"""The refusals about one card: which card, when a move names two, is told by :meth:`Refusal.message_about`."""
NO_MORE_MOVES = text("No more moves possible")


def refusal_error(move: Move, refusal: Refusal) -> IllegalMoveError:
    """The error raised for a refused move: ``illegal move '7C+7S': the sum must equal 13``."""
    return IllegalMoveError(text("illegal move {move!r}: {reason}", move=str(move), reason=refusal.reason),
                            refusal)
