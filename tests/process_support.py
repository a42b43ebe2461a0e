"""Helpers for tests that start processes: is a pid still running, and a time bound for a test."""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path


def running(pid: int) -> bool:
    """Whether process ``pid`` exists and is not a zombie (an orphan whose reaper never waits for it
    is dead for our purposes: it runs nothing and holds no pipe)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    stat = Path(f"/proc/{pid}/stat")
    try:
        state = stat.read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True
    return state not in ("Z", "X")


def all_ended(pids: list[int], within: float = 2.0) -> bool:
    """Whether every process of ``pids`` is gone, allowing ``within`` seconds for a SIGKILL already
    sent to be delivered (a kill is asynchronous: the process dies when it is next scheduled)."""
    deadline = time.monotonic() + within
    while any(running(pid) for pid in pids):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def pids_in(path: Path) -> list[int]:
    return [int(line) for line in path.read_text().split()] if path.exists() else []


@contextlib.contextmanager
def bounded(seconds: float) -> Iterator[None]:
    """Fail the test (instead of hanging the suite) if the block runs past ``seconds``."""
    def ran_past(signum: int, frame: object) -> None:
        raise AssertionError(f"ran past the bound of {seconds} s")

    previous = signal.signal(signal.SIGALRM, ran_past)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
