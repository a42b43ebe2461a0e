"""L5, the last pass's waste in its order (solver/waste_stack.py), against the plain exhaustive search.

The waste-stack game is a relaxation of the rest of the last pass under ``draw-3``: wherever the
exhaustive search finds a win it must be able to clear the pyramid too, and wherever it cannot its
gains must bound the true maxima from above.  Nothing here trusts the solver: the truth is
``reference_search`` over ``Position.legal_moves()``.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pyramide_cli.engine.deal import Deal
from pyramide_cli.engine.layout import BASE_MASK, PYRAMID_SIZE
from pyramide_cli.engine.position import Position
from pyramide_cli.engine.rules import Rules
from pyramide_cli.solver.budget import Budget, SolveLimits
from pyramide_cli.solver.relaxation import Relaxation
from pyramide_cli.solver.tables import DealTables
from pyramide_cli.solver.waste_stack import WasteStack
from reference_search import reference_search

RULES = [Rules.parse(text) for text in ("T+draw-3", "E+draw-3", "O+draw-3", "T+draw-3+cover-pair",
                                        "T+draw-3+strict", "E+draw-3+recycles=0")]


def deep_waste_position(rules: Rules, deal_number: int, seed: int, slots: int, extra: int) -> Position:
    """A small position in the last allowed pass with most of its talon on the waste: the pyramid under
    ``slots`` slots of rows 1-3, a talon holding every card that pairs with one of its cards and
    ``extra`` others, and the pointer among its upper cards, so that the waste's order decides."""
    rng = random.Random(seed)
    deal = Deal.from_number(deal_number, rules)
    pyramid = 0
    for _ in range(slots):
        slot = rng.randrange(1, 6)
        pyramid |= 1 << slot | BASE_MASK[slot]
    wanted = {13 - deal.cards[slot].rank for slot in range(PYRAMID_SIZE) if pyramid >> slot & 1}
    talon_indices = [t for t in range(24) if deal.cards[PYRAMID_SIZE + t].rank in wanted]
    others = [t for t in range(24) if t not in talon_indices]
    talon_indices = sorted(talon_indices + rng.sample(others, min(extra, len(others))))
    drawn = talon_indices[rng.randrange(len(talon_indices) // 2, len(talon_indices))] + 1 if talon_indices else 0
    talon = sum(1 << t for t in talon_indices)
    removed = tuple(card for index, card in enumerate(deal.cards)
                    if not (index < PYRAMID_SIZE and pyramid >> index & 1)
                    and not (index >= PYRAMID_SIZE and talon >> (index - PYRAMID_SIZE) & 1))
    return Position(deal, pyramid, talon, drawn, rules.recycle_limit, removed)


def check_waste_stack(position: Position, waste_stack: WasteStack | None = None) -> str:
    """Compare L5 with the exhaustive search at one last-pass position; say what L1 and L5 made of it
    (``"L1 cuts"``, ``"L5 cuts"``, ``"both win"``).  ``waste_stack``: one of the position's deal, to
    reuse its tables as the search does (else a new one)."""
    if waste_stack is None:
        tables = DealTables(position.deal)
        budget = Budget(SolveLimits())
        waste_stack = WasteStack(tables, Relaxation(tables, budget), budget)
    tables, relaxation = waste_stack.tables, waste_stack.relaxation
    pyramid, talon, drawn = position.pyramid, position.talon, position.drawn
    shape = tables.shape(pyramid)
    waste_cut = (talon & shape.dead_talon & ((1 << drawn) - 1)).bit_length()
    reach = talon >> waste_cut << waste_cut
    if relaxation.search(pyramid, tables.counts(reach)) is not None:
        return "L1 cuts"
    stock = talon >> drawn << drawn
    waste = reach ^ stock
    gains = waste_stack.search(pyramid, waste, tables.counts(stock))
    reference = reference_search(position)
    if reference.winnable:
        assert gains is None, "L5 cut off a win"
    if gains is None:
        return "both win"
    removed_pyramid = 28 - pyramid.bit_count()
    removed_all = 52 - pyramid.bit_count() - talon.bit_count()
    assert removed_pyramid + gains[0] >= reference.max_pyramid_removed
    assert removed_all + gains[1] + (stock & tables.talon_kings).bit_count() >= reference.max_removed
    return "L5 cuts"


def test_waste_stack_cuts_only_lost_positions_and_bounds_their_maxima() -> None:
    """A fixed sweep that must see L5 cut where L1 cannot (so that the rule is exercised) and never cut
    a win; the positions of a deal share one game, as the search's nodes do (so its table must tell
    their wastes apart)."""
    seen = {"both win": 0, "L5 cuts": 0, "L1 cuts": 0}
    for rules in RULES:
        for deal_number in range(6):
            tables = DealTables(Deal.from_number(deal_number, rules))
            budget = Budget(SolveLimits())
            shared = WasteStack(tables, Relaxation(tables, budget), budget)
            for seed in range(20):
                position = deep_waste_position(rules, deal_number, seed, 1 + seed % 2, seed % 4)
                seen[check_waste_stack(position, shared)] += 1
    assert seen["L5 cuts"] >= 30 and seen["both win"] >= 30, seen


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=st.sampled_from(RULES), deal_number=st.integers(0, 10_000), seed=st.integers(0, 2**32),
       slots=st.integers(1, 3), extra=st.integers(0, 5))
def test_property_waste_stack_never_cuts_a_win(rules: Rules, deal_number: int, seed: int, slots: int,
                                               extra: int) -> None:
    check_waste_stack(deep_waste_position(rules, deal_number, seed, slots, extra))
