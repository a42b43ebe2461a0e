"""Issue 25 item 4: every rule set's deals decided within a tenth of the default budget.

For each rule set, ``solve`` from the start of each deal with a budget of ``BENCH_MAX_STATES``
positions (default a tenth of the default budget, 500,000); reported per rule set: deals decided,
the most positions any deal needed (and which deal), the positions' p99, and the CPU time
(``time.process_time``) in all.  Exits 1 when a deal is left undecided.

The rule sets, by default the costliest (``draw-3`` under each preset and with each variant on
``N``; about 15 minutes of CPU); ``BENCH_RULES=all``: every combination of ``draw-3``,
``stock-top``, ``waste-pair``, ``cover-pair``, ``strict`` and ``recycles=2`` on preset ``N``
(``draw-3`` ones first) and the presets ``T``, ``E`` and ``O`` with ``draw-3`` (67 rule sets, hours).
Environment: ``BENCH_RULES`` (comma-separated, or ``all``), ``BENCH_DEALS`` (default ``0-999``),
``BENCH_MAX_STATES``.
"""

from __future__ import annotations

import itertools
import os
import sys
import time

sys.setrecursionlimit(20_000)

from pyramide_cli.analysis.survey import percentile  # noqa: E402
from pyramide_cli.engine.deal import Deal  # noqa: E402
from pyramide_cli.engine.rules import Rules  # noqa: E402
from pyramide_cli.solver import DEFAULT_MAX_STATES, Limits, Verdict, solve  # noqa: E402

from bench_variants import deal_range  # noqa: E402  # bench/ is the script's folder, first on sys.path

VARIANTS = ("stock-top", "waste-pair", "cover-pair", "strict", "recycles=2")
COSTLIEST = ("N+draw-3", "T+draw-3", "E+draw-3", "O+draw-3", *(f"N+draw-3+{variant}" for variant in VARIANTS))


def every_rule_set() -> list[str]:
    """``N`` with every combination of the variants, ``draw-3`` ones first, then ``T``/``E``/``O+draw-3``."""
    out: list[str] = []
    for draw_three in (True, False):
        for size in range(len(VARIANTS) + 1):
            for chosen in itertools.combinations(VARIANTS, size):
                out.append("+".join(("N", *(("draw-3",) if draw_three else ()), *chosen)))
    return out[:1] + [f"{preset}+draw-3" for preset in "TEO"] + out[1:]


def run(rules_text: str, numbers: range, limits: Limits) -> int:
    rules = Rules.parse(rules_text)
    started = time.process_time()
    states: list[tuple[int, int]] = []
    undecided: list[int] = []
    for number in numbers:
        result = solve(Deal.from_number(number, rules), limits=limits)
        states.append((result.states, number))
        if result.verdict is Verdict.UNKNOWN:
            undecided.append(number)
    most, worst = max(states)
    decided = [(count, number) for count, number in states if number not in undecided]
    most_decided, worst_decided = max(decided) if decided else (0, None)
    p99 = percentile(sorted(count for count, _ in states), 0.99)
    print(f"{rules_text} deals {numbers[0]}-{numbers[-1]}: decided {len(states) - len(undecided)}/{len(states)} "
          f"within {limits.max_states:,} positions; most positions {most:,} (deal {worst}), p99 {p99:,.0f}, "
          f"most of the decided {most_decided:,} (deal {worst_decided}); "
          f"{time.process_time() - started:.1f} s CPU"
          + (f"; undecided {undecided[:20]}" if undecided else ""), flush=True)
    return len(undecided)


def main() -> int:
    chosen = os.environ.get("BENCH_RULES")
    rule_sets = every_rule_set() if chosen == "all" else chosen.split(",") if chosen else list(COSTLIEST)
    numbers = deal_range(os.environ.get("BENCH_DEALS", "0-999"))
    limits = Limits(max_states=int(os.environ.get("BENCH_MAX_STATES", DEFAULT_MAX_STATES // 10)), timeout=None)
    failures = sum(run(rules_text, numbers, limits) for rules_text in rule_sets)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
