"""Grading, levels and the daily deal (R25–R26) in the engine layer (grade.py).

The random player's record is checked against :func:`playout.win_rate` (the same seed through
another path); early stopping is checked against playing every game; level deals and daily deals
are checked with the solver *and* by replaying the solver's line with the engine.
"""

from __future__ import annotations

import datetime
import os
import random
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyramide_cli.analysis import grade
from pyramide_cli.engine.deal import MAX_DEAL_NUMBER, Deal
from pyramide_cli.solver import Verdict
from pyramide_cli.analysis.grade import (
    GRADING_SEED, LEVELS, GradeError, GradingRun, Level, LevelThresholds, daily_start, decided_or_ruled_out,
    find_level_deal,
    grade_deal, is_level_deal, parse_date, parse_level, seed_start, thresholds_for,
)
from pyramide_cli.analysis.level_table import LEVEL_TABLE
from pyramide_cli.engine.playout import PlayoutTables, random_game, win_rate
from pyramide_cli.engine.rules import PRESETS, Rules

SMALL = LevelThresholds("N", 40, 12, 6, 2)
"""Few games, for tests that play many deals."""


def parity_prover(deal: Deal) -> Verdict:
    """A stand-in for the solver: even deal numbers winnable, odd unwinnable, multiples of 5 unknown."""
    if deal.number % 5 == 0:
        return Verdict.UNKNOWN
    return Verdict.WINNABLE if deal.number % 2 == 0 else Verdict.UNWINNABLE


# -- names and dates ---------------------------------------------------------------------------
@pytest.mark.parametrize("text, level", [("easy", Level.EASY), ("Medium", Level.MEDIUM), (" HARD ", Level.HARD),
                                         ("expert", Level.EXPERT)])
def test_level_names_read_in_any_case(text, level):
    assert parse_level(text) is level


@pytest.mark.parametrize("text", ["", "easiest", "medium-hard", "3", "facile"])
def test_bad_level_names_are_clear_errors(text):
    with pytest.raises(GradeError, match=r"unknown level .*choose easy, medium, hard or expert"):
        parse_level(text)


def test_levels_are_the_four_of_r25_in_save_order():
    assert [str(level) for level in LEVELS] == ["easy", "medium", "hard", "expert"]
    assert Level.HARD.label == "Hard"


def test_dates_are_iso_calendar_dates():
    assert parse_date("2026-03-14") == datetime.date(2026, 3, 14)
    assert parse_date(" 2024-02-29 ") == datetime.date(2024, 2, 29)


@pytest.mark.parametrize("text, reason", [
    ("2025-02-29", "day is out of range"), ("2026-13-01", "month must be in 1..12"),
    ("2026-3-14", "expected YYYY-MM-DD"), ("14/03/2026", "expected YYYY-MM-DD"), ("today", "expected YYYY-MM-DD"),
    ("20260314", "expected YYYY-MM-DD"), ("", "expected YYYY-MM-DD"),
])
def test_bad_dates_are_clear_errors(text, reason):
    with pytest.raises(GradeError, match=reason) as caught:
        parse_date(text)
    assert repr(text) in str(caught.value)


# -- thresholds --------------------------------------------------------------------------------
def test_every_preset_has_sane_thresholds():
    for letter in PRESETS:
        limits = thresholds_for(Rules.preset(letter))
        assert limits.games >= limits.easy > limits.medium > limits.hard >= 1
        assert (limits.games, limits.easy, limits.medium, limits.hard) == tuple(
            LEVEL_TABLE[letter][key] for key in ("games", "easy", "medium", "hard"))


def test_variants_use_their_presets_thresholds():
    assert thresholds_for(Rules.parse("T+strict+waste-pair")) == thresholds_for(Rules.preset("T"))


def test_level_bands_cover_every_win_count_once():
    limits = LevelThresholds("T", 100, 30, 10, 3)
    assert [limits.level_of(wins) for wins in (0, 2, 3, 9, 10, 29, 30, 100)] == [
        Level.EXPERT, Level.EXPERT, Level.HARD, Level.HARD, Level.MEDIUM, Level.MEDIUM, Level.EASY, Level.EASY]
    for wins in range(101):
        inside = [level for level in LEVELS if limits.minimum_wins(level) <= wins <= limits.maximum_wins(level)]
        assert inside == [limits.level_of(wins)]
    assert limits.rate_band(Level.HARD) == (0.03, 0.10)
    assert limits.rate_band(Level.EASY) == (0.30, 1.0)


