"""Issue 25 item 3: hints on positions taken along random games, within their budget.

For each rule set (``T+stock-top`` and ``T`` by default), :data:`GAMES` seeded random games are
played from random deals (a uniformly random legal action each turn, never a resignation), and
positions are taken along them until there are ``BENCH_HINT_POSITIONS`` (default 1,000).  Each gets
``hint_for`` with the default hint budget (``HINT_LIMITS``).  Reported per rule set: CPU time per
hint (``time.process_time``) median, p99 and max, the positions searched at most, and the count of
hints that are a rule of thumb (``HintKind.HEURISTIC``: the search reached its budget).  Targets:
no rule-of-thumb hint, median <= 50 ms.  Exits 1 when a hint is a rule of thumb.

Environment: ``BENCH_HINT_RULES`` (comma-separated, default ``T+stock-top,T``),
``BENCH_HINT_POSITIONS`` (default 1000), ``BENCH_HINT_SEED`` (default 25).
"""

from __future__ import annotations

import os
import random
import sys
import time

sys.setrecursionlimit(20_000)

from pyramide_cli.analysis.hint import HintKind, hint_for  # noqa: E402
from pyramide_cli.analysis.survey import percentile  # noqa: E402
from pyramide_cli.engine.deal import Deal  # noqa: E402
from pyramide_cli.engine.position import Position  # noqa: E402
from pyramide_cli.engine.rules import Rules  # noqa: E402

EVERY = 3
"""A position is taken every this many actions along a game."""


def positions_along_random_games(rules_text: str, count: int, seed: int) -> list[Position]:
    """``count`` positions, deterministic for a seed: the start and every :data:`EVERY`-th position
    of random games (uniform legal actions) on random deal numbers, until the game ends."""
    rules = Rules.parse(rules_text)
    chooser = random.Random(f"{seed}-{rules_text}")
    out: list[Position] = []
    while len(out) < count:
        position = Position.start(Deal.from_number(chooser.randrange(1_000_000), rules))
        step = 0
        while len(out) < count and position.termination is None:
            if step % EVERY == 0:
                out.append(position)
            position = position.apply(chooser.choice(position.legal_moves))
            step += 1
    return out


def run(rules_text: str, count: int, seed: int) -> int:
    positions = positions_along_random_games(rules_text, count, seed)
    seconds: list[float] = []
    kinds: dict[HintKind, int] = {}
    fallbacks: list[int] = []
    for index, position in enumerate(positions):
        before = time.process_time()
        hint = hint_for(position)
        seconds.append(time.process_time() - before)
        kinds[hint.kind] = kinds.get(hint.kind, 0) + 1
        if hint.kind is HintKind.HEURISTIC:
            fallbacks.append(index)
    ordered = sorted(seconds)
    slowest = max(range(len(seconds)), key=seconds.__getitem__)
    print(f"hints {rules_text}, {len(positions)} positions along random games (seed {seed}): "
          f"CPU median {1000 * percentile(ordered, 0.5):.1f} ms, p99 {1000 * percentile(ordered, 0.99):.0f} ms, "
          f"max {1000 * ordered[-1]:.0f} ms (position {slowest}); rule-of-thumb fallbacks {len(fallbacks)}; "
          + ", ".join(f"{kind.value} {n}" for kind, n in sorted(kinds.items(), key=lambda item: item[0].value)),
          flush=True)
    if fallbacks:
        print(f"  fallbacks at positions {fallbacks[:20]}", flush=True)
    return len(fallbacks)


def main() -> int:
    count = int(os.environ.get("BENCH_HINT_POSITIONS", "1000"))
    seed = int(os.environ.get("BENCH_HINT_SEED", "25"))
    failures = 0
    for rules_text in os.environ.get("BENCH_HINT_RULES", "T+stock-top,T").split(","):
        failures += run(rules_text, count, seed)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
