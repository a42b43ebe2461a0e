"""Turning the searches' removals into a line of real moves that the engine replays.

The searches skip draws and recycles (they are deterministic) and, under draw-1, treat a talon
king as gone once it can reach the top.  A line is rebuilt on real :class:`Position` values:
before each removal, draw (or recycle) until the engine accepts it, removing each talon king
that reaches the top on the way; every move goes through :meth:`Position.apply`, so a line that
comes out of here is legal by construction (draws, recycles and the removal of a king on top are applied
unchecked after the engine's own ``can_draw``/``can_recycle`` and top-card tests).
"""

from __future__ import annotations

from collections.abc import Iterable

from ..engine.cards import Card
from ..engine.layout import PYRAMID_SIZE
from ..engine.moves import DRAW, RECYCLE, Move
from ..engine.position import Position


class LineError(RuntimeError):
    """A search produced a removal the engine cannot reach: a solver bug, never a user error."""


def step_move(position: Position, pyramid_bits: int, talon_bits: int) -> Move:
    """The move removing the given pyramid slots and talon indices."""
    cards = position.deal.cards
    chosen = [cards[slot] for slot in range(PYRAMID_SIZE) if pyramid_bits >> slot & 1]
    chosen += [cards[PYRAMID_SIZE + t] for t in range(24) if talon_bits >> t & 1]
    if len(chosen) == 1:
        return Move.king(chosen[0])
    if len(chosen) != 2:
        raise LineError(f"a removal of {len(chosen)} cards")
    return Move.pair(chosen[0], chosen[1])


class LineBuilder:
    """Plays moves on a position and records them."""

    def __init__(self, position: Position, remove_talon_kings: bool) -> None:
        self.position = position
        self.moves: list[Move] = []
        self.remove_talon_kings = remove_talon_kings
        self._settle()

    def play(self, move: Move, checked: bool = True) -> None:
        position = self.position
        self.position = position.apply(move) if checked else position.apply_unchecked(move)
        self.moves.append(move)
        self._settle()

    def _settle(self) -> None:
        """Remove talon kings at the waste top (and the stock top under ``stock-top``)."""
        if not self.remove_talon_kings:
            return
        while not self.position.is_won:
            for card in (self.position.waste_top, self.position.stock_top if self.position.rules.stock_top else None):
                if card is not None and card.is_king:
                    self.position = self.position.apply_unchecked(Move.king(card))
                    self.moves.append(Move.king(card))
                    break
            else:
                return

    def advance(self) -> None:
        """One draw, or a recycle when the stock is empty."""
        if self.position.can_draw:
            self.play(DRAW, checked=False)
        elif self.position.can_recycle:
            self.play(RECYCLE, checked=False)
        else:
            raise LineError("the line needs a card the talon can no longer bring")

    def reach_and_play(self, move: Move) -> None:
        """Draw/recycle until ``move`` is legal, then play it."""
        guard = 0
        while self.position.refusal(move) is not None:
            self.advance()
            guard += 1
            if guard > 200:
                raise LineError(f"{move} never became playable")
        self.play(move)

    def reach_value_and_pair(self, slot_card: Card, value: int) -> None:
        """Draw/recycle until a card of ``value`` is the waste top, then pair it with ``slot_card``."""
        guard = 0
        while True:
            top = self.position.waste_top
            if top is not None and top.rank == value:
                self.play(Move.king(top) if value == 13 else Move.pair(slot_card, top))
                return
            self.advance()
            guard += 1
            if guard > 200:
                raise LineError(f"no talon card of value {value} reached the top")

    def finish(self) -> None:
        """Under ``strict``, keep going until the talon kings are gone too."""
        guard = 0
        while not self.position.is_won:
            self.advance()
            guard += 1
            if guard > 200:
                raise LineError("the line does not end in a win")


def replay_steps(position: Position, steps: Iterable[tuple[int, int]], remove_talon_kings: bool) -> list[Move]:
    builder = LineBuilder(position, remove_talon_kings)
    for pyramid_bits, talon_bits in steps:
        builder.reach_and_play(step_move(builder.position, pyramid_bits, talon_bits))
    builder.finish()
    return builder.moves


def multiset_line(position: Position, abstract_line: Iterable[tuple[int, int]], strict: bool) -> list[Move]:
    """The real moves of a multiset-game win (unlimited draw-1 recycles, no talon pairs).

    Each ``(slot bit, value)`` step pairs the pyramid card with the nearest talon card of that
    value along the draw/recycle walk; ``(bits, 0)`` steps are pyramid-only removals.  Works on
    masks (the line is long in draws); the tests replay every line with the engine.
    """
    cards = position.deal.cards
    talon_cards = cards[PYRAMID_SIZE:]
    values = [card.rank for card in talon_cards]
    talon, drawn = position.talon, position.drawn
    moves: list[Move] = []

    def walk_to(value: int) -> int:
        nonlocal drawn
        top = drawn - 1
        if top >= 0 and values[top] == value:
            return top
        for sweep in range(2):
            if sweep:
                moves.append(RECYCLE)
                drawn = 0
            rest, index = talon >> drawn, drawn
            while rest:
                gap = (rest & -rest).bit_length()
                index += gap
                rest >>= gap
                moves.append(DRAW)
                drawn = index
                if values[index - 1] == value:
                    return index - 1
        raise LineError(f"no talon card of value {value} left")

    def remove_talon(index: int) -> None:
        nonlocal talon, drawn
        talon &= ~(1 << index)
        drawn = (talon & ((1 << drawn) - 1)).bit_length()

    for bits, value in abstract_line:
        if not value:
            moves.append(step_move(position, bits, 0))
            continue
        index = walk_to(value)
        slot = bits.bit_length() - 1
        moves.append(Move.pair(cards[slot], talon_cards[index]))
        remove_talon(index)
    if strict:
        while talon:
            index = walk_to(13)
            moves.append(Move.king(talon_cards[index]))
            remove_talon(index)
    return moves
