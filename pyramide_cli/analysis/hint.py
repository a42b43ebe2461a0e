"""Hints (R27): the next action of a winning line, named as a person taps it.

:func:`hint_for` solves the game's current position within small limits and never changes the
game.  When the position can still be won, the hint is the next action of a winning line; when it
cannot, it says so and points at the action leading to the most pyramid cards removed (the search
maximises those alone, :func:`~pyramide_cli.solver.solve_for_hint`), or when none can come off any
more at the one leading to the most cards in all; when the search reaches its limit, it falls back
to the strategy tips of the sources (kings at once, pyramid pairs that uncover the most cards, the
waste card, then the stock) and says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from ..engine.cards import Card
from ..engine.game import Game
from ..engine.layout import free_slots
from ..engine.moves import Move, MoveKind
from ..engine.position import Position, Termination
from ..engine.text import text
from ..solver import Limits, Verdict, solve, solve_for_hint

HINT_LIMITS = Limits(max_states=300_000, timeout=None)
"""A hint searches at most 300,000 positions (a few seconds at most; never a clock, so the same hint
everywhere); past that it gives a rule-of-thumb move."""


class HintKind(Enum):
    WINNING = "winning"
    """The next action of a proven winning line."""
    BEST_LOSING = "best-losing"
    """The position cannot be won; the action leads to the most pyramid cards removed."""
    HEURISTIC = "heuristic"
    """The search hit its limit; a rule-of-thumb move."""
    NONE = "none"
    """Nothing to suggest: the game is won, or no action is left (or none removes more cards)."""


@dataclass(frozen=True, slots=True)
class Hint:
    """A hint: ``move`` to play (``None`` when there is none), ``taps`` as typed in ``play``."""

    kind: HintKind
    move: Move | None
    taps: tuple[str, ...]
    text: str
    verdict: Verdict | None = None
    max_pyramid_removed: int | None = None

    def __str__(self) -> str:
        return self.text

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind.value,
            "move": None if self.move is None else str(self.move),
            "taps": list(self.taps),
            "text": self.text,
            "verdict": None if self.verdict is None else self.verdict.value,
            "max_pyramid_removed": self.max_pyramid_removed,
        }


def taps_for(position: Position, move: Move, selected: Card | None = None) -> tuple[str, ...]:
    """How a person plays ``move`` from the selection ``selected`` (R11–R13): the cards to tap, or the stock.

    A pair whose card is selected needs only its other card; a pair without the selected card
    starts by tapping the selected card, which clears the selection (a tap on another card would
    pair with it, or be refused and select that card).  Kings and the stock need no clearing.
    """
    if move.kind in (MoveKind.DRAW, MoveKind.RECYCLE):
        return ("stock",)
    cards = tuple(str(card) for card in move.cards)
    if selected is None or move.kind is MoveKind.KING:
        return cards
    if selected in move.cards:
        return tuple(str(card) for card in move.cards if card != selected)
    return (str(selected), *cards)


def describe(position: Position, move: Move, first: bool = False, selected: Card | None = None) -> str:
    """``tap 10C then 3S`` / ``tap KD`` / ``tap the stock to draw`` … (a player's words), the taps of
    :func:`taps_for` from the selection ``selected``; ``first``: the same words starting a sentence
    (``Tap 10C then 3S``), a message of its own for translators."""
    if move.kind is MoveKind.DRAW:
        return text("Tap the stock to draw a card") if first else text("tap the stock to draw a card")
    if move.kind is MoveKind.RECYCLE:
        if first:
            return text("Tap the empty stock to turn the waste over (recycle)")
        return text("tap the empty stock to turn the waste over (recycle)")
    named: list[str] = []
    for card in move.cards:
        if position.slot_of(card) is not None:
            named.append(str(card))
        elif card == position.waste_top:
            named.append(text("{card} (the waste card)", card=str(card)))
        else:
            named.append(text("{card} (the stock card)", card=str(card)))
    if move.kind is MoveKind.KING:
        if first:
            return text("Tap {card} to remove the king", card=named[0])
        return text("tap {card} to remove the king", card=named[0])
    if selected is not None and selected in move.cards:
        other = named[1] if move.cards[0] == selected else named[0]
        if first:
            return text("Tap {card} to pair it with the selected {selected}", card=other, selected=str(selected))
        return text("tap {card} to pair it with the selected {selected}", card=other, selected=str(selected))
    if selected is not None:
        if first:
            return text("Tap {selected} to clear the selection, then {first} then {second}", selected=str(selected),
                        first=named[0], second=named[1])
        return text("tap {selected} to clear the selection, then {first} then {second}", selected=str(selected),
                    first=named[0], second=named[1])
    if first:
        return text("Tap {first} then {second}", first=named[0], second=named[1])
    return text("tap {first} then {second}", first=named[0], second=named[1])


def hint_for(game: Game | Position, limits: Limits = HINT_LIMITS, *, selected: Card | None = None) -> Hint:
    """The hint for a game's current position, or for a position (the game is not changed).

    ``selected`` is the player's selection (R13): the hint's taps and words start from it (see
    :func:`taps_for`); a selection that is no longer in play is ignored.
    """
    if isinstance(game, Position):
        game = Game.from_position(game)
    if selected is not None and not game.position.is_playable(selected):
        selected = None
    position = game.position
    termination = game.termination
    if termination is Termination.CLEARED:
        return Hint(HintKind.NONE, None, (), text("The game is won: nothing left to do."), Verdict.WINNABLE)
    if termination is not None:
        reason = text("You resigned") if termination is Termination.RESIGNED else termination.message
        return Hint(HintKind.NONE, None, (), text("{reason}: start a new game.", reason=reason),
                    Verdict.UNWINNABLE, 28 - position.pyramid.bit_count())
    result = solve_for_hint(position, limits=limits)
    if result.verdict is Verdict.UNWINNABLE and not result.best_line and limits.max_states != result.states:
        # No pyramid card can come off any more: the most cards in all, with what is left of the budget.
        rest = None if limits.max_states is None else limits.max_states - result.states
        clock = None if limits.timeout is None else max(limits.timeout - result.seconds, 1e-9)
        in_all = solve(position, limits=Limits(max_states=rest, timeout=clock))
        if in_all.verdict is Verdict.UNKNOWN or in_all.best_line:
            result = in_all
    if result.verdict is Verdict.WINNABLE:
        move = result.solution[0]
        return Hint(HintKind.WINNING, move, taps_for(position, move, selected), text(
                    "{action} — this position can still be won.", action=describe(position, move, True, selected)),
                    Verdict.WINNABLE)
    if result.verdict is Verdict.UNWINNABLE:
        most = result.max_pyramid_removed
        if not result.best_line:
            return Hint(HintKind.NONE, None, (), text(
                "This position can no longer be won: at most {most} of the 28 pyramid cards can come off, and no "
                "action removes another card: start a new game.", most=most), Verdict.UNWINNABLE, most)
        move = result.best_line[0]
        return Hint(HintKind.BEST_LOSING, move, taps_for(position, move, selected), text(
            "This position can no longer be won: at most {most} of the 28 pyramid cards can come off. "
            "To get there, {action}.", most=most, action=describe(position, move, selected=selected)),
            Verdict.UNWINNABLE, most)
    move = heuristic_move(position)
    return Hint(HintKind.HEURISTIC, move, taps_for(position, move, selected),
                text("The solver reached its search limit, so this is only a rule of thumb: {action}.",
                     action=describe(position, move, selected=selected)), Verdict.UNKNOWN)


def heuristic_move(position: Position) -> Move:
    """The strategy tips of 003/004: a king at once; else the pyramid pair uncovering the most
    cards; else a pair with the waste (or stock) card uncovering the most; else draw or recycle."""
    legal = position.legal_moves
    kings = [move for move in legal if move.kind is MoveKind.KING]
    if kings:
        return kings[0]
    pairs = [move for move in legal if move.kind is MoveKind.PAIR]
    if pairs:
        def score(move: Move) -> tuple[int, int]:
            slots = [position.slot_of(card) for card in move.cards]
            in_pyramid = [slot for slot in slots if slot is not None]
            after = position.pyramid
            for slot in in_pyramid:
                after &= ~(1 << slot)
            uncovered = len(free_slots(after)) - len(free_slots(position.pyramid)) + len(in_pyramid)
            return (len(in_pyramid), uncovered)

        return max(pairs, key=score)
    return legal[-1]

