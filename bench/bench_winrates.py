"""Issue 11: the share of winnable deals per preset and for the common variants, with 95 % intervals.

Solves deals 0..N-1 of each rule set with the default limits (a position budget, no clock) and prints
one markdown row per rule set: deals, winnable, unwinnable, unknown (target 0), the winnable share with
its Wilson 95 % interval, and the CPU time per deal (mean, max) — the table of docs/solver.md.
``BENCH_WINRATE_RULES`` (comma-separated) and ``BENCH_WINRATE_DEALS`` (default 2000; N gets 5000 unless
given as ``N:count``) change the run; ``BENCH_CSV`` names a folder for one CSV per rule set.
"""

from __future__ import annotations

import os
import sys
import time

sys.setrecursionlimit(20_000)

from pyramide_cli.analysis.survey import wilson_interval  # noqa: E402
from pyramide_cli.engine.deal import Deal  # noqa: E402
from pyramide_cli.engine.rules import Rules  # noqa: E402
from pyramide_cli.solver import DEFAULT_LIMITS, solve  # noqa: E402

RULE_SETS = ("N:5000,T,E,O,N+strict,N+cover-pair,N+draw-3,T+strict,T+stock-top,T+waste-pair,T+draw-3,"
             "E+stock-top,O+stock-top,O+strict")


def main() -> None:
    default = int(os.environ.get("BENCH_WINRATE_DEALS", "2000"))
    folder = os.environ.get("BENCH_CSV")
    print("| rules | deals | winnable | unwinnable | unknown | winnable share (95 % CI) | CPU mean / max per deal |")
    print("|---|---|---|---|---|---|---|", flush=True)
    for item in os.environ.get("BENCH_WINRATE_RULES", RULE_SETS).split(","):
        text, _, count = item.partition(":")
        rules = Rules.parse(text)
        deals = int(count) if count else default
        verdicts = {"winnable": 0, "unwinnable": 0, "unknown": 0}
        times = []
        rows = []
        for number in range(deals):
            started = time.process_time()
            result = solve(Deal.from_number(number, rules), limits=DEFAULT_LIMITS)
            times.append(time.process_time() - started)
            verdicts[result.verdict.value] += 1
            rows.append(f"{number},{result.verdict.value},{result.states},{times[-1]:.6f}\n")
        if folder:
            with open(os.path.join(folder, f"winrate-{rules.code_segment}.csv"), "w", encoding="utf-8") as out:
                out.write("number,verdict,states,cpu_seconds\n")
                out.writelines(rows)
        low, high = wilson_interval(verdicts["winnable"], deals)
        share = 100 * verdicts["winnable"] / deals
        print(f"| `{rules.name}` | {deals:,} | {verdicts['winnable']:,} | {verdicts['unwinnable']:,} | "
              f"{verdicts['unknown']} | {share:.1f} % ({100 * low:.1f}–{100 * high:.1f}) | "
              f"{1000 * sum(times) / deals:.0f} ms / {max(times):.2f} s |", flush=True)


if __name__ == "__main__":
    main()
