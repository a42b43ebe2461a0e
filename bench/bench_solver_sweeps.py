"""The full solver sweeps (moved out of the suite, which keeps samples): every line wins on the engine.

Deals 0-199 under N and T solved from their start, deals 0-199 of eleven slower rule sets solved
from a position partway into each deal, and the --optimal lines of the four hard T deals.  Exits 1
if a line does not win, a verdict is unknown, or fewer deals are winnable than expected.  Prints
each sweep's counts and CPU seconds.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from sweeps import (  # noqa: E402
    HARD_OPTIMAL_T_DEALS, PARTWAY_SETS, optimal_line_replays_and_beats_the_plain_line, sweep_partway, sweep_whole_deals,
)

from pyramide_cli.engine.deal import Deal  # noqa: E402
from pyramide_cli.engine.rules import Rules  # noqa: E402

DEALS = range(200)


def main() -> int:
    failures = 0
    for preset, minimum in (("N", 50), ("T", 50)):
        started = time.process_time()
        count = sweep_whole_deals(preset, DEALS)
        ok = count.winnable > minimum and count.unwinnable > 20
        failures += not ok
        print(f"sweep {preset} deals 0-199 from the start: {count.winnable} winnable, {count.unwinnable} unwinnable, "
              f"every line wins; {time.process_time() - started:.1f} s CPU{'' if ok else '  FAILED: too few'}",
              flush=True)
    for rules_text, actions, minimum in PARTWAY_SETS:
        started = time.process_time()
        count = sweep_partway(rules_text, actions, DEALS)
        ok = count.winnable >= minimum
        failures += not ok
        print(f"sweep {rules_text} deals 0-199, {actions} actions in: {count.winnable} winnable, every line wins; "
              f"{time.process_time() - started:.1f} s CPU{'' if ok else '  FAILED: too few'}", flush=True)
    for number in HARD_OPTIMAL_T_DEALS:
        started = time.process_time()
        ok = optimal_line_replays_and_beats_the_plain_line(Deal.from_number(number, Rules.preset("T")))
        failures += not ok
        print(f"--optimal T deal {number}: {'the line wins and beats the plain one' if ok else 'FAILED'}; "
              f"{time.process_time() - started:.1f} s CPU", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