@pytest.mark.parametrize("numbers", [(10, 5, 7, 2), (10, 11, 5, 2), (10, 6, 6, 2), (10, 6, 3, 0)])
def test_thresholds_must_be_ordered(numbers):
    with pytest.raises(ValueError, match="must satisfy"):
        LevelThresholds("N", *numbers)


# -- the random player's games -----------------------------------------------------------------
@pytest.mark.parametrize("rules_text", ["N", "T", "E", "O", "T+strict"])
def test_grading_plays_the_documented_seeded_games(rules_text):
    """R25: the record equals playout.win_rate with GRADING_SEED, and a hand-rolled loop on random.Random."""
    deal = Deal.from_number(7, Rules.parse(rules_text))
    run = GradingRun(deal, SMALL).play()
    assert run.played == SMALL.games
    assert run.wins == round(win_rate(deal, SMALL.games, GRADING_SEED) * SMALL.games)
    tables, rng = PlayoutTables(deal), random.Random(GRADING_SEED).random
    assert run.wins == sum(random_game(tables, rng).won for _ in range(SMALL.games))


def test_grading_is_deterministic_across_processes():
    """No dependence on hash randomisation or process state: two interpreters agree with this one."""
    code = ("from pyramide_cli.analysis.grade import GradingRun, LevelThresholds; "
            "from pyramide_cli.engine.deal import Deal; "
            "print([GradingRun(Deal.from_number(n), LevelThresholds('N', 60, 20, 8, 2)).play().wins "
            "for n in (1, 2, 5, 6)])")
    outputs = {
        subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                       env={**os.environ, "PYTHONHASHSEED": seed}).stdout
        for seed in ("1", "2")
    }
    here = str([GradingRun(Deal.from_number(n), LevelThresholds("N", 60, 20, 8, 2)).play().wins for n in (1, 2, 5, 6)])
    assert outputs == {here + "\n"}


def test_the_random_player_tells_deals_apart():
    """Not a constant: under N some deals are won often and some never (a grading that can fail)."""
    wins = [GradingRun(Deal.from_number(number), SMALL).play().wins for number in range(12)]
    assert min(wins) == 0 and max(wins) >= 5


@pytest.mark.no_cover
@settings(max_examples=40, deadline=None)
@given(st.integers(0, MAX_DEAL_NUMBER), st.sampled_from(["N", "T"]), st.integers(1, 5), st.integers(1, 6),
       st.integers(1, 12), st.sampled_from(LEVELS))
def test_early_stopping_gives_the_level_of_playing_every_game(number, preset, hard, medium_step, easy_step, wanted):
    limits = LevelThresholds(preset, 30, hard + medium_step + easy_step, hard + medium_step, hard)
    deal = Deal.from_number(number, Rules.preset(preset))
    full_level = limits.level_of(GradingRun(deal, limits).play().wins)
    decided = GradingRun(deal, limits).play(until=lambda run: run.level is not None)
    assert decided.level is full_level
    partial = GradingRun(deal, limits).play(until=lambda run: run.rules_out(wanted))
    if partial.rules_out(wanted):
        assert full_level is not wanted
    else:
        assert partial.played == limits.games and full_level is wanted
    both = GradingRun(deal, limits).play(until=decided_or_ruled_out(wanted))
    assert both.level is full_level or (both.rules_out(wanted) and full_level is not wanted)


def test_play_resumes_where_it_stopped():
    deal = Deal.from_number(2)
    whole = GradingRun(deal, SMALL).play()
    pieces = GradingRun(deal, SMALL).play(7).play(10).play()
    assert (pieces.wins, pieces.played) == (whole.wins, whole.played)
    assert GradingRun(deal, SMALL).play(7).played == 7


# -- grading a deal (stand-in solver: the real one is tested below) ----------------------------
def test_grade_of_a_winnable_deal_has_the_level_of_its_win_count():
    deal = Deal.from_number(2)
    graded = grade_deal(deal, prover=lambda _: Verdict.WINNABLE)
    limits = thresholds_for(deal.rules)
    assert graded.games == limits.games
    assert graded.wins == round(win_rate(deal, limits.games, GRADING_SEED) * limits.games)
    assert graded.win_rate == graded.wins / graded.games
    assert graded.winnable is True and graded.level is limits.level_of(graded.wins)


