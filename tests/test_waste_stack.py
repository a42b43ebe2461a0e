"""waste-stack, the last pass's waste in its order (solver/waste_stack.py), against the plain exhaustive search.

The waste-stack game is a relaxation of the rest of the last pass under ``draw-3``: wherever the
exhaustive search finds a win it must be able to clear the pyramid too, and wherever it cannot its
gains must bound the true maxima from above.  Nothing here trusts the solver: the truth is
``reference_search`` over ``Position.legal_moves``.
"""

from __future__ import annotations


from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pyramide_cli.engine.deal import Deal
from pyramide_cli.engine.position import Position
from pyramide_cli.engine.rules import Rules
from pyramide_cli.solver.budget import Budget, Limits
from pyramide_cli.solver.relaxation import Relaxation
from pyramide_cli.solver.tables import DealTables
from pyramide_cli.solver.waste_stack import WasteStack
from reference_search import buried_waste_reach, check_cut, last_pass_position

RULES = [Rules.parse(text) for text in ("T+draw-3", "E+draw-3", "O+draw-3", "T+draw-3+cover-pair",
                                        "T+draw-3+strict", "E+draw-3+recycles=0")]


def check_waste_stack(position: Position, waste_stack: WasteStack | None = None) -> str:
    """Compare waste-stack with the exhaustive search at one last-pass position; say what
    buried-waste and waste-stack made of it (``"buried-waste cuts"``, ``"waste-stack cuts"``,
    ``"both win"``).  ``waste_stack``: one of the position's deal, to reuse its tables as the search
    does (else a new one)."""
    if waste_stack is None:
        tables = DealTables(position.deal)
        budget = Budget(Limits())
        waste_stack = WasteStack(tables, Relaxation(tables, budget), budget)
    tables = waste_stack.tables
    reach = buried_waste_reach(position, tables, waste_stack.relaxation)
    if reach is None:
        return "buried-waste cuts"
    stock = position.talon >> position.drawn << position.drawn
    gains = waste_stack.search(position.pyramid, reach ^ stock, tables.counts(stock))
    return check_cut(position, gains, (stock & tables.talon_kings).bit_count(), "waste-stack")


def test_waste_stack_cuts_only_lost_positions_and_bounds_their_maxima() -> None:
    """A fixed sweep that must see waste-stack cut where buried-waste cannot (so that the rule is
    exercised) and never cut a win; the positions of a deal share one game, as the search's nodes do
    (so its table must tell their wastes apart)."""
    seen = {"both win": 0, "waste-stack cuts": 0, "buried-waste cuts": 0}
    for rules in RULES:
        for deal_number in range(6):
            tables = DealTables(Deal.from_number(deal_number, rules))
            budget = Budget(Limits())
            shared = WasteStack(tables, Relaxation(tables, budget), budget)
            for seed in range(20):
                position = last_pass_position(rules, deal_number, seed, 1 + seed % 2, seed % 4, deep_waste=True)
                seen[check_waste_stack(position, shared)] += 1
    assert seen["waste-stack cuts"] >= 30 and seen["both win"] >= 30, seen


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=st.sampled_from(RULES), deal_number=st.integers(0, 10_000), seed=st.integers(0, 2**32),
       slots=st.integers(1, 3), extra=st.integers(0, 5))
def test_property_waste_stack_never_cuts_a_win(rules: Rules, deal_number: int, seed: int, slots: int,
                                               extra: int) -> None:
    check_waste_stack(last_pass_position(rules, deal_number, seed, slots, extra, deep_waste=True))
