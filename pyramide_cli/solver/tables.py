"""Per-deal tables for the solver: card values, pyramid shapes and talon count vectors.

Everything the searches touch is a plain ``int``: the pyramid mask and talon mask of
:class:`~pyramide_cli.engine.position.Position`, and a *count vector* ``C`` that holds, for each value
1–12, how many talon cards of that value are still there (3 bits per value, value ``v`` at bit
``3 * (v - 1)``).  Kings are left out of count vectors: nothing pairs with them.
"""

from __future__ import annotations

from ..engine import kernel
from ..engine.deal import Deal
from ..engine.layout import BASE_MASK, CONE_MASK, COVER_MASK, COVERERS, PYRAMID_SIZE, free_slots

KING = 13
TALON_SIZE = 24
FIELD_BITS = 3
FIELD_MASK = 7


def unit(value: int) -> int:
    """The count-vector increment of one card of ``value`` (0 for a king)."""
    return 0 if value == KING else 1 << (FIELD_BITS * (value - 1))


UNITS: tuple[int, ...] = tuple(0 if value in (0, KING) else 1 << (FIELD_BITS * (value - 1)) for value in range(14))
"""``UNITS[value] == unit(value)``, for the inner loops."""


def total_count(counts: int) -> int:
    return sum(counts >> (FIELD_BITS * k) & FIELD_MASK for k in range(12))


COVERED_BY: tuple[tuple[int, ...], ...] = tuple(
    tuple(lower for lower in range(PYRAMID_SIZE) if slot in COVERERS[lower]) for slot in range(PYRAMID_SIZE)
)
"""The (0–2) slots each slot lies on directly."""


class Shape:
    """What a pyramid shape offers, for one deal (built once per shape and cached).

    ``kings``: mask of the free kings.  ``pairs``: pyramid-only removals (two free cards making 13,
    or a card and the one free card still covering it under ``cover-pair``), as slot masks, the
    ones uncovering most first.  ``singles``: ``(slot bit, value needed)`` for each free non-king
    card, to pair with a talon card.  ``need``: count-vector mask of the talon values some
    remaining pyramid card could pair with.  ``by_need``: free slot bits by the talon value they
    need; ``wanted_talon``: mask of the talon indices some free card could pair with;
    ``dead_talon``: mask of the talon indices (kings aside) that no remaining pyramid card could
    ever pair with.
    """

    __slots__ = ("kings", "pairs", "singles", "need", "by_need", "wanted_talon", "dead_talon")

    def __init__(self, kings: int, pairs: tuple[int, ...], singles: tuple[tuple[int, int], ...], need: int,
                 by_need: dict[int, tuple[int, ...]], wanted_talon: int, dead_talon: int = 0) -> None:
        self.kings = kings
        self.pairs = pairs
        self.singles = singles
        self.need = need
        self.by_need = by_need
        self.wanted_talon = wanted_talon
        self.dead_talon = dead_talon


