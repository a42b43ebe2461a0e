"""The solver: proves a position winnable (with a line) or unwinnable (with how far it can go).

Pure: no files, no terminal.  Entry point :func:`solve`; the design and every pruning rule are in
``docs/solver.md``.

>>> from pyramide_cli.engine.deal import Deal
>>> result = solve(Deal.from_code("PY1-N-AAAAAAB"))
>>> result.verdict.value in ("winnable", "unwinnable")
True
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from typing import Any

from ..engine.deal import Deal
from ..engine.game import Game
from ..engine.moves import Move
from ..engine.position import Position
from ..engine.rules import Rules
from .budget import DEFAULT_LIMITS, DEFAULT_MAX_STATES, Budget, Limit, LimitReached, Limits
from .lines import LineBuilder, multiset_line, replay_steps, step_move
from .relaxation import Relaxation
from .rules import DEFAULT_OPTIONS, SearchOptions, SearchRule
from .tables import DealTables
from .talon_search import Step, TalonSearch

__all__ = [
    "DEFAULT_LIMITS", "DEFAULT_MAX_STATES", "Limit", "Limits", "SearchOptions", "SearchRule", "SolveResult",
    "Verdict", "solve", "solve_for_hint", "uses_multiset_search",
]


class Verdict(Enum):
    WINNABLE = "winnable"
    UNWINNABLE = "unwinnable"
    UNKNOWN = "unknown"


@dataclass(frozen=True, slots=True)
class SolveResult:
    """What a solve found.

    * ``solution``: the moves of a win from the position (``winnable`` only), in the notation
      ``pyramide play`` accepts; ``optimal`` says it is proven to have the fewest actions.
    * ``max_pyramid_removed`` / ``max_removed`` (``unwinnable`` only): the most pyramid cards,
      and the most cards in all, that are off the table in any position reachable from this one
      (cards already removed count), proven by exhaustive search.
    * ``best_line`` (``unwinnable`` only): moves reaching a position with ``max_pyramid_removed``
      pyramid cards off (and as many cards in all as possible with that many).
    * ``states``: positions expanded by all searches together; ``seconds``: wall time.
    * ``limit``: which limit stopped the search (``unknown`` only): :attr:`Limit.POSITIONS` (the
      position budget) or :attr:`Limit.TIMEOUT` (the opt-in clock; the answer then depends on the machine).
    """

    verdict: Verdict
    solution: tuple[Move, ...] | None
    states: int
    seconds: float
    max_pyramid_removed: int | None = None
    max_removed: int | None = None
    optimal: bool = False
    best_line: tuple[Move, ...] | None = None
    limit: Limit | None = None

    @property
    def winnable(self) -> bool:
        return self.verdict is Verdict.WINNABLE

    def to_dict(self) -> dict[str, Any]:
        """The JSON form used by ``pyramide solve --json`` and ``survey``."""
        return {
            "verdict": self.verdict.value,
            "solution": None if self.solution is None else [str(move) for move in self.solution],
            "actions": None if self.solution is None else len(self.solution),
            "optimal": self.optimal,
            "states": self.states,
            "seconds": round(self.seconds, 6),
            "max_pyramid_removed": self.max_pyramid_removed,
            "max_removed": self.max_removed,
            "limit": None if self.limit is None else self.limit.value,
        }


def uses_multiset_search(rules: Rules) -> bool:
    """True for rule sets the multiset game solves exactly (unlimited draw-1, no talon pairs)."""
    return rules.recycle_limit is None and rules.plain_talon


def _start_position(target: Game | Position | Deal | str) -> Position:
    if isinstance(target, str):
        return Position.start(Deal.from_code(target))
    if isinstance(target, Position):
        return target
    if isinstance(target, Game):
        return target.position
    if isinstance(target, Deal):
        return Position.start(target)
    raise TypeError(f"solve() takes a Game, Position, Deal or deal code, not {type(target).__name__}")


def solve(target: Game | Position | Deal | str, *, optimal: bool = False, limits: Limits | None = None,
          options: SearchOptions = DEFAULT_OPTIONS) -> SolveResult:
    """Solve a game's current position, a position, or a deal (object or code) from its start.

    ``limits`` bounds the search (``None``: :data:`DEFAULT_LIMITS`, ``pyramide solve``'s budget).
    Past ``limits.max_states`` positions the verdict is ``unknown`` and ``limit`` says so, on every
    machine alike; ``limits.timeout`` (seconds) is an opt-in extra cap that makes the answer depend
    on the machine.  ``optimal=True`` asks for a winning line with the fewest actions.  ``options``
    switches pruning rules off (:class:`SearchOptions`; for tests and measurements: the answers stay
    the same, the positions grow).  Raises :class:`~pyramide_cli.engine.errors.DealCodeError` for a
    bad deal code, :class:`ValueError` for a rule that cannot be switched off.
    """
    return _solve(target, optimal, limits, options, pyramid_only=False)


def solve_for_hint(target: Game | Position | Deal | str, *, limits: Limits | None = None,
                   options: SearchOptions = DEFAULT_OPTIONS) -> SolveResult:
    """:func:`solve` as a hint asks it: the same verdicts and winning lines, and for a lost position the
    most pyramid cards (``max_pyramid_removed``) and a line to them, with ``max_removed`` ``None``:
    the cards in all are not maximised, so phase 2 cuts every node that cannot beat the pyramid
    cards found (docs/solver.md, "pyramid objective")."""
    return _solve(target, False, limits, options, pyramid_only=True)


def _solve(target: Game | Position | Deal | str, optimal: bool, limits: Limits | None, options: SearchOptions,
           pyramid_only: bool) -> SolveResult:
    options.check()
    position = _start_position(target)
    budget = Budget(DEFAULT_LIMITS if limits is None else limits)
    if position.is_won:
        return SolveResult(Verdict.WINNABLE, (), 0, budget.seconds, optimal=True)
    tables = DealTables(position.deal)
    relaxation = Relaxation(tables, budget)
    try:
        if uses_multiset_search(position.rules):
            result = _solve_multiset(position, tables, relaxation, budget)
        else:
            result = _solve_talon(position, tables, relaxation, budget, options, pyramid_only)
        if optimal and result.verdict is Verdict.WINNABLE:
            from .optimal import shortest_line

            line = shortest_line(position, tables, relaxation, budget, upper_bound=result.solution)
            return SolveResult(Verdict.WINNABLE, tuple(line), budget.states, budget.seconds, optimal=True)
        return result
    except LimitReached as reason:
        return SolveResult(Verdict.UNKNOWN, None, budget.states, budget.seconds, limit=reason.limit)


def _solve_multiset(position: Position, tables: DealTables, relaxation: Relaxation, budget: Budget) -> SolveResult:
    counts = tables.counts(position.talon)
    gains = relaxation.search(position.pyramid, counts)
    if gains is None:
        line = multiset_line(position, relaxation.winning_line(position.pyramid, counts), position.rules.strict)
        return SolveResult(Verdict.WINNABLE, tuple(line), budget.states, budget.seconds)
    removed_pyramid = 28 - position.pyramid.bit_count()
    removed_all = 52 - position.pyramid.bit_count() - position.talon.bit_count()
    talon_kings = (position.talon & tables.talon_kings).bit_count()
    best_line = _multiset_best_line(position, tables, relaxation)
    return SolveResult(
        Verdict.UNWINNABLE, None, budget.states, budget.seconds,
        max_pyramid_removed=removed_pyramid + gains[0], max_removed=removed_all + gains[1] + talon_kings,
        best_line=best_line,
    )


def _multiset_best_line(position: Position, tables: DealTables, relaxation: Relaxation) -> tuple[Move, ...]:
    """A line to the most pyramid cards removed, following the exact gains of the lost search."""
    builder = LineBuilder(position, remove_talon_kings=False)
    pyramid, counts = position.pyramid, tables.counts(position.talon)
    while True:
        shape = tables.shape(pyramid)
        if shape.kings:
            king = shape.kings & -shape.kings
            builder.reach_and_play(step_move(builder.position, king, 0))
            pyramid ^= king
            continue
        target = relaxation.search(pyramid, counts)
        if target is None or target[0] == 0:
            return tuple(builder.moves)
        for mask in shape.pairs:
            after = relaxation.search(pyramid & ~mask, counts)
            if after is not None and after[0] + 2 == target[0]:
                builder.reach_and_play(step_move(builder.position, mask, 0))
                pyramid &= ~mask
                break
        else:
            for bit, value in shape.singles:
                if counts >> (3 * (value - 1)) & 7:
                    after_counts = counts - (1 << (3 * (value - 1)))
                    after = relaxation.search(pyramid & ~bit, after_counts)
                    if after is not None and after[0] + 1 == target[0]:
                        builder.reach_value_and_pair(step_move(builder.position, bit, 0).cards[0], value)
                        pyramid, counts = pyramid & ~bit, after_counts
                        break
            else:  # pragma: no cover - the gains always come from some child
                return tuple(builder.moves)


def _solve_talon(position: Position, tables: DealTables, relaxation: Relaxation, budget: Budget,
                 options: SearchOptions, pyramid_only: bool = False) -> SolveResult:
    search = TalonSearch(tables, relaxation, budget, last_pass_cut=not position.rules.talon_pairs, options=options,
                         pyramid_only=pyramid_only)
    recycles = 0 if position.rules.recycle_limit is None else position.recycles
    counts = tables.counts(position.talon)
    if search.find_win(position.pyramid, position.talon, position.drawn, recycles, counts):
        moves = replay_steps(position, search.path, remove_talon_kings=search.silent_kings)
        return SolveResult(Verdict.WINNABLE, tuple(moves), budget.states, budget.seconds)
    search.maximise()
    best_line = _partial_line(position, search.best_path, search.silent_kings)
    return SolveResult(
        Verdict.UNWINNABLE, None, budget.states, budget.seconds,
        max_pyramid_removed=search.max_pyramid, max_removed=None if pyramid_only else search.max_all,
        best_line=best_line,
    )


def _partial_line(position: Position, steps: Iterable[Step], remove_talon_kings: bool) -> tuple[Move, ...]:
    builder = LineBuilder(position, remove_talon_kings)
    for pyramid_bits, talon_bits in steps:
        builder.reach_and_play(step_move(builder.position, pyramid_bits, talon_bits))
    return tuple(builder.moves)
