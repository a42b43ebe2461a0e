"""talon-set, the talon-set game under talon pairs (docs/solver.md, talon-set).

The game's search (its talon pairs played last, a search for "at least so many" with what it proved
kept) is compared with the game played out by its definition, every order of moves tried; its bound
with the most cards the plain exhaustive search of ``reference_search.py`` removes from random small
positions (never lower, and lower than talon-order's somewhere, or it would prune nothing); and whole solves
with and without it must give the same maxima.
"""

from __future__ import annotations

from functools import cache
from itertools import pairwise

import pytest

from pyramide_cli.engine.deal import Deal
from pyramide_cli.engine.rules import Rules
from pyramide_cli.solver import DEFAULT_LIMITS, SearchRule
from pyramide_cli.solver.budget import Budget
from pyramide_cli.solver.relaxation import Relaxation
from pyramide_cli.solver.tables import DealTables
from pyramide_cli.solver.talon_order import TalonOrderBound
from pyramide_cli.solver.talon_set import TalonSetBound
from reference_search import reference_search, small_position, solve_with_and_without

RULES_WITH_TALON_PAIRS = ["T+stock-top", "T+waste-pair", "E+stock-top", "N+stock-top", "T+stock-top+draw-3",
                          "O+stock-top+waste-pair", "T+waste-pair+strict", "T+stock-top+cover-pair"]


def played_out(tables: DealTables, pyramid: int, talon: int) -> int:
    """The talon-set game by its definition, every order of moves: a pyramid king goes alone, two free
    pyramid cards or a free one and any talon card making 13 go together, two talon cards making 13
    only when no talon card is left between them.  The most cards any line removes."""
    values = tables.talon_values

    @cache
    def best(pyramid: int, talon: int) -> int:
        shape = tables.shape(pyramid)
        found = 0
        for bit in range(28):
            if shape.kings >> bit & 1:
                found = max(found, 1 + best(pyramid ^ 1 << bit, talon))
        for mask in shape.pairs:
            found = max(found, 2 + best(pyramid & ~mask, talon))
        for bit, value in shape.singles:
            for index in range(24):
                if talon >> index & 1 and values[index] == value:
                    found = max(found, 2 + best(pyramid & ~bit, talon ^ 1 << index))
        for first, second in pairwise([index for index in range(24) if talon >> index & 1]):
            if values[first] + values[second] == 13:
                found = max(found, 2 + best(pyramid, talon ^ 1 << first ^ 1 << second))
        return found

    return best(pyramid, talon)


def played_out_by_pyramid(tables: DealTables, pyramid: int, talon: int) -> dict[int, int]:
    """As :func:`played_out`, but for each number of pyramid cards some line removes, the most cards
    in all such a line removes."""
    values = tables.talon_values

    @cache
    def best(pyramid: int, talon: int) -> tuple[tuple[int, int], ...]:
        shape = tables.shape(pyramid)
        found = {0: 0}

        def add(lines: tuple[tuple[int, int], ...], pyramid_cards: int, cards: int) -> None:
            for removed, total in lines:
                key = removed + pyramid_cards
                found[key] = max(found.get(key, 0), total + cards)

        for bit in range(28):
            if shape.kings >> bit & 1:
                add(best(pyramid ^ 1 << bit, talon), 1, 1)
        for mask in shape.pairs:
            add(best(pyramid & ~mask, talon), 2, 2)
        for bit, value in shape.singles:
            for index in range(24):
                if talon >> index & 1 and values[index] == value:
                    add(best(pyramid & ~bit, talon ^ 1 << index), 1, 2)
        for first, second in pairwise([index for index in range(24) if talon >> index & 1]):
            if values[first] + values[second] == 13:
                add(best(pyramid, talon ^ 1 << first ^ 1 << second), 0, 2)
        return tuple(sorted(found.items()))

    return dict(best(pyramid, talon))


