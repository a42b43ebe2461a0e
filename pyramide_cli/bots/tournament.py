"""``pyramide tournament``: one bot plays a range of deals; win rate with its 95 % interval and means.

Every game is independent: it starts from its deal, its seed comes from the tournament's seed and
the deal number alone, and its actions are capped (:data:`DEFAULT_MAX_ACTIONS`), so the results are
the same with any number of processes (``jobs``) and on any machine, for the built-in bots and for
any external engine that plays by its seed.  A bot that fails (an illegal, malformed or late answer,
a crash, the action cap) loses that game only: the tournament resigns it for the bot and records
the reason.  Nothing is recorded in the player's statistics.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..engine.deal import Deal, splitmix64
from ..engine.game import Game
from ..engine.errors import MoveSyntaxError
from ..engine.moves import Move, MoveKind
from ..engine.rules import Rules
from .players import Bot, BotFailure, built_in_bot

DEFAULT_MAX_ACTIONS = 1_000
"""Actions (moves, undos, the resignation) one game may take before the tournament resigns it
("action-cap").  A game by the rules ends well within it: 28 pyramid cards and 24 talon cards to
remove, and each pass through the stock is at most 24 draws and a recycle."""
SEED_SALT = 0x5059_544F_5552_4E00
"""Mixed into the per-game seeds (``"PYTOURN"``)."""


@dataclass(frozen=True)
class BotSpec:
    """Which bot plays: a built-in one by ``name``, or the external ``engine`` command (picklable,
    so that each process of ``--jobs`` builds its own bot)."""

    name: str | None = None
    engine: str | None = None
    move_time: float = 10.0
    handshake_time: float = 10.0

    def build(self) -> Any:
        if self.engine is not None:
            from .engine import EngineBot

            return EngineBot(self.engine, self.move_time, self.handshake_time)
        return built_in_bot(self.name or "random")


@dataclass(frozen=True)
class GameResult:
    """One game of a tournament; ``reason`` says why the tournament ended it (``None``: the game ended by itself
    or the bot resigned)."""

    number: int
    deal: str
    status: str
    termination: str | None
    score: int
    pyramid_removed: int
    actions: int
    bot_seconds: float
    reason: str | None = None
    detail: str | None = None
    history: tuple[str, ...] = field(default=(), repr=False)

    @property
    def won(self) -> bool:
        return self.status == "won"

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number, "deal": self.deal, "status": self.status, "termination": self.termination,
            "score": self.score, "pyramid_removed": self.pyramid_removed, "actions": self.actions,
            "bot_seconds": round(self.bot_seconds, 6), "reason": self.reason, "detail": self.detail,
        }


def game_seed(seed: int, number: int) -> int:
    """The seed of the game of deal ``number``: the same whatever process plays it."""
    return next(iter(splitmix64(SEED_SALT ^ (seed * 0x1_0000_0001 + number))))


def play_game(bot: Bot, deal: Deal | str, *, seed: int = 0, max_actions: int = DEFAULT_MAX_ACTIONS) -> GameResult:
    """Play one game of ``deal`` (a :class:`Deal` or its code) with ``bot``: the tournament's game loop.

    The bot is asked for one action at a time (``bot.choose``) until the game ends; each time it is
    handed a copy of the game, so it cannot change the game being played.  Its failures lose this
    game only: an illegal or malformed answer, a :class:`BotFailure` it raises, or ``max_actions``
    actions without an end resign the game for it, and ``reason`` and ``detail`` say why.  ``seed``
    goes to the bot's ``new_game(game, seed)`` (when it has one); the result does not depend on the
    machine.
    """
    if isinstance(deal, str):
        deal = Deal.from_code(deal)
    game = Game(deal)
    reason = detail = None
    thinking = 0.0
    started = time.perf_counter()
    new_game = getattr(bot, "new_game", None)
    try:
        if new_game is not None:
            new_game(game.copy(), seed)
    except BotFailure as failure:
        reason, detail = failure.reason, str(failure)
    thinking += time.perf_counter() - started
    while reason is None and not game.is_over:
        if len(game.history) >= max_actions:
            reason, detail = "action-cap", f"no end after {max_actions} actions"
            break
        started = time.perf_counter()
        try:
            answer = bot.choose(game.copy())
        except BotFailure as failure:
            reason, detail = failure.reason, str(failure)
            break
        finally:
            thinking += time.perf_counter() - started
        try:
            move = _move_of(answer)
        except MoveSyntaxError as error:
            reason, detail = "malformed", str(error)
            break
        refusal = game.refusal(move)
        if refusal is not None:
            reason, detail = "illegal", f"{move}: {refusal.message}"
            break
        game.push(move)
    if reason is not None and not game.is_over:
        game.resign()
    game_over = getattr(bot, "game_over", None)
    if game_over is not None:
        game_over(game.copy())
    actions = len(game.history) - (1 if reason is not None and game.history[-1].kind is MoveKind.RESIGN else 0)
    termination = game.termination
    return GameResult(
        deal.number if deal.number is not None else -1, deal.code, game.outcome.value,
        None if termination is None else termination.value, game.score, game.position.pyramid_removed, actions,
        thinking, reason, detail, tuple(str(move) for move in game.history),
    )


def _move_of(answer: object) -> Move:
    """The move a bot answered (a :class:`Move` or its text); :class:`MoveSyntaxError` otherwise."""
    if isinstance(answer, Move):
        return answer
    if isinstance(answer, str):
        return Move.parse(answer)
    raise MoveSyntaxError(f"choose() answered {answer!r}, not a move or its text")


# -- many games, in one process or several -----------------------------------------------------
@dataclass(frozen=True)
class TournamentSpec:
    bot: BotSpec
    rules: Rules
    numbers: Sequence[int]
    seed: int = 0
    level: str | None = None
    max_actions: int = DEFAULT_MAX_ACTIONS


_WORKER: dict[str, Any] = {}
"""The bot of this process and the tournament it plays for (each process of ``--jobs`` has its own)."""


def _bot_for(spec: TournamentSpec) -> Any:
    if _WORKER.get("spec") != spec:
        _worker_stop()
        _stop_when_terminated()
        _WORKER["bot"] = spec.bot.build()
        _WORKER["spec"] = spec
    return _WORKER["bot"]


def _worker_game(task: tuple[TournamentSpec, int]) -> GameResult | None:
    """One game, in whatever process plays it (the bot is built once per process)."""
    spec, number = task
    deal = Deal.from_number(number, spec.rules)
    if spec.level is not None and not _of_level(deal, spec.level):
        return None
    return play_game(_bot_for(spec), deal, seed=game_seed(spec.seed, number), max_actions=spec.max_actions)


def _worker_stop() -> None:
    """Close this process's bot (an engine's process with it).  In a process of the pool, SIGTERM
    waits until the engine is stopped: ending the process half-way would leave its process group."""
    import signal

    hold = "terminated" in _WORKER and hasattr(signal, "pthread_sigmask")
    if hold:
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
    try:
        bot = _WORKER.pop("bot", None)
        _WORKER.pop("spec", None)
        close = getattr(bot, "close", None)
        if close is not None:
            close()
    finally:
        if hold:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})


def _stop_when_terminated() -> None:
    """In a process of the pool: stop the bot however the pool ends the process.

    A pool process either leaves on its own when the pool is done (its finalizers run) or is ended
    with SIGTERM, whose default action would leave an engine (and its process group) running with
    nobody to stop it.  Both ways stop the bot first; the signal then ends the process as it would have.
    """
    import multiprocessing
    import multiprocessing.util
    import signal

    if multiprocessing.parent_process() is None or "terminated" in _WORKER:
        return

    def stop_then_end(signum: int, frame: object) -> None:
        _worker_stop()
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)

    signal.signal(signal.SIGTERM, stop_then_end)
    multiprocessing.util.Finalize(None, _worker_stop, exitpriority=10)
    _WORKER["terminated"] = stop_then_end


def _of_level(deal: Deal, level: str) -> bool:
    from ..analysis.grade import default_prover, is_level_deal, parse_level

    return is_level_deal(deal, parse_level(level), default_prover())


def run_tournament(spec: TournamentSpec, jobs: int = 1,
                   progress: Callable[[GameResult], None] | None = None) -> list[GameResult]:
    """Every game of the tournament, in deal order (the same list for any ``jobs``).

    The games go through the package's one worker pool (:func:`~pyramide_cli.analysis.pool.ordered_map`);
    each worker builds its own bot.  When the pool ends, a worker's engine sees its input close
    and exits (engines that hang were already killed at their time limit).
    """
    from ..analysis.pool import ordered_map

    results: list[GameResult] = []
    try:
        for outcome in ordered_map(_worker_game, [(spec, number) for number in spec.numbers], jobs):
            if outcome is not None:
                results.append(outcome)
                if progress is not None:
                    progress(outcome)
    finally:
        _worker_stop()
    return results


# -- the figures ---------------------------------------------------------------------------------
def summary(results: Sequence[GameResult]) -> dict[str, Any]:
    """Win rate with its 95 % Wilson interval, means per game, time per move, failures by reason."""
    from ..analysis.survey import wilson_interval

    games = len(results)
    wins = sum(result.won for result in results)
    low, high = wilson_interval(wins, games)
    actions = sum(result.actions for result in results)
    reasons: dict[str, int] = {}
    for result in results:
        if result.reason is not None:
            reasons[result.reason] = reasons.get(result.reason, 0) + 1
    endings: dict[str, int] = {}
    for result in results:
        key = result.termination or "unfinished"
        endings[key] = endings.get(key, 0) + 1
    return {
        "games": games,
        "wins": wins,
        "win_rate": round(wins / games, 6) if games else 0.0,
        "win_rate_ci95": [round(low, 6), round(high, 6)],
        "mean_score": round(sum(result.score for result in results) / games, 3) if games else 0.0,
        "mean_pyramid_removed": round(sum(result.pyramid_removed for result in results) / games, 3) if games else 0.0,
        "mean_actions": round(actions / games, 3) if games else 0.0,
        "ms_per_move": round(1000 * sum(result.bot_seconds for result in results) / actions, 4) if actions else 0.0,
        "endings": endings,
        "failures": reasons,
    }
