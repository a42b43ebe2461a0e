"""Issue 4 benchmark: the solver over deal numbers 0-999 under N and under T, and --optimal under T.

Prints, per rule set: deals decided, winnable share (with its 95 % Wilson interval), solve time
mean / median / p99 / max and positions explored.  Targets (issue 4): N all decided, median <= 2 ms,
max <= 100 ms; T all decided with the default limits, mean <= 50 ms, max <= 2 s; --optimal under T
mean <= 0.5 s.  One process, default limits.  BENCH_DEALS=N shortens the runs (default 1000);
BENCH_OPTIMAL_DEALS (default 100) sizes the --optimal run, which uses the default limits too (a position
budget, no clock).  bench_variants.py measures the other rule sets (CPU time).
"""

from __future__ import annotations

import os
import sys
import time

sys.setrecursionlimit(10_000)

from pyramide_cli.engine.rules import Rules  # noqa: E402
from pyramide_cli.solver import DEFAULT_LIMITS  # noqa: E402
from pyramide_cli.analysis.survey import survey  # noqa: E402

DEALS = int(os.environ.get("BENCH_DEALS", "1000"))
OPTIMAL_DEALS = int(os.environ.get("BENCH_OPTIMAL_DEALS", "100"))


def report(label: str, summary: dict) -> None:
    seconds, states = summary["seconds"], summary["states"]
    decided = summary["winnable"] + summary["unwinnable"]
    low, high = summary["ci95"]
    print(
        f"solver {label}: decided {decided}/{summary['deals']}, winnable {summary['winnable_percent']:.1f} % "
        f"(95 % CI {low:.1f}-{high:.1f}), time mean {1000 * seconds['mean']:.1f} ms, "
        f"median {1000 * seconds['median']:.2f} ms, p99 {1000 * seconds['p99']:.1f} ms, "
        f"max {1000 * seconds['max']:.1f} ms; states mean {states['mean']:,.0f}, median {states['median']:,.0f}, "
        f"p99 {states['p99']:,.0f}, max {states['max']:,.0f}",
        flush=True,
    )


def main() -> None:
    for preset in ("N", "T"):
        started = time.perf_counter()
        summary = survey(Rules.preset(preset), range(DEALS), limits=DEFAULT_LIMITS).summary()
        report(f"{preset} deals 0-{DEALS - 1}", summary)
        print(f"  (wall {time.perf_counter() - started:.1f} s)", flush=True)
    limits = DEFAULT_LIMITS
    summary = survey(Rules.preset("T"), range(OPTIMAL_DEALS), limits=limits, optimal=True).summary()
    report(f"--optimal T deals 0-{OPTIMAL_DEALS - 1}", summary)


if __name__ == "__main__":
    main()
