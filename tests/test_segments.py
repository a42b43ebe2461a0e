"""L2, the last pass in segments (solver/segments.py), against the plain exhaustive search.

The segment game is a relaxation of the rest of the last pass: wherever the exhaustive search
finds a win it must find one too, and wherever there is none its gains must bound the true maxima
from above.  Nothing here trusts the solver: the truth is ``reference_search`` over
``Position.legal_moves()``.
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
from pyramide_cli.solver.segments import LastPassSegments
from pyramide_cli.solver.tables import DealTables
from reference_search import reference_search

RULES = [Rules.parse(text) for text in ("E", "T", "O", "T+cover-pair", "N+recycles=1", "E+recycles=0")]


def last_pass_position(rules: Rules, deal_number: int, seed: int, slots: int, extra: int) -> Position:
    """A small position in the last allowed pass: the pyramid under ``slots`` slots of rows 1-3, and a
    talon holding every card that pairs with one of its cards and ``extra`` others (often dead ones),
    so that the multiset game can often win and the order of the stock decides."""
    rng = random.Random(seed)
    deal = Deal.from_number(deal_number, rules)
    pyramid = 0
    for _ in range(slots):
        slot = rng.randrange(1, 6)
        pyramid |= 1 << slot | BASE_MASK[slot]
    wanted = {13 - deal.cards[slot].rank for slot in range(PYRAMID_SIZE) if pyramid >> slot & 1}
    talon_indices = [t for t in range(24) if deal.cards[PYRAMID_SIZE + t].rank in wanted]
    others = [t for t in range(24) if t not in talon_indices]
    talon_indices += rng.sample(others, min(extra, len(others)))
    talon = sum(1 << t for t in talon_indices)
    drawn = rng.choice([0] + [t + 1 for t in talon_indices])
    removed = tuple(card for index, card in enumerate(deal.cards)
                    if not (index < PYRAMID_SIZE and pyramid >> index & 1)
                    and not (index >= PYRAMID_SIZE and talon >> (index - PYRAMID_SIZE) & 1))
    return Position(deal, pyramid, talon, drawn, rules.recycle_limit, removed)


def check_segments(position: Position) -> str:
    """Compare L2 with the exhaustive search at one last-pass position; say what L1 and L2 made of it
    (``"both win"``, ``"L2 cuts"``, ``"L1 cuts"``)."""
    tables = DealTables(position.deal)
    budget = Budget(SolveLimits())
    relaxation = Relaxation(tables, budget)
    segments = LastPassSegments(tables, relaxation, budget)
    pyramid, talon, drawn = position.pyramid, position.talon, position.drawn
    shape = tables.shape(pyramid)
    waste_cut = (talon & shape.dead_talon & ((1 << drawn) - 1)).bit_length()
    reach = talon >> waste_cut << waste_cut
    if relaxation.search(pyramid, tables.counts(reach)) is not None:
        return "L1 cuts"
    gains = segments.gains(pyramid, shape, talon, drawn, waste_cut)
    reference = reference_search(position)
    if reference.winnable:
        assert gains is None, "L2 cut off a win"
        return "both win"
    if gains is None:
        return "both win"
    removed_pyramid = 28 - pyramid.bit_count()
    removed_all = 52 - pyramid.bit_count() - talon.bit_count()
    assert removed_pyramid + gains[0] >= reference.max_pyramid_removed
    assert removed_all + gains[1] + (reach & tables.talon_kings).bit_count() >= reference.max_removed
    return "L2 cuts"


def test_segments_cut_only_lost_positions_and_bound_their_maxima() -> None:
    """A fixed sweep that must see L2 cut where L1 cannot (so that the rule is exercised) and never
    cut a win."""
    seen = {"both win": 0, "L2 cuts": 0, "L1 cuts": 0}
    for rules in RULES:
        for seed in range(40):
            position = last_pass_position(rules, seed, seed, 1 + seed % 2, 2 + seed % 5)
            seen[check_segments(position)] += 1
    assert seen["L2 cuts"] >= 10 and seen["both win"] >= 10, seen


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=st.sampled_from(RULES), deal_number=st.integers(0, 10_000), seed=st.integers(0, 2**32),
       slots=st.integers(1, 2), extra=st.integers(0, 7))
def test_property_segments_never_cut_a_win(rules, deal_number, seed, slots, extra) -> None:
    check_segments(last_pass_position(rules, deal_number, seed, slots, extra))
