"""Talon-set: under talon pairs, the most cards still removable when the talon is a set in its order.

The *talon-set game* relaxes the real game's talon differently from the multiset game (the branch-
and-bound's) and from talon-order: the pyramid plays exactly; a talon card may go with any free
pyramid card of the partner value at any time (the pointer and the passes are forgotten); two talon
cards making 13 may go together only when no talon card left lies between them (they are neighbours
among the talon cards left, as the waste top and the stock's top, or the card under the waste top,
always are: the waste and the stock keep the talon's order, R9). Every real move is a move of this
game, so its most cards removed bound the real ones. Talon kings are left out (branch-and-bound
counts them as removable already).

Talon pairs are played last: a pair of neighbours stays neighbours while only pyramid moves (which
never need a talon card's place) come between, so moving every pyramid move of a line before its
talon pairs keeps the line legal and reaches the same cards. The most cards of a position are then
the best, over the positions its pyramid moves reach, of the cards those moves remove plus the most
talon cards pairs of neighbours can take from what is left (:func:`~.talon_order.most_removed` with
no card leaving alone). Unlike branch-and-bound and talon-order, it knows which copy of a value a
pyramid card took, so the pairs the talon's order allows are counted on the cards the same line
leaves. Where a node must match the best's pyramid cards, :meth:`TalonSetBound.joint` asks for both
in one line.

docs/solver.md, talon-set.
"""

from __future__ import annotations

from .budget import Budget
from .relaxation import KEY_SHIFT, Relaxation
from .tables import DealTables
from .talon_order import TalonOrderBound, most_removed

JOINT_SHIFT = KEY_SHIFT + 24
TRIAL = 100
TRIAL_SHARE = 4


