"""The per-deal move tables of games: a state's legal moves as :class:`Move` values, and how a move
changes a game's bare state.

A :class:`~pyramide_cli.engine.game.Game` keeps its position as bare values (pyramid, talon,
drawn, recycles, foundation, as in :class:`Position`); these tables turn the random player's action
tables (:class:`PlayoutTables`) and the kernel's talon removals into its legal moves, once per deal
and shared by the deal's games (:func:`deal_moves`).
"""

from __future__ import annotations

from typing import Any

from . import kernel
from .cards import Card
from .deal import Deal
from .layout import COVER_MASK, PYRAMID_SIZE, free_slots
from .moves import DRAW, RECYCLE, Move
from .playout import DRAW_ACTION, RECYCLE_ACTION, PlayoutTables
from .position import Position, Termination

NO_MOVES: tuple[Move, ...] = ()
DRAW_ONLY = (DRAW,)
RECYCLE_ONLY = (RECYCLE,)


class ActionMoves(dict):  # type: ignore[type-arg]
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


class DealMoves:
    """One deal's moves for games: the legal moves of a state as a tuple of :class:`Move`, and how a
    move changes the bare state — so that a game's legal moves and its moves cost little.

    The rules are the random player's tables (:class:`PlayoutTables`: the pyramid-only removals of
    a pyramid shape; :meth:`kernel.TalonCards.steps_at`: the removals with talon cards), tested equal
    to :attr:`Position.legal_moves`, and :meth:`legal` keeps their order.  What this class adds is a
    cache per pyramid shape of its pyramid-only removals as moves: a shape stays for many draws (86 %
    of the states of random games under ``T`` meet a shape already seen), so most states only ask
    the kernel for the talon's removals.
    """

    __slots__ = ("cards", "deal", "draw_count", "layout_index", "moves", "records", "recycle_limit",
                 "removal_distance", "shape_of", "shapes", "steps_at", "strict")

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
        self.moves = ActionMoves(deal.cards)
        self.shapes: dict[int, tuple[tuple[Move, ...], dict[int, tuple[int, ...]]]] = {}
        self.records: dict[tuple[int, Move], Any] = {}
        """The record of a removal after which the game goes on, by the pyramid before it and the move:
        it only depends on those, and records are immutable, so a game makes each once."""

    def outlook(self, state: tuple[Any, ...]) -> tuple[tuple[Move, ...], Termination | None, int]:
        """The legal moves of a state, how a game there has ended (``None``: it goes on) and how many
        positions after it are known to offer only a draw or a recycle (see ``Game._quiet``), worked
        out together.

        The moves come in the order of :meth:`PlayoutTables.actions`: the pyramid-only removals, the
        removals with talon cards (:meth:`kernel.TalonCards.steps_at`), then ``draw`` or ``recycle``.
        """
        pyramid, talon, drawn, recycles, _ = state
        if not pyramid and not (self.strict and talon):
            return NO_MOVES, Termination.CLEARED, 0
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
                return legal + DRAW_ONLY, None, 0
            if kernel.can_recycle(talon, drawn, recycles, self.recycle_limit):
                return legal + RECYCLE_ONLY, None, 0
            return legal, None, 0
        if talon >> drawn:
            legal = DRAW_ONLY
        elif kernel.can_recycle(talon, drawn, recycles, self.recycle_limit):
            legal = RECYCLE_ONLY
        else:
            return NO_MOVES, Termination.NO_MOVES, 0
        # Only a draw or a recycle: the dead-game test, and how far the next removal is.
        distance = self.removal_distance(pyramid, talon, drawn, recycles)
        if distance is None:
            return NO_MOVES, Termination.DEAD, 0
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


def deal_moves(deal: Deal) -> DealMoves:
    """The :class:`DealMoves` of ``deal``, shared by its games: the last few deals' are kept."""
    known = _DEAL_MOVES.get(id(deal))
    if known is None or known.deal is not deal:
        if len(_DEAL_MOVES) >= _DEALS_KEPT:
            del _DEAL_MOVES[next(iter(_DEAL_MOVES))]  # the oldest
        known = _DEAL_MOVES[id(deal)] = DealMoves(deal)
    return known


_DEAL_MOVES: dict[int, DealMoves] = {}
_DEALS_KEPT = 8
"""Few: a deal's tables grow with the positions its games meet, and a process that plays many deals
(a tournament, a server) would otherwise keep tens of thousands of objects alive for nothing; the
garbage collector goes through them again and again (bench/bench_bots.py measures it)."""


def state_of(position: Position) -> tuple[Any, ...]:
    return position.pyramid, position.talon, position.drawn, position.recycles, position.foundation
