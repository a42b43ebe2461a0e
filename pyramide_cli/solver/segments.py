"""last-pass-segments — the last pass in segments: a relaxation of the last allowed pass that keeps the stock's order.

In the last pass (limited recycles, no talon pairs) a talon card no remaining pyramid card pairs
with (a *dead* card, kings aside) can never leave, so once it is on the waste every card under it
is buried for good.  The stock's cards come in a fixed order (nothing takes a stock card before
it is drawn without ``stock-top``), so the dead cards of the stock cut the rest of the pass into
*segments*: a card can only be used between its draw and the draw of the next dead card, i.e.
while the pointer is in its own segment.  Used under draw-1 (under ``draw-3``, where the groups
of three are fixed as well, it cut a quarter of the positions but cost more time than it saved).

The segment game relaxes the rest of the pass: the pyramid plays as in the multiset game with
the cards of the current segment (any order, every card available from the segment's start), and
may move on to the next segment, leaving the current one's cards behind for good.  Every real line
of the pass is a line of it (each removal with a talon card happens in that card's segment), so
when it cannot clear the pyramid the position is lost, and the most cards it can remove bound the
real maxima from above.  See docs/solver.md, last-pass-segments.
"""

from __future__ import annotations

from .budget import Budget
from .relaxation import KEY_SHIFT, Gains, Relaxation
from .tables import UNITS, DealTables, Shape

SEGMENT_BITS = 36  # a count vector: 12 values of 3 bits
SEGMENT_MASK = (1 << SEGMENT_BITS) - 1
LATER_SHIFT = KEY_SHIFT + SEGMENT_BITS


class LastPassSegments:
    """The segment game of one deal (memoised; shared by every node of the talon search)."""

    def __init__(self, tables: DealTables, relaxation: Relaxation, budget: Budget) -> None:
        self.tables = tables
        self.relaxation = relaxation
        self.budget = budget
        self.memo: dict[int, Gains | None] = {}

    def gains(self, pyramid: int, shape: Shape, talon: int, drawn: int, waste_cut: int) -> Gains | None:
        """``None`` when the segment game of this last-pass node can clear the pyramid, else upper
        bounds on the (pyramid cards, non-king cards) still removable.  ``waste_cut``: buried-waste's cut, the
        waste below it is buried.  Also ``None`` when the stock holds no dead card (buried-waste decides then)."""
        dead = talon & shape.dead_talon
        stock = talon >> drawn << drawn
        if not stock & dead:
            return None
        tables = self.tables
        need = shape.need
        counts = tables.counts
        later = [counts(talon >> waste_cut << waste_cut & ~stock)]  # the waste buried-waste leaves in reach ...
        low_end = drawn  # ... and the stock, from its top card: segment by segment
        rest = stock & dead
        while rest:
            low = rest & -rest
            rest ^= low
            high_end = low.bit_length() - 1
            if high_end > low_end:
                later[-1] += counts(stock & ((1 << high_end) - 1) >> low_end << low_end)
            later[-1] &= need
            later.append(0)
            low_end = low.bit_length()
        later[-1] = (later[-1] + counts(stock >> low_end << low_end)) & need
        first = later[0]
        packed = total = 0
        shift = 0
        for segment in later[1:]:
            if segment:  # an empty segment changes nothing: pyramid pairs can be made in any segment
                packed |= segment << shift
                shift += SEGMENT_BITS
                total += segment
        if not packed:
            return self.relaxation.search(pyramid, first)
        return self.search(pyramid, first, packed, total)

    def search(self, pyramid: int, first: int, later: int, later_total: int) -> Gains | None:
        """The segment game from ``pyramid`` with the current segment's counts ``first`` and the next
        segments packed in ``later`` (``later_total``: their sum): ``None`` when it can be won, else
        upper bounds on its gains (exact unless the multiset game on every card left already fails)."""
        tables = self.tables
        shape = tables.shape(pyramid)
        kings = 0
        while shape.kings:
            kings += shape.kings.bit_count()
            pyramid &= ~shape.kings
            shape = tables.shape(pyramid)
        if not pyramid:
            return None
        if not later:
            gains = self.relaxation.search(pyramid, first)
        else:
            first &= shape.need
            key = pyramid | first << KEY_SHIFT | later << LATER_SHIFT
            memo = self.memo
            if key in memo:
                gains = memo[key]
            else:
                gains = self.relaxation.search(pyramid, first + later_total)
                if gains is None:  # the multiset game on every card left can win: play the segments
                    gains = self._expand(pyramid, shape, first, later, later_total)
                memo[key] = gains
        if gains is None or not kings:
            return gains
        return gains[0] + kings, gains[1] + kings

    def _expand(self, pyramid: int, shape: Shape, first: int, later: int, later_total: int) -> Gains | None:
        self.budget.tick()
        search = self.search
        best_pyramid = best_all = 0
        for mask in shape.pairs:
            gains = search(pyramid & ~mask, first, later, later_total)
            if gains is None:
                return None
            best_pyramid = max(best_pyramid, gains[0] + 2)
            best_all = max(best_all, gains[1] + 2)
        for bit, value in shape.singles:
            step = UNITS[value]
            if first & step * 7:
                gains = search(pyramid & ~bit, first - step, later, later_total)
                if gains is None:
                    return None
                best_pyramid = max(best_pyramid, gains[0] + 1)
                best_all = max(best_all, gains[1] + 2)
        following = later & SEGMENT_MASK  # move on: this segment's cards stay behind for good
        gains = search(pyramid, following, later >> SEGMENT_BITS, later_total - following)
        if gains is None:
            return None
        return max(best_pyramid, gains[0]), max(best_all, gains[1])
