"""The solver: every line it gives wins on the engine, and it agrees with a plain exhaustive search.

Nothing here trusts the solver's own output: lines are replayed with the engine; verdicts, the
most cards removable and the fewest actions are checked against ``reference_search`` (a plain
breadth-first search over ``Position.legal_moves``).
"""

from __future__ import annotations


import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pyramide_cli.engine.deal import Deal
from pyramide_cli.engine.game import Game
from pyramide_cli.engine.moves import Move
from pyramide_cli.engine.position import Position
from pyramide_cli.engine.rules import Rules
from pyramide_cli.solver import (
    DEFAULT_LIMITS, DEFAULT_MAX_STATES, Limit, Limits, SolveResult, Verdict, solve, solve_for_hint,
    uses_multiset_search,
)
from reference_search import Reference, reference_search, small_position
from rules_strategies import any_rules
from sweeps import PARTWAY_SETS, partway, replays_to_win, sweep_partway, sweep_whole_deals

RULE_SETS = [
    "N", "T", "E", "O", "N+strict", "T+strict", "T+recycles=1", "N+recycles=3", "T+waste-pair", "T+cover-pair",
    "T+stock-top", "T+draw-3", "N+draw-3", "N+stock-top", "N+waste-pair+strict", "O+stock-top+waste-pair",
    "N+cover-pair", "T+recycles=1+draw-3+strict", "E+stock-top+strict", "N+draw-3+strict+cover-pair",
]


def check_against_reference(position: Position) -> None:
    reference = reference_search(position)
    result = solve(position)
    assert result.verdict is (Verdict.WINNABLE if reference.winnable else Verdict.UNWINNABLE)
    if reference.winnable:
        assert replays_to_win(position, result.solution)
        shortest = solve(position, optimal=True)
        assert shortest.optimal
        assert replays_to_win(position, shortest.solution)
        assert len(shortest.solution) == reference.shortest
        assert len(shortest.solution) <= len(result.solution)
    else:
        assert result.solution is None
        assert result.max_pyramid_removed == reference.max_pyramid_removed
        assert result.max_removed == reference.max_removed
        if result.best_line is not None:
            end = position
            for move in result.best_line:
                end = end.apply(move)
            assert 28 - end.pyramid.bit_count() == reference.max_pyramid_removed
    check_hint_search(position, reference)


def check_hint_search(position: Position, reference: Reference) -> None:
    """The hint's search (the pyramid objective): the same verdict, the most pyramid cards, and a
    line that reaches them."""
    hinted = solve_for_hint(position)
    assert hinted.verdict is (Verdict.WINNABLE if reference.winnable else Verdict.UNWINNABLE)
    if reference.winnable:
        assert replays_to_win(position, hinted.solution)
        return
    assert hinted.max_pyramid_removed == reference.max_pyramid_removed
    end = position
    for move in hinted.best_line or ():
        end = end.apply(move)
    assert 28 - end.pyramid.bit_count() == reference.max_pyramid_removed


TRACED_RULE_SETS = {"T+recycles=1+draw-3+strict", "N+draw-3+strict+cover-pair", "T+draw-3", "T+stock-top",
                    "T+waste-pair"}
"""The rule sets of the sweep below that coverage traces: they run solver lines no other test runs; the
others run untraced (``no_cover``, tests/conftest.py)."""


# -- agreement with the plain exhaustive search -------------------------------------------------------
@pytest.mark.parametrize("rules_text", [rules if rules in TRACED_RULE_SETS
                                        else pytest.param(rules, marks=pytest.mark.no_cover) for rules in RULE_SETS])
def test_agrees_with_plain_exhaustive_search_on_small_positions(rules_text: str) -> None:
    rules = Rules.parse(rules_text)
    wins = 0
    for seed in range(30):
        position = small_position(seed, rules, seed, slots=1 + seed % 2, talon_size=9)
        check_against_reference(position)
        wins += reference_search(position).winnable
    if not rules.strict and rules.passes != 1:  # wins are rare in a single pass or under strict
        assert 0 < wins < 30  # both verdicts are exercised


