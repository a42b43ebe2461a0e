"""How a person plays a game: taps and selection (R11–R14), error help (R15), words of input.

A :class:`TapSession` sits on top of a :class:`~pyramide_cli.engine.game.Game`: tap a card to
select it, tap a second one to pair them, tap a free king to remove it, tap the stock to draw or
recycle.  A tap never raises for a refusal: it returns a :class:`TapResult` with a machine-readable
:class:`~pyramide_cli.engine.moves.Refusal` and, with error help on (R15), the message a player sees.

The selection survives an action only while the selected card stays playable (a selected pyramid
card stays selected through draws; a selected waste card is unselected once it is covered); an
undo or a resignation clears it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from .cards import Card, looks_like_card, parse_card
from .errors import CardError, MoveSyntaxError, UnknownWordError, quoted
from .game import ActionRecord, Game
from .moves import DRAW, RECYCLE, Move, Refusal
from .text import message_of, text

STOCK = "stock"
WASTE = "waste"


class TapAction(Enum):
    SELECTED = "selected"
    DESELECTED = "deselected"
    MOVED = "moved"
    REFUSED = "refused"


@dataclass(frozen=True, slots=True)
class TapResult:
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


_SELECTED = TapResult(TapAction.SELECTED)
_DESELECTED = TapResult(TapAction.DESELECTED)


class TapSession:
    """A person's session on ``game``: the selected card and error help (``assist``, R15) on top of
    the game's moves.  Taps and words go through the session; the game stays the board and its record."""

    __slots__ = ("game", "assist", "selected")

    def __init__(self, game: Game, *, assist: bool = True) -> None:
        self.game = game
        self.assist = assist
        self.selected: Card | None = None

    def copy(self) -> TapSession:
        """An independent session on a copy of the game, with the same selection."""
        clone = TapSession(self.game.copy(), assist=self.assist)
        clone.selected = self.selected
        return clone

    def __repr__(self) -> str:
        return f"<TapSession {self.game!r} selected {self.selected}>"

    # -- taps ---------------------------------------------------------------------------------
    def tap(self, target: Card | str) -> TapResult:
        """Tap a card, ``'stock'`` or ``'waste'`` (the top waste card), as a player would."""
        self._check_selection()
        game = self.game
        if game.is_over:
            return self._refuse(Refusal.GAME_OVER)
        if isinstance(target, str) and not isinstance(target, Card):
            if target == STOCK:
                return self._tap_stock()
            if target == WASTE:
                top = game.position.waste_top
                if top is None:
                    return self._refuse(Refusal.NOT_IN_PLAY)
                target = top
            else:
                raise ValueError(f"cannot tap {target!r}")
        return self._tap_card(target)

    def _moved(self, move: Move) -> TapResult:
        record = self.game.push(move)
        if move.is_game_action:
            self.selected = None  # undo and resign clear the selection
        else:
            self._check_selection()
        return TapResult(TapAction.MOVED, move, record=record)

    def _check_selection(self) -> None:
        """A selected card stays selected only while it is in play."""
        selected, game = self.selected, self.game
        if selected is not None and (game.is_over or not game.position.is_playable(selected)):
            self.selected = None

    def _tap_stock(self) -> TapResult:
        game = self.game
        for move in (DRAW, RECYCLE):
            if game.refusal(move) is None:
                return self._moved(move)
        return self._refuse((game.refusal(RECYCLE) if game.position.talon else None) or Refusal.NOTHING_TO_DRAW)

    def _tap_card(self, card: Card) -> TapResult:
        game = self.game
        position, selected = game.position, self.selected
        if card == selected:
            self.selected = None
            return _DESELECTED
        if selected is not None and card.rank + selected.rank == 13:
            pair = Move.pair(selected, card)
            if game.refusal(pair) is None:  # includes a card and the one covering it (cover-pair)
                result = self._moved(pair)
                self.selected = None
                return result
        not_in_play = position.play_refusal(card)
        if not_in_play is not None:
            return self._refuse(not_in_play)
        if card.is_king:
            king = Move.king(card)
            refusal = game.refusal(king)
            return self._refuse(refusal) if refusal is not None else self._moved(king)
        if selected is None:
            self.selected = card
            return _SELECTED
        # Two playable cards that do not make 13 (R13), or that may not pair here: the second stays selected.
        refusal = game.refusal(Move.pair(selected, card))
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
        self._check_selection()
        refusal = self.game.refusal(action)
        if refusal is not None:
            return self._refuse(refusal)
        return self._moved(action)


_MOVE_WORDS = ("draw", "recycle", "undo", "resign")


def parse_input(entry: str) -> Card | str | Move:
    """Read one word of input as :meth:`TapSession.play` does: ``'stock'``/``'waste'`` or a card (taps), or a move.

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
