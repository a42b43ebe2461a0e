"""The multiset relaxation under talon pairs, and phase 2's probe (docs/solver.md, multiset-relaxation and probe).

Under ``waste-pair``/``stock-top`` without ``strict`` the relaxation plays the talon pairs last and
keeps in its keys only the counts its pyramid can still change.  These tests compare it with the
plain statement of the same game — every move, talon pairs included, tried at every position —
written here again from its definition, on random positions.  The probe of phase 2 is checked by
solving with it cut short, with it off and with it whole: the same verdicts and maxima as the plain
exhaustive search of ``reference_search.py``.
"""

from __future__ import annotations

import random
from functools import cache

import pytest

from pyramide_cli.engine.deal import Deal
from pyramide_cli.engine.layout import COVER_MASK, PYRAMID_SIZE
from pyramide_cli.engine.rules import Rules
from pyramide_cli.solver import DEFAULT_LIMITS, SearchOptions, Verdict, solve
from pyramide_cli.solver.budget import Budget
from pyramide_cli.solver.relaxation import Relaxation
from pyramide_cli.solver.tables import FIELD_BITS, DealTables, unit
from reference_search import reference_search, small_position

Gains = tuple[int, int]


def every_order_gains(tables: DealTables, pyramid: int, counts: int) -> Gains | None:
    """The relaxed game by its definition: ``None`` when the pyramid can be cleared, else the most
    pyramid cards and cards in all (kings included, talon kings apart) its lines can remove, trying
    every move at every position — pyramid pairs, a pyramid card with a talon value, a free king, a
    talon pair — in every order."""

    @cache
    def best(pyramid: int, counts: int) -> Gains | None:
        if not pyramid:
            return None
        shape = tables.shape(pyramid)
        found: list[Gains] = [(0, 0)]
        moves: list[tuple[int, int, int, int]] = [(pyramid & ~bit, counts, 1, 1) for bit in _bits(shape.kings)]
        moves += [(pyramid & ~mask, counts, 2, 2) for mask in shape.pairs]
        moves += [(pyramid & ~bit, counts - unit(value), 1, 2) for bit, value in shape.singles
                  if counts >> (FIELD_BITS * (value - 1)) & 7]
        moves += [(pyramid, counts - unit(value) - unit(13 - value), 0, 2) for value in range(1, 7)
                  if counts >> (FIELD_BITS * (value - 1)) & 7 and counts >> (FIELD_BITS * (12 - value)) & 7]
        for after_pyramid, after_counts, pyramid_gain, all_gain in moves:
            after = best(after_pyramid, after_counts)
            if after is None:
                return None
            found.append((after[0] + pyramid_gain, after[1] + all_gain))
        return max(gain for gain, _ in found), max(gain for _, gain in found)

    return best(pyramid, counts)


def _bits(mask: int) -> list[int]:
    return [1 << slot for slot in range(PYRAMID_SIZE) if mask >> slot & 1]


def random_pyramid(rng: random.Random, removals: int) -> int:
    """A reachable pyramid shape: free cards removed one by one."""
    pyramid = (1 << PYRAMID_SIZE) - 1
    for _ in range(removals):
        free = [slot for slot in range(PYRAMID_SIZE) if pyramid >> slot & 1 and not pyramid & COVER_MASK[slot]]
        pyramid &= ~(1 << rng.choice(free))
    return pyramid


@pytest.mark.parametrize("rules_text", ["T+stock-top", "N+waste-pair", "O+stock-top+waste-pair",
                                        "E+waste-pair+cover-pair"])
def test_talon_pairs_played_last_give_the_gains_of_every_order(rules_text: str) -> None:
    rules = Rules.parse(rules_text)
    rng = random.Random(rules_text)
    compared = won = 0
    for deal_number in range(6):
        tables = DealTables(Deal.from_number(deal_number, rules))
        relaxation = Relaxation(tables, Budget(DEFAULT_LIMITS))
        assert relaxation.pairs_last
        for _ in range(25):
            pyramid = random_pyramid(rng, rng.randrange(14, 25))
            counts = tables.counts(rng.getrandbits(24))
            expected = every_order_gains(tables, pyramid, counts)
            assert relaxation.search(pyramid, counts) == expected
            compared += 1
            won += expected is None
    assert 0 < won < compared  # both answers are exercised


def test_strict_keeps_every_order_of_the_talon_pairs() -> None:
    """Under ``strict`` every talon card must go, so the pairs stay moves of their own."""
    tables = DealTables(Deal.from_number(3, Rules.parse("T+stock-top+strict")))
    assert not Relaxation(tables, Budget(DEFAULT_LIMITS)).pairs_last


@pytest.mark.no_cover
@pytest.mark.parametrize("probe", [0, 3, 40, None])
@pytest.mark.parametrize("rules_text", ["T+stock-top", "E+waste-pair", "T+draw-3+waste-pair", "N+stock-top"])
def test_the_probe_never_changes_verdicts_or_maxima(rules_text: str, probe: int | None) -> None:
    """Off, cut short after a few positions (the search proper goes on from the best it found), or
    whole: the verdict and the maxima of the plain exhaustive search."""
    options = SearchOptions() if probe is None else SearchOptions(probe_states=probe)
    rules = Rules.parse(rules_text)
    unwinnable = 0
    for seed in range(14):
        position = small_position(seed, rules, seed, slots=2, talon_size=12)
        reference = reference_search(position)
        result = solve(position, options=options)
        assert result.verdict is (Verdict.WINNABLE if reference.winnable else Verdict.UNWINNABLE)
        if not reference.winnable:
            unwinnable += 1
            assert (result.max_pyramid_removed, result.max_removed) == (reference.max_pyramid_removed,
                                                                        reference.max_removed)
            end = position
            for move in result.best_line or ():
                end = end.apply(move)
            assert 28 - end.pyramid.bit_count() == reference.max_pyramid_removed
    assert unwinnable
