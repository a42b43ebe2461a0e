"""``survey --jobs`` is bounded, and a pool never starts more processes than it has tasks (issue 26, item 11:
``--jobs 99999 --deals 0-3`` started 326 interpreters in 12 s)."""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import pytest

from cli_support import invoke
from pyramide_cli.analysis import pool
from pyramide_cli.analysis.pool import MAX_JOBS, ordered_map


class CountingPool:
    """A stand-in for a process pool: it runs in this process and remembers how many processes it was asked for."""

    started: list[int] = []

    def __init__(self, processes: int, initializer: Callable[[], None] | None = None) -> None:
        self.started.append(processes)

    def __enter__(self) -> CountingPool:
        return self

    def __exit__(self, *exc_info: object) -> None:
        pass

    def imap(self, function: Callable[[Any], Any], tasks: Iterable[Any], chunksize: int = 1) -> Iterator[Any]:
        return map(function, tasks)


@pytest.fixture
def pools(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    CountingPool.started = []

    class Context:
        Pool = CountingPool

    monkeypatch.setattr(multiprocessing, "get_context", lambda method: Context())
    return CountingPool.started


@pytest.mark.parametrize("jobs, tasks, processes", [(99_999, 4, 4), (8, 3, 3), (99_999, 10_000, MAX_JOBS), (2, 5, 2)])
def test_a_pool_starts_no_more_processes_than_tasks_or_the_bound(pools: list[int], jobs: int, tasks: int,
                                                                  processes: int) -> None:
    assert list(ordered_map(abs, [-number for number in range(tasks)], jobs)) == list(range(tasks))
    assert pools == [processes]


def test_a_lazy_stream_of_tasks_is_bounded_too(pools: list[int]) -> None:
    assert list(ordered_map(abs, iter([-1, -2, -3]), 99_999)) == [1, 2, 3] and pools == [MAX_JOBS]


def test_survey_refuses_jobs_past_the_bound_before_starting_anything(pools: list[int]) -> None:
    outcome = invoke("survey", "--jobs", "99999", "--deals", "0-3")
    assert outcome.status == 2
    assert outcome.stderr == f"pyramide: --jobs 99999: at most {MAX_JOBS} (a worker process each)\n"
    assert pools == [] and pool.MAX_JOBS == 256