class DealTables:
    """Card values and cached shape information of one deal under its rules."""

    def __init__(self, deal: Deal) -> None:
        self.deal = deal
        self.rules = deal.rules
        self.talon_cards = kernel.for_deal(deal)
        """The talon rules on this deal's cards (the walk, the cards in play, the talon pairs)."""
        self.pyramid_values: tuple[int, ...] = tuple(card.rank for card in deal.cards[:PYRAMID_SIZE])
        self.talon_values: tuple[int, ...] = tuple(card.rank for card in deal.cards[PYRAMID_SIZE:])
        self.talon_units: tuple[int, ...] = tuple(unit(value) for value in self.talon_values)
        self.talon_kings: int = sum(1 << t for t, value in enumerate(self.talon_values) if value == KING)
        self._byte_counts = tuple(_byte_table(self.talon_units[8 * byte:8 * byte + 8])
                                  for byte in range(TALON_SIZE // 8))
        """Per byte of a talon mask, the count vector of each of its 256 values."""
        self.shapes: dict[int, Shape] = {}
        """The shapes built so far, by pyramid mask (hot loops read it directly; :meth:`shape` builds)."""
        self._need_fields = tuple(
            (sum(1 << slot for slot in range(PYRAMID_SIZE) if self.pyramid_values[slot] == value),
             FIELD_MASK << (FIELD_BITS * (12 - value)))
            for value in range(1, 13)
        )
        """(slots holding a value, count-vector field of the talon value pairing with it)."""
        self._value_talon = self.talon_cards.value_talon
        """Per value, the mask of the talon indices holding it (the kernel's)."""
        self.partner_slots: tuple[int, ...] = tuple(self._partner_slots(slot) for slot in range(PYRAMID_SIZE))
        """Per slot, the pyramid slots that could ever pair with it (complementary value, not lying
        on it nor under it; under ``cover-pair`` one lying directly on it or directly under it may)."""

    def _partner_slots(self, slot: int) -> int:
        values = self.pyramid_values
        want = 13 - values[slot]
        blocked = CONE_MASK[slot] | BASE_MASK[slot]
        if self.rules.cover_pair:  # a card may pair with the one card lying directly on it
            blocked &= ~COVER_MASK[slot] & ~sum(1 << lower for lower in COVERED_BY[slot])
        return sum(1 << other for other in range(PYRAMID_SIZE) if values[other] == want and not blocked >> other & 1)

    def value_talon(self, value: int) -> int:
        """Mask of the talon indices holding cards of ``value``."""
        return self._value_talon[value]

    def counts(self, talon: int) -> int:
        """Count vector of the non-king talon cards in the mask ``talon`` (three table look-ups, one
        per byte of the mask: the searches ask this at many nodes)."""
        low, middle, high = self._byte_counts
        return low[talon & 255] + middle[talon >> 8 & 255] + high[talon >> 16 & 255]

    def shape(self, pyramid: int) -> Shape:
        shape = self.shapes.get(pyramid)
        if shape is None:
            shape = self._build_shape(pyramid)
            self.shapes[pyramid] = shape
        return shape

    def _build_shape(self, pyramid: int) -> Shape:
        values = self.pyramid_values
        free = free_slots(pyramid)
        kings = 0
        pairs: list[int] = []
        singles: list[tuple[int, int]] = []
        by_need: dict[int, tuple[int, ...]] = {}
        wanted = 0
        cover_pair = self.rules.cover_pair
        for index, slot in enumerate(free):
            value = values[slot]
            if value == KING:
                kings |= 1 << slot
                continue
            bit = 1 << slot
            want = 13 - value
            singles.append((bit, want))
            if want in by_need:
                by_need[want] += (bit,)
            else:
                by_need[want] = (bit,)
                wanted |= self._value_talon[want]
            for other in free[index + 1:]:
                if value + values[other] == 13:
                    pairs.append(bit | 1 << other)
            if cover_pair:
                for lower in COVERED_BY[slot]:
                    if pyramid & COVER_MASK[lower] == bit and value + values[lower] == 13:
                        pairs.append(bit | 1 << lower)
        need = 0
        dead = 0
        for value, (slots, field) in enumerate(self._need_fields, start=1):
            if pyramid & slots:
                need |= field
            else:
                dead |= self._value_talon[13 - value]
        if len(pairs) > 1:
            pairs.sort(key=lambda mask: -_uncovered_by(pyramid, mask))
        return Shape(kings, tuple(pairs), tuple(singles), need, by_need, wanted, dead)


def _byte_table(units: tuple[int, ...]) -> list[int]:
    """The count vector of each of the 256 masks of eight talon cards with these units."""
    table = [0] * 256
    for mask in range(1, 256):
        low = mask & -mask
        table[mask] = table[mask ^ low] + units[low.bit_length() - 1]
    return table


def _uncovered_by(pyramid: int, removed: int) -> int:
    """How many cards become free when ``removed`` leaves ``pyramid`` (a move-ordering hint)."""
    after = pyramid & ~removed
    count = 0
    rest = removed
    while rest:
        low = rest & -rest
        for parent in COVERED_BY[low.bit_length() - 1]:
            if after >> parent & 1 and not after & COVER_MASK[parent]:
                count += 1
        rest ^= low
    return count


def settle_kings(tables: DealTables, pyramid: int) -> tuple[int, list[int]]:
    """Remove the free pyramid kings, and the kings they free, one at a time (pyramid-kings): the pyramid
    left and the king bits in the order removed."""
    kings = []
    while True:
        free_kings = tables.shape(pyramid).kings
        if not free_kings:
            return pyramid, kings
        low = free_kings & -free_kings
        kings.append(low)
        pyramid ^= low