@pytest.mark.no_cover
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=any_rules(),
    deal_number=st.integers(0, 10_000),
    seed=st.integers(0, 2**32),
    slots=st.integers(1, 3),
    talon_size=st.integers(0, 10),
)
def test_property_agrees_with_plain_exhaustive_search(rules, deal_number, seed, slots, talon_size) -> None:
    """Every rule set (any preset, any combination of variants, any small recycle limit): the verdict,
    the maxima and the --optimal length agree with the plain search on small positions."""
    check_against_reference(small_position(deal_number, rules, seed, slots, talon_size))


@pytest.mark.no_cover
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=any_rules(), deal_number=st.integers(0, 10_000), seed=st.integers(0, 2**32),
       talon_size=st.integers(10, 14))
def test_property_agrees_with_plain_exhaustive_search_on_larger_positions(rules, deal_number, seed,
                                                                           talon_size) -> None:
    """Larger talons, where the walk, the pass rules and the bounds of the maxima have more to do."""
    check_against_reference(small_position(deal_number, rules, seed, 3, talon_size))


# -- whole deals: every line wins on the engine ----------------------------------------------------------
SAMPLE = range(0, 200, 8)
"""Every 8th deal of the 200 that ``bench/bench_solver_sweeps.py`` sweeps in full (``make bench``)."""
WINNABLE_EXTRA = {"N+strict": (29,), "T+strict": (29,), "T+draw-3": (29, 76)}
"""Deals winnable partway in under rules where the sample has none, so that a line is checked there too."""


@pytest.mark.no_cover
@pytest.mark.parametrize("preset", ["N", "T"])
def test_every_solution_replays_to_a_win_over_a_sample_of_deals(preset: str) -> None:
    count = sweep_whole_deals(preset, SAMPLE)
    assert count.winnable >= 10 and count.unwinnable >= 5  # both verdicts are exercised


@pytest.mark.no_cover
@pytest.mark.parametrize("rules_text, actions", [(rules, actions) for rules, actions, _ in PARTWAY_SETS])
def test_every_solution_replays_to_a_win_partway_into_a_sample_of_deals(rules_text: str, actions: int) -> None:
    """Slower rule sets: solve from a position partway into each deal (as from a save)."""
    count = sweep_partway(rules_text, actions, [*SAMPLE, *WINNABLE_EXTRA.get(rules_text, ())])
    assert count.winnable >= 1  # at least one line is replayed


def test_solves_from_a_game_in_progress_and_from_a_won_position() -> None:
    deal = Deal.from_code("PY1-N-AAAAAAB")
    game = Game(deal)
    game.apply(Move.parse("KC"))
    result = solve(game)
    assert result.winnable and replays_to_win(game.position, result.solution)
    end = game.position
    for move in result.solution:
        end = end.apply(move)
    done = solve(end)
    assert done.verdict is Verdict.WINNABLE and done.solution == () and done.optimal


def test_r17_stuck_deal_never_gets_past_14_cards() -> None:
    """examples/stuck-n.yaml: deal 668 under N never gets past 14 cards (7 pyramid cards)."""
    deal = Deal.from_code("PY1-N-AAAAAU4")
    result = solve(deal)
    reference = reference_search(Position.start(deal))
    assert result.verdict is Verdict.UNWINNABLE and not reference.winnable
    assert (result.max_pyramid_removed, result.max_removed) == (reference.max_pyramid_removed, reference.max_removed)
    assert result.max_removed == 14 and result.max_pyramid_removed == 7


# -- limits and optimality ---------------------------------------------------------------------------------
@pytest.mark.no_cover
@pytest.mark.parametrize("preset, numbers", [("T", range(0, 12)), ("N", range(0, 12))])
def test_same_verdict_from_every_limit_setting_that_decides(preset: str, numbers) -> None:
    rules = Rules.preset(preset)
    for number in numbers:
        deal = Deal.from_number(number, rules)
        full = solve(deal, limits=Limits(max_states=None, timeout=None))
        assert full.verdict is not Verdict.UNKNOWN
        for max_states in (5, 50, 500, 5_000, 50_000):
            limited = solve(deal, limits=Limits(max_states=max_states))
            if limited.verdict is Verdict.UNKNOWN:
                assert limited.solution is None and limited.limit is Limit.POSITIONS
                assert limited.states == max_states
            else:
                assert limited.verdict is full.verdict
                assert ((limited.max_pyramid_removed, limited.max_removed)
                        == (full.max_pyramid_removed, full.max_removed))


