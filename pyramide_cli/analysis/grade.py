"""Difficulty levels and the daily deal (R25–R26).  Pure: no files, no terminal.

**Grading.**  A deal's level comes from R25's player without a plan,
:func:`pyramide_cli.engine.playout.random_game`, playing a fixed number of games per rules preset
(:attr:`LevelThresholds.games`).  The games are seeded, so a deal grades the same everywhere:

* game 1, 2, … of *every* deal draw from one stream, ``random.Random(GRADING_SEED).random``
  (Mersenne Twister MT19937 seeded by ``init_by_array`` with the seed's 32-bit words; each float
  is ``((a >> 5) * 2**26 + (b >> 6)) / 2**53`` from two 32-bit outputs ``a``, ``b``).  Python guarantees that
  ``random()`` gives the same sequence for the same integer seed on every version and machine
  (the "Notes on Reproducibility" of the ``random`` module);
* each game takes the action ``actions[int(r * len(actions))]`` from the actions listed by
  :meth:`PlayoutTables.actions` in their documented order.

The number of games won gives the level through the thresholds of the preset, which live in
one place, :mod:`pyramide_cli.analysis.level_table` (written by ``pyramide calibrate``):
at least ``easy`` wins is Easy, at least ``medium`` Medium, at least ``hard`` Hard, fewer is
Expert.  Rules with variants (``T+strict`` …) use their preset's table.

**Early stopping.**  Looking for a deal of one level need not play every game: after ``played``
games with ``wins`` won, the final count lies in ``[wins, wins + games - played]``; once that
range falls inside one level's band (or outside the wanted level's band) the rest of the games
cannot change the answer, so stopping there gives exactly the level of playing them all.

**Winnable only.**  A deal is dealt for a level (or as the daily deal) only when the solver proves
it winnable within fixed limits (a state budget, never a clock, so the choice is the same on
every machine); an unwinnable deal, or one where the solver hits its limit, is skipped.

**The daily deal** of a date (:func:`daily_start`, :func:`daily_deal`): the first output of
SplitMix64 seeded with ``DAILY_SALT + date.toordinal()``, modulo the number of deal numbers,
is where the scan starts; the daily deal is the first Medium, proven winnable deal from there,
going up through the deal numbers (wrapping after the last one).  ``--seed S`` picks a level deal
the same way from SplitMix64 seeded with ``SEED_SALT ^ S``.
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Callable
from dataclasses import dataclass

from ..engine.deal import MAX_DEAL_NUMBER, Deal, splitmix64
from ..engine.errors import PyramideError
from ..engine.level import LEVEL_WORDS, LEVELS, Level
from ..engine.text import text
from .level_table import LEVEL_TABLE
from ..engine.playout import PlayoutTables, random_game
from ..engine.rules import Rules
from ..solver import Verdict

GRADING_SEED = 25
"""The seed of the random player's games (R25), the same for every deal."""
DAILY_SALT = 0x5059_4441_494C_5900
"""Added to the date's ordinal before SplitMix64 (``"PYDAILY"`` in ASCII), so daily starts differ from seed starts."""
SEED_SALT = 0x5059_4C45_5645_4C00
"""XORed with ``--seed`` before SplitMix64 (``"PYLEVEL"``)."""
DEAL_COUNT = MAX_DEAL_NUMBER + 1
SOLVER_STATES = 100_000
"""The solver's budget when grading: positions, never seconds, so that every machine agrees."""
MAX_SCAN = 20_000
"""Deals examined by one level search before giving up (never reached under the plain presets)."""


DAILY_LEVEL = Level.MEDIUM
"""R26: the daily deal is a Medium deal."""


class GradeError(PyramideError, ValueError):
    """A level name or date that cannot be read, or a level search that found nothing."""


class LevelSearchError(GradeError):
    """A level search examined its whole budget of deals without finding one."""


Prover = Callable[[Deal], Verdict]
"""Decides whether a deal can be won (the solver within fixed limits)."""


def parse_level(name: str) -> Level:
    """``easy`` / ``Medium`` / ``HARD`` … → :class:`Level`; anything else is a :class:`GradeError`."""
    key = name.strip().lower() if isinstance(name, str) else name
    for level in LEVELS:
        if level.value == key:
            return level
    raise GradeError(text("unknown level {level!r}: choose easy, medium, hard or expert", level=name))


