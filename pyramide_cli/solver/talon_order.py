"""talon-order: under talon pairs, a bound on the talon cards still removable that keeps the talon's order.

The relaxation (relaxation.py) lets any two talon cards making 13 pair, wherever they lie.  In the
real game two talon cards pair only as neighbours among the talon cards left (the waste top with
the stock's top under ``stock-top``, with the card under it under ``waste-pair``; the waste and the
stock keep the talon's order, R9), so every card between them must have left first, and two such
pairs never cross (``a < c < b < d``: whichever goes first needs a card of the other gone).  A talon
card leaves otherwise only with a pyramid card, and talon pairs only take talon cards away, so the
pyramid removals of any real line are a line of the multiset game *without* talon pairs: a talon
card whose value no line of that game pairs with a pyramid card can leave only in a talon pair.

Hence two upper bounds on the non-king cards still removable from a position, often below branch-and-bound's:

* the relaxation's pyramid cards plus the most talon cards that can leave when the cards of the
  values that game uses may leave alone and every other card only in a non-crossing pair of cards
  making 13 whose inside has left first (a dynamic programme over the talon's order);
* the most cards the multiset game without talon pairs removes, plus twice the most talon pairs
  that order allows (a pair and at most the pairs the counts of the cards between it make).

And, where a value has more talon cards than it may lose alone, the same two with caps (talon-order's caps):
the talon cards that leave alone make, with the pyramid's removals, a line of that game, so no more
cards of a value ``v`` leave alone than the most any of its lines pairs with pyramid cards (its
cap), while the cards inside a pair that no partner inside it can take must leave alone.

docs/solver.md, talon-order.
"""

from __future__ import annotations

from .budget import Budget
from .relaxation import KEY_SHIFT, Relaxation
from .tables import FIELD_BITS, FIELD_MASK, UNITS, DealTables

END = 24
"""The index after the talon's last card."""
WIDE = (0,) + tuple(1 << 4 * (value - 1) for value in range(1, 13))
"""``WIDE[v]``: one card of value ``v`` in a wide count vector (four bits a value: a count up to 7 and
a guard bit; kings have none)."""
GUARDS = sum(8 << 4 * field for field in range(12))
"""The guard bit of each value of a wide count vector."""
Check = tuple[int, int, int]
"""A capped value: (its count field's shift, its partner value's field's shift, its cap)."""
Known = tuple[int, int, int, int, int, tuple[Check, ...], int]
"""What :meth:`TalonOrderBound._know` keeps of a pyramid and count vector."""


