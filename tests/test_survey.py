"""Surveys: counts, the Wilson interval, percentiles, and --jobs giving the same results as one."""

from __future__ import annotations

import pytest

from pyramide_cli.engine.deal import Deal
from pyramide_cli.engine.position import Position
from pyramide_cli.engine.rules import Rules
from pyramide_cli.solver import Limits, Verdict
from pyramide_cli.analysis.survey import parse_deal_range, percentile, survey, wilson_interval
from reference_search import reference_search


def test_wilson_interval_known_values() -> None:
    # 50 of 100: the textbook Wilson interval is 40.38 %-59.62 %.
    low, high = wilson_interval(50, 100)
    assert round(100 * low, 2) == 40.38 and round(100 * high, 2) == 59.62
    assert wilson_interval(0, 10)[0] == pytest.approx(0.0) and wilson_interval(10, 10)[1] == pytest.approx(1.0)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_percentile_nearest_rank() -> None:
    values = list(range(1, 101))
    assert percentile(values, 0.5) == 50 and percentile(values, 0.99) == 99 and percentile(values, 1.0) == 100
    assert percentile([], 0.5) == 0.0


def test_deal_ranges() -> None:
    assert parse_deal_range("0-9") == range(0, 10) and parse_deal_range("7") == range(7, 8)
    for bad in ("9-1", "a-b", "1-2-3", "-1"):
        with pytest.raises(ValueError):
            parse_deal_range(bad)


def test_a_position_budget_gives_the_same_answers_in_any_process_under_any_load() -> None:
    """Issue 11: verdicts never depend on the machine.  With a budget small enough to leave some deals
    unknown, one process, two processes, and two processes beside a CPU-bound neighbour give the same
    verdict and the same positions for every deal (bench/bench_determinism.py does 1,000 deals)."""
    import subprocess
    import sys

    rules, numbers, limits = Rules.preset("T"), range(0, 16), Limits(max_states=1_500)
    facts = lambda report: [(o.number, o.verdict, o.states, o.max_removed) for o in report.outcomes]  # noqa: E731
    alone = facts(survey(rules, numbers, limits=limits))
    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        loaded = facts(survey(rules, numbers, jobs=2, limits=limits))
    finally:
        busy.kill()
        busy.wait()
    assert loaded == alone
    assert survey(rules, numbers, limits=limits).summary()["states"] == survey(
        rules, numbers, jobs=2, limits=limits).summary()["states"]
    verdicts = {verdict for _, verdict, _, _ in alone}
    assert Verdict.UNKNOWN in verdicts and Verdict.WINNABLE in verdicts and Verdict.UNWINNABLE in verdicts
    assert all(states == 1_500 for _, verdict, states, _ in alone if verdict is Verdict.UNKNOWN)


def test_counts_agree_with_the_reference_on_a_stuck_deal() -> None:
    report = survey(Rules.preset("N"), [668])
    outcome = report.outcomes[0]
    reference = reference_search(Position.start(Deal.from_number(668, Rules.preset("N"))))
    assert outcome.verdict is Verdict.UNWINNABLE and not reference.winnable
    assert (outcome.max_pyramid_removed, outcome.max_removed) == (reference.max_pyramid_removed, reference.max_removed)
    summary = report.summary()
    assert summary["unwinnable"] == 1 and summary["winnable_percent"] == 0.0
    progress = []
    survey(Rules.preset("N"), [1, 2], progress=progress.append)
    assert [outcome.number for outcome in progress] == [1, 2]
