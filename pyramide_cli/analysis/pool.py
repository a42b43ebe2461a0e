"""One way to spread independent tasks over worker processes, for ``survey`` and ``calibrate``.

Results come back in the order of the tasks whatever the number of workers, so a result never
depends on ``jobs``.  Workers are *spawned* (a fresh interpreter each), not forked: nothing of
the parent's state (open files, locks, a half-written progress bar) leaks into them, and it
behaves the same on every platform.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sized
from itertools import islice
from typing import TypeVar

Task = TypeVar("Task")
Result = TypeVar("Result")


MAX_JOBS = 256
"""The most worker processes a pool starts (``--jobs`` beyond it is refused by the commands): each is
a whole interpreter, and thousands of them only exhaust the machine."""
SLAB_PER_JOB = 1000
"""Tasks handed to the pool at a time, per process: a pool reads all the tasks it is given at once,
so an endless or huge stream of tasks (a ``survey --store`` of 100 M deals) goes in slabs; a slab's
last chunks leave a process idle well under 1 % of the time."""


def ordered_map(function: Callable[[Task], Result], tasks: Iterable[Task], jobs: int = 1,
                size: int | None = None) -> Iterator[Result]:
    """``function(task)`` for every task, in order; over ``jobs`` spawned processes when ``jobs > 1``
    (at most :data:`MAX_JOBS`, and never more than there are tasks when their number is known).

    ``function`` must be a module-level function (workers import it by name).  Results are yielded
    as they come, so a caller can show progress.  ``tasks`` may be a lazy iterable (``size``, or its
    ``len()``, sizes the pool's chunks when known).  Ctrl-C stops the caller only: the workers
    ignore it and are terminated when the caller stops reading.
    """
    if size is None and isinstance(tasks, Sized):
        size = len(tasks)
    jobs = min(jobs, MAX_JOBS, jobs if size is None else size)  # never more processes than tasks
    if jobs <= 1 or (size is not None and size <= 1):
        yield from map(function, tasks)
        return
    import multiprocessing

    chunksize = max(1, min(16, (size or SLAB_PER_JOB * jobs) // (4 * jobs)))
    pending = iter(tasks)
    with multiprocessing.get_context("spawn").Pool(jobs, initializer=_ignore_interrupts) as pool:
        while slab := list(islice(pending, SLAB_PER_JOB * jobs)):
            yield from pool.imap(function, slab, chunksize=chunksize)


def _ignore_interrupts() -> None:
    """In a pool process: leave Ctrl-C to the parent (it stops, keeps what it has and says so)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
