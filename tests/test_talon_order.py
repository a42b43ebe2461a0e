"""talon-order, phase 2's bound with the talon's order under talon pairs (docs/solver.md, talon-order).

The dynamic programme over the talon's order is compared with the removal game it stands for,
played out card by card (with and without caps on the cards of a value that may leave alone); the
bound itself with the most cards the plain exhaustive search of ``reference_search.py`` removes
from random small positions (it may never be lower, and it must be lower than the relaxation's
somewhere, and with its caps than without them, or they would prune nothing); and whole solves
with and without it must give the same maxima, with a best line that gets there.
"""

from __future__ import annotations

import random
from functools import cache
from itertools import pairwise

import pytest

from pyramide_cli.engine.deal import Deal
from pyramide_cli.engine.position import Position
from pyramide_cli.engine.rules import Rules
from pyramide_cli.solver.budget import Budget
from pyramide_cli.solver import DEFAULT_LIMITS, SearchRule
from pyramide_cli.solver.relaxation import Relaxation
from pyramide_cli.solver.tables import FIELD_BITS, DealTables, unit
from pyramide_cli.solver.talon_order import WIDE, TalonOrderBound, most_removed, most_removed_capped, wide_max
from reference_search import reference_search, small_position, solve_with_and_without


def played_out(values: list[int], alone: int, caps: dict[int, int] | None = None) -> tuple[int, int]:
    """The removal game by its definition: a card of ``alone`` may leave by itself (at most
    ``caps[v]`` of the cards of a value ``v`` in ``caps``), two cards making 13 may leave together
    when they are neighbours among the cards left.  Returns the most cards and the most pairs any
    order of removals achieves."""
    capped = sorted(caps or {})

    @cache
    def best(left: int, spare: tuple[int, ...]) -> tuple[int, int]:
        indices = [index for index in range(len(values)) if left >> index & 1]
        found = [(0, 0)]
        for index in indices:
            if alone >> index & 1:
                after = spare
                if values[index] in capped:
                    place = capped.index(values[index])
                    if not spare[place]:
                        continue
                    after = spare[:place] + (spare[place] - 1,) + spare[place + 1:]
                cards, pairs = best(left ^ 1 << index, after)
                found.append((cards + 1, pairs))
        for first, second in pairwise(indices):
            if values[first] + values[second] == 13:
                cards, pairs = best(left ^ 1 << first ^ 1 << second, spare)
                found.append((cards + 2, pairs + 1))
        return max(cards for cards, _ in found), max(pairs for _, pairs in found)

    return best((1 << len(values)) - 1, tuple((caps or {})[value] for value in capped))


def programme(values: list[int]) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
    """The talon cards of ``values`` as the programme takes them: the mask, the partners, the units."""
    size = len(values)
    partners = tuple(sum(1 << later for later in range(index + 1, size) if values[index] + values[later] == 13)
                     for index in range(size))
    return (1 << size) - 1, partners, tuple(unit(value) for value in values)


def test_the_programme_over_the_talon_order_is_the_removal_game() -> None:
    rng = random.Random(11)
    for _ in range(400):
        size = rng.randint(0, 11)
        values = [rng.choice((1, 2, 3, 10, 11, 12, 6, 7)) for _ in range(size)]
        alone = rng.getrandbits(size) if rng.random() < 0.7 else 0
        cards, partners, units = programme(values)
        most, pairs = most_removed(cards, alone, partners, units, {})
        exact_cards, exact_pairs = played_out(values, alone)
        assert most == exact_cards, (values, bin(alone))
        assert pairs >= exact_pairs, (values, bin(alone))


def test_the_capped_programme_bounds_the_removal_game_with_caps() -> None:
    """With caps (talon-order's caps): the most cards, the most cards with the caps added, and the pairs are
    never below the game's, and below the programme's without caps somewhere."""
    rng = random.Random(12)
    lower = 0
    for _ in range(300):
        size = rng.randint(0, 10)
        values = [rng.choice((1, 1, 12, 2, 11, 11, 6, 7)) for _ in range(size)]
        alone = rng.getrandbits(size) if rng.random() < 0.8 else 0
        caps = {value: rng.randint(0, 2) for value in sorted(set(values)) if rng.random() < 0.6}
        cards, partners, units = programme(values)
        tight = sum(1 << index for index, value in enumerate(values) if value in caps)
        checks = tuple((FIELD_BITS * (value - 1), FIELD_BITS * (12 - value), cap) for value, cap in caps.items())
        most, pairs, spared = most_removed_capped(cards, alone, partners, units, {}, tight, checks)
        exact_cards, exact_pairs = played_out(values, alone, caps)
        assert most >= exact_cards and spared + sum(caps.values()) >= exact_cards, (values, bin(alone), caps)
        assert pairs >= exact_pairs, (values, bin(alone), caps)
        plain = most_removed(cards, alone, partners, units, {})
        lower += min(most, spared + sum(caps.values())) < plain[0] or pairs < plain[1]
    assert lower > 30


