"""B2, phase 2's bound with the talon's order under talon pairs (docs/solver.md, B2).

The dynamic programme over the talon's order is compared with the removal game it stands for,
played out card by card; the bound itself with the most cards the plain exhaustive search of
``reference_search.py`` removes from random small positions (it may never be lower, and it must be
lower than the relaxation's somewhere, or it would prune nothing); and whole solves with and without
it must give the same maxima, with a best line that gets there.
"""

from __future__ import annotations

import random
from functools import cache
from itertools import pairwise

import pytest

from pyramide_cli.engine.deal import Deal
from pyramide_cli.engine.position import Position
from pyramide_cli.engine.rules import Rules
from pyramide_cli.solver import solve, talon_search
from pyramide_cli.solver.budget import Budget
from pyramide_cli.solver import DEFAULT_LIMITS
from pyramide_cli.solver.relaxation import Relaxation
from pyramide_cli.solver.tables import DealTables
from pyramide_cli.solver.talon_order import TalonOrderBound, most_removed
from reference_search import reference_search, small_position


def played_out(values: list[int], alone: int) -> tuple[int, int]:
    """The removal game by its definition: a card of ``alone`` may leave by itself, two cards
    making 13 may leave together when they are neighbours among the cards left.  Returns the most
    cards and the most pairs any order of removals achieves."""

    @cache
    def best(left: int) -> tuple[int, int]:
        indices = [index for index in range(len(values)) if left >> index & 1]
        found = [(0, 0)]
        for index in indices:
            if alone >> index & 1:
                cards, pairs = best(left ^ 1 << index)
                found.append((cards + 1, pairs))
        for first, second in pairwise(indices):
            if values[first] + values[second] == 13:
                cards, pairs = best(left ^ 1 << first ^ 1 << second)
                found.append((cards + 2, pairs + 1))
        return max(cards for cards, _ in found), max(pairs for _, pairs in found)

    return best((1 << len(values)) - 1)


def test_the_programme_over_the_talon_order_is_the_removal_game() -> None:
    rng = random.Random(11)
    for _ in range(400):
        size = rng.randint(0, 11)
        values = [rng.choice((1, 2, 3, 10, 11, 12, 6, 7)) for _ in range(size)]
        alone = rng.getrandbits(size) if rng.random() < 0.7 else 0
        partners = tuple(sum(1 << later for later in range(index + 1, size) if values[index] + values[later] == 13)
                         for index in range(size))
        cards, pairs = most_removed((1 << size) - 1, alone, partners)
        exact_cards, exact_pairs = played_out(values, alone)
        assert cards == exact_cards, (values, bin(alone))
        assert pairs >= exact_pairs, (values, bin(alone))


def test_a_gap_in_the_talon_is_skipped_and_kings_do_not_count() -> None:
    # Cards 0 (an ace) and 3 (a queen) are neighbours once cards 1 and 2 are gone from the mask.
    partners = (1 << 3, 0, 0, 0)
    assert most_removed(0b1001, 0, partners) == (2, 1)
    assert most_removed(0b1111, 0, partners) == (0, 0)  # cards 1 and 2 can never leave: no pair
    assert most_removed(0b1111, 0b0110, partners) == (4, 2)


RULES_WITH_TALON_PAIRS = ["T+stock-top", "T+waste-pair", "E+stock-top", "N+stock-top", "T+stock-top+draw-3",
                          "O+stock-top+waste-pair", "T+waste-pair+strict", "T+stock-top+cover-pair"]


@pytest.mark.parametrize("rules_text", RULES_WITH_TALON_PAIRS)
def test_the_bound_is_never_below_what_the_plain_search_removes(rules_text: str) -> None:
    """At random small positions: B2's bound on the cards still removable reaches the most the
    exhaustive search removes (so it never cuts off a better line), and it is below the
    relaxation's at some of them (so it does prune)."""
    rules = Rules.parse(rules_text)
    below_relaxation = 0
    for seed in range(40):
        position = small_position(seed, rules, seed, slots=1 + seed % 3, talon_size=8 + seed % 5)
        reference = reference_search(position)
        if reference.winnable:
            continue
        tables = DealTables(position.deal)
        budget = Budget(DEFAULT_LIMITS)
        bound = TalonOrderBound(tables, budget)
        counts = tables.counts(position.talon)
        gains = Relaxation(tables, budget).gains_bound(position.pyramid, counts)
        off = (52 - position.pyramid.bit_count() - position.talon.bit_count()
               + (position.talon & tables.talon_kings).bit_count())
        assert bound.reaches(position.pyramid, position.talon, counts, gains[0], reference.max_removed - off)
        below_relaxation += not bound.reaches(position.pyramid, position.talon, counts, gains[0], gains[1])
    assert below_relaxation


@pytest.mark.parametrize(("rules_text", "number"), [("T+stock-top", 614), ("T+waste-pair", 300)])
def test_whole_solves_with_and_without_the_bound_agree(monkeypatch: pytest.MonkeyPatch, rules_text: str,
                                                       number: int) -> None:
    deal = Deal.from_number(number, Rules.parse(rules_text))
    with_bound = solve(deal)
    monkeypatch.setattr(talon_search, "TalonOrderBound", lambda tables, budget: None)
    without = solve(deal)
    assert with_bound.verdict is without.verdict
    assert (with_bound.max_pyramid_removed, with_bound.max_removed) == (without.max_pyramid_removed,
                                                                       without.max_removed)
    end = Position.start(deal)  # the best line may differ (the probe may now finish first), not where it gets
    for move in with_bound.best_line:
        end = end.apply(move)
    assert 28 - end.pyramid.bit_count() == without.max_pyramid_removed
    assert with_bound.states < without.states  # it pruned