class TalonOrderBound:
    """The bounds of the module docstring for one deal, memoised across the nodes of a solve."""

    def __init__(self, tables: DealTables, budget: Budget) -> None:
        self.tables = tables
        self.budget = budget
        self.kings = tables.talon_kings
        self.plain = Relaxation(tables, budget, talon_pairs=False)
        """The multiset game without talon pairs."""
        self._usage: dict[int, int] = {}
        self._known: dict[int, Known] = {}
        self._removed: dict[int, tuple[int, int, int, int]] = {}
        self._uses: dict[int, tuple[int, int]] = {}
        self._caps: dict[int, tuple[int, int, tuple[Check, ...], int]] = {}
        self._insides: dict[int, dict[int, int]] = {}
        """By caps key, what :func:`inside_of` says of the count vectors met inside pairs."""
        self.pair_totals: dict[int, int] = {}
        values = tables.talon_values
        self.value_talon = tables.talon_cards.value_talon
        self.partners = tuple(sum(1 << later for later in range(index + 1, len(values))
                                  if values[index] + values[later] == 13) for index in range(len(values)))
        """Talon index → the later talon cards making 13 with it."""
        self.units = tables.talon_units

    def reaches(self, pyramid: int, talon: int, counts: int, pyramid_gain: int, room: int) -> bool:
        """Whether both bounds on the non-king cards still removable reach ``room`` (``pyramid_gain``:
        the relaxation's bound on the pyramid cards), with the caps where a value has any."""
        cards = talon & ~self.kings
        position = pyramid | counts << KEY_SHIFT
        known = self._known.get(position)
        if known is None:
            known = self._known[position] = self._know(pyramid, counts)
        alone = known[0] & cards
        loners = alone & ~known[2]  # they leave alone or not at all, and never block: out of the programme
        cards ^= loners
        alone ^= loners
        key = cards | alone << END | known[3]
        found = self._removed.get(key)
        if found is None:
            found = self._removed[key] = self._programme(cards, alone, known)
        if known[1] + found[1] < room:
            return False
        if not loners:
            return pyramid_gain + found[0] >= room
        most = loners.bit_count() + found[2]
        spared = (loners & ~known[4]).bit_count() + found[3]
        return pyramid_gain + (most if most < spared else spared) >= room

    def _programme(self, cards: int, alone: int, known: Known) -> tuple[int, int, int, int]:
        """What talon-order needs of the programme over the talon's order (the cards counted outside it aside):
        the bound on the talon cards, twice the bound on the pairs; the most cards, and the most with
        the capped cards that leave alone counted by the caps (the same without caps)."""
        if not known[3]:
            most, pairs = most_removed(cards, alone, self.partners, self.units, self.pair_totals)
            return most, 2 * pairs, most, most
        insides = self._insides.get(known[3])
        if insides is None:
            insides = self._insides[known[3]] = {}
        most, pairs, spared = most_removed_capped(cards, alone, self.partners, self.units, insides, known[4],
                                                  known[5])
        spared += known[6]
        return (most if most < spared else spared), 2 * pairs, most, spared

    def _know(self, pyramid: int, counts: int) -> Known:
        """What talon-order keeps per pyramid and count vector: the talon cards that may leave alone, the most
        cards the multiset game without talon pairs removes, the talon cards whose partner value the
        counts hold; and the caps: a key naming the values with more cards than their cap, the most
        of them any line of that game pairs with pyramid cards (0: none; shifted to its place in the
        programme's keys), the talon cards of those values, their :data:`Check`, the sum of their
        caps."""
        used = self.usage(pyramid, counts)
        uses = self._uses.get(used)
        if uses is None:
            uses = self._uses[used] = self._values_used(used)
        key = used | (counts & uses[1]) << 48
        caps = self._caps.get(key)
        if caps is None:
            caps = self._caps[key] = self._caps_of(used, counts)
        return (uses[0], self.plain.gains_bound(pyramid, counts)[1], self._pairable(counts)) + caps

    def _values_used(self, used: int) -> tuple[int, int]:
        """For a wide vector of the most cards of each value some line uses: the talon cards of the
        values used, and the count-vector fields of those values."""
        alone = fields = 0
        for value in range(1, 13):
            if used >> 4 * (value - 1) & 7:
                alone |= self.value_talon[value]
                fields |= FIELD_MASK << FIELD_BITS * (value - 1)
        return alone, fields

    def _caps_of(self, used: int, counts: int) -> tuple[int, int, tuple[Check, ...], int]:
        """The caps part of :meth:`_know`'s answer."""
        caps = tight = total = 0
        checks = []
        for value in range(1, 13):
            cap = used >> 4 * (value - 1) & 7
            if cap and counts >> (FIELD_BITS * (value - 1)) & FIELD_MASK > cap:
                caps |= (8 | cap) << 4 * (value - 1)
                tight |= self.value_talon[value]
                total += cap
                checks.append((FIELD_BITS * (value - 1), FIELD_BITS * (12 - value), cap))
        return caps << 2 * END, tight, tuple(checks), total

    def _pairable(self, counts: int) -> int:
        """The talon cards (a mask of every index) whose partner value these counts hold."""
        pairable = 0
        for value in range(1, 13):
            if counts >> (FIELD_BITS * (12 - value)) & FIELD_MASK:
                pairable |= self.value_talon[value]
        return pairable

    def usage(self, pyramid: int, counts: int) -> int:
        """For each talon value, the most cards of it some line of the multiset game without talon
        pairs pairs with a pyramid card, from this position (a wide count vector: :data:`WIDE`)."""
        shape_of = self.tables.shape
        shape = shape_of(pyramid)
        while shape.kings:
            pyramid &= ~shape.kings
            shape = shape_of(pyramid)
        if not pyramid:
            return 0
        counts &= shape.need
        key = pyramid | counts << KEY_SHIFT
        found = self._usage.get(key)
        if found is not None:
            return found
        self.budget.tick()
        most = 0
        for mask in shape.pairs:
            found = self.usage(pyramid & ~mask, counts)
            greater = (((most | GUARDS) - found & GUARDS) >> 3) * 15  # wide_max, inline
            most = most & greater | found & ~greater
        for bit, value in shape.singles:
            step = UNITS[value]
            if counts & step * 7:
                found = self.usage(pyramid & ~bit, counts - step) + WIDE[value]
                greater = (((most | GUARDS) - found & GUARDS) >> 3) * 15
                most = most & greater | found & ~greater
        self._usage[key] = most
        return most


def wide_max(first: int, second: int) -> int:
    """The greater count of each value of two wide count vectors (:data:`WIDE`)."""
    greater = ((first | GUARDS) - second & GUARDS) >> 3
    greater *= 15
    return first & greater | second & ~greater


