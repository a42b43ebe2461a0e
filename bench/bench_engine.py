"""Issue 2 benchmark: random-playout throughput on one core (target: >= 1,000 games/s).

A random game ends when won, when no action is possible, or when a whole pass through the
stock brings no removal (see pyramide_cli/playout.py).  Deals 0-199, 25 games each, per preset.
"""

from __future__ import annotations

import random
import time

from pyramide_cli.engine.deal import Deal
from pyramide_cli.engine.playout import PlayoutTables, random_game
from pyramide_cli.engine.rules import Rules

DEALS = 200
GAMES_PER_DEAL = 25


def measure(preset: str) -> None:
    rules = Rules.preset(preset)
    rng = random.Random(2026).random
    games = wins = actions = 0
    start = time.perf_counter()
    for number in range(DEALS):
        tables = PlayoutTables(Deal.from_number(number, rules))
        for _ in range(GAMES_PER_DEAL):
            result = random_game(tables, rng)
            games += 1
            wins += result.won
            actions += result.actions
    seconds = time.perf_counter() - start
    print(
        f"random playouts under {preset}: {games / seconds:,.0f} games/s "
        f"({games} games in {seconds:.2f} s, {actions / games:.0f} actions/game, "
        f"{100 * wins / games:.1f} % won)"
    )


if __name__ == "__main__":
    for preset in ("N", "T"):
        measure(preset)