def parse_date(written: str) -> datetime.date:
    """A calendar date written ``YYYY-MM-DD`` (ISO 8601); anything else is a :class:`GradeError`."""
    stripped = written.strip() if isinstance(written, str) else ""
    if len(stripped) == 10 and stripped[4] == "-" and stripped[7] == "-":
        try:
            return datetime.date.fromisoformat(stripped)
        except ValueError as error:
            raise GradeError(text("bad date {date!r}: {reason}", date=written, reason=str(error))) from None
    raise GradeError(text("bad date {date!r}: expected YYYY-MM-DD, e.g. 2026-03-14", date=written))


# -- thresholds --------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class LevelThresholds:
    """How many of ``games`` random games a deal must win for each level (one rules preset)."""

    preset: str
    games: int
    easy: int
    medium: int
    hard: int

    def __post_init__(self) -> None:
        if not self.games >= self.easy > self.medium > self.hard >= 1:
            raise ValueError(f"thresholds of {self.preset} must satisfy games >= easy > medium > hard >= 1: {self}")

    def minimum_wins(self, level: Level) -> int:
        """The fewest wins a deal of ``level`` has."""
        return {Level.EASY: self.easy, Level.MEDIUM: self.medium, Level.HARD: self.hard, Level.EXPERT: 0}[level]

    def maximum_wins(self, level: Level) -> int:
        """The most wins a deal of ``level`` has."""
        return {Level.EASY: self.games, Level.MEDIUM: self.easy - 1, Level.HARD: self.medium - 1,
                Level.EXPERT: self.hard - 1}[level]

    def level_of(self, wins: int) -> Level:
        """The level of a deal won ``wins`` times out of ``games``."""
        if wins >= self.easy:
            return Level.EASY
        if wins >= self.medium:
            return Level.MEDIUM
        if wins >= self.hard:
            return Level.HARD
        return Level.EXPERT

    def rate_band(self, level: Level) -> tuple[float, float]:
        """The win rates of ``level``: ``low <= rate < high`` (``high`` is 1.0 inclusive for Easy)."""
        high = 1.0 if level is Level.EASY else (self.maximum_wins(level) + 1) / self.games
        return self.minimum_wins(level) / self.games, high


def thresholds_for(rules: Rules) -> LevelThresholds:
    """The thresholds calibrated for the preset of ``rules`` (variants use their preset's table)."""
    entry = LEVEL_TABLE[rules.preset_letter]
    return LevelThresholds(rules.preset_letter, entry["games"], entry["easy"], entry["medium"], entry["hard"])


# -- the random player's games -----------------------------------------------------------------
def grading_rng() -> Callable[[], float]:
    """The random stream every deal's games draw from (see the module docstring)."""
    return random.Random(GRADING_SEED).random


class GradingRun:
    """The random player's games on one deal, played in their fixed order, resumable.

    ``wins`` of ``played`` games so far; the level is decided once the games left cannot move
    the final count out of one level's band.
    """

    def __init__(self, deal: Deal, thresholds: LevelThresholds | None = None) -> None:
        self.deal = deal
        self.thresholds = thresholds or thresholds_for(deal.rules)
        self.wins = 0
        self.played = 0
        self._tables = PlayoutTables(deal)
        self._rng = grading_rng()

    @property
    def remaining(self) -> int:
        return self.thresholds.games - self.played

    @property
    def level(self) -> Level | None:
        """The level, once the games left can no longer change it; ``None`` before."""
        hardest = self.thresholds.level_of(self.wins)
        return hardest if self.thresholds.level_of(self.wins + self.remaining) is hardest else None

    def rules_out(self, level: Level) -> bool:
        """True once the deal surely is not of ``level``, whatever the games left give."""
        return (self.wins > self.thresholds.maximum_wins(level)
                or self.wins + self.remaining < self.thresholds.minimum_wins(level))

    def play(self, games: int | None = None, until: Callable[[GradingRun], bool] | None = None) -> GradingRun:
        """Play up to ``games`` more games (all that are left by default), stopping early when ``until`` says so."""
        budget = self.remaining if games is None else min(games, self.remaining)
        tables, rng = self._tables, self._rng
        for _ in range(budget):
            if until is not None and until(self):
                break
            self.wins += random_game(tables, rng).won
            self.played += 1
        return self



def decided_or_ruled_out(level: Level) -> Callable[[GradingRun], bool]:
    """A stop condition for :meth:`GradingRun.play`: the level is known, or known not to be ``level``."""
    return lambda run: run.level is not None or run.rules_out(level)


