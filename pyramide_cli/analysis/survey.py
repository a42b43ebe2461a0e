"""Solving a range of deal numbers: counts, a confidence interval, timing figures.

Pure apart from the optional worker processes: :func:`survey` solves deals one by one, or spread
over ``jobs`` processes by :func:`~pyramide_cli.analysis.pool.ordered_map` (results come back in
deal order, identical to one process except for the measured times).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Sequence, Sized
from dataclasses import asdict, dataclass
from typing import Any

from ..engine.deal import Deal
from ..engine.rules import Rules
from ..engine.text import text
from ..solver import DEFAULT_LIMITS, Limits, Verdict, solve
from .pool import ordered_map

Z_95 = 1.959963984540054


@dataclass(frozen=True, slots=True)
class DealOutcome:
    """One row of a survey (and of its ``--csv``)."""

    number: int
    code: str
    verdict: Verdict
    seconds: float
    states: int
    actions: int | None
    max_pyramid_removed: int | None
    max_removed: int | None


def solve_number(task: tuple[int, str, Limits, bool]) -> DealOutcome:
    """Solve deal ``number`` under ``rules`` (a top-level function, so worker processes can run it)."""
    number, rules_text, limits, optimal = task
    deal = Deal.from_number(number, Rules.parse(rules_text))
    result = solve(deal, optimal=optimal, limits=limits)
    return DealOutcome(
        number, deal.code, result.verdict, result.seconds, result.states,
        None if result.solution is None else len(result.solution),
        result.max_pyramid_removed, result.max_removed,
    )


def wilson_interval(successes: int, trials: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (in [0, 1]); (0, 1) with no trials."""
    if trials == 0:
        return 0.0, 1.0
    share = successes / trials
    denominator = 1 + z * z / trials
    centre = (share + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(share * (1 - share) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(sorted_values: Sequence[float], fraction: float) -> float:
    """Nearest-rank percentile of already sorted values (0 for none)."""
    if not sorted_values:
        return 0.0
    rank = max(1, math.ceil(fraction * len(sorted_values)))
    return sorted_values[rank - 1]


@dataclass(frozen=True)
class SurveyReport:
    rules: str
    outcomes: tuple[DealOutcome, ...]

    def count(self, verdict: Verdict) -> int:
        return sum(outcome.verdict is verdict for outcome in self.outcomes)

    def summary(self) -> dict[str, Any]:
        """The figures ``survey --json`` prints (percentages over all deals surveyed)."""
        deals = len(self.outcomes)
        winnable = self.count(Verdict.WINNABLE)
        low, high = wilson_interval(winnable, deals)
        seconds = sorted(outcome.seconds for outcome in self.outcomes)
        states = sorted(outcome.states for outcome in self.outcomes)
        return {
            "rules": self.rules,
            "deals": deals,
            "first": self.outcomes[0].number if deals else None,
            "last": self.outcomes[-1].number if deals else None,
            "winnable": winnable,
            "unwinnable": self.count(Verdict.UNWINNABLE),
            "unknown": self.count(Verdict.UNKNOWN),
            "winnable_percent": round(100 * winnable / deals, 2) if deals else None,
            "ci95": [round(100 * low, 2), round(100 * high, 2)],
            "seconds": _figures(seconds, 6),
            "states": _figures(states, 1),
        }

    def csv_rows(self) -> Iterable[dict[str, Any]]:
        for outcome in self.outcomes:
            yield {**asdict(outcome), "verdict": outcome.verdict.value}


def _figures(sorted_values: Sequence[float], digits: int) -> dict[str, float | None]:
    if not sorted_values:
        return {"mean": None, "median": None, "p99": None, "max": None}
    return {
        "mean": round(sum(sorted_values) / len(sorted_values), digits),
        "median": round(percentile(sorted_values, 0.5), digits),
        "p99": round(percentile(sorted_values, 0.99), digits),
        "max": round(sorted_values[-1], digits),
    }


def survey(rules: Rules, numbers: Sequence[int], jobs: int = 1, limits: Limits = DEFAULT_LIMITS,
           optimal: bool = False, progress: Callable[[DealOutcome], None] | None = None) -> SurveyReport:
    """Solve every deal number; ``progress`` is called once per deal, in deal order."""
    outcomes: list[DealOutcome] = []
    for outcome in iter_outcomes(rules, numbers, jobs, limits, optimal):
        outcomes.append(outcome)
        if progress is not None:
            progress(outcome)
    return SurveyReport(rules.name, tuple(outcomes))


def iter_outcomes(rules: Rules, numbers: Iterable[int], jobs: int = 1, limits: Limits = DEFAULT_LIMITS,
                  optimal: bool = False) -> Iterator[DealOutcome]:
    """Solve the deal numbers as they come, in one process or ``jobs``; outcomes in the same order.

    Lazy, so a caller can store each outcome as it arrives (``survey --store``) and stop at any time."""
    tasks = ((number, rules.name, limits, optimal) for number in numbers)
    size = len(numbers) if isinstance(numbers, Sized) else None
    return ordered_map(solve_number, tasks, jobs, size=size)


def parse_deal_range(written: str) -> range:
    """``A-B`` (both included) or a single number ``A``; raises ``ValueError`` saying what is wrong."""
    from ..engine.deal import MAX_DEAL_NUMBER

    parts = written.strip().split("-")
    try:
        if not all(part.strip().isascii() for part in parts):  # int() reads any script's digits: ٠-١ is 0-1
            raise ValueError
        if len(parts) == 1:
            first = last = int(parts[0])
        elif len(parts) == 2:
            first, last = int(parts[0]), int(parts[1])
        else:
            raise ValueError
    except ValueError:
        raise ValueError(text("bad deal range {range!r}: write A-B, e.g. 0-999", range=written)) from None
    if not 0 <= first <= last <= MAX_DEAL_NUMBER:
        raise ValueError(text("bad deal range {range!r}: need 0 <= A <= B <= {most}", range=written,
                              most=MAX_DEAL_NUMBER))
    return range(first, last + 1)
