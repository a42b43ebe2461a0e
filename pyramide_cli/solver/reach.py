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
    hidden = _unreachable(talon, drawn, dead, recycle_left, step)
    while hidden & ~dead:
        dead |= hidden
        hidden = _unreachable(talon, drawn, dead, recycle_left, step)
    return hidden


def _unreachable(talon: int, drawn: int, dead: int, recycle_left: bool, step: int) -> int:
    cards = talon_indices(talon)
    count = len(cards)
    on_waste = (talon & ((1 << drawn) - 1)).bit_count()
    runs = [0] * count  # how many cards that can leave follow each card, up to the first that cannot
    run = 0
    for index in range(count - 1, -1, -1):
        runs[index] = run
        run = run + 1 if not dead >> cards[index] & 1 else 0
    out = 0
    leaving_before = 0
    for index, card in enumerate(cards):
        run = runs[index]
        reached = run == count - 1 - index  # every card after it can leave: it may end up the last
        if not reached:
            if index < on_waste:
                reached = run >= on_waste - 1 - index  # the top, or under cards that can all leave
            else:
                group_top = min(on_waste + (index - on_waste) // step * step + step - 1, count - 1)
                reached = run >= group_top - index
        if not reached and recycle_left:
            for before in range(min(leaving_before, step - 1) + 1):
                if run >= step - 1 - (index - before) % step:
                    reached = True
                    break
        if not reached:
            out |= 1 << card
        if not dead >> card & 1:
            leaving_before += 1
    return out
