"""What ``survey --report`` says about a results store: rates with 95 % intervals, positions explored.

Everything is computed from two grouped counts of the store (deals by verdict, deals by positions
explored) made by SQLite, so a store of 1 M rows reports in about a second and one of 100 M
without holding its rows in memory.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..engine.text import joined, text
from ..storage.survey_store import SurveyStore
from .survey import wilson_interval

BAR_WIDTH = 40


def histogram_bin(positions: int) -> tuple[int, int]:
    """The 1-2-5 bin holding ``positions``: (lowest, highest) value of the bin, both included."""
    if positions < 1:
        return 0, 0
    decade = 10 ** (len(str(positions)) - 1)
    for low, high in ((1, 2), (2, 5), (5, 10)):
        if positions < high * decade:
            return low * decade, high * decade - 1
    raise AssertionError(positions)  # pragma: no cover - a number is below 10 times its decade


@dataclass(frozen=True)
class StoreReport:
    """The report of one store (one rule set, one solver version, one budget)."""

    file: str
    rules: str
    solver_version: int
    max_states: int
    optimal: bool
    deals: int
    first: int | None
    last: int | None
    counts: dict[str, int]
    positions: dict[str, float | None]
    histogram: list[tuple[int, int, int]] = field(default_factory=list)

    @property
    def ci95(self) -> tuple[float, float]:
        low, high = wilson_interval(self.counts["winnable"], self.deals)
        return round(100 * low, 2), round(100 * high, 2)

    def percent(self, verdict: str) -> float | None:
        return round(100 * self.counts[verdict] / self.deals, 2) if self.deals else None

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (``survey --report FILE --json``: one per store, under ``stores``)."""
        return {
            "file": self.file, "rules": self.rules, "solver_version": self.solver_version,
            "max_states": self.max_states, "optimal": self.optimal,
            "deals": self.deals, "first": self.first, "last": self.last,
            **self.counts,
            "winnable_percent": self.percent("winnable"), "ci95": list(self.ci95),
            "positions": self.positions,
            "histogram": [{"from": low, "to": high, "deals": deals} for low, high, deals in self.histogram],
        }

    def render(self) -> str:
        """The report as a person reads it (a message of its lines, translated by the command line)."""
        values = {"file": self.file, "rules": self.rules, "deals": self.deals, "first": self.first, "last": self.last,
                  "version": self.solver_version, "states": self.max_states}
        if self.deals and self.optimal:
            head = text("{file}: rules {rules}, {deals:,} deals ({first}-{last}), solver version {version}, at most "
                        "{states:,} positions a deal, fewest actions", **values)
        elif self.deals:
            head = text("{file}: rules {rules}, {deals:,} deals ({first}-{last}), solver version {version}, at most "
                        "{states:,} positions a deal", **values)
        elif self.optimal:
            head = text("{file}: rules {rules}, {deals:,} deals, solver version {version}, at most {states:,} "
                        "positions a deal, fewest actions", **values)
        else:
            head = text("{file}: rules {rules}, {deals:,} deals, solver version {version}, at most {states:,} "
                        "positions a deal", **values)
        lines: list[str] = [head]
        if not self.deals:
            return joined([*lines, text("  no deal stored yet")], "\n")
        low, high = self.ci95
        lines.append(text("  winnable   {count:>11,}  {percent:6.2f} %  (95 % CI {low:.2f}-{high:.2f} %)",
                          count=self.counts["winnable"], percent=self.percent("winnable"), low=low, high=high))
        lines.append(text("  unwinnable {count:>11,}  {percent:6.2f} %", count=self.counts["unwinnable"],
                          percent=self.percent("unwinnable")))
        lines.append(text("  unknown    {count:>11,}  {percent:6.2f} %", count=self.counts["unknown"],
                          percent=self.percent("unknown")))
        figures = self.positions
        lines.append(text("  positions mean {mean:,.0f}, median {median:,.0f}, p99 {p99:,.0f}, max {max:,.0f}",
                          mean=figures["mean"], median=figures["median"], p99=figures["p99"], max=figures["max"]))
        lines.append(text("  positions explored        deals"))
        widest = max(deals for _, _, deals in self.histogram)
        for low_value, high_value, deals in self.histogram:
            bar = "#" * max(1, round(BAR_WIDTH * deals / widest))
            lines.append(f"  {low_value:>9,}-{high_value:<9,} {deals:>11,}  {bar}")
        return joined(lines, "\n")


def report_of(store: SurveyStore) -> StoreReport:
    """Read a store's counts and build its report."""
    deals, first, last = store.span()
    by_positions = store.position_counts()
    identity = store.identity
    return StoreReport(str(store.path), identity.rules, identity.solver_version, identity.max_states,
                       identity.optimal, deals, first, last, store.verdict_counts(), position_figures(by_positions),
                       histogram(by_positions))


def position_figures(by_positions: Sequence[tuple[int, int]]) -> dict[str, float | None]:
    """Mean, median, p99 (nearest rank, as ``survey``) and max of positions explored, from
    (positions, deals) pairs sorted by positions."""
    total = sum(deals for _, deals in by_positions)
    if not total:
        return {"mean": None, "median": None, "p99": None, "max": None}
    figures: dict[str, float | None] = {"mean": round(sum(value * deals for value, deals in by_positions) / total, 1)}
    for name, fraction in (("median", 0.5), ("p99", 0.99)):
        rank, seen = max(1, math.ceil(fraction * total)), 0
        for value, deals in by_positions:
            seen += deals
            if seen >= rank:
                figures[name] = value
                break
    figures["max"] = by_positions[-1][0]
    return figures


def histogram(by_positions: Sequence[tuple[int, int]]) -> list[tuple[int, int, int]]:
    """(lowest, highest, deals) per 1-2-5 bin, from the first non-empty bin to the last."""
    bins: dict[tuple[int, int], int] = {}
    high = -1
    for value, deals in by_positions:  # sorted: look a bin up only when a value leaves the last one
        if value > high:
            low, high = histogram_bin(value)
        bins[low, high] = bins.get((low, high), 0) + deals
    if not bins:
        return []
    edges = sorted(bins)
    result, key = [], edges[0]
    while True:
        result.append((key[0], key[1], bins.get(key, 0)))
        if key == edges[-1]:
            return result
        key = histogram_bin(key[1] + 1)
