"""Unreachable-talon: under ``draw-3`` without talon pairs, the talon cards no draw can ever bring to
the waste top again, whatever is removed (docs/solver.md, unreachable-talon).

Only the waste top is in play, and a talon card leaves only as the top, with a pyramid card of the
partner value (or alone, a king).  A card no remaining pyramid card pairs with (``dead``) never
leaves, so it keeps its place among the cards after it for good.  Within one pass the draws group
the stock in threes from the pointer, and a removal (always of the top, below every stock card)
moves the pointer and every stock card down by one together, so a stock card's place in its group
never changes in that pass: it comes to the top as the last card of its group, or once the cards
drawn above it have left (they are the next cards after it, and must all be cards that can leave),
or as the talon's last card.  A recycle regroups the talon from its bottom card: a card's place then
depends on how many of the cards before it have left, at most the cards before it that can leave.
A card none of these can bring to the top is out of play for the rest of the game: the multiset game
without it is still a relaxation.
"""

from __future__ import annotations

from ..engine.walks import talon_indices


def unreachable_talon(talon: int, drawn: int, dead: int, recycle_left: bool, step: int = 3) -> int:
    """The mask of the talon cards (``talon``, ``drawn`` on the waste) that can never be the waste top
    again; ``dead``: the talon cards that can never leave; ``recycle_left``: whether a recycle may
    still come; ``step``: the cards a draw turns.  A card that never comes up never leaves either, so
    the cards found are counted as such until no more are found."""
    dead &= talon
    if not dead:
        return 0  # every card may end up the last
    cards = talon_indices(talon)
    on_waste = (talon & ((1 << drawn) - 1)).bit_count()
    hidden = _unreachable(cards, on_waste, dead, recycle_left, step)
    while hidden & ~dead:
        dead |= hidden
        hidden = _unreachable(cards, on_waste, dead, recycle_left, step)
    return hidden


def _unreachable(cards: tuple[int, ...], on_waste: int, dead: int, recycle_left: bool, step: int) -> int:
    """One round of :func:`unreachable_talon` (``cards``: the talon's indices, lowest first)."""
    count = len(cards)
    last = count - 1
    while not dead >> cards[last] & 1:
        last -= 1  # that card and the ones after it may all end up the talon's last card
    out = 0
    leaving_before = 0
    run = 0
    runs = [0] * last  # how many cards that can leave follow each card, up to the first that cannot
    for index in range(last - 1, -1, -1):
        runs[index] = run
        run = 0 if dead >> cards[index] & 1 else run + 1
    for index in range(last):
        card = cards[index]
        run = runs[index]
        if index < on_waste:
            above = on_waste - 1 - index  # the top, or under cards that must all leave
        else:
            above = step - 1 - (index - on_waste) % step  # its group ends at the last card that cannot leave or before
        if run < above:
            if recycle_left:
                for before in range(min(leaving_before, step - 1) + 1):
                    if run >= step - 1 - (index - before) % step:
                        break
                else:
                    out |= 1 << card
            else:
                out |= 1 << card
        if not dead >> card & 1:
            leaving_before += 1
    return out