@pytest.mark.parametrize(("values", "alone"), [([1, 4, 4, 12], 0b0110), ([4, 1, 4, 12, 4], 0b10101)])
def test_the_caps_count_the_cards_a_pair_needs_alone(values: list[int], alone: int) -> None:
    """An ace and a queen with 4s between them and around, one 9 left in the pyramid (a cap of one 4):
    with two 4s inside, the pair can never go; with one, it takes the only 4 that may leave alone.
    The bounds are then the game's own."""
    cards, partners, units = programme(values)
    most, pairs, spared = most_removed_capped(cards, alone, partners, units, {}, alone, ((FIELD_BITS * 3, 24, 1),))
    exact_cards, exact_pairs = played_out(values, alone, {4: 1})
    assert (min(most, spared + 1), pairs) == (exact_cards, exact_pairs)
    assert (exact_cards, exact_pairs) < played_out(values, alone)


def test_a_gap_in_the_talon_is_skipped_and_kings_do_not_count() -> None:
    # Cards 0 (an ace) and 3 (a queen) are neighbours once cards 1 and 2 are gone from the mask.
    partners = (1 << 3, 0, 0, 0)
    units = (unit(1), unit(4), unit(4), unit(12))
    assert most_removed(0b1001, 0, partners, units, {}) == (2, 1)
    assert most_removed(0b1111, 0, partners, units, {}) == (0, 0)  # cards 1 and 2 can never leave: no pair
    assert most_removed(0b1111, 0b0110, partners, units, {}) == (4, 1)  # two 4s make no pair between them


def test_wide_max_takes_the_greater_count_of_each_value() -> None:
    rng = random.Random(13)
    for _ in range(200):
        first, second = ([rng.randint(0, 4) for _ in range(13)] for _ in range(2))
        wide = [sum(WIDE[value] * counts[value] for value in range(1, 13)) for counts in (first, second)]
        assert wide_max(*wide) == sum(WIDE[value] * max(first[value], second[value]) for value in range(1, 13))


RULES_WITH_TALON_PAIRS = ["T+stock-top", "T+waste-pair", "E+stock-top", "N+stock-top", "T+stock-top+draw-3",
                          "O+stock-top+waste-pair", "T+waste-pair+strict", "T+stock-top+cover-pair"]


class Uncapped(TalonOrderBound):
    """talon-order without its caps."""

    def _know(self, pyramid: int, counts: int) -> tuple[int, int, int, int, int, tuple[tuple[int, int, int], ...], int]:
        known = super()._know(pyramid, counts)
        return known[:3] + (0,) + known[4:]


def most_allowed(bound: TalonOrderBound, position: Position, counts: int, gains: tuple[int, int]) -> int:
    """The most cards still removable ``bound`` allows: the highest room it reaches (at most the
    relaxation's)."""
    room = gains[1]
    while room > 0 and not bound.reaches(position.pyramid, position.talon, counts, gains[0], room):
        room -= 1
    return room


@pytest.mark.no_cover
@pytest.mark.parametrize("rules_text", RULES_WITH_TALON_PAIRS)
def test_the_bound_is_never_below_what_the_plain_search_removes(rules_text: str) -> None:
    """At random small positions: talon-order's bound on the cards still removable reaches the most the
    exhaustive search removes (so it never cuts off a better line), and it is below the
    relaxation's at some of them (so it does prune), and with its caps below itself without them."""
    rules = Rules.parse(rules_text)
    below_relaxation = below_uncapped = 0
    for seed in range(40):
        position = small_position(seed, rules, seed, slots=1 + seed % 3, talon_size=8 + seed % 5)
        reference = reference_search(position)
        if reference.winnable:
            continue
        tables = DealTables(position.deal)
        budget = Budget(DEFAULT_LIMITS)
        counts = tables.counts(position.talon)
        gains = Relaxation(tables, budget).gains_bound(position.pyramid, counts)
        off = (52 - position.pyramid.bit_count() - position.talon.bit_count()
               + (position.talon & tables.talon_kings).bit_count())
        allowed = most_allowed(TalonOrderBound(tables, budget), position, counts, gains)
        assert allowed >= reference.max_removed - off, seed
        below_relaxation += allowed < gains[1]
        below_uncapped += allowed < most_allowed(Uncapped(tables, budget), position, counts, gains)
    assert below_relaxation
    assert below_uncapped


@pytest.mark.no_cover
@pytest.mark.parametrize(("rules_text", "number"), [("T+stock-top", 614), ("T+waste-pair", 300)])
def test_whole_solves_with_and_without_the_bound_agree(monkeypatch: pytest.MonkeyPatch, rules_text: str,
                                                       number: int) -> None:
    solve_with_and_without(Deal.from_number(number, Rules.parse(rules_text)), SearchRule.TALON_ORDER)
