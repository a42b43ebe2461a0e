"""waste-dig, the dig: which waste cards the rest of a pass can still bring back to the top and remove.

Used by the ``--optimal`` bounds (docs/solver.md, waste-dig): a waste card counts as already in play
only if every card above it can be removed first, each with a pyramid card free at that moment
(under ``stock-top`` also with a stock card, stock-top-dig; under ``waste-pair`` also with the card under it
or a stock card drawn onto it, waste-pair-dig).
"""

from __future__ import annotations

from .tables import COVERED_BY, UNITS, DealTables

LIES_ON: tuple[int, ...] = tuple(sum(1 << lower for lower in COVERED_BY[slot]) for slot in range(28))
"""Per slot, the (0-2) slots its card lies on directly."""


class DigTooLong(Exception):
    """The dig search went past its cap: fall back to the simpler bound."""


DIG_STATES = 400
"""Positions one dig question may search before falling back to the dead-card cut."""


class Dig:
    """waste-dig: which waste cards the rest of this pass can still remove, digging from the top.

    A waste card comes back into play only when every card above it is removed, each with a
    pyramid card free at that moment.  The search keeps the pyramid exact and the waste order,
    and lets every stock card pair with a free pyramid card whenever that frees something (the
    stock's order relaxed), so the depth it finds is at least the real one.

    Under ``stock-top`` (stock-top-dig) the waste top may also leave with the stock's top card: the search
    lets it pair with any stock card of the right value (the stock's order relaxed again), and a
    card no pyramid card can take stops the dig only if no stock card can take it either.

    Under ``waste-pair`` (waste-pair-dig) the top may leave with a free pyramid card, with the card
    under it when the two make 13, or with a stock card drawn onto it (any stock card of the right
    value, the stock's order relaxed, and the cards drawn without pairing left out, though they would
    cover the waste).  No card stops the dig for having no pyramid partner (a talon pair may take it),
    and the partner count cut (:meth:`_by_partners`) is not used.
    """

    def __init__(self, tables: DealTables) -> None:
        self.tables = tables
        self.waste_pair = tables.rules.waste_pair and not tables.rules.stock_top
        """waste-pair-dig: the top may also leave with the card under it."""
        self.stock_top = tables.rules.stock_top or self.waste_pair
        """stock-top-dig, and waste-pair-dig's stock card drawn onto the top: a stock card may take the top."""
        self._memo: dict[int, int] = {}
        """(pyramid, run, stock counts) packed in one int -> how many cards of the run can go."""
        self._under: dict[int, int] = {}
        self._partners: dict[int, int] = {}
        self._stock_takes: dict[int, int] = {}
        self._pyramid_partners: dict[int, tuple[int, ...]] = {}
        """Per pyramid, :meth:`_count_partners`."""
        """Per stock count vector, :meth:`_takes`."""
        self._left = 0

    def reachable(self, pyramid: int, talon: int, drawn: int, dead: int, lowest: int = 1) -> int:
        """Mask of the waste cards this pass can still bring to the top and remove, from the top down
        to the bit ``lowest`` (the cards under it are left out: the caller does not ask about them)."""
        waste = talon & ((1 << drawn) - 1)
        stock = -1
        if self.stock_top and waste & dead:  # a stock card may still take a card no pyramid card can
            stock = self.tables.counts(talon >> drawn << drawn)
            taken = self._stock_takes.get(stock)
            if taken is None:
                taken = self._stock_takes[stock] = self._takes(stock)
            dead &= ~taken
        cut = 0 if self.waste_pair else (waste & dead).bit_length()
        run = waste >> cut << cut & -lowest  # nothing digs past a card no pyramid card can remove
        if not run:
            return 0
        if stock < 0:
            stock = self.tables.counts(talon >> drawn << drawn)
        if not self.waste_pair:
            run = self._by_partners(pyramid, run, stock)
            if not run:
                return 0
        self._left = DIG_STATES
        try:
            depth = self._search(pyramid, run, stock)
        except DigTooLong:
            return run
        for _ in range(run.bit_count() - depth):
            run &= run - 1  # drop the lowest cards: only the top ``depth`` can be removed
        return run

    def _by_partners(self, pyramid: int, run: int, stock: int) -> int:
        """The top of ``run`` whose cards could each have a partner of their own: every card dug takes
        a pyramid card of the partner value, or (``stock-top``) a stock card of it, and no two take the
        same one; so the dig never gets past the first card of a value whose partners are all taken
        by the cards above it (kings go alone).  The search's answer is the same on this top part,
        and it stops as soon as it has dug all of it."""
        partners = self._pyramid_partners.get(pyramid)
        if partners is None:
            partners = self._pyramid_partners[pyramid] = self._count_partners(pyramid)
        values = self.tables.talon_values
        left = list(partners)
        if self.stock_top:
            for value in range(1, 13):
                left[value] += stock >> (3 * (12 - value)) & 7  # the stock's cards of 13 - value
        rest = run
        while rest:
            top = rest.bit_length() - 1
            value = values[top]
            if value != 13:
                if not left[value]:
                    return run >> (top + 1) << (top + 1)
                left[value] -= 1
            rest ^= 1 << top
        return run

    def _count_partners(self, pyramid: int) -> tuple[int, ...]:
        """Per talon value, the pyramid cards (of ``pyramid``) of the partner value."""
        counts = [0] * 14
        values = self.tables.pyramid_values
        rest = pyramid
        while rest:
            low = rest & -rest
            value = values[low.bit_length() - 1]
            if value != 13:
                counts[13 - value] += 1
            rest ^= low
        return tuple(counts)

    def _takes(self, stock: int) -> int:
        """Talon indices of the values some card of the stock's count vector ``stock`` pairs with."""
        value_talon = self.tables.talon_cards.value_talon
        taken = 0
        for value in range(1, 13):
            if stock >> (3 * (value - 1)) & 7:
                taken |= value_talon[13 - value]
        return taken

    def _run_partners(self, run: int) -> int:
        """Count-vector mask of the stock values that could take a card of ``run`` (``stock-top``)."""
        mask = self._partners.get(run)
        if mask is None:
            mask = 0
            values = self.tables.talon_values
            rest = run
            while rest:
                low = rest & -rest
                mask |= UNITS[13 - values[low.bit_length() - 1]] * 7
                rest ^= low
            self._partners[run] = mask
        return mask

    def _lies_on(self, removed: int) -> int:
        """The slots the cards of ``removed`` lie on directly."""
        mask = self._under.get(removed)
        if mask is None:
            mask = 0
            rest = removed
            while rest:
                low = rest & -rest
                mask |= LIES_ON[low.bit_length() - 1]
                rest ^= low
            self._under[removed] = mask
        return mask

    def _search(self, pyramid: int, run: int, stock: int) -> int:
        """How many of the cards of ``run`` (a waste mask, dug from its highest card) can go."""
        if not run:
            return 0
        shapes = self.tables.shapes
        shape = shapes.get(pyramid) or self.tables.shape(pyramid)
        while shape.kings:
            pyramid &= ~shape.kings
            shape = shapes.get(pyramid) or self.tables.shape(pyramid)
        if self.stock_top:  # a stock card may also take a card of the run
            partners = self._partners.get(run)
            if partners is None:
                partners = self._run_partners(run)
            stock &= shape.need | partners
        else:
            stock &= shape.need
        key = pyramid | run << 28 | stock << 52
        memo = self._memo
        known = memo.get(key)
        if known is not None:
            return known
        self._left -= 1
        if self._left < 0:
            raise DigTooLong
        search = self._search
        size = run.bit_count()
        top = run.bit_length() - 1
        value = self.tables.talon_values[top]
        best = 0
        if value == 13:
            best = 1 + search(pyramid, run ^ 1 << top, stock)
        else:
            for bit in shape.by_need.get(value, ()):
                got = 1 + search(pyramid & ~bit, run ^ 1 << top, stock)
                if got > best:
                    best = got
                    if best == size:
                        break
            partner = UNITS[13 - value]
            if self.stock_top and best < size and stock & partner * 7:  # stock-top-dig: with a stock card
                got = 1 + search(pyramid, run ^ 1 << top, stock - partner)
                if got > best:
                    best = got
            if self.waste_pair and best < size:  # waste-pair-dig: with the card under it
                rest = run ^ 1 << top
                under = rest.bit_length() - 1
                if rest and self.tables.talon_values[under] + value == 13:
                    got = 2 + search(pyramid, rest ^ 1 << under, stock)
                    if got > best:
                        best = got
        if best < size:
            under_get = self._under.get
            lies_on = self._lies_on
            for mask in shape.pairs:
                under = under_get(mask)
                if under is None:
                    under = lies_on(mask)
                if pyramid & under:  # only removals uncovering a card can help the dig
                    got = search(pyramid & ~mask, run, stock)
                    if got > best:
                        best = got
                        if best == size:
                            break
            if best < size:
                for bit, need in shape.singles:
                    if stock & UNITS[need] * 7:
                        under = under_get(bit)
                        if under is None:
                            under = lies_on(bit)
                        if pyramid & under:
                            got = search(pyramid & ~bit, run, stock - UNITS[need])
                            if got > best:
                                best = got
                                if best == size:
                                    break
        memo[key] = best
        return best
