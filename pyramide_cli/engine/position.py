"""The position (R2–R10, R16–R18): pyramid, stock, waste and foundation, legal moves, outcome.

A :class:`Position` is an immutable value, cheap to copy and hash, so undo is a stack of
positions and the solver can key tables on it.  It stores bit masks:

* ``pyramid``: the slots still on the table (see :mod:`layout`);
* ``talon``: the talon cards not yet removed (bit ``t`` = card ``28 + t`` of the deal);
* ``drawn``: talon indices below ``drawn`` have been turned onto the waste in this pass, the
  others are still in the stock.  The stock and waste keep the talon's order through draws,
  removals and recycles (R9), so these masks describe them exactly.  ``drawn`` is normalised to
  "top waste card + 1" (0 for an empty waste), so equal situations are equal values.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from . import kernel
from .cards import KING, Card
from .deal import Deal
from .layout import COVER_MASK, COVERERS, FULL_PYRAMID, FULL_TALON, PYRAMID_SIZE, ROW_SLOTS, free_slots
from .moves import DRAW, NO_MORE_MOVES, RECYCLE, Move, MoveKind, Refusal, refusal_error
from .rules import Rules
from .text import text

POINTS_PER_PYRAMID_CARD = 10


class Outcome(Enum):
    """How a game stands (R16–R17); the value is what save files and ``--json`` say.

    ``lost`` covers every way a game ends without a win; :class:`Termination` says which.
    """

    PLAYING = "playing"
    WON = "won"
    LOST = "lost"


class Termination(Enum):
    """Why a game ended (``None`` while it goes on); the value is what save files and ``--json`` say."""

    CLEARED = "cleared"
    """Won: the pyramid is gone (R16; every card under ``strict``)."""
    NO_MOVES = "no-moves"
    """Lost: no removal, no draw and no recycle is possible (R17)."""
    DEAD = "dead"
    """Lost: draws or recycles remain, but no card can ever be removed again, whatever is drawn."""
    RESIGNED = "resigned"
    """Lost: the player gave the game up (a game's action, never a position's)."""

    @property
    def outcome(self) -> Outcome:
        return Outcome.WON if self is Termination.CLEARED else Outcome.LOST

    @property
    def message(self) -> str:
        """What a player is told when the game ends this way."""
        return _END_MESSAGES[self]


_END_MESSAGES = {
    Termination.CLEARED: text("You won: the pyramid is cleared"),
    Termination.NO_MOVES: NO_MORE_MOVES,
    Termination.DEAD: text("No card can ever be removed again"),
    Termination.RESIGNED: text("You resigned: the game is lost"),
}


class Place(Enum):
    PYRAMID = "pyramid"
    WASTE = "waste"
    STOCK = "stock"
    FOUNDATION = "foundation"


# Ways a card can be in play, and which may pair: see kernel.PAIRING_ROLES.
_FREE, _WASTE_TOP, _STOCK_TOP, _UNDER_TOP = kernel.FREE, kernel.WASTE_TOP, kernel.STOCK_TOP, kernel.UNDER_TOP


@dataclass(frozen=True, slots=True)
class Position:
    deal: Deal
    pyramid: int = FULL_PYRAMID
    talon: int = FULL_TALON
    drawn: int = 0
    recycles: int = 0
    foundation: tuple[Card, ...] = ()

    @classmethod
    def start(cls, deal: Deal) -> Position:
        """The position as dealt: under rules with an initial waste card, talon card 0 is on the waste."""
        return cls(deal, drawn=1 if deal.rules.initial_waste else 0)

    # -- where the cards are ------------------------------------------------------------------
    @property
    def rules(self) -> Rules:
        return self.deal.rules

    def pyramid_card(self, slot: int) -> Card | None:
        """The card in a slot, or ``None`` once removed."""
        return self.deal.cards[slot] if self.pyramid >> slot & 1 else None

    def rows(self) -> list[list[Card | None]]:
        """The 7 rows, apex first, with ``None`` for removed cards."""
        return [[self.pyramid_card(slot) for slot in row] for row in ROW_SLOTS]

    @property
    def waste_top_index(self) -> int:
        """Talon index of the top waste card, or -1."""
        return kernel.waste_top(self.talon, self.drawn)

    @property
    def stock_top_index(self) -> int:
        """Talon index of the top stock card, or -1."""
        return kernel.stock_top(self.talon, self.drawn)

    @property
    def waste(self) -> tuple[Card, ...]:
        """The waste, bottom to top (only the top card is in play, R4)."""
        talon = self.deal.cards[PYRAMID_SIZE:]
        return tuple(talon[t] for t in range(self.drawn) if self.talon >> t & 1)

    @property
    def stock(self) -> tuple[Card, ...]:
        """The stock, top (drawn next) first."""
        talon = self.deal.cards[PYRAMID_SIZE:]
        return tuple(talon[t] for t in range(self.drawn, len(talon)) if self.talon >> t & 1)

    @property
    def stock_count(self) -> int:
        return (self.talon >> self.drawn).bit_count()

    @property
    def waste_top(self) -> Card | None:
        index = self.waste_top_index
        return None if index < 0 else self.deal.cards[PYRAMID_SIZE + index]

    @property
    def stock_top(self) -> Card | None:
        index = self.stock_top_index
        return None if index < 0 else self.deal.cards[PYRAMID_SIZE + index]

    @property
    def free_cards(self) -> tuple[Card, ...]:
        """The free pyramid cards (R3), apex side first."""
        cards = self.deal.cards
        return tuple(cards[slot] for slot in free_slots(self.pyramid))

    def place(self, card: Card) -> Place:
        index = self.deal.layout_index[card]
        if index < PYRAMID_SIZE:
            return Place.PYRAMID if self.pyramid >> index & 1 else Place.FOUNDATION
        talon_index = index - PYRAMID_SIZE
        if not self.talon >> talon_index & 1:
            return Place.FOUNDATION
        return Place.WASTE if talon_index < self.drawn else Place.STOCK

    def slot_of(self, card: Card) -> int | None:
        """The pyramid slot a card was dealt to, or ``None`` for a talon card."""
        index = self.deal.layout_index[card]
        return index if index < PYRAMID_SIZE else None

    def _play_state(self, card: Card) -> str | Refusal:
        """How ``card`` is in play, or why it is not."""
        index = self.deal.layout_index[card]
        if index < PYRAMID_SIZE:
            if not self.pyramid >> index & 1:
                return Refusal.ALREADY_REMOVED
            return Refusal.BLOCKED if self.pyramid & COVER_MASK[index] else _FREE
        talon_index = index - PYRAMID_SIZE
        if not self.talon >> talon_index & 1:
            return Refusal.ALREADY_REMOVED
        top, under, up = kernel.in_play(self.talon, self.drawn, self.rules.waste_pair, self.rules.stock_top)
        if talon_index == top:
            return _WASTE_TOP
        if talon_index == up:
            return _STOCK_TOP
        if talon_index == under:
            return _UNDER_TOP
        return Refusal.NOT_IN_PLAY

    def is_playable(self, card: Card) -> bool:
        """True when the card can take part in some removal now (free, top of waste, …)."""
        return isinstance(self._play_state(card), str)

    def play_refusal(self, card: Card) -> Refusal | None:
        """Why ``card`` cannot be played now (blocked, not in play, already removed), or ``None``."""
        state = self._play_state(card)
        return state if isinstance(state, Refusal) else None

    # -- counters and outcome -----------------------------------------------------------------
    @property
    def pyramid_removed(self) -> int:
        return PYRAMID_SIZE - self.pyramid.bit_count()

    @property
    def cards_removed(self) -> int:
        return len(self.foundation)

    @property
    def score(self) -> int:
        """10 per pyramid card removed (R18); waste cards score nothing."""
        return POINTS_PER_PYRAMID_CARD * self.pyramid_removed

    @property
    def pass_number(self) -> int:
        """1 during the first pass through the stock, 2 after the first recycle, …"""
        return self.recycles + 1

    @property
    def is_won(self) -> bool:
        """R16: the pyramid is gone (``strict``: every card is gone)."""
        return not self.pyramid and not (self.rules.strict and self.talon)

    @property
    def termination(self) -> Termination | None:
        """Why a game at this position is over (cleared, no-moves, dead), or ``None`` while it goes on."""
        if self.is_won:
            return Termination.CLEARED
        if self.removals():
            return None
        if not (self.can_draw or self.can_recycle):
            return Termination.NO_MOVES
        return None if self.removal_ahead() else Termination.DEAD

    @property
    def outcome(self) -> Outcome:
        termination = self.termination
        return Outcome.PLAYING if termination is None else termination.outcome

    @property
    def is_dead(self) -> bool:
        """True when draws or recycles remain but no card can ever be removed again (a lost game)."""
        return self.termination is Termination.DEAD

    def removal_ahead(self) -> bool:
        """True when some removal is possible now or after draws and recycles alone.

        Draws and recycles never change the pyramid, so the positions they reach form one line
        (at most one of them is legal at a time); a removal on that line is the only way the game
        can go on.
        """
        return kernel.any_removal_ever(self.deal, self.pyramid, self.talon, self.drawn, self.recycles)

    # -- legal moves --------------------------------------------------------------------------
    @property
    def can_draw(self) -> bool:
        return not self.is_won and bool(self.talon >> self.drawn)

    @property
    def can_recycle(self) -> bool:
        return not self.is_won and kernel.can_recycle(self.talon, self.drawn, self.recycles, self.rules.recycle_limit)

    def _playable_cards(self) -> list[tuple[Card, str]]:
        cards = self.deal.cards
        playable = [(cards[slot], _FREE) for slot in free_slots(self.pyramid)]
        top, under, up = kernel.in_play(self.talon, self.drawn, self.rules.waste_pair, self.rules.stock_top)
        for index, role in ((top, _WASTE_TOP), (under, _UNDER_TOP), (up, _STOCK_TOP)):
            if index >= 0:
                playable.append((cards[PYRAMID_SIZE + index], role))
        return playable

    def removals(self) -> list[Move]:
        """Every legal pair and king removal, in a stable order."""
        if self.is_won:
            return []
        playable = self._playable_cards()
        moves = [Move.king(card) for card, state in playable if card.rank == KING and state in kernel.KING_ROLES]
        for i, (first, first_state) in enumerate(playable):
            for second, second_state in playable[i + 1:]:
                if first.rank + second.rank == 13 and self._states_pair(first_state, second_state):
                    moves.append(Move.pair(first, second))
        if self.rules.cover_pair:
            moves.extend(self._cover_pairs())
        return moves

    def _cover_pairs(self) -> list[Move]:
        cards, pyramid, moves = self.deal.cards, self.pyramid, []
        for top_slot in free_slots(pyramid):
            for slot in range(PYRAMID_SIZE):
                if (pyramid >> slot & 1 and top_slot in COVERERS[slot]
                        and pyramid & COVER_MASK[slot] == 1 << top_slot
                        and cards[slot].rank + cards[top_slot].rank == 13):
                    moves.append(Move.pair(cards[slot], cards[top_slot]))
        return moves

    @staticmethod
    def _states_pair(first: str, second: str) -> bool:
        return frozenset((first, second)) in kernel.PAIRING_ROLES

    @property
    def legal_moves(self) -> tuple[Move, ...]:
        """Removals first, then ``draw`` or ``recycle`` when allowed.  Empty once the game is over, a
        dead position included (the moves of :attr:`Game.legal_moves <pyramide_cli.engine.game.Game.legal_moves>`,
        worked out from the rules here: the tests' independent model)."""
        moves = self.removals()
        if self.can_draw:
            stock = DRAW
        elif self.can_recycle:
            stock = RECYCLE
        else:
            return tuple(moves)
        if moves or self.removal_ahead():
            moves.append(stock)
        return tuple(moves)

    def refusal(self, move: Move) -> Refusal | None:
        """Why ``move`` is illegal here, or ``None`` when it is legal (the ``verify`` of the engine).

        A dead position refuses draws and recycles with ``game-over``.
        """
        if move.is_game_action:
            raise ValueError(f"{move} is an action of a game, not of a position")
        if self.is_won:
            return Refusal.GAME_OVER
        if not move.removes_cards:
            return Refusal.GAME_OVER if self.is_dead else self.stock_refusal(move)
        states = [self._play_state(card) for card in move.cards]
        if move.kind is MoveKind.KING:
            state = states[0]
            if isinstance(state, Refusal):
                return state
            if not move.cards[0].is_king:
                return Refusal.NOT_A_KING
            return None if state in kernel.KING_ROLES else Refusal.NOT_IN_PLAY
        return self._pair_refusal(move, states)

    def stock_refusal(self, move: Move) -> Refusal | None:
        """Why the stock refuses a draw or recycle (empty stock, recycle limit), whether the game goes
        on or not; ``None`` when the stock allows it."""
        if move.kind is MoveKind.DRAW:
            if self.can_draw:
                return None
            return Refusal.STOCK_EMPTY if self.can_recycle else Refusal.NOTHING_TO_DRAW
        if self.can_recycle:
            return None
        if self.talon >> self.drawn:
            return Refusal.STOCK_NOT_EMPTY
        return Refusal.NOTHING_TO_RECYCLE if not self.talon else Refusal.RECYCLE_LIMIT

    def _pair_refusal(self, move: Move, states: list[str | Refusal]) -> Refusal | None:
        first, second = move.cards
        if self.rules.cover_pair and move.adds_to_thirteen and self._is_cover_pair(first, second):
            return None
        for state in states:
            if state in (Refusal.ALREADY_REMOVED, Refusal.NOT_IN_PLAY):
                return state
        if Refusal.BLOCKED in states:
            return Refusal.BLOCKED
        if not move.adds_to_thirteen:
            return Refusal.SUM_NOT_13
        return None if self._states_pair(*states) else Refusal.NOT_IN_PLAY  # type: ignore[arg-type]

    def _is_cover_pair(self, first: Card, second: Card) -> bool:
        """True when one card is covered by the other alone and that one is free (cover-pair)."""
        for lower, upper in ((first, second), (second, first)):
            low, up = self.slot_of(lower), self.slot_of(upper)
            if (low is not None and up is not None and self.pyramid >> low & 1 and self.pyramid >> up & 1
                    and up in COVERERS[low] and self.pyramid & COVER_MASK[low] == 1 << up
                    and not self.pyramid & COVER_MASK[up]):
                return True
        return False

    # -- applying moves -----------------------------------------------------------------------
    def apply(self, move: Move) -> Position:
        """The position after ``move``; raises :class:`IllegalMoveError` with the reason if illegal."""
        refusal = self.refusal(move)
        if refusal is not None:
            raise refusal_error(move, refusal)
        return self.apply_unchecked(move)

    def apply_unchecked(self, move: Move) -> Position:
        """The position after a move already known to be legal."""
        kind = move.kind
        if kind is MoveKind.DRAW:
            drawn = kernel.draw(self.talon, self.drawn, self.rules.draw_count)
            return Position(self.deal, self.pyramid, self.talon, drawn, self.recycles, self.foundation)
        if kind is MoveKind.RECYCLE:
            return Position(self.deal, self.pyramid, self.talon, 0, self.recycles + 1, self.foundation)
        pyramid, talon = self.pyramid, self.talon
        layout_index = self.deal.layout_index
        for card in move.cards:
            index = layout_index[card]
            if index < PYRAMID_SIZE:
                pyramid &= ~(1 << index)
            else:
                talon &= ~(1 << (index - PYRAMID_SIZE))
        drawn = kernel.drawn_after_removal(talon, self.drawn)
        return Position(self.deal, pyramid, talon, drawn, self.recycles, self.foundation + move.cards)

    # -- misc ---------------------------------------------------------------------------------
    def key(self) -> tuple[int, int, int, int]:
        """What decides the rest of the game: equal keys have the same futures.

        The foundation's order is left out, and so is the recycle count when recycles are unlimited.
        """
        recycles = self.recycles if self.rules.recycle_limit is not None else 0
        return (self.pyramid, self.talon, self.drawn, recycles)


def playable_waste(position: Position) -> list[Card]:
    """The waste cards in play: the top one (and the one under it under ``waste-pair``), bottom first."""
    waste = position.waste
    return [card for card in waste[-2:] if position.is_playable(card)]


def playable_cards(position: Position) -> list[Card]:
    """Every card that can take part in a removal now: free pyramid cards, then talon cards in play."""
    cards = list(position.free_cards) + playable_waste(position)
    stock_top = position.stock_top
    if stock_top is not None and position.is_playable(stock_top):
        cards.append(stock_top)
    return cards