def pair_total(counts: int, totals: dict[int, int]) -> int:
    """How many pairs making 13 the cards of a count vector make at most (memoised in ``totals``)."""
    total = totals.get(counts)
    if total is None:
        total = totals[counts] = sum(min(counts >> (FIELD_BITS * (value - 1)) & FIELD_MASK,
                                         counts >> (FIELD_BITS * (12 - value)) & FIELD_MASK) for value in range(1, 7))
    return total


def most_removed(cards: int, alone: int, partners: tuple[int, ...], units: tuple[int, ...],
                 totals: dict[int, int]) -> tuple[int, int]:
    """What the talon cards ``cards`` (a mask, in the talon's order) can lose, each card of ``alone``
    by itself, any card in a non-crossing pair with a later partner (``partners[t]``: the later talon
    cards making 13 with card ``t``) once every card between them has left.  Returns (the most cards
    that can leave, a bound on the most pairs: a pair and at most the pairs the counts of the cards
    between it make, ``units[t]`` being card ``t``'s count vector; ``totals`` memoises those).

    From the last card back: ``removable[t]`` has bit ``u`` set when the cards from ``t`` up to (not
    including) ``u`` can all leave (``u`` a card of ``cards`` or :data:`END`); ``most[t]`` and
    ``pairs[t]`` are the bounds for the cards from ``t`` on; ``after[t]`` is the next card after ``t``;
    ``below[t]`` the count vector of the cards from ``t`` on."""
    most, pairs, _ = most_removed_capped(cards, alone, partners, units, totals, 0, ())
    return most, pairs


def inside_of(inside: int, checks: tuple[Check, ...]) -> int:
    """Of the cards inside a pair (a count vector): -1 when a value's cards there outnumber its
    partner's by more than its cap (``checks``), else 16 times the cards of the capped values that
    must leave alone there plus the most pairs the cards make (:func:`pair_total`)."""
    forced = 0
    for shift, partner_shift, cap in checks:
        extra = (inside >> shift & FIELD_MASK) - (inside >> partner_shift & FIELD_MASK)
        if extra > 0:
            if extra > cap:
                return -1
            forced += extra
    return forced << 4 | pair_total(inside, {})


def most_removed_capped(cards: int, alone: int, partners: tuple[int, ...], units: tuple[int, ...],
                        insides: dict[int, int], tight: int, checks: tuple[Check, ...]) -> tuple[int, int, int]:
    """:func:`most_removed` where the cards of ``tight`` (a mask of every index) of each value of
    ``checks`` may leave alone at most ``cap`` times in all.  Inside a pair, the cards of a value
    beyond those of its partner value there must leave alone (a card inside pairs only inside:
    pairs never cross): a pair whose inside needs more than the cap of a value is left out.
    Returns (the most cards, the bound on the pairs, the most cards counting no capped card that
    leaves alone outside every pair and none inside a pair that must: add the caps to it).
    ``insides`` memoises, by an inside's count vector, what :func:`inside_of` says of it under
    these ``checks``; with no ``checks`` it is :func:`most_removed` (the inside's pairs as
    :func:`pair_total` counts them; the third figure is then the first)."""
    removable = [0] * (END + 1)
    most = [0] * (END + 1)
    pairs = [0] * (END + 1)
    spared = [0] * (END + 1)
    after = [END] * (END + 1)
    below = [0] * (END + 1)
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
        best_spared = spared[following]
        if alone >> left & 1:
            reach |= inner
            best += 1
            if not tight >> left & 1:
                best_spared += 1
        matches = partners[left] & inner
        while matches:
            low = matches & -matches
            matches ^= low
            right = low.bit_length() - 1
            beyond = after[right]
            reach |= removable[beyond]
            span = (cards >> left & ((2 << (right - left)) - 1)).bit_count()
            found = 0
            if checks or span // 2 + pairs[beyond] > best_pairs:  # else the counts cannot do better either
                inside = below[following] - below[right]
                found = insides.get(inside)
                if found is None:
                    found = insides[inside] = inside_of(inside, checks)
                if found < 0:
                    continue  # a value's cards inside need more than its cap
                if (found & 15) + 1 + pairs[beyond] > best_pairs:
                    best_pairs = (found & 15) + 1 + pairs[beyond]
            if span + most[beyond] > best:
                best = span + most[beyond]
            if span - (found >> 4) + spared[beyond] > best_spared:
                best_spared = span - (found >> 4) + spared[beyond]
        removable[left] = reach
        most[left] = best
        pairs[left] = best_pairs
        spared[left] = best_spared
        after[left] = following
        below[left] = below[following] + units[left]
        following = left
    return most[following], pairs[following], spared[following]