def test_unwinnable_deals_have_no_level():
    graded = grade_deal(Deal.from_number(3), prover=lambda _: Verdict.UNWINNABLE)
    assert graded.winnable is False and graded.level is None and graded.wins == 0


def test_a_random_win_proves_a_deal_the_solver_left_undecided():
    won = grade_deal(Deal.from_number(1), prover=lambda _: Verdict.UNKNOWN)
    assert won.wins > 0 and won.winnable is True and won.level is not None
    never = grade_deal(Deal.from_number(3), prover=lambda _: Verdict.UNKNOWN)
    assert never.wins == 0 and never.winnable is None and never.level is None


# -- level searches with a stand-in solver -----------------------------------------------------
@pytest.mark.parametrize("level", LEVELS)
def test_a_level_search_returns_the_first_proven_deal_of_that_level(level, monkeypatch):
    monkeypatch.setattr(grade, "thresholds_for", lambda rules: SMALL)
    start = 1000
    found = find_level_deal(level, Rules(), start, prover=parity_prover)
    assert found.level is level and found.start == start and found.deal.number == start + found.scanned - 1
    assert parity_prover(found.deal) is Verdict.WINNABLE
    assert SMALL.level_of(GradingRun(found.deal, SMALL).play().wins) is level
    for number in range(start, found.deal.number):  # nothing earlier qualified
        skipped = Deal.from_number(number)
        assert (parity_prover(skipped) is not Verdict.WINNABLE
                or SMALL.level_of(GradingRun(skipped, SMALL).play().wins) is not level)


@pytest.mark.no_cover
def test_is_level_deal_never_accepts_what_the_solver_does_not_prove():
    for number in range(40):
        deal = Deal.from_number(number)
        verdict = parity_prover(deal)
        accepted = [level for level in LEVELS if is_level_deal(deal, level, parity_prover, SMALL)]
        if verdict is Verdict.WINNABLE:
            assert accepted == [SMALL.level_of(GradingRun(deal, SMALL).play().wins)]
        else:
            assert accepted == []


def test_a_search_wraps_after_the_last_deal_number(monkeypatch):
    monkeypatch.setattr(grade, "thresholds_for", lambda rules: SMALL)
    found = find_level_deal(Level.EXPERT, Rules(), MAX_DEAL_NUMBER, prover=lambda _: Verdict.WINNABLE)
    assert found.deal.number in (MAX_DEAL_NUMBER, *range(0, found.scanned))


def test_a_search_that_finds_nothing_says_so():
    with pytest.raises(GradeError, match=r"no easy deal under rules T among the 5 deals from number 40"):
        find_level_deal(Level.EASY, Rules.preset("T"), 40, prover=lambda _: Verdict.UNWINNABLE, max_scan=5)


# -- starts of the scans -----------------------------------------------------------------------
def test_daily_start_depends_on_the_date_alone():
    day = datetime.date(2026, 3, 14)
    assert daily_start(day) == daily_start(datetime.date.fromisoformat("2026-03-14"))
    starts = {daily_start(day + datetime.timedelta(days=offset)) for offset in range(365)}
    assert len(starts) == 365
    assert all(0 <= start <= MAX_DEAL_NUMBER for start in starts)


def test_seed_starts_spread_and_reject_bad_seeds():
    starts = [seed_start(seed) for seed in range(200)]
    assert len(set(starts)) == 200
    assert max(abs(a - b) for a, b in zip(starts, starts[1:], strict=False)) > 1000  # not neighbours
    assert all(0 <= start <= MAX_DEAL_NUMBER for start in starts)
    for bad in (-1, 2**64):
        with pytest.raises(GradeError, match="seed .* out of range"):
            seed_start(bad)


# -- with the real solver ----------------------------------------------------------------------
def proven_and_replayed(deal: Deal) -> bool:
    """The solver (default limits, not grading's) says winnable and its line wins when the engine replays it."""
    from pyramide_cli.engine.game import Game
    from pyramide_cli.solver import solve

    result = solve(deal)
    if result.verdict is not Verdict.WINNABLE:
        return False
    return Game.replay(deal, result.solution).position.is_won


