"""Each pruning rule the solver can run without (``SearchOptions.disabled``): switched off, the
solve gives the plain exhaustive search's verdict and maxima, as with it on; the rules that are the
search's structure cannot be switched off."""

from __future__ import annotations

import pytest

from pyramide_cli.engine.deal import Deal
from pyramide_cli.engine.game import Game
from pyramide_cli.engine.rules import Rules
from pyramide_cli.solver import Limits, SearchOptions, SearchRule, Verdict, solve
from pyramide_cli.solver.rules import SWITCHABLE
from reference_search import reference_search, small_position

RULE_SETS = {  # rule sets under which each rule is used
    SearchRule.PASS_START: "N+draw-3",
    SearchRule.LOST_POINTERS: "N+draw-3",
    SearchRule.UNREACHABLE_TALON: "O+draw-3",
    SearchRule.MULTISET_RELAXATION: "T",
    SearchRule.BURIED_WASTE: "E",
    SearchRule.LAST_PASS_SEGMENTS: "E",
    SearchRule.WASTE_STACK: "T+draw-3",
    SearchRule.BRANCH_AND_BOUND: "T",
    SearchRule.TALON_ORDER: "T+stock-top",
    SearchRule.PROBE: "T+waste-pair",
    SearchRule.TALON_SET: "T+stock-top",
}


def test_every_switchable_rule_has_a_rule_set_here() -> None:
    assert set(RULE_SETS) == SWITCHABLE


@pytest.mark.parametrize("rule", sorted(SWITCHABLE, key=lambda rule: rule.value))
def test_a_search_without_the_rule_gives_the_exhaustive_answers(rule: SearchRule) -> None:
    rules = Rules.parse(RULE_SETS[rule])
    options = SearchOptions(disabled=frozenset({rule}))
    unwinnable = 0
    for seed in range(6):
        position = small_position(seed, rules, seed, slots=2, talon_size=10)
        reference = reference_search(position)
        result = solve(position, options=options)
        assert result.verdict is (Verdict.WINNABLE if reference.winnable else Verdict.UNWINNABLE), seed
        if not reference.winnable:
            unwinnable += 1
            assert (result.max_pyramid_removed, result.max_removed) == (reference.max_pyramid_removed,
                                                                        reference.max_removed), seed
    assert unwinnable


@pytest.mark.parametrize(("rule", "number"), [(SearchRule.MULTISET_RELAXATION, 3), (SearchRule.BURIED_WASTE, 1),
                                              (SearchRule.PASS_START, 2), (SearchRule.LOST_POINTERS, 2),
                                              (SearchRule.UNREACHABLE_TALON, 4)])
def test_the_rule_prunes_and_keeps_the_answer(rule: SearchRule, number: int) -> None:
    deal = Deal.from_number(number, Rules.parse(RULE_SETS[rule]))
    with_rule = solve(deal)
    without = solve(deal, options=SearchOptions(disabled=frozenset({rule})))
    assert with_rule.verdict is without.verdict
    assert (with_rule.max_pyramid_removed, with_rule.max_removed) == (without.max_pyramid_removed,
                                                                     without.max_removed)
    assert with_rule.states < without.states


@pytest.mark.parametrize("rule", [SearchRule.WALK_EDGES, SearchRule.TIME_DOMINANCE, SearchRule.PYRAMID_KINGS])
def test_a_structural_rule_cannot_be_switched_off(rule: SearchRule) -> None:
    with pytest.raises(ValueError, match=rule.value):
        solve("PY1-T-AAAAAAB", options=SearchOptions(disabled=frozenset({rule})))


@pytest.mark.parametrize(("rules_text", "number", "budget"), [
    ("N+draw-3", 12, 6_000), ("N+draw-3", 78, 4_000), ("T+draw-3", 41, 150),
])
def test_draw_three_deals_are_decided_within_budgets_the_search_without_its_rules_exceeds(
        rules_text: str, number: int, budget: int) -> None:
    """A sample of ``bench/bench_budgets.py``: with lost-pointers and unreachable-talon these deals are
    decided within ``budget`` positions, and without them the search needs more."""
    deal = Deal.from_number(number, Rules.parse(rules_text))
    limits = Limits(max_states=budget, timeout=None)
    assert solve(deal, limits=limits).verdict is not Verdict.UNKNOWN
    without = SearchOptions(disabled=frozenset({SearchRule.LOST_POINTERS, SearchRule.UNREACHABLE_TALON}))
    assert solve(deal, limits=limits, options=without).verdict is Verdict.UNKNOWN


def test_time_dominance_prunes_only_nodes_reached_no_earlier() -> None:
    """time-dominance: a node is lost like a failed node on its key only if it was reached no earlier (under
    draw-3 with limited recycles, with no more recycles left).  Deal 1 under T+draw-3 is won only through
    a node reached again with one recycle more left than when its key failed: pruning that node as well
    (an off-by-one in the comparison) makes the deal unwinnable."""
    deal = Deal.from_number(1, Rules.parse("T+draw-3"))
    result = solve(deal)
    assert result.verdict is Verdict.WINNABLE
    assert Game.replay(deal, result.solution).position.is_won