class TalonSetBound:
    """The talon-set game of one deal, memoised across the nodes of a solve."""

    def __init__(self, tables: DealTables, relaxation: Relaxation, budget: Budget, order: TalonOrderBound) -> None:
        """``order``: talon-order, whose bounds hold in this game too (they bound its positions below
        branch-and-bound's)."""
        self.order = order
        partners, units = order.partners, order.units
        self.tables = tables
        self.relaxation = relaxation
        self.budget = budget
        self.partners = partners
        self.units = units
        self.value_talon = tables.talon_cards.value_talon
        self.asked = self.cut = 0
        self._low: dict[int, int] = {}
        self._joint_low: dict[int, int] = {}
        self._joint_high: dict[int, int] = {}
        self._high: dict[int, int] = {}
        self._pairs: dict[int, int] = {}
        self._totals: dict[int, int] = {}

    def cuts(self, pyramid: int, talon: int, need: int, high: int, pyramid_need: int = 0, wider: int = 0) -> bool:
        """Whether talon-set cuts a node whose pyramid is ``pyramid``, whose talon cards are ``talon`` (no
        kings) and which must remove ``need`` more cards to beat the best (``high``: branch-and-bound's bound on them,
        which talon-order let through; ``pyramid_need``, when not 0: it must remove that many pyramid cards too,
        or else ``wider`` cards in all).  On trial: once it has been
        asked :data:`TRIAL` times and cut fewer than one node in :data:`TRIAL_SHARE`, it is no longer
        asked in this solve (counted in nodes, so the same on every machine)."""
        if self.asked >= TRIAL and self.cut * TRIAL_SHARE < self.asked:
            return False
        self.asked += 1
        if pyramid_need:
            if self.reaches(pyramid, talon, wider) or self.joint(pyramid, talon, need, pyramid_need):
                return False
        elif self.reaches(pyramid, talon, need, high):
            return False
        self.cut += 1
        return True

    def reaches(self, pyramid: int, talon: int, need: int, checked: int = 0) -> bool:
        """Whether the talon-set game removes at least ``need`` cards (pyramid kings included) from the
        pyramid and the talon cards ``talon`` (a mask without kings).  A search for that many, not
        the most: what it proves of a position (at least so many, at most so many) is kept.
        ``checked``: branch-and-bound's bound on the position when branch-and-bound and talon-order
        were already asked of it for ``need`` (0: ask them here)."""
        shape_of = self.tables.shape
        shape = shape_of(pyramid)
        while shape.kings:
            need -= shape.kings.bit_count()
            pyramid &= ~shape.kings
            shape = shape_of(pyramid)
        if need <= 0:
            return True
        key = pyramid | talon << KEY_SHIFT
        low = self._low.get(key, -1)
        if low >= need:
            return True
        high = self._high.get(key)
        if high is None:
            high = checked or self.relaxation.gains_bound(pyramid, self.tables.counts(talon))[1]
            pairs = self._pairs.get(talon)
            if pairs is None:
                pairs = self._pairs[talon] = most_removed(talon, 0, self.partners, self.units, self._totals)[0]
            if pairs > low:
                low = self._low[key] = pairs
                if low >= need:
                    self._high[key] = high
                    return True
        if high < need:
            self._high[key] = high
            return False
        if not checked and not self.order.reaches(pyramid, talon, self.tables.counts(talon),
                                  self.relaxation.gains_bound(pyramid, self.tables.counts(talon))[0], need):
            self._high[key] = need - 1
            return False
        self.budget.tick()
        reaches = self.reaches
        for mask in shape.pairs:
            if reaches(pyramid & ~mask, talon, need - 2):
                self._low[key] = need
                self._high[key] = high
                return True
        value_talon = self.value_talon
        for bit, value in shape.singles:
            cards = talon & value_talon[value]
            while cards:
                low_card = cards & -cards
                cards ^= low_card
                if reaches(pyramid & ~bit, talon ^ low_card, need - 2):
                    self._low[key] = need
                    self._high[key] = high
                    return True
        self._high[key] = need - 1
        return False

    def joint(self, pyramid: int, talon: int, need: int, pyramid_need: int) -> bool:
        """Whether one line of the talon-set game removes at least ``need`` cards and, among them, at
        least ``pyramid_need`` pyramid cards (as :meth:`reaches`, what it proves kept; talon pairs
        take no pyramid card, so they are only asked once the pyramid cards are there)."""
        shape_of = self.tables.shape
        shape = shape_of(pyramid)
        while shape.kings:
            need -= shape.kings.bit_count()
            pyramid_need -= shape.kings.bit_count()
            pyramid &= ~shape.kings
            shape = shape_of(pyramid)
        if pyramid_need <= 0:
            return self.reaches(pyramid, talon, need)
        key = pyramid | talon << KEY_SHIFT | pyramid_need << JOINT_SHIFT
        if self._joint_low.get(key, -1) >= need:
            return True
        high = self._joint_high.get(key)
        if high is None:
            gains = self.relaxation.gains_bound(pyramid, self.tables.counts(talon))
            high = gains[1] if gains[0] >= pyramid_need else -1
        if high < need:
            self._joint_high[key] = high
            return False
        if not self.order.reaches(pyramid, talon, self.tables.counts(talon),
                                  self.relaxation.gains_bound(pyramid, self.tables.counts(talon))[0], need):
            self._joint_high[key] = need - 1
            return False
        self.budget.tick()
        joint = self.joint
        found = False
        for mask in shape.pairs:
            if joint(pyramid & ~mask, talon, need - 2, pyramid_need - 2):
                found = True
                break
        else:
            value_talon = self.value_talon
            for bit, value in shape.singles:
                cards = talon & value_talon[value]
                while cards and not found:
                    low_card = cards & -cards
                    cards ^= low_card
                    found = joint(pyramid & ~bit, talon ^ low_card, need - 2, pyramid_need - 1)
                if found:
                    break
        if found:
            self._joint_low[key] = need
            self._joint_high[key] = high
            return True
        self._joint_high[key] = need - 1
        return False