# -- grading one deal --------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Grade:
    """A deal graded: the solver's verdict, the random player's record, the level (winnable deals only)."""

    deal: Deal
    winnability: Verdict
    wins: int
    games: int
    thresholds: LevelThresholds
    solver_proved: bool = True

    @property
    def win_rate(self) -> float:
        return self.wins / self.games

    @property
    def winnable(self) -> bool | None:
        """True, False, or ``None`` when the solver reached its limit and no random game was won."""
        if self.winnability is Verdict.WINNABLE:
            return True
        return False if self.winnability is Verdict.UNWINNABLE else None

    @property
    def level(self) -> Level | None:
        """The level of a winnable deal; ``None`` for an unwinnable or undecided one."""
        return self.thresholds.level_of(self.wins) if self.winnable else None


def grade_deal(deal: Deal, prover: Prover | None = None) -> Grade:
    """Solve ``deal`` and play all the random games of its preset (no early stopping).

    A random game won proves the deal winnable too, so a deal where the solver hit its limit but
    the random player won is graded (``solver_proved`` is then false) rather than left undecided.
    """
    verdict = (prover or default_prover())(deal)
    run = GradingRun(deal).play()
    solver_proved = verdict is Verdict.WINNABLE
    if verdict is Verdict.UNKNOWN and run.wins:
        verdict = Verdict.WINNABLE
    return Grade(deal, verdict, run.wins, run.thresholds.games, run.thresholds, solver_proved)


# -- choosing deals of a level -----------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class LevelDeal:
    """A deal found for a level: proven winnable, of that level; ``start`` and ``scanned`` say how it was found."""

    deal: Deal
    level: Level
    start: int
    scanned: int
    date: datetime.date | None = None

    @property
    def daily(self) -> str | None:
        """The date of a daily deal as ``YYYY-MM-DD`` (``None`` for a level deal)."""
        return None if self.date is None else self.date.isoformat()


def is_level_deal(deal: Deal, level: Level, prover: Prover, thresholds: LevelThresholds | None = None) -> bool:
    """True when ``deal`` is proven winnable and grades to ``level`` (exactly as :func:`grade_deal` would).

    The solver goes first (milliseconds for most deals, and it rules out every unwinnable deal,
    which the games could only rule out slowly); then the games go on only until the level, or
    "not ``level``", is certain.
    """
    if prover(deal) is not Verdict.WINNABLE:
        return False
    run = GradingRun(deal, thresholds).play(until=decided_or_ruled_out(level))
    return run.level is level


def find_level_deal(
    level: Level, rules: Rules, start: int, prover: Prover | None = None, max_scan: int | None = None,
    date: datetime.date | None = None,
) -> LevelDeal:
    """The first deal from number ``start`` up (wrapping) that is proven winnable and of ``level``."""
    prove = prover or default_prover()
    thresholds = thresholds_for(rules)
    max_scan = MAX_SCAN if max_scan is None else max_scan
    for offset in range(max_scan):
        deal = Deal.from_number((start + offset) % DEAL_COUNT, rules)
        if is_level_deal(deal, level, prove, thresholds):
            return LevelDeal(deal, level, start, offset + 1, date)
    raise LevelSearchError(text("no {level} deal under rules {rules} among the {count} deals from number {start}",
                                level=LEVEL_WORDS[level], rules=rules.name, count=max_scan, start=start))


def random_start() -> int:
    """Where ``deal --level L`` without ``--seed`` starts scanning: a random deal number."""
    import secrets

    return secrets.randbelow(DEAL_COUNT)


def seed_start(seed: int) -> int:
    """Where ``deal --level L --seed S`` starts scanning."""
    if not 0 <= seed < 2**64:
        raise GradeError(text("seed {seed} out of range 0-{most}", seed=seed, most=2**64 - 1))
    return next(iter(splitmix64(SEED_SALT ^ seed))) % DEAL_COUNT


def daily_start(date: datetime.date) -> int:
    """Where the scan for the daily deal of ``date`` starts (from the date alone)."""
    return next(iter(splitmix64(DAILY_SALT + date.toordinal()))) % DEAL_COUNT


def daily_deal(date: datetime.date, rules: Rules | None = None, prover: Prover | None = None) -> LevelDeal:
    """R26: the daily deal of ``date`` — the first Medium, proven winnable deal from :func:`daily_start`."""
    return find_level_deal(DAILY_LEVEL, rules or Rules(), daily_start(date), prover, date=date)


def solver_verdict(deal: Deal, max_states: int = SOLVER_STATES) -> Verdict:
    """The solver's verdict on ``deal`` from its start, within ``max_states`` (no clock: the same everywhere)."""
    from ..solver import Limits, solve

    return solve(deal, limits=Limits(max_states=max_states, timeout=None)).verdict


def default_prover() -> Prover:
    """The prover grading uses: the solver within :data:`SOLVER_STATES`."""
    return solver_verdict
