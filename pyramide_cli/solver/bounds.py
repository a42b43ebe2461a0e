"""Admissible lower bounds on the actions left, for the ``--optimal`` A* (docs/solver.md, ``--optimal``).

Every bound here is at most the true number of actions (draws and recycles count) from a position
to a win, so the A* that uses their maximum pops the shortest line first.  The dig (waste-dig) is in
:mod:`.dig`; the questions asked of the exact search (pass-check, first-winning-pass) are in :mod:`.passes`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .dig import Dig
from .relaxation import Relaxation
from .tables import DealTables


class Heuristic:
    """Admissible lower bounds on the actions left (docs/solver.md, ``--optimal``)."""

    def __init__(self, tables: DealTables, relaxation: Relaxation) -> None:
        rules = tables.rules
        self.tables = tables
        self.relaxation = relaxation
        self.strict = rules.strict
        self.walk_bound = rules.draw_count == 1
        self.plain = rules.plain_talon
        self.stock_top = rules.stock_top
        self.stock_dig = rules.stock_top and not rules.waste_pair  # stock-top-dig: the dig knows stock-top's pairs
        self.use_relaxed = True  # talon pairs never help clear the pyramid: the multiset game bounds them too
        self.draw_count = rules.draw_count
        self.limit = rules.recycle_limit
        self._value_talon = tables.talon_cards.value_talon
        self._pyramid: dict[int, PyramidBounds] = {}
        self.removals_memo: dict[int, int | None] = {}
        """:meth:`removals` by ``pyramid | counts << 28``."""
        self._passed: dict[int, tuple[int, int] | None] = {}
        """passed-stock/passed-by-value-pair by (pyramid, passed cards' value counts): see :meth:`_passed_counts`."""
        self.dig = Dig(tables)
        self.final_pass = 0
        """first-winning-pass: no line from the search's start wins before this pass (set by :func:`shortest_line`)."""

    def pyramid_bounds(self, pyramid: int) -> PyramidBounds:
        """What the bounds need from a pyramid shape alone (built once per shape)."""
        cached = self._pyramid.get(pyramid)
        if cached is None:
            cached = self._pyramid[pyramid] = self._build_pyramid_bounds(pyramid)
        return cached

    def _build_pyramid_bounds(self, pyramid: int) -> PyramidBounds:
        tables = self.tables
        counts = [0] * 14
        alone = [0] * 14  # cards with no pyramid partner left, by the talon value they need
        values = tables.pyramid_values
        rest = pyramid
        while rest:
            low = rest & -rest
            slot = low.bit_length() - 1
            value = values[slot]
            counts[value] += 1
            if value != 13 and not pyramid & tables.partner_slots[slot]:
                alone[13 - value] += 1
            rest ^= low
        removals = counts[13] + sum(max(counts[v], counts[13 - v]) for v in range(1, 7))
        needed = tuple(
            (self._value_talon[value], max(alone[value], counts[13 - value] - counts[value]))
            for value in range(1, 13) if max(alone[value], counts[13 - value] - counts[value]) > 0
        )
        shape = tables.shape(pyramid)
        partners = tuple(counts[13 - value] for value in range(14))  # kings (13) take none
        classes = tuple(
            (value, counts[value], counts[13 - value],
             max(alone[value], counts[13 - value] - counts[value]),
             max(alone[13 - value], counts[value] - counts[13 - value]))
            for value in range(1, 7) if counts[value] or counts[13 - value]
        )
        return PyramidBounds(removals, needed, shape.need, shape.dead_talon, not shape.kings,
                              pyramid.bit_count() - counts[13], counts[13], partners,
                              sum(count for _, count in needed), sum(cards for cards, _ in needed), classes)

    def removals(self, pyramid: int, counts: int) -> int | None:
        """A lower bound on the removals left (``None``: the pyramid cannot be cleared)."""
        key = pyramid | counts << 28
        found = self.removals_memo.get(key, MISSING)
        if found is MISSING:
            bounds = self.pyramid_bounds(pyramid)
            if not self.use_relaxed:
                found = bounds.removals
            else:
                relaxed = self._least_cost(pyramid, counts, 0, bounds)
                found = None if relaxed is None else max(bounds.removals, relaxed)
            self.removals_memo[key] = found
        return found

    def _least_cost(self, pyramid: int, counts: int, talon_cost: int, bounds: PyramidBounds) -> int | None:
        if bounds.settled:  # the relaxation's own memo, looked up without a call
            cached = self.relaxation.costs.get((pyramid | (counts & bounds.need) << 28) << 1 | talon_cost, MISSING)
            if cached is not MISSING:
                return cached
        return self.relaxation.least_cost(pyramid, counts, talon_cost)

    def estimate(self, pyramid: int, talon: int, drawn: int, recycles: int, counts: int) -> int | None:
        """A lower bound on the actions left, or ``None`` when the talon cannot serve the pyramid."""
        if self.strict:
            return self._strict_estimate(pyramid, talon, drawn)
        bounds = self.pyramid_bounds(pyramid)
        removals = bounds.removals
        floor = 0
        if self.use_relaxed:
            relaxed = self._least_cost(pyramid, counts, 0, bounds)
            if relaxed is None:
                return None
            if relaxed > removals:
                removals = relaxed
        if not self.walk_bound:
            return removals
        if self.stock_top:
            if not bounds.needed:
                return removals
            waste = talon & ((1 << drawn) - 1)
            wanted = waste & bounds.needed_talon  # only the needed waste cards' reach matters here
            if wanted and self.stock_dig:
                reachable = self.dig.reachable(pyramid, talon, drawn, bounds.dead, wanted & -wanted)
            else:  # waste-pair: the card under the top can take waste cards away too: any may come back
                reachable = wanted
            return self._stock_top_bound(pyramid, bounds, removals, reachable, talon, drawn, recycles)
        reachable = self.dig.reachable(pyramid, talon, drawn, bounds.dead)  # waste-dig (waste-pair-dig)
        if recycles < self.final_pass:
            floor = self._passes_floor(bounds, removals, talon, drawn, recycles, reachable)
        # every talon card used is drawn, unless it comes back from the waste in this pass
        floor = max(floor, self._least_cost(pyramid, counts, 1, bounds) - reachable.bit_count())
        if not bounds.needed:
            return max(removals, floor)
        walked = self._walk(bounds, reachable, talon, drawn, recycles)
        if walked is None:
            return None
        return max(removals + walked, floor)

    def _stock_top_bound(self, pyramid: int, bounds: PyramidBounds, removals: int, reachable: int, talon: int,
                         drawn: int, recycles: int) -> int | None:
        """passed-stock (``stock-top``, draw-1): the actions left, counted by the stock cards the line passes.

        A stock card leaves the stock (is *passed*) by a draw or by its own removal as the stock's
        top, one action each; every needed talon card beyond the reachable waste (needed-cards,
        stock-top-dig) is passed, so the passes ``P`` reach at least to the first cards meeting every
        need (the whole stock and a recycle first when a need is only met by a waste card the dig
        cannot reach).  Of
        those actions, only a removal of a passed card with a pyramid card takes a pyramid card:
        at most ``U`` of them, ``U`` the passed cards that have a pyramid partner (per value, the
        fewer of the passed cards and the pyramid cards they pair with).  So with ``R`` recycles,
        ``s <= min(U, pyramid non-kings)`` pyramid cards removed by the stock's top and at least
        ``T`` pyramid cards that must go with talon cards (needed-cards's needs), the line has at least
        ``P + R + kings + (non-kings - s + max(0, T - s)) / 2`` actions (the other pyramid cards
        go two to a removal, or one with a waste card), and at least ``P + R + removals - s``
        (every pyramid removal but the ``s`` is an action of its own).

        passed-by-value-pair, the same count per value pair ``(v, w = 13 - v)``: with ``a`` pyramid ``v`` cards going
        with talon cards (``w``) and ``b`` pyramid ``w`` cards with talon ``v`` cards, the others pair
        up, ``p_v - a = p_w - b``, so the pair takes ``p_v + b`` removals, of which at most
        ``min(a, passed w) + min(b, passed v)`` are passes; ``a`` and ``b`` are at least needed-cards's needs.
        The least over ``b`` (a convex function: taken at an end or a corner) summed over the pairs,
        plus the kings and ``P + R``, bounds the line too.
        """
        stock = talon >> drawn << drawn
        limit = self.limit
        far_pass = far_end = 0
        for cards_of_value, count in bounds.needed:
            cards = cards_of_value & talon
            count -= (cards & reachable).bit_count()
            if count <= 0:
                continue
            ahead = cards & stock
            in_stock = ahead.bit_count()
            if count <= in_stock:
                if far_pass:
                    continue
                end = _past_nth(ahead, count)  # one past the card that meets the need
                if end > far_end:
                    far_end = end
            else:
                # only the waste cards the dig cannot reach are left: after a recycle, lowest first
                buried = cards & ~stock & ~reachable
                count -= in_stock
                if count > buried.bit_count() or limit is not None and recycles >= limit:
                    return None
                end = _past_nth(buried, count)
                if not far_pass or end > far_end:
                    far_pass, far_end = 1, end
        if far_pass:
            passed = stock | talon & ((1 << far_end) - 1)
            walked = stock.bit_count() + (talon & ((1 << far_end) - 1)).bit_count()
        else:
            passed = stock & ((1 << far_end) - 1)
            walked = passed.bit_count()
        non_kings = bounds.non_kings
        key = pyramid | self.tables.counts(passed) << 28
        found = self._passed.get(key, MISSING)
        if found is MISSING:
            found = self._passed[key] = self._passed_counts(bounds, passed)
        if found is None:
            return None
        taken, by_class = found
        with_talon = bounds.talon_needed - taken
        paired = non_kings - taken + (with_talon if with_talon > 0 else 0)
        walked += far_pass
        return max(removals, walked + bounds.kings + (paired + 1) // 2, walked + removals - taken,
                   walked + bounds.kings + by_class)

    def _passed_counts(self, bounds: PyramidBounds, passed: int) -> tuple[int, int] | None:
        """passed-stock's ``U`` (at most the pyramid's non-kings) and passed-by-value-pair's sum over the
        value pairs, for the passed cards ``passed`` (``None``: a value pair's needs exceed its cards).
        Both depend only on the pyramid and the passed cards' values, so :meth:`_stock_top_bound`
        keeps them by those."""
        values = self.tables.talon_values
        partners = bounds.partners
        seen = [0] * 14  # passed cards by value
        taken = 0
        while passed:
            low = passed & -passed
            passed ^= low
            value = values[low.bit_length() - 1]
            if seen[value] < partners[value]:
                taken += 1
            seen[value] += 1
        if taken > bounds.non_kings:
            taken = bounds.non_kings
        by_class = 0
        for value, mine, theirs, low_b, low_a in bounds.classes:
            shift = mine - theirs
            least = max(low_b, low_a - shift, -shift, 0)
            if least > theirs:
                return None
            mine_passed, theirs_passed = seen[value], seen[13 - value]
            best = 99
            for b in (least, theirs, mine_passed, theirs_passed - shift):
                if b < least:
                    b = least
                elif b > theirs:
                    b = theirs
                a = b + shift
                cost = mine + b - (a if a < theirs_passed else theirs_passed) - (b if b < mine_passed else mine_passed)
                if cost < best:
                    best = cost
            by_class += best
        return taken, by_class

    def _passes_floor(self, bounds: PyramidBounds, removals: int, talon: int, drawn: int, recycles: int,
                      reachable: int) -> int:
        """first-winning-pass: the actions left when the line must still recycle into pass :attr:`final_pass`.

        It draws the rest of this stock, recycles ``final_pass - recycles`` times, draws every card
        still in the talon in each pass between, and a shortest line draws at least once in its last
        pass (after a recycle the waste is empty: without a draw that pass removes only pyramid
        pairs, which the line could remove before that recycle and save it).  Of the talon cards
        the rest of this pass can still bring into play (the stock and the reachable waste), at
        most ``x`` non-kings leave it, each with a pyramid card of the value it needs; every one
        used costs a removal of its own where two pyramid cards share one, so the removals are at
        least ``(pyramid non-kings + x) / 2`` plus the kings, and using fewer than the most only
        leaves more to draw in the next pass.
        """
        passes = self.final_pass - recycles
        stock = talon >> drawn << drawn
        if passes == 1:
            return removals + stock.bit_count() + 2
        values = self.tables.talon_values
        partners = bounds.partners
        in_play = value_counts(values, stock | reachable)
        used = 0
        for value in range(1, 13):
            used += min(in_play[value], partners[value])
        kings = in_play[13]
        least = max(removals, (bounds.non_kings + used + 1) // 2 + bounds.kings + kings)
        next_pass = talon.bit_count() - used - kings
        later = 0
        if passes > 2:  # later passes between: at most every talon card a pyramid card can take has gone
            in_talon = value_counts(values, talon)
            left = talon.bit_count() - in_talon[13] - sum(min(in_talon[v], partners[v]) for v in range(1, 13))
            later = (passes - 2) * left
        return least + stock.bit_count() + passes + next_pass + later + 1

    def _walk(self, bounds: PyramidBounds, reachable: int, talon: int, drawn: int, recycles: int) -> int | None:
        """Draws and recycles before every needed talon card has been in play (needed-cards).

        Each needed card must come from the waste or be drawn.  Waste cards come back without a
        draw only by removing every card above them, so only those above the highest waste card
        nothing left in the pyramid can remove count.  The rest are met at the walk's first cards
        of each needed value (this pass's stock, then whole passes after each recycle); the walk
        must go on until the last of them.
        """
        stock = talon >> drawn << drawn
        stock_count = stock.bit_count()
        passes_left = 1 if self.limit is None else self.limit - recycles
        total = talon.bit_count()
        longest = 0
        for cards_of_value, count in bounds.needed:
            cards = cards_of_value & talon
            count -= (cards & reachable).bit_count()
            if count <= 0:
                continue
            ahead = cards & stock
            in_stock = ahead.bit_count()
            if count <= in_stock:
                end = _past_nth(ahead, count)  # one past the card that meets the need
                walk = (stock & ((1 << end) - 1)).bit_count()
            else:
                per_pass = cards.bit_count()
                if not per_pass:
                    return None
                count -= in_stock
                passes = -(-count // per_pass)
                if passes > passes_left:
                    return None
                end = _past_nth(cards, count - (passes - 1) * per_pass)
                walk = stock_count + passes + (passes - 1) * total + (talon & ((1 << end) - 1)).bit_count()
            if walk > longest:
                longest = walk
        return longest

    def _strict_estimate(self, pyramid: int, talon: int, drawn: int) -> int:
        counts = value_counts(self.tables.pyramid_values, pyramid)
        for value, count in enumerate(value_counts(self.tables.talon_values, talon)):
            counts[value] += count
        removals = counts[13] + sum(max(counts[v], counts[13 - v]) for v in range(1, 7))
        stock = (talon >> drawn).bit_count()
        draws = 0 if self.stock_top else -(-stock // self.draw_count)  # stock-top: the stock can go from its top
        return removals + draws


def value_counts(values: Sequence[int], mask: int) -> list[int]:
    """How many of the cards in ``mask`` have each value (index 0–13), ``values`` giving each index's."""
    counts = [0] * 14
    while mask:
        low = mask & -mask
        counts[values[low.bit_length() - 1]] += 1
        mask ^= low
    return counts


class PyramidBounds(NamedTuple):
    removals: int
    """Removals the pyramid needs: ``max(count v, count 13-v)`` per value pair, kings one each."""
    needed: tuple[tuple[int, int], ...]
    """(talon mask of a value, how many talon cards of it the pyramid needs) for each needed value."""
    need: int
    """The shape's count-vector mask of the talon values some pyramid card pairs with."""
    dead: int
    """Talon indices (kings aside) no pyramid card can ever pair with."""
    settled: bool
    """No free king (the relaxation's memo keys are this pyramid's)."""
    non_kings: int
    """Pyramid cards other than kings."""
    kings: int
    """Pyramid kings."""
    partners: tuple[int, ...]
    """Per talon value, how many pyramid cards it could pair with."""
    talon_needed: int
    """Pyramid cards that must go with a talon card (the sum of :attr:`needed`'s counts)."""
    needed_talon: int
    """Talon indices of the needed values (the union of :attr:`needed`'s masks)."""
    classes: tuple[tuple[int, int, int, int, int], ...]
    """Per value pair ``(v, 13 - v)`` with pyramid cards (``v`` 1-6): ``(v, pyramid cards of v, of 13 - v,
    talon cards of v needed, of 13 - v needed)``."""


MISSING = object()


def _past_nth(cards: int, n: int) -> int:
    """One past the talon index of the ``n``-th lowest card of ``cards`` (``n >= 1``)."""
    while n > 1:
        cards &= cards - 1
        n -= 1
    return (cards & -cards).bit_length()
