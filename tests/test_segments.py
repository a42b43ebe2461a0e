"""last-pass-segments, the last pass in segments (solver/segments.py), against the plain exhaustive search.

The segment game is a relaxation of the rest of the last pass: wherever the exhaustive search
finds a win it must find one too, and wherever there is none its gains must bound the true maxima
from above.  Nothing here trusts the solver: the truth is ``reference_search`` over
``Position.legal_moves``.
"""

from __future__ import annotations


import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pyramide_cli.engine.position import Position
from pyramide_cli.engine.rules import Rules
from pyramide_cli.solver.budget import Budget, Limits
from pyramide_cli.solver.relaxation import Relaxation
from pyramide_cli.solver.segments import LastPassSegments
from pyramide_cli.solver.tables import DealTables
from reference_search import buried_waste_reach, check_cut, last_pass_position

RULES = [Rules.parse(text) for text in ("E", "T", "O", "T+cover-pair", "N+recycles=1", "E+recycles=0")]


def check_segments(position: Position) -> str:
    """Compare last-pass-segments with the exhaustive search at one last-pass position; say what
    buried-waste and last-pass-segments made of it (``"both win"``, ``"last-pass-segments cuts"``,
    ``"buried-waste cuts"``)."""
    tables = DealTables(position.deal)
    budget = Budget(Limits())
    relaxation = Relaxation(tables, budget)
    segments = LastPassSegments(tables, relaxation, budget)
    reach = buried_waste_reach(position, tables, relaxation)
    if reach is None:
        return "buried-waste cuts"
    talon = position.talon
    gains = segments.gains(position.pyramid, tables.shape(position.pyramid), talon, position.drawn,
                           (talon ^ reach).bit_length())
    return check_cut(position, gains, (reach & tables.talon_kings).bit_count(), "last-pass-segments")


def test_segments_cut_only_lost_positions_and_bound_their_maxima() -> None:
    """A fixed sweep that must see last-pass-segments cut where buried-waste cannot (so that the rule
    is exercised) and never cut a win."""
    seen = {"both win": 0, "last-pass-segments cuts": 0, "buried-waste cuts": 0}
    for rules in RULES:
        for seed in range(40):
            position = last_pass_position(rules, seed, seed, 1 + seed % 2, 2 + seed % 5)
            seen[check_segments(position)] += 1
    assert seen["last-pass-segments cuts"] >= 10 and seen["both win"] >= 10, seen


@pytest.mark.no_cover
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=st.sampled_from(RULES), deal_number=st.integers(0, 10_000), seed=st.integers(0, 2**32),
       slots=st.integers(1, 2), extra=st.integers(0, 7))
def test_property_segments_never_cut_a_win(rules, deal_number, seed, slots, extra) -> None:
    check_segments(last_pass_position(rules, deal_number, seed, slots, extra))