@pytest.mark.parametrize("rules_text", ["T+stock-top", "T+waste-pair+strict", "T+stock-top+cover-pair"])
def test_the_joint_search_counts_the_pyramid_cards_of_the_same_line(rules_text: str) -> None:
    """``joint`` (at least so many cards with at least so many pyramid cards, in one line) against the
    game played out by pyramid cards, asked from above as in a solve; and it must say no somewhere
    where :meth:`reaches` alone says yes (else it would prune nothing more)."""
    rules = Rules.parse(rules_text)
    stricter = 0
    for seed in range(30):
        position = small_position(seed, rules, seed, slots=1 + seed % 3, talon_size=8 + seed % 5)
        tables = DealTables(position.deal)
        budget = Budget(DEFAULT_LIMITS)
        relaxation = Relaxation(tables, budget)
        bound = TalonSetBound(tables, relaxation, budget, TalonOrderBound(tables, budget))
        talon = position.talon & ~tables.talon_kings
        lines = played_out_by_pyramid(tables, position.pyramid, talon)
        for pyramid_need in range(1, max(lines) + 2):
            for need in range(max(lines.values()) + 2, 0, -1):
                expected = any(cards >= need for removed, cards in lines.items() if removed >= pyramid_need)
                assert bound.joint(position.pyramid, talon, need, pyramid_need) is expected, (seed, need, pyramid_need)
                stricter += not expected and bound.reaches(position.pyramid, talon, need)
    assert stricter


def most_reached(bound: TalonSetBound, pyramid: int, talon: int, start: int) -> int:
    """The highest number of cards, from ``start`` down, the game's search says it reaches."""
    need = start
    while need > 0 and not bound.reaches(pyramid, talon, need):
        need -= 1
    return need


@pytest.mark.parametrize("rules_text", RULES_WITH_TALON_PAIRS)
def test_the_search_is_the_game_and_bounds_what_the_plain_search_removes(rules_text: str) -> None:
    """At random small positions: the search's answer is the game's own most cards (asked from above,
    so that what it proved of the positions on the way is reused, as in a solve), never below what
    the exhaustive search removes (it never cuts off a better line), and below talon-order's somewhere."""
    rules = Rules.parse(rules_text)
    below_order = 0
    for seed in range(40):
        position = small_position(seed, rules, seed, slots=1 + seed % 3, talon_size=8 + seed % 5)
        reference = reference_search(position)
        if reference.winnable:
            continue
        tables = DealTables(position.deal)
        budget = Budget(DEFAULT_LIMITS)
        relaxation = Relaxation(tables, budget)
        order = TalonOrderBound(tables, budget)
        bound = TalonSetBound(tables, relaxation, budget, order)
        counts = tables.counts(position.talon)
        gains = relaxation.gains_bound(position.pyramid, counts)
        talon = position.talon & ~tables.talon_kings
        most = most_reached(bound, position.pyramid, talon, gains[1] + 2)
        assert most == played_out(tables, position.pyramid, talon), seed
        off = (52 - position.pyramid.bit_count() - position.talon.bit_count()
               + (position.talon & tables.talon_kings).bit_count())
        assert most >= reference.max_removed - off, seed
        order_most = gains[1]
        while order_most > 0 and not order.reaches(position.pyramid, position.talon, counts, gains[0], order_most):
            order_most -= 1
        below_order += most < order_most
    assert below_order


@pytest.mark.parametrize(("rules_text", "number"), [("T+stock-top", 191), ("T+waste-pair", 9)])
def test_whole_solves_with_and_without_the_game_agree(monkeypatch: pytest.MonkeyPatch, rules_text: str,
                                                      number: int) -> None:
    _, without, reached = solve_with_and_without(Deal.from_number(number, Rules.parse(rules_text)),
                                                 SearchRule.TALON_SET)
    assert reached <= (without.max_pyramid_removed, without.max_removed)
