"""Per-deal tables for the solver: card values, pyramid shapes and talon count vectors.

Everything the searches touch is a plain ``int``: the pyramid mask and talon mask of
:class:`~pyramide_cli.position.Position`, and a *count vector* ``C`` that holds, for each value
1–12, how many talon cards of that value are still there (3 bits per value, value ``v`` at bit
``3 * (v - 1)``).  Kings are left out of count vectors: nothing pairs with them.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..deal import Deal
from ..layout import BASE_MASK, CONE_MASK, COVER_MASK, COVERERS, PYRAMID_SIZE, free_slots

KING = 13
TALON_SIZE = 24
FIELD_BITS = 3
FIELD_MASK = 7


def unit(value: int) -> int:
    """The count-vector increment of one card of ``value`` (0 for a king)."""
    return 0 if value == KING else 1 << (FIELD_BITS * (value - 1))


def count_of(counts: int, value: int) -> int:
    return counts >> (FIELD_BITS * (value - 1)) & FIELD_MASK


def total_count(counts: int) -> int:
    return sum(counts >> (FIELD_BITS * k) & FIELD_MASK for k in range(12))


@dataclass(frozen=True, slots=True)
class Shape:
    """What a pyramid shape offers, for one deal.

    ``kings``: mask of the free kings.  ``pairs``: pyramid-only removals (two free cards making 13,
    or a card and the one free card still covering it under ``cover-pair``), as slot masks, the
    ones uncovering most first.  ``singles``: ``(slot bit, value needed)`` for each free non-king
    card, to pair with a talon card.  ``by_need``: free slot bits by the talon value they need.
    ``need``: count-vector mask of the talon values some remaining pyramid card could pair with.
    ``wanted_talon``: mask of the talon indices (of this deal) some free card could pair with.
    """

    kings: int
    pairs: tuple[int, ...]
    singles: tuple[tuple[int, int], ...]
    by_need: dict[int, tuple[int, ...]]
    need: int
    wanted_talon: int


class DealTables:
    """Card values and cached shape information of one deal under its rules."""

    def __init__(self, deal: Deal) -> None:
        self.deal = deal
        self.rules = deal.rules
        self.pyramid_values: tuple[int, ...] = tuple(card.rank for card in deal.cards[:PYRAMID_SIZE])
        self.talon_values: tuple[int, ...] = tuple(card.rank for card in deal.cards[PYRAMID_SIZE:])
        self.talon_units: tuple[int, ...] = tuple(unit(value) for value in self.talon_values)
        self.talon_kings: int = sum(1 << t for t, value in enumerate(self.talon_values) if value == KING)
        self._shapes: dict[int, Shape] = {}
        self._value_talon = [0] * 14
        for t, value in enumerate(self.talon_values):
            self._value_talon[value] |= 1 << t

    def counts(self, talon: int) -> int:
        """Count vector of the non-king talon cards in the mask ``talon``."""
        units = self.talon_units
        total = 0
        while talon:
            low = talon & -talon
            total += units[low.bit_length() - 1]
            talon ^= low
        return total

    def shape(self, pyramid: int) -> Shape:
        shape = self._shapes.get(pyramid)
        if shape is None:
            shape = self._build_shape(pyramid)
            self._shapes[pyramid] = shape
        return shape

    def _build_shape(self, pyramid: int) -> Shape:
        values = self.pyramid_values
        free = free_slots(pyramid)
        kings = 0
        pairs: list[int] = []
        singles: list[tuple[int, int]] = []
        by_need: dict[int, list[int]] = {}
        for index, slot in enumerate(free):
            value = values[slot]
            if value == KING:
                kings |= 1 << slot
                continue
            singles.append((1 << slot, 13 - value))
            by_need.setdefault(13 - value, []).append(1 << slot)
            for other in free[index + 1:]:
                if value + values[other] == 13:
                    pairs.append((1 << slot) | (1 << other))
            if self.rules.cover_pair:
                for lower in range(PYRAMID_SIZE):
                    if (pyramid >> lower & 1 and slot in COVERERS[lower]
                            and pyramid & COVER_MASK[lower] == 1 << slot and value + values[lower] == 13):
                        pairs.append((1 << slot) | (1 << lower))
        present = 0
        for slot in range(PYRAMID_SIZE):
            if pyramid >> slot & 1:
                present |= 1 << values[slot]
        need = 0
        for value in range(1, 13):
            if present >> (13 - value) & 1:
                need |= FIELD_MASK << (FIELD_BITS * (value - 1))
        pairs.sort(key=lambda mask: -_uncovered_by(pyramid, mask))
        wanted = 0
        for value in by_need:
            wanted |= self._value_talon[value]
        return Shape(kings, tuple(pairs), tuple(singles), {v: tuple(bits) for v, bits in by_need.items()}, need, wanted)


def _uncovered_by(pyramid: int, removed: int) -> int:
    """How many cards become free when ``removed`` leaves ``pyramid`` (a move-ordering hint)."""
    return len(free_slots(pyramid & ~removed)) - len(free_slots(pyramid))


def dead_pyramid_cards(tables: DealTables, pyramid: int, talon: int) -> int:
    """Mask of pyramid cards that can never be removed: no partner left that could ever meet them.

    A partner must be a talon card of the complementary value, or a pyramid card of that value
    that neither lies on the card (cone) nor under it (base) — except, under ``cover-pair``, a card
    lying directly on it.  Used by hints and tests; the searches get the same facts from the
    relaxation.
    """
    values = tables.pyramid_values
    talon_values = tables.talon_values
    dead = 0
    for slot in range(PYRAMID_SIZE):
        if not pyramid >> slot & 1 or values[slot] == KING:
            continue
        want = 13 - values[slot]
        if any(talon >> t & 1 and talon_values[t] == want for t in range(TALON_SIZE)):
            continue
        blocked = CONE_MASK[slot] | BASE_MASK[slot]
        if tables.rules.cover_pair:
            blocked &= ~COVER_MASK[slot]
        if not any(pyramid >> other & 1 and values[other] == want and not blocked >> other & 1
                   for other in range(PYRAMID_SIZE)):
            dead |= 1 << slot
    return dead
