"""B2: under talon pairs, a bound on the talon cards still removable that keeps the talon's order.

The relaxation (relaxation.py) lets any two talon cards making 13 pair, wherever they lie.  In the
real game two talon cards pair only as neighbours among the talon cards left (the waste top with
the stock's top under ``stock-top``, with the card under it under ``waste-pair``; the waste and the
stock keep the talon's order, R9), so every card between them must have left first, and two such
pairs never cross (``a < c < b < d``: whichever goes first needs a card of the other gone).  A talon
card leaves otherwise only with a pyramid card, and talon pairs only take talon cards away, so the
pyramid removals of any real line are a line of the multiset game *without* talon pairs: a talon
card whose value no line of that game pairs with a pyramid card can leave only in a talon pair.

Hence two upper bounds on the non-king cards still removable from a position, often below B1's:

* the relaxation's pyramid cards plus the most talon cards that can leave when the cards of the
  values that game uses may leave alone and every other card only in a non-crossing pair of cards
  making 13 whose inside has left first (a dynamic programme over the talon's order);
* the most cards the multiset game without talon pairs removes, plus twice the most talon pairs
  that order allows (a pair and at most half the cards between it).

docs/solver.md, B2.
"""

from __future__ import annotations

from .budget import Budget
from .relaxation import KEY_SHIFT, Relaxation
from .tables import FIELD_BITS, FIELD_MASK, UNITS, DealTables

END = 24
"""The index after the talon's last card."""


class TalonOrderBound:
    """The bounds of the module docstring for one deal, memoised across the nodes of a solve."""

    def __init__(self, tables: DealTables, budget: Budget) -> None:
        self.tables = tables
        self.budget = budget
        self.kings = tables.talon_kings
        self.plain = Relaxation(tables, budget, talon_pairs=False)
        """The multiset game without talon pairs."""
        self._alone: dict[int, int] = {}
        self._known: dict[int, tuple[int, int, int]] = {}
        self._removed: dict[int, tuple[int, int]] = {}
        values = tables.talon_values
        self.value_talon = tables.talon_cards.value_talon
        self.partners = tuple(sum(1 << later for later in range(index + 1, len(values))
                                  if values[index] + values[later] == 13) for index in range(len(values)))
        """Talon index → the later talon cards making 13 with it."""

    def reaches(self, pyramid: int, talon: int, counts: int, pyramid_gain: int, room: int) -> bool:
        """Whether both bounds on the non-king cards still removable reach ``room`` (``pyramid_gain``:
        the relaxation's bound on the pyramid cards)."""
        cards = talon & ~self.kings
        position = pyramid | counts << KEY_SHIFT
        known = self._known.get(position)
        if known is None:
            known = self._known[position] = (self.alone(pyramid, counts), self.plain.gains_bound(pyramid, counts)[1],
                                             self._pairable(counts))
        alone = known[0] & cards
        loners = alone & ~known[2]  # they leave alone or not at all, and never block: out of the programme
        cards ^= loners
        alone ^= loners
        key = cards | alone << END
        found = self._removed.get(key)
        if found is None:
            found = self._removed[key] = most_removed(cards, alone, self.partners)
        return (pyramid_gain + loners.bit_count() + found[0] >= room
                and known[1] + 2 * found[1] >= room)

    def _pairable(self, counts: int) -> int:
        """The talon cards (a mask of every index) whose partner value these counts hold."""
        pairable = 0
        for value in range(1, 13):
            if counts >> (FIELD_BITS * (12 - value)) & FIELD_MASK:
                pairable |= self.value_talon[value]
        return pairable

    def alone(self, pyramid: int, counts: int) -> int:
        """The talon cards (a mask of every index, whatever is left) of the values some line of the
        multiset game without talon pairs pairs with a pyramid card, from this position."""
        shape_of = self.tables.shape
        shape = shape_of(pyramid)
        while shape.kings:
            pyramid &= ~shape.kings
            shape = shape_of(pyramid)
        if not pyramid:
            return 0
        counts &= shape.need
        key = pyramid | counts << KEY_SHIFT
        found = self._alone.get(key)
        if found is not None:
            return found
        self.budget.tick()
        alone = 0
        for mask in shape.pairs:
            alone |= self.alone(pyramid & ~mask, counts)
        for bit, value in shape.singles:
            step = UNITS[value]
            if counts & step * 7:
                alone |= self.alone(pyramid & ~bit, counts - step) | self.value_talon[value]
        self._alone[key] = alone
        return alone


def most_removed(cards: int, alone: int, partners: tuple[int, ...]) -> tuple[int, int]:
    """What the talon cards ``cards`` (a mask, in the talon's order) can lose, each card of ``alone``
    by itself, any card in a non-crossing pair with a later partner (``partners[t]``: the later talon
    cards making 13 with card ``t``) once every card between them has left.  Returns (the most cards
    that can leave, a bound on the most pairs: a pair and at most half the cards between it).

    From the last card back: ``removable[t]`` has bit ``u`` set when the cards from ``t`` up to (not
    including) ``u`` can all leave (``u`` a card of ``cards`` or :data:`END`); ``most[t]`` and
    ``pairs[t]`` are the bounds for the cards from ``t`` on; ``after[t]`` is the next card after ``t``."""
    removable = [0] * (END + 1)
    most = [0] * (END + 1)
    pairs = [0] * (END + 1)
    after = [END] * (END + 1)
    removable[END] = 1 << END
    following = END
    rest = cards
    while rest:
        left = rest.bit_length() - 1
        rest ^= 1 << left
        inner = removable[following]
        reach = 1 << left
        best = most[following]
        best_pairs = pairs[following]
        if alone >> left & 1:
            reach |= inner
            best += 1
        matches = partners[left] & cards & inner
        while matches:
            low = matches & -matches
            matches ^= low
            right = low.bit_length() - 1
            beyond = after[right]
            reach |= removable[beyond]
            span = (cards >> left & ((2 << (right - left)) - 1)).bit_count()
            if span + most[beyond] > best:
                best = span + most[beyond]
            if span // 2 + pairs[beyond] > best_pairs:
                best_pairs = span // 2 + pairs[beyond]
        removable[left] = reach
        most[left] = best
        pairs[left] = best_pairs
        after[left] = following
        following = left
    return most[following], pairs[following]
