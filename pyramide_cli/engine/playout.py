"""Fast random games: the "player without any plan" of R25, used by grading and ``make bench``.

A random game picks uniformly among the legal actions of the position (every pair, every king,
and the draw or recycle when allowed) until the game is won, no action is possible, or a whole
pass through the stock brings no removal (the recycle that would start the next identical
pass ends the game instead).

This module plays on bare integers (the masks of :class:`~pyramide_cli.engine.position.Position`)
and per-deal tables, about ten times faster than going through :class:`Position`; a test
replays its games move by move with the engine to show both apply the same rules.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from . import kernel
from .deal import Deal
from .layout import COVER_MASK, COVERERS, FULL_PYRAMID, FULL_TALON, PYRAMID_SIZE, free_slots

DRAW_ACTION = -1
RECYCLE_ACTION = -2


class PlayoutResult(NamedTuple):
    """One random game: won or not, the pyramid cards it removed, the actions it took."""

    won: bool
    pyramid_removed: int
    actions: int


class PlayoutTables:
    """Per-deal tables: card values and, per pyramid shape, the pyramid-only removals."""

    def __init__(self, deal: Deal) -> None:
        rules = deal.rules
        self.deal = deal
        self.pyramid_values = tuple(card.rank for card in deal.cards[:PYRAMID_SIZE])
        self.talon_values = tuple(card.rank for card in deal.cards[PYRAMID_SIZE:])
        self.initial_drawn = 1 if rules.initial_waste else 0
        self.recycle_limit = rules.recycle_limit
        self.strict = rules.strict
        self.cover_pair = rules.cover_pair
        self.draw_count = rules.draw_count
        self._talon_steps = kernel.for_deal(deal).steps_at
        self._shapes: dict[int, tuple[tuple[int, ...], dict[int, tuple[int, ...]]]] = {}

    def shape(self, pyramid: int) -> tuple[tuple[int, ...], dict[int, tuple[int, ...]]]:
        """(masks of the pyramid-only removals, free slot bits by the value they need to pair)."""
        info = self._shapes.get(pyramid)
        if info is not None:
            return info
        values = self.pyramid_values
        free = free_slots(pyramid)
        removals: list[int] = []
        partners: dict[int, list[int]] = {}
        for i, slot in enumerate(free):
            value = values[slot]
            if value == 13:
                removals.append(1 << slot)
                continue
            partners.setdefault(13 - value, []).append(1 << slot)
            for other in free[i + 1:]:
                if value + values[other] == 13:
                    removals.append((1 << slot) | (1 << other))
            if self.cover_pair:
                for lower in range(PYRAMID_SIZE):
                    if (pyramid >> lower & 1 and slot in COVERERS[lower]
                            and pyramid & COVER_MASK[lower] == 1 << slot and value + values[lower] == 13):
                        removals.append((1 << slot) | (1 << lower))
        info = (tuple(removals), {value: tuple(bits) for value, bits in partners.items()})
        self._shapes[pyramid] = info
        return info

    def actions(self, pyramid: int, talon: int, drawn: int, recycles: int) -> list[tuple[int, int]]:
        """Every legal action as ``(pyramid bits, talon bits)`` removed, or ``(DRAW_ACTION | RECYCLE_ACTION, 0)``.

        The order is frozen (grading depends on it): the pyramid-only removals, the removals with
        talon cards in the order of :meth:`kernel.TalonCards.steps_at`, then the draw or recycle.
        """
        removals, partners = self.shape(pyramid)
        actions = [(bits, 0) for bits in removals]
        self._talon_steps(talon, drawn, partners, actions)
        if talon >> drawn:
            actions.append((DRAW_ACTION, 0))
        elif talon and (self.recycle_limit is None or recycles < self.recycle_limit):
            actions.append((RECYCLE_ACTION, 0))
        return actions

    def draw(self, talon: int, drawn: int) -> int:
        """``drawn`` after one draw (one card, or three under ``draw-3``)."""
        return kernel.draw(talon, drawn, self.draw_count)


def random_game(
    tables: PlayoutTables, rng: Callable[[], float], trace: list[tuple[int, int]] | None = None
) -> PlayoutResult:
    """Play one random game from the deal's start; ``rng`` returns floats in [0, 1).

    ``trace``, when given, receives every action taken (for tests that replay it).
    """
    pyramid, talon, drawn, recycles = FULL_PYRAMID, FULL_TALON, tables.initial_drawn, 0
    strict = tables.strict
    actions_taken = 0
    removed_this_pass = False
    get_actions = tables.actions
    draw, draw_count = kernel.draw, tables.draw_count
    while True:
        if not pyramid and not (strict and talon):
            return PlayoutResult(True, PYRAMID_SIZE, actions_taken)
        actions = get_actions(pyramid, talon, drawn, recycles)
        if not actions:
            break
        action = actions[int(rng() * len(actions))]
        pyramid_bits, talon_bits = action
        if pyramid_bits == DRAW_ACTION:
            drawn = draw(talon, drawn, draw_count)
        elif pyramid_bits == RECYCLE_ACTION:
            if not removed_this_pass:
                break
            removed_this_pass = False
            drawn = 0
            recycles += 1
        else:
            pyramid &= ~pyramid_bits
            if talon_bits:
                talon &= ~talon_bits
                drawn = (talon & ((1 << drawn) - 1)).bit_length()
            removed_this_pass = True
        actions_taken += 1
        if trace is not None:
            trace.append(action)
    return PlayoutResult(False, PYRAMID_SIZE - pyramid.bit_count(), actions_taken)


def win_rate(deal: Deal, games: int, seed: int = 0) -> float:
    """Share of ``games`` random games won, deterministic for a given seed (R25)."""
    tables = PlayoutTables(deal)
    import random  # here, not at the top: games (engine/game.py) use the tables on every play command

    rng = random.Random(seed).random
    wins = sum(random_game(tables, rng).won for _ in range(games))
    return wins / games if games else 0.0