def test_a_tiny_timeout_gives_unknown_and_says_the_clock_struck() -> None:
    result = solve(Deal.from_number(159, Rules.preset("T")), limits=Limits(timeout=1e-9))
    assert result.verdict is Verdict.UNKNOWN and result.limit is Limit.TIMEOUT
    assert result.to_dict()["limit"] == "timeout"


def test_the_default_limits_are_a_position_budget_without_a_clock() -> None:
    assert DEFAULT_LIMITS.timeout is None and DEFAULT_LIMITS.max_states == DEFAULT_MAX_STATES


def test_max_states_is_honoured_exactly() -> None:
    """Issue 11: ``--max-states 1`` once answered winnable after 48 positions.  A search never
    expands more positions than its budget, and a budget that suffices gives the same answer."""
    deal = Deal.from_code("PY1-T-AAAAAAC")
    needed = solve(deal, limits=Limits(max_states=None)).states
    assert needed > 1
    for max_states in sorted({1, 2, needed // 2, needed - 1}):
        limited = solve(deal, limits=Limits(max_states=max_states))
        assert limited.verdict is Verdict.UNKNOWN and limited.states == max_states
        assert limited.limit is Limit.POSITIONS and limited.to_dict()["limit"] == "positions"
    enough = solve(deal, limits=Limits(max_states=needed))
    assert enough.verdict is Verdict.WINNABLE and enough.states == needed


@pytest.mark.parametrize("rules_text", ["N", "T", "T+stock-top"])
def test_optimal_is_never_longer_than_plain(rules_text: str) -> None:
    rules = Rules.parse(rules_text)
    checked = 0
    for number in range(40):
        position = partway(Deal.from_number(number, rules), number, 24)
        plain = solve(position)
        if not plain.winnable:
            continue
        best = solve(position, optimal=True)
        assert best.optimal and replays_to_win(position, best.solution)
        assert len(best.solution) <= len(plain.solution)
        checked += 1
    assert checked >= 3


def test_multiset_search_is_used_exactly_for_unlimited_draw_one_without_talon_pairs() -> None:
    assert uses_multiset_search(Rules.parse("N")) and uses_multiset_search(Rules.parse("N+strict+cover-pair"))
    for text in ("T", "N+draw-3", "N+waste-pair", "N+stock-top", "N+recycles=5"):
        assert not uses_multiset_search(Rules.parse(text))


def test_result_as_json_fields() -> None:
    result = solve(Deal.from_code("PY1-N-AAAAAU4"))
    document = result.to_dict()
    assert document["verdict"] == "unwinnable" and document["solution"] is None
    assert document["max_pyramid_removed"] == 7 and isinstance(document["states"], int)
    won = solve(Deal.from_code("PY1-N-AAAAAAB")).to_dict()
    assert won["verdict"] == "winnable" and won["actions"] == len(won["solution"])
    assert all(Move.parse(text) for text in won["solution"])


def test_bad_arguments() -> None:
    from pyramide_cli.engine.errors import DealCodeError

    with pytest.raises(TypeError):
        solve(Rules.preset("N"))  # type: ignore[arg-type]
    with pytest.raises(DealCodeError):
        solve("PY1-N-AAAAAA")
    by_code, by_deal = solve("PY1-N-AAAAAAB"), solve(Deal.from_code("PY1-N-AAAAAAB"))  # a code is its deal's start
    assert (by_code.verdict, by_code.solution, by_code.states) == (by_deal.verdict, by_deal.solution, by_deal.states)
    with pytest.raises(ValueError):
        Limits(max_states=0)
    with pytest.raises(ValueError):
        Limits(timeout=-1)
    assert isinstance(solve(Deal.from_number(1)), SolveResult)
