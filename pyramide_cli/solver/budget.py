"""Search limits: a position budget (and an optional stopwatch) shared by every search of one solve.

The limit that decides a verdict is counted in positions, never in seconds, so the same command
gives the same answer on any machine at any load.  A wall-clock cap is an opt-in extra
(``timeout``), and a result it stopped says so (:attr:`Limit.TIMEOUT`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from enum import Enum

CHECK_EVERY = 1024
DEFAULT_MAX_STATES = 5_000_000
"""The default position budget: every deal 0-999 of every preset, and of the common variants,
decides well within it (docs/solver.md, bench/bench_variants.py)."""


class Limit(Enum):
    """Which limit stopped a search (the value is what ``--json`` says)."""

    POSITIONS = "positions"
    """The position budget (``max_states``, ``--max-states``) was spent."""
    TIMEOUT = "timeout"
    """The opt-in wall-clock cap (``timeout``, ``--timeout``) struck: the answer depends on the machine."""


@dataclass(frozen=True, slots=True)
class Limits:
    """When a search gives up and answers ``unknown``.

    ``max_states`` counts positions expanded (by every search of one solve together), exactly: a
    search never expands more than that many.  ``timeout`` is in seconds of wall time, off by
    default.  ``None`` means no limit.  The default budget decides every deal 0–999 of every
    preset (see docs/solver.md).
    """

    max_states: int | None = DEFAULT_MAX_STATES
    timeout: float | None = None

    def __post_init__(self) -> None:
        if self.max_states is not None and self.max_states < 1:
            raise ValueError(f"max_states must be at least 1, not {self.max_states!r}")
        if self.timeout is not None and not self.timeout > 0:
            raise ValueError(f"timeout must be a positive number of seconds, not {self.timeout!r}")


DEFAULT_LIMITS = Limits()


class LimitReached(Exception):
    """Raised inside a search when its budget is spent; the solve answers ``unknown``."""

    def __init__(self, limit: Limit) -> None:
        super().__init__(limit.value)
        self.limit = limit


class SearchCapped(Exception):
    """Raised inside a search past the cap set by :meth:`Budget.cap` (a side question gave up)."""


class Budget:
    """Counts the positions of one solve.  Searches call :meth:`tick` per position expanded (hot
    loops inline it: ``states += 1`` and :meth:`check` once ``states`` reaches :attr:`next_check`)."""

    def __init__(self, limits: Limits) -> None:
        self.states = 0
        self.started = time.perf_counter()
        self._max_states = limits.max_states
        self._deadline = None if limits.timeout is None else self.started + limits.timeout
        self.next_check = CHECK_EVERY
        if self._max_states is not None:
            self.next_check = min(self.next_check, self._max_states + 1)
        self._cap: int | None = None

    def tick(self) -> None:
        """Count one expanded position; raise :class:`LimitReached` once over a limit."""
        self.states += 1
        if self.states >= self.next_check:
            self.check()

    def check(self) -> None:
        self.next_check = self.states + CHECK_EVERY
        if self._max_states is not None and self.states > self._max_states:
            self.states = self._max_states  # the position over the budget is not expanded
            raise LimitReached(Limit.POSITIONS)
        if self._deadline is not None and time.perf_counter() > self._deadline:
            raise LimitReached(Limit.TIMEOUT)
        if self._max_states is not None:
            self.next_check = min(self.next_check, self._max_states + 1)
        if self._cap is not None:
            if self.states >= self._cap:
                raise SearchCapped
            self.next_check = min(self.next_check, self._cap)

    def cap(self, states: int | None) -> None:
        """From now on raise :class:`SearchCapped` once ``states`` more positions are counted
        (``None``: no cap).  The solve's own limits still apply and are checked first."""
        if states is None:
            self._cap = None
        else:
            self._cap = self.states + states
            self.next_check = min(self.next_check, self._cap)

    @property
    def seconds(self) -> float:
        return time.perf_counter() - self.started
