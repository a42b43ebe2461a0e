"""Issue 11 benchmark: the solver from the start of deals under every preset and the common variants.

For each rule set: deals decided (target: all), winnable share with its 95 % Wilson interval, CPU time
per solve (``time.process_time``, so other load on the machine counts less) mean / median / p99 / max,
and positions expanded.  Targets (issue 11): plain ``solve`` of deals 0-999 under ``T+stock-top``,
``E``, ``O``, ``T+waste-pair``, ``T+draw-3`` every deal decided, mean <= 50 ms, max <= 2 s;
``--optimal`` under ``T+stock-top`` deals 0-99 every deal decided, mean <= 0.5 s, max <= 10 s, and
``--optimal`` ``T`` mean <= 0.5 s.

Every search runs with the default limits (a position budget, no clock), so "decided" here means
"decided within the default budget" — the promise docs/solver.md makes.

Environment: ``BENCH_RULES`` (comma-separated rule sets, default the five of the target),
``BENCH_DEALS`` (default ``0-999``), ``BENCH_OPTIMAL_RULES`` (default ``T+stock-top,T``),
``BENCH_OPTIMAL_DEALS`` (default ``0-99``), ``BENCH_MAX_STATES`` (override the budget),
``BENCH_CSV`` (a folder: one CSV of number, verdict, states, CPU seconds per rule set).
"""

from __future__ import annotations

import os
import sys
import time

sys.setrecursionlimit(20_000)

try:  # the layered tree (engine/, analysis/) or the flat one before it, to measure both
    from pyramide_cli.analysis.survey import percentile, wilson_interval
    from pyramide_cli.engine.deal import Deal
    from pyramide_cli.engine.rules import Rules
except ImportError:  # pragma: no cover - older checkout
    from pyramide_cli.deal import Deal  # type: ignore[no-redef]
    from pyramide_cli.rules import Rules  # type: ignore[no-redef]
    from pyramide_cli.survey import percentile, wilson_interval  # type: ignore[no-redef]
from pyramide_cli.solver import DEFAULT_LIMITS, Limits, solve

PLAIN_RULES = "T+stock-top,E,O,T+waste-pair,T+draw-3"
OPTIMAL_RULES = "T+stock-top,T"


def deal_range(text: str) -> range:
    first, _, last = text.partition("-")
    return range(int(first), int(last or first) + 1)


def limits() -> Limits:
    budget = os.environ.get("BENCH_MAX_STATES")
    if budget:
        return Limits(max_states=int(budget), timeout=None)
    return Limits(max_states=DEFAULT_LIMITS.max_states, timeout=None)


def run(rules_text: str, numbers: range, optimal: bool) -> None:
    rules = Rules.parse(rules_text)
    chosen = limits()
    rows = []
    started = time.process_time()
    for number in numbers:
        deal = Deal.from_number(number, rules)
        before = time.process_time()
        result = solve(deal, optimal=optimal, limits=chosen)
        rows.append((number, result.verdict.value, result.states, time.process_time() - before))
    total = time.process_time() - started
    folder = os.environ.get("BENCH_CSV")
    if folder:
        name = f"{rules_text}{'-optimal' if optimal else ''}-{numbers[0]}-{numbers[-1]}.csv".replace("+", "_")
        with open(os.path.join(folder, name), "w", encoding="utf-8") as out:
            out.write("number,verdict,states,cpu_seconds\n")
            out.writelines(f"{n},{v},{s},{c:.6f}\n" for n, v, s, c in rows)
    winnable = sum(verdict == "winnable" for _, verdict, _, _ in rows)
    unknown = sum(verdict == "unknown" for _, verdict, _, _ in rows)
    low, high = wilson_interval(winnable, len(rows))
    seconds = sorted(row[3] for row in rows)
    states = sorted(row[2] for row in rows)
    slowest = max(rows, key=lambda row: row[3])
    label = f"{'--optimal ' if optimal else ''}{rules_text} deals {numbers[0]}-{numbers[-1]}"
    print(
        f"{label}: decided {len(rows) - unknown}/{len(rows)}, winnable {100 * winnable / len(rows):.1f} % "
        f"(95 % CI {100 * low:.1f}-{100 * high:.1f}); CPU mean {1000 * sum(seconds) / len(seconds):.1f} ms, "
        f"median {1000 * percentile(seconds, 0.5):.2f} ms, p99 {1000 * percentile(seconds, 0.99):.0f} ms, "
        f"max {1000 * seconds[-1]:.0f} ms (deal {slowest[0]}); states median {percentile(states, 0.5):,.0f}, "
        f"p99 {percentile(states, 0.99):,.0f}, max {states[-1]:,}; total CPU {total:.1f} s",
        flush=True,
    )


def main() -> None:
    numbers = deal_range(os.environ.get("BENCH_DEALS", "0-999"))
    for rules_text in filter(None, os.environ.get("BENCH_RULES", PLAIN_RULES).split(",")):
        run(rules_text, numbers, optimal=False)
    optimal_numbers = deal_range(os.environ.get("BENCH_OPTIMAL_DEALS", "0-99"))
    for rules_text in filter(None, os.environ.get("BENCH_OPTIMAL_RULES", OPTIMAL_RULES).split(",")):
        run(rules_text, optimal_numbers, optimal=True)


if __name__ == "__main__":
    main()
