"""The built-in bots of ``pyramide tournament`` (``random``, ``greedy``, ``solver``) and the protocol
every bot follows (:class:`Bot`, public as ``pyramide_cli.Bot``).

A bot is anything with a ``name`` and ``choose(game) -> Move | str``; the game loop
(:func:`~pyramide_cli.bots.tournament.play_game`) asks it for one action at a time, on a copy of the
game, and plays it.  ``choose`` may answer ``undo`` or ``resign``, or raise :class:`BotFailure` when
it cannot play on (the loop resigns that game for it and records the reason).  A bot may also have
``new_game(game, seed)``, ``game_over(game)`` and ``close()``; the loop calls those it has.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from ..engine.errors import PyramideError
from ..engine.game import Game
from ..engine.moves import RESIGN, Move
from ..engine.text import text

BUILT_IN = ("random", "greedy", "solver")
SOLVER_BOT_STATES = 1_000_000
"""The solver bot's budget per deal, in positions (past it the bot plays greedy: see :class:`SolverBot`)."""


class BotFailure(PyramideError):
    """A bot that cannot give an action; ``reason`` is one word for the tournament's records
    (``timeout``, ``crashed``, ``malformed``, ``handshake``) and the message says more."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


class Bot(Protocol):
    """What :func:`~pyramide_cli.bots.tournament.play_game` plays with: a ``name`` and ``choose``.

    Optional, called when the bot has them: ``new_game(game, seed) -> None`` before the first action
    (``seed`` lets a random bot play the same way on every machine), ``game_over(game) -> None`` after
    the last, and ``close() -> None`` when a tournament is done with the bot.  Every game a bot is
    handed is a copy: changing it changes nothing in the game being played.
    """

    name: str

    def choose(self, game: Game) -> Move | str:
        """The next action (a move, ``undo`` or ``resign``, or its text); the game is not over."""
        ...


class RandomBot:
    """Picks uniformly among the legal moves (never undoes or resigns): the player without a plan."""

    name = "random"

    def __init__(self) -> None:
        self._random: Callable[[], float] = lambda: 0.0

    def new_game(self, game: Game, seed: int) -> None:
        import random  # not at the top: the command line imports this module for every command

        self._random = random.Random(seed).random

    def choose(self, game: Game) -> Move:
        legal = game.legal_moves
        return legal[int(self._random() * len(legal))]

    def close(self) -> None:
        pass


class GreedyBot:
    """The strategy tips of the sources, as ``hint`` falls back on them: a king at once; else the
    pyramid pair that uncovers the most cards; else a pair with the waste (or stock) card; else draw
    or recycle (see :func:`pyramide_cli.analysis.hint.heuristic_move`)."""

    name = "greedy"

    def new_game(self, game: Game, seed: int) -> None:
        pass

    def choose(self, game: Game) -> Move:
        from ..analysis.hint import heuristic_move

        return heuristic_move(game.position)

    def close(self) -> None:
        pass


class SolverBot:
    """Perfect play, the ceiling: the solver's winning line when the deal can be won; when it cannot,
    the line to the most pyramid cards removed, then it resigns (nothing more can score).  When the
    solver reaches its budget (``max_states`` positions, the same on every machine) the bot plays
    greedy for that game."""

    name = "solver"

    def __init__(self, max_states: int = SOLVER_BOT_STATES) -> None:
        self.max_states = max_states
        self._line: list[Move] = []
        self._then_resign = False
        self._greedy = GreedyBot()

    def new_game(self, game: Game, seed: int) -> None:
        from ..solver import Limits, Verdict, solve

        result = solve(game, limits=Limits(max_states=self.max_states, timeout=None))
        if result.verdict is Verdict.WINNABLE:
            self._line, self._then_resign = list(result.solution or ()), False
        elif result.verdict is Verdict.UNWINNABLE:
            self._line, self._then_resign = list(result.best_line or ()), True
        else:
            self._line, self._then_resign = [], False
        self._line.reverse()

    def choose(self, game: Game) -> Move:
        if self._line:
            return self._line.pop()
        if self._then_resign:
            return RESIGN
        return self._greedy.choose(game)

    def close(self) -> None:
        pass


def built_in_bot(name: str) -> Bot:
    """The built-in bot called ``name``; ``ValueError`` naming the choices otherwise."""
    bots = {"random": RandomBot, "greedy": GreedyBot, "solver": SolverBot}
    if name not in bots:
        raise ValueError(text("unknown bot {name!r}: built-in bots are {known} (or --engine CMD)", name=name,
                              known=", ".join(BUILT_IN)))
    return bots[name]()
