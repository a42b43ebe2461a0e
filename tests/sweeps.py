"""Solver sweeps over whole deals: every line the solver gives must win when replayed on the engine.

One piece of code for two users: the suite runs small samples (``tests/test_solver.py``) and
``bench/bench_solver_sweeps.py`` runs the full 200-deal sweeps (``make bench``).  Nothing here
trusts the solver: lines are replayed through their text notation, as ``play`` reads them.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from pyramide_cli.engine.deal import Deal
from pyramide_cli.engine.moves import Move
from pyramide_cli.engine.position import Position
from pyramide_cli.engine.rules import Rules
from pyramide_cli.solver import Verdict, solve

PARTWAY_SETS: Sequence[tuple[str, int, int]] = (
    ("E", 16, 5), ("O", 10, 1), ("N+strict", 12, 1), ("T+strict", 12, 1), ("T+recycles=1", 16, 5),
    ("N+recycles=3", 14, 5), ("T+waste-pair", 16, 5), ("T+cover-pair", 16, 5), ("T+stock-top", 16, 5),
    ("T+draw-3", 16, 5), ("N+draw-3", 18, 5),
)
"""Slower rule sets, solved from a position partway into each deal: (rules, random actions first,
fewest winnable positions expected among deals 0-199)."""


def replays_to_win(position: Position, moves: Iterable[Move]) -> bool:
    for move in moves:
        position = position.apply(Move.parse(str(move)))  # through the text notation, as `play` reads it
    return position.is_won


def partway(deal: Deal, seed: int, actions: int) -> Position:
    """The position after ``actions`` seeded random actions, removals preferred (a mid-game save)."""
    rng = random.Random(seed)
    position = Position.start(deal)
    for _ in range(actions):
        moves = position.legal_moves
        if not moves:
            break
        removals = [move for move in moves if move.removes_cards]
        position = position.apply(rng.choice(removals) if removals else moves[-1])
    return position


@dataclass
class SweepCount:
    winnable: int = 0
    unwinnable: int = 0


def sweep_whole_deals(preset: str, numbers: Iterable[int]) -> SweepCount:
    """Solve each deal from its start; a winning line must win, a loss must give sane maxima."""
    count = SweepCount()
    for number in numbers:
        deal = Deal.from_number(number, Rules.preset(preset))
        result = solve(deal)
        assert result.verdict is not Verdict.UNKNOWN, number
        if result.winnable:
            count.winnable += 1
            assert result.solution is not None and replays_to_win(Position.start(deal), result.solution), number
        else:
            count.unwinnable += 1
            assert result.max_pyramid_removed is not None and result.max_removed is not None, number
            assert 0 <= result.max_pyramid_removed < 28 and result.max_pyramid_removed <= result.max_removed <= 52
    return count


def sweep_partway(rules_text: str, actions: int, numbers: Iterable[int]) -> SweepCount:
    """Solve from a position ``actions`` random actions into each deal (as from a save)."""
    rules = Rules.parse(rules_text)
    count = SweepCount()
    for number in numbers:
        position = partway(Deal.from_number(number, rules), number, actions)
        result = solve(position)
        assert result.verdict is not Verdict.UNKNOWN, number
        if result.winnable:
            count.winnable += 1
            assert result.solution is not None and replays_to_win(position, result.solution), number
        else:
            count.unwinnable += 1
    return count


HARD_OPTIMAL_T_DEALS = (33, 48, 73, 84)
"""Deals under T whose A* once needed 10^5 positions (docs/solver.md)."""


def optimal_line_replays_and_beats_the_plain_line(deal: Deal) -> bool:
    """``solve --optimal`` gives a line that wins and is no longer than the plain solver's line."""
    plain, best = solve(deal), solve(deal, optimal=True)
    return (best.optimal and plain.solution is not None and best.solution is not None
            and replays_to_win(Position.start(deal), best.solution) and len(best.solution) <= len(plain.solution))
