"""The multiset relaxation: the pyramid, and the talon as a bag of values usable in any order.

With unlimited recycles, draw-1 and no talon card in play but the waste top (no ``waste-pair``,
no ``stock-top``), draws and recycles bring any talon card to the waste top without changing
anything else, and two talon cards never pair.  The position is then exactly (pyramid shape,
how many talon cards of each value remain): this module solves preset ``N`` (and its
``strict``/``cover-pair`` variants) outright.

For every other rule set it is a *relaxation*: it allows every removal the real rules allow
(and more), so when it cannot clear the pyramid neither can the real game, and the most cards it
can remove bound the real maximum from above.  Under ``waste-pair``/``stock-top`` it also lets
any two talon cards making 13 pair, to stay a relaxation.  See docs/solver.md.
"""

from __future__ import annotations

from .budget import Budget
from ..engine.layout import PYRAMID_SIZE
from .tables import FIELD_BITS, UNITS, DealTables, Shape, total_count, unit

KEY_SHIFT = 28
Gains = tuple[int, int]
"""(pyramid cards, all cards) that can still be removed from a relaxed position."""


class Relaxation:
    """Memoised search of the multiset game of one deal.

    ``wins[key]`` holds the winning abstract move of a won position, ``losses[key]`` the exact
    :data:`Gains` of a lost one (a lost position's search is exhaustive, so its best reachable
    counts come for free).  Keys are taken after free kings are removed.
    """

    def __init__(self, tables: DealTables, budget: Budget, talon_pairs: bool | None = None) -> None:
        """``talon_pairs``: whether two talon cards may pair (default: as the rules say; ``False`` gives
        the multiset game without talon pairs, which talon-order asks about)."""
        rules = tables.rules
        self.tables = tables
        self.budget = budget
        self.strict = rules.strict
        self.talon_pairs = (rules.waste_pair or rules.stock_top) if talon_pairs is None else talon_pairs
        self.mask_useless = not self.strict and not self.talon_pairs
        self.pairs_last = self.talon_pairs and not self.strict
        """Talon pairs are played last (see :meth:`_expand`): only without ``strict``."""
        self.wins: dict[int, tuple[int, int]] = {}
        self.losses: dict[int, Gains] = {}
        self.costs: dict[int, int | None] = {}
        self.shapes = tables.shapes
        """The deal's shapes met so far (``tables.shape`` builds the others)."""
        self._pair_masks: dict[int, int] = {}
        self._pair_totals: dict[int, int] = {}

    def key_mask(self, shape: Shape) -> int:
        """The count fields a position's key keeps (its shape without free kings): the values some
        pyramid card needs; under ``pairs_last`` also their partners (their talon pairs); all of
        them under ``strict`` with talon pairs."""
        if self.mask_useless:
            return shape.need
        if not self.pairs_last:
            return -1
        mask = self._pair_masks.get(shape.need)
        if mask is None:
            mask = shape.need
            for value in range(1, 13):
                if shape.need >> (FIELD_BITS * (value - 1)) & 7:
                    mask |= 7 << (FIELD_BITS * (12 - value))
            self._pair_masks[shape.need] = mask
        return mask

    def key(self, pyramid: int, counts: int) -> int:
        return pyramid | (counts & self.key_mask(self.tables.shape(pyramid))) << KEY_SHIFT

    def pair_total(self, counts: int) -> int:
        """How many talon pairs the talon cards of a count vector make at most: the sum over the values
        1–6 of the fewer of that value and its partner."""
        total = self._pair_totals.get(counts)
        if total is None:
            total = self._pair_totals[counts] = _talon_pair_count(counts)
        return total

    # -- answers ---------------------------------------------------------------------------------
    def can_win(self, pyramid: int, counts: int) -> bool:
        return self.search(pyramid, counts) is None

    def gains_bound(self, pyramid: int, counts: int) -> Gains:
        """Upper bounds on (pyramid cards, non-king cards) still removable from this position."""
        gains = self.search(pyramid, counts)
        if gains is None:
            return pyramid.bit_count(), pyramid.bit_count() + total_count(counts)
        return gains

    # -- the search ------------------------------------------------------------------------------
    def search(self, pyramid: int, counts: int) -> Gains | None:
        """``None`` when the relaxed position is won, else its exact gains."""
        shape_of = self.tables.shape
        shape = self.shapes.get(pyramid) or shape_of(pyramid)
        kings = 0
        while shape.kings:
            kings += shape.kings.bit_count()
            pyramid &= ~shape.kings
            shape = shape_of(pyramid)
        if not pyramid:
            return self._empty_pyramid(counts, kings)
        mask = shape.need if self.mask_useless else self.key_mask(shape)
        key = pyramid | (counts & mask) << KEY_SHIFT
        if key in self.wins:
            return None
        lost = self.losses.get(key)
        if lost is None:
            lost = self._expand(pyramid, counts, shape, key, mask)
            if lost is None:
                return None
        if self.pairs_last:  # the talon pairs of the values no pyramid card needs: their counts stay
            return lost[0] + kings, lost[1] + kings + 2 * self.pair_total(counts & ~mask)
        return (lost[0] + kings, lost[1] + kings) if kings else lost

    def _empty_pyramid(self, counts: int, kings: int) -> Gains | None:
        if not self.strict or not counts:
            return None
        talon_gain = 2 * _talon_pair_count(counts) if self.talon_pairs else 0
        if talon_gain == total_count(counts):
            return None
        return kings, kings + talon_gain

    def _expand(self, pyramid: int, counts: int, shape: Shape, key: int, mask: int) -> Gains | None:
        """Search a position not met yet (no free kings): its win, or its exact gains.

        Under ``waste-pair``/``stock-top`` without ``strict`` (``pairs_last``) the talon pairs are
        played last.  A talon pair only takes two talon cards away, so moving it later in a line
        keeps every removal before it legal: the lines that play their talon pairs last reach every
        set of removals any line reaches.  Without ``strict`` the pyramid alone decides a win, which
        talon pairs never help; and the most cards a line can remove is the best, over the lines of
        pyramid removals, of the cards they remove plus twice the talon pairs left at their end.
        The values no remaining pyramid card needs, and their partners, keep their counts to the
        end: their pairs are added outside, so the key keeps only the other counts (``mask``), and
        what is stored counts only their pairs.  The same gains and wins as trying every order of
        the talon pairs (as ``strict`` still does, where every talon card must go), from far fewer
        positions.
        """
        self.budget.tick()
        search = self.search
        best_pyramid = best_all = outside = 0
        if self.pairs_last:
            outside = 2 * self.pair_total(counts & ~mask)  # the same for every line from here
            best_all = 2 * self.pair_total(counts & mask)  # stop here: the talon pairs left
        for pair in shape.pairs:
            gains = search(pyramid & ~pair, counts)
            if gains is None:
                self.wins[key] = (pair, 0)
                return None
            if gains[0] + 2 > best_pyramid:
                best_pyramid = gains[0] + 2
            if gains[1] + 2 - outside > best_all:
                best_all = gains[1] + 2 - outside
        for bit, value in shape.singles:
            step = UNITS[value]
            if counts & step * 7:
                gains = search(pyramid & ~bit, counts - step)
                if gains is None:
                    self.wins[key] = (bit, value)
                    return None
                if gains[0] + 1 > best_pyramid:
                    best_pyramid = gains[0] + 1
                if gains[1] + 2 - outside > best_all:
                    best_all = gains[1] + 2 - outside
        if self.talon_pairs and not self.pairs_last:
            for value in range(1, 7):
                if counts >> (FIELD_BITS * (value - 1)) & 7 and counts >> (FIELD_BITS * (12 - value)) & 7:
                    gains = search(pyramid, counts - unit(value) - unit(13 - value))
                    if gains is None:
                        self.wins[key] = (0, value)
                        return None
                    best_pyramid = max(best_pyramid, gains[0])
                    best_all = max(best_all, gains[1] + 2)
        lost = (best_pyramid, best_all)
        self.losses[key] = lost
        return lost

    def least_cost(self, pyramid: int, counts: int, talon_cost: int) -> int | None:
        """The least cost of clearing the pyramid in the multiset game, a removal costing 1 and each
        talon card used ``talon_cost`` more (``None``: it cannot be cleared).

        With ``talon_cost`` 0 it is the fewest removals; with 1, removals plus talon cards used —
        and every talon card used must be brought to the top by a draw unless it is on the waste.
        """
        shape_of = self.tables.shape
        kings = 0
        shape = shape_of(pyramid)
        while shape.kings:
            kings += shape.kings.bit_count()
            pyramid &= ~shape.kings
            shape = shape_of(pyramid)
        if not pyramid:
            return kings
        key = (pyramid | (counts & shape.need) << 28) << 1 | talon_cost
        memo = self.costs
        if key in memo:
            best = memo[key]
        else:
            best = None
            search = self.least_cost
            for mask in shape.pairs:
                rest = search(pyramid & ~mask, counts, talon_cost)
                if rest is not None and (best is None or rest + 1 < best):
                    best = rest + 1
            for bit, value in shape.singles:
                step = UNITS[value]
                if counts & step * 7:
                    rest = search(pyramid & ~bit, counts - step, talon_cost)
                    if rest is not None and (best is None or rest + 1 + talon_cost < best):
                        best = rest + 1 + talon_cost
            memo[key] = best
        return None if best is None else best + kings

    def winning_line(self, pyramid: int, counts: int) -> list[tuple[int, int]]:
        """The abstract moves of a win found by :meth:`search`: ``(pyramid bits, talon value)``.

        Free kings appear as ``(king bits, 0)``; a talon pair (``waste-pair``/``stock-top``) as
        ``(0, value)``; ``(bits, 0)`` is a pyramid-only removal and ``(bit, value)`` a pyramid card
        paired with a talon card of ``value``.
        """
        line: list[tuple[int, int]] = []
        shape_of = self.tables.shape
        while True:
            shape = shape_of(pyramid)
            if shape.kings:
                for slot in range(PYRAMID_SIZE):
                    if shape.kings >> slot & 1:
                        line.append((1 << slot, 0))
                pyramid &= ~shape.kings
                continue
            if not pyramid:
                break
            bits, value = self.wins[self.key(pyramid, counts)]
            line.append((bits, value))
            pyramid &= ~bits
            if value and bits:
                counts -= unit(value)
            elif value:
                counts -= unit(value) + unit(13 - value)
        if self.strict and counts:
            for value in range(1, 7):
                for _ in range(min(_count(counts, value), _count(counts, 13 - value))):
                    line.append((0, value))
        return line


def _count(counts: int, value: int) -> int:
    return counts >> (FIELD_BITS * (value - 1)) & 7


def _talon_pair_count(counts: int) -> int:
    return sum(min(_count(counts, value), _count(counts, 13 - value)) for value in range(1, 7))
