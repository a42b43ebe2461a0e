"""Unreachable-talon (``solver/reach.py``): every card it calls out of play is one no sequence of
draws, recycles and removals of the waste top ever brings to the top, checked by a breadth-first
search over the talon alone (any top card that can leave may leave at any time)."""

from __future__ import annotations

import random

import pytest

from pyramide_cli.solver.reach import unreachable_talon


def tops_ever(talon: int, drawn: int, dead: int, recycles_left: int | None, step: int = 3) -> int:
    """The talon cards that some line of draws (``step`` at a time), recycles (``None``: unlimited)
    and removals of a top card not in ``dead`` brings to the waste top, from now on."""
    cards = tuple(card for card in range(24) if talon >> card & 1)
    start = (cards, sum(1 for card in cards if card < drawn), 0)
    seen = {start}
    queue = [start]
    tops = 0
    while queue:
        cards, on_waste, recycles = queue.pop()
        if on_waste:
            top = cards[on_waste - 1]
            tops |= 1 << top
            if not dead >> top & 1:
                following = [(cards[:on_waste - 1] + cards[on_waste:], on_waste - 1, recycles)]
            else:
                following = []
        else:
            following = []
        if on_waste < len(cards):
            following.append((cards, min(on_waste + step, len(cards)), recycles))
        elif on_waste and (recycles_left is None or recycles < recycles_left):
            following.append((cards, 0, recycles if recycles_left is None else recycles + 1))
        for state in following:
            if state not in seen:
                seen.add(state)
                queue.append(state)
    return tops


@pytest.mark.parametrize("seed", range(4))
def test_a_card_called_out_of_play_never_comes_to_the_top(seed: int) -> None:
    rng = random.Random(seed)
    hidden_somewhere = 0
    for _ in range(150):
        size = rng.randint(1, 9)
        talon = sum(1 << card for card in rng.sample(range(24), size))
        drawn = rng.randint(0, 24)
        dead = sum(1 << card for card in range(24) if talon >> card & 1 and rng.random() < 0.5)
        recycles_left = rng.choice([None, 0, 1])
        hidden = unreachable_talon(talon, drawn, dead, recycles_left != 0)
        assert not hidden & ~talon
        reached = tops_ever(talon, drawn, dead, recycles_left)
        assert not hidden & reached, (talon, drawn, dead, recycles_left)
        hidden_somewhere += bool(hidden & ~dead)
    assert hidden_somewhere  # the rule finds cards that could leave but never come up
