"""Waste-stack — the last pass's waste in its order: a relaxation of the last allowed pass (draw-3, no talon pairs).

In the last pass no recycle will bring a waste card back, and only the waste's top card is in play,
so a waste card leaves only after every card above it has gone (buried-waste is the special case of a card
nothing can remove).  The *waste-stack game* keeps that order and relaxes the rest: the pyramid
plays exactly; the waste the pass can still reach (buried-waste) is a stack whose top may pair with a free
pyramid card (a king on top goes alone); the stock is a bag of values, any of whose cards may pair
with a free pyramid card at any time without covering the waste.  Every real line of the rest of
the pass is a line of this game (a stock card is used once drawn, a waste card once everything
drawn onto it and everything above it has gone), so when it cannot clear the pyramid neither can
the real game, and the most cards it removes bound the real maxima from above.  The multiset game
(multiset-relaxation with buried-waste) lets any waste card go at any time, and is often one or two cards too high where
this one is exact or nearly (docs/solver.md, waste-stack).

Within the game, pairing a free card with the waste's top is never worse than pairing it with a
stock card of the same value (every line of the second is a line of the first, the extra stock
card standing in for the top when that line uses it), so the second is not tried; and a waste of
one card or none is always on top, where the game is the multiset game, whose tables it shares.
"""

from __future__ import annotations

from .budget import Budget
from .relaxation import KEY_SHIFT, Gains, Relaxation
from .tables import KING, UNITS, DealTables, Shape

STOCK_SHIFT = KEY_SHIFT + 24  # the waste is a talon mask


class WasteStack:
    """The waste-stack game of one deal, memoised like the multiset game (:class:`Relaxation`): the wins,
    and the exact gains of the lost positions, keyed on (pyramid, waste cards, needed stock counts)."""

    def __init__(self, tables: DealTables, relaxation: Relaxation, budget: Budget) -> None:
        self.tables = tables
        self.relaxation = relaxation
        self.budget = budget
        self.values = tables.talon_values
        self.units = tables.talon_units
        self.wins: set[int] = set()
        self.losses: dict[int, Gains] = {}

    def search(self, pyramid: int, waste: int, stock: int) -> Gains | None:
        """``None`` when the game can clear the pyramid, else the most (pyramid cards, cards in all) it
        removes.  ``waste``: the mask of the waste cards in reach (the top is its highest bit);
        ``stock``: the count vector of the stock (its kings are left out: they can always go, the
        caller counts them)."""
        tables = self.tables
        shapes = tables.shapes
        shape = shapes.get(pyramid) or tables.shape(pyramid)
        kings = 0
        while shape.kings:  # pyramid-kings: free pyramid kings go at once
            kings += shape.kings.bit_count()
            pyramid &= ~shape.kings
            shape = shapes.get(pyramid) or tables.shape(pyramid)
        if not pyramid:
            return None
        waste &= -1 << (waste & shape.dead_talon).bit_length()  # buried-waste: nothing under a dead card comes back
        values = self.values
        waste_kings = 0
        while waste and values[waste.bit_length() - 1] == KING:  # a king on top goes alone, and only frees
            waste ^= 1 << (waste.bit_length() - 1)
            waste_kings += 1
        if not waste & (waste - 1):  # one card left on the waste (or none) is always on top: the multiset game
            found = self.relaxation.search(pyramid, stock + (self.units[waste.bit_length() - 1] if waste else 0))
        else:
            stock &= shape.need
            key = pyramid | waste << KEY_SHIFT | stock << STOCK_SHIFT
            if key in self.wins:
                return None
            found = self.losses.get(key)
            if found is None:
                found = self._expand(pyramid, shape, waste, stock, key)
        if found is None:
            return None
        return found[0] + kings, found[1] + kings + waste_kings

    def _expand(self, pyramid: int, shape: Shape, waste: int, stock: int, key: int) -> Gains | None:
        """Search a position not met yet (no free kings, a waste of two cards or more)."""
        self.budget.tick()
        search = self.search
        best_pyramid = best_all = 0
        for mask in shape.pairs:
            found = search(pyramid & ~mask, waste, stock)
            if found is None:
                self.wins.add(key)
                return None
            if found[0] + 2 > best_pyramid:
                best_pyramid = found[0] + 2
            if found[1] + 2 > best_all:
                best_all = found[1] + 2
        top = 1 << (waste.bit_length() - 1)
        top_value = self.values[top.bit_length() - 1]
        for bit, value in shape.singles:
            if value == top_value:  # the top, rather than a stock card of its value: never worse
                found = search(pyramid & ~bit, waste ^ top, stock)
            elif stock & UNITS[value] * 7:
                found = search(pyramid & ~bit, waste, stock - UNITS[value])
            else:
                continue
            if found is None:
                self.wins.add(key)
                return None
            if found[0] + 1 > best_pyramid:
                best_pyramid = found[0] + 1
            if found[1] + 2 > best_all:
                best_all = found[1] + 2
        lost = (best_pyramid, best_all)
        self.losses[key] = lost
        return lost
