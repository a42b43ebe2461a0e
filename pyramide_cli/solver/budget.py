"""Search limits: a state counter and a stopwatch shared by every search of one solve."""

from __future__ import annotations

import time
from dataclasses import dataclass

CHECK_EVERY = 1024


@dataclass(frozen=True, slots=True)
class SolveLimits:
    """When a search gives up and answers ``unknown``.

    ``max_states`` counts positions expanded (by every search of one solve together); ``timeout``
    is in seconds of wall time.  ``None`` means no limit.  The defaults decide every deal 0–999
    under presets ``N`` and ``T`` with a wide margin (see docs/solver.md).
    """

    max_states: int | None = 5_000_000
    timeout: float | None = 60.0

    def __post_init__(self) -> None:
        if self.max_states is not None and self.max_states < 1:
            raise ValueError(f"max_states must be at least 1, not {self.max_states!r}")
        if self.timeout is not None and not self.timeout > 0:
            raise ValueError(f"timeout must be a positive number of seconds, not {self.timeout!r}")


DEFAULT_LIMITS = SolveLimits()


class LimitReached(Exception):
    """Raised inside a search when its budget is spent; the solve answers ``unknown``."""


class SearchCapped(Exception):
    """Raised inside a search past the cap set by :meth:`Budget.cap` (a side question gave up)."""


class Budget:
    def __init__(self, limits: SolveLimits) -> None:
        self.states = 0
        self.started = time.perf_counter()
        self._max_states = limits.max_states
        self._deadline = None if limits.timeout is None else self.started + limits.timeout
        self.next_check = CHECK_EVERY
        self._cap: int | None = None

    def tick(self) -> None:
        """Count one expanded position; raise :class:`LimitReached` once over a limit."""
        self.states += 1
        if self.states >= self.next_check:
            self.check()

    def check(self) -> None:
        self.next_check = self.states + CHECK_EVERY
        if self._max_states is not None and self.states > self._max_states:
            raise LimitReached(f"searched {self._max_states:,} states")
        if self._deadline is not None and time.perf_counter() > self._deadline:
            raise LimitReached("timed out")
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
