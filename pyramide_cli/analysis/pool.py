"""One way to spread independent tasks over worker processes, for ``survey`` and ``calibrate``.

Results come back in the order of the tasks whatever the number of workers, so a result never
depends on ``jobs``.  Workers are *spawned* (a fresh interpreter each), not forked: nothing of
the parent's state (open files, locks, a half-written progress bar) leaks into them, and it
behaves the same on every platform.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

Task = TypeVar("Task")
Result = TypeVar("Result")


def ordered_map(function: Callable[[Task], Result], tasks: Sequence[Task], jobs: int = 1) -> Iterator[Result]:
    """``function(task)`` for every task, in order; over ``jobs`` spawned processes when ``jobs > 1``.

    ``function`` must be a module-level function (workers import it by name).  Results are yielded
    as they come, so a caller can show progress.
    """
    if jobs <= 1 or len(tasks) <= 1:
        yield from map(function, tasks)
        return
    import multiprocessing

    chunksize = max(1, min(16, len(tasks) // (4 * jobs)))
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        yield from pool.imap(function, tasks, chunksize=chunksize)
