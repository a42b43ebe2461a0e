"""The shape of the pyramid (R2–R3): slots, rows and which slots cover which, as bit masks.

Slot ``i`` is card ``col`` of row ``row`` (both counted from 0 here; rows and columns are
counted from 1 in everything a person reads), numbered row by row from the apex:
``i = row * (row + 1) // 2 + col``.  A set of slots is an ``int`` whose bit ``i`` is slot ``i``.
"""

from __future__ import annotations

ROWS = 7
PYRAMID_SIZE = 28
FULL_PYRAMID = (1 << PYRAMID_SIZE) - 1
TALON_SIZE = 24
FULL_TALON = (1 << TALON_SIZE) - 1


def slot_index(row: int, col: int) -> int:
    """Slot number of (row, col), both from 0."""
    if not (0 <= row < ROWS and 0 <= col <= row):
        raise ValueError(f"no pyramid slot at row {row + 1}, card {col + 1}")
    return row * (row + 1) // 2 + col


SLOT_ROW: tuple[int, ...] = tuple(row for row in range(ROWS) for _ in range(row + 1))
SLOT_COL: tuple[int, ...] = tuple(col for row in range(ROWS) for col in range(row + 1))
ROW_SLOTS: tuple[tuple[int, ...], ...] = tuple(
    tuple(slot_index(row, col) for col in range(row + 1)) for row in range(ROWS)
)


def _coverers(slot: int) -> tuple[int, ...]:
    row, col = SLOT_ROW[slot], SLOT_COL[slot]
    if row == ROWS - 1:
        return ()
    return (slot_index(row + 1, col), slot_index(row + 1, col + 1))


COVERERS: tuple[tuple[int, ...], ...] = tuple(_coverers(slot) for slot in range(PYRAMID_SIZE))
"""The (0 or 2) slots lying directly on each slot (R2)."""
COVER_MASK: tuple[int, ...] = tuple(sum(1 << other for other in COVERERS[slot]) for slot in range(PYRAMID_SIZE))


def _cone(slot: int) -> int:
    mask = 0
    for other in COVERERS[slot]:
        mask |= (1 << other) | _cone(other)
    return mask


CONE_MASK: tuple[int, ...] = tuple(_cone(slot) for slot in range(PYRAMID_SIZE))
"""Every slot lying on a slot, directly or not: all must go before the slot is free."""
BASE_MASK: tuple[int, ...] = tuple(
    sum(1 << other for other in range(PYRAMID_SIZE) if CONE_MASK[other] >> slot & 1) for slot in range(PYRAMID_SIZE)
)
"""Every slot a slot lies on, directly or not: none of them is free while the slot is there."""


def free_slots(pyramid: int) -> tuple[int, ...]:
    """The slots of ``pyramid`` (a mask of slots still there) that nothing covers (R3)."""
    cached = _FREE_CACHE.get(pyramid)
    if cached is None:
        cached = tuple(
            slot for slot in range(PYRAMID_SIZE) if pyramid >> slot & 1 and not pyramid & COVER_MASK[slot]
        )
        _FREE_CACHE[pyramid] = cached
    return cached


_FREE_CACHE: dict[int, tuple[int, ...]] = {}


def is_valid_shape(pyramid: int) -> bool:
    """True when every slot of the mask still has its whole base (the only reachable shapes)."""
    return all(not pyramid >> slot & 1 or pyramid & BASE_MASK[slot] == BASE_MASK[slot] for slot in range(PYRAMID_SIZE))