def full_grade_level(deal: Deal) -> Level:
    """The level from every game, counted through playout.win_rate (not through GradingRun)."""
    limits = thresholds_for(deal.rules)
    return limits.level_of(round(win_rate(deal, limits.games, GRADING_SEED) * limits.games))


@pytest.mark.no_cover
@pytest.mark.parametrize("preset", ["N", "T"])
@pytest.mark.parametrize("level", LEVELS)
def test_level_deals_are_proven_winnable_and_grade_to_their_level(preset, level):
    rules = Rules.preset(preset)
    for seed in (11,):
        found = find_level_deal(level, rules, seed_start(seed))
        assert found.level is level and found.deal.rules == rules
        assert proven_and_replayed(found.deal), found.deal.code
        assert full_grade_level(found.deal) is level, found.deal.code


@pytest.mark.no_cover
@pytest.mark.parametrize("rules_text, dates", [
    ("N", ["2026-03-14", "2026-03-15", "2027-01-01"]),
    ("T", ["2026-03-14", "2026-07-04"]),
])
def test_daily_deals_are_medium_proven_winnable_and_depend_on_the_date(rules_text, dates):
    rules = Rules.parse(rules_text)
    deals = [grade.daily_deal(parse_date(date), rules) for date in dates]
    for date, found in zip(dates, deals, strict=True):
        assert found.daily == date and found.level is Level.MEDIUM
        assert proven_and_replayed(found.deal), found.deal.code
        assert full_grade_level(found.deal) is Level.MEDIUM
        assert found.deal.number == (daily_start(parse_date(date)) + found.scanned - 1) % (MAX_DEAL_NUMBER + 1)
    assert grade.daily_deal(parse_date(dates[0]), rules).deal == deals[0].deal
    assert len({found.deal.number for found in deals}) == len(dates)


@pytest.mark.no_cover
def test_the_solver_and_the_random_player_never_disagree():
    """A deal the random player wins is never 'unwinnable'; grading's solver budget decides most deals."""
    undecided = 0
    for preset in "NT":
        for number in range(30):
            deal = Deal.from_number(number, Rules.preset(preset))
            verdict = grade.solver_verdict(deal)
            wins = GradingRun(deal, SMALL).play().wins
            assert not (wins and verdict is Verdict.UNWINNABLE), deal.code
            undecided += verdict is Verdict.UNKNOWN
    assert undecided <= 1


def test_grade_deal_with_the_solver():
    winnable = grade_deal(Deal.from_code("PY1-N-AAAAAAB"))
    assert winnable.winnable is True and winnable.level is full_grade_level(winnable.deal)
    assert proven_and_replayed(winnable.deal)
    unwinnable = grade_deal(Deal.from_code("PY1-N-AAAAAAD"))
    assert unwinnable.winnable is False and unwinnable.level is None and unwinnable.wins == 0


@pytest.mark.no_cover
@pytest.mark.parametrize("date, rules_text, code", [
    ("2026-03-14", "N", "PY1-N-BFTOZKX"),
    ("2026-11-29", "N", "PY1-N-TUR5WKL"),
    ("2027-01-01", "T", "PY1-T-TBSEPHL"),
])
def test_daily_deals_are_frozen(date, rules_text, code):
    """R26 "the same on every machine": pinned vectors, like the deal codes' (docs/deal-codes.md).

    They change only if the grading seed, the games, the thresholds, the random player or the
    solver's verdicts change; then docs/levels.md must say that daily deals changed.  Each vector
    is also checked independently: proven winnable, Medium by playout.win_rate, and no deal between
    the date's start and it qualifies.
    """
    found = grade.daily_deal(parse_date(date), Rules.parse(rules_text))
    assert found.deal.code == code
    deal = Deal.from_code(code)
    assert proven_and_replayed(deal) and full_grade_level(deal) is Level.MEDIUM
    for number in range(daily_start(parse_date(date)), deal.number):
        skipped = Deal.from_number(number, deal.rules)
        assert grade.solver_verdict(skipped) is not Verdict.WINNABLE or full_grade_level(skipped) is not Level.MEDIUM
