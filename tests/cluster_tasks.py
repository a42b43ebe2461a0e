"""Tasks the cluster tests hand to Dask workers (importable there: the workers get the tests' path)."""

from __future__ import annotations

import os
import signal

from pyramide_cli.analysis.cluster import ChunkResult, solve_chunk


def solve_chunk_killing_its_worker_once(rules_text: str, numbers: list[int], max_states: int, optimal: bool, *,
                                        victim: int, marker: str) -> ChunkResult:
    """Like ``solve_chunk``, but the first worker to get deal ``victim`` dies (``kill -9``) mid-chunk."""
    if victim in numbers:
        try:
            descriptor = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            pass
        else:
            os.close(descriptor)
            solve_chunk(rules_text, numbers[:1], max_states, optimal)  # some work is lost with it
            os.kill(os.getpid(), signal.SIGKILL)
    return solve_chunk(rules_text, numbers, max_states, optimal)


def solve_chunk_of_another_solver(rules_text: str, numbers: list[int], max_states: int, optimal: bool) -> ChunkResult:
    """A worker with another pyramide installed: its results carry another solver version."""
    result = solve_chunk(rules_text, numbers, max_states, optimal)
    return result._replace(solver_version=result.solver_version + 1, pyramide_version="0.0.1")


def failing_chunk(rules_text: str, numbers: list[int], max_states: int, optimal: bool) -> ChunkResult:
    raise ModuleNotFoundError("No module named 'pyramide_cli'")
