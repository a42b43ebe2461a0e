"""Surveys on a Dask distributed cluster: deals go out in chunks, outcomes stream back.

Dask is an optional extra (``pip install 'pyramide[cluster]'``), imported here only, and only
when ``survey --cluster`` asks for it.  Each chunk is solved on a worker by :func:`solve_chunk`:
the very solve one process runs, under a position budget and no clock, so the verdicts do not
depend on which worker ran a deal or how busy it was.

A worker lost mid-chunk: the scheduler hands that chunk to another worker (Dask's own rule, up to
its ``distributed.scheduler.allowed-failures`` times); the client only yields outcomes of chunks
that came back whole, so a deal is never lost and never counted twice.  ``docs/scale.md`` says how
to start a scheduler and workers.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import CancelledError
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import islice
from typing import Any, NamedTuple

from ..engine.errors import PyramideError
from ..engine.rules import Rules
from ..engine.text import plural, text
from ..solver import Limits
from ..solver.version import SOLVER_VERSION
from ..versions import PACKAGE_VERSION
from .survey import DealOutcome, solve_number

INSTALL_HINT = "pip install 'pyramide[cluster]' (in a clone of pyramide: pip install '.[cluster]')"
CONNECT_SECONDS = 10
"""How long to try reaching a scheduler before saying it cannot be reached."""
WORKER_WAIT_SECONDS = 60
"""How long to wait for a first worker to join a scheduler that has none."""
TARGET_CHUNK_SECONDS = 1.0
"""A chunk is sized to about this much solving, from the times measured so far: the scheduler's
few milliseconds per chunk stay under 1 %, and a lost worker costs about a second of work."""
TAIL_CHUNK_SECONDS = 0.1
"""Near the end chunks shrink so the workers finish together, but not below this much solving."""
FIRST_CHUNK = 4
MAX_CHUNK = 2000
IN_FLIGHT_PER_THREAD = 2
QUIET_PROCESSES = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.worker.memory.monitor-interval": "1s",
    "distributed.admin.system-monitor.interval": "2s",
    "distributed.scheduler.work-stealing": False,
    "distributed.worker.multiprocessing-method": "forkserver",
}
"""Dask settings of ``local:N`` (an idle LocalCluster burns several times less CPU with these than
with Dask's defaults; ``docs/scale.md``).  They change how often Dask looks
at itself — its statistical profiler, event-loop and memory checks —, turn off work stealing
(useless when at most two chunks per worker are out), and start the workers from a fork server
that imported Dask once (forking starts a worker for a fraction of spawning's CPU); never
what a worker computes.
docs/scale.md gives the same settings for the workers of a real cluster."""


class ClusterUnavailableError(PyramideError):
    """``--cluster`` without Dask installed (the message says how to install it)."""


class ClusterError(PyramideError):
    """The cluster cannot be reached, has no worker, or a chunk could not be solved."""


@dataclass(frozen=True, slots=True)
class ClusterSpec:
    """Where to run: an existing scheduler's ``address``, or ``local_workers`` on this machine."""

    address: str | None = None
    local_workers: int | None = None

    @classmethod
    def parse(cls, spec: str) -> ClusterSpec:
        """``local:N`` (a ``LocalCluster`` of N worker processes) or a scheduler address."""
        stripped = spec.strip()
        if stripped.lower().startswith("local:"):
            count = stripped[len("local:"):]
            if not count.isdigit() or int(count) < 1:
                raise ValueError(text("--cluster {value!r}: write local:N with N at least 1, e.g. local:2", value=spec))
            return cls(local_workers=int(count))
        if not stripped:
            raise ValueError(text("--cluster '': give a scheduler address such as tcp://10.0.0.5:8786, or local:N"))
        return cls(address=stripped)

    def __str__(self) -> str:
        return f"local:{self.local_workers}" if self.local_workers else str(self.address)


class ChunkResult(NamedTuple):
    """What a worker sends back for one chunk."""

    solver_version: int
    pyramide_version: str
    outcomes: tuple[DealOutcome, ...]
    cpu_seconds: float


_heap_frozen = False


def solve_chunk(rules_text: str, numbers: list[int], max_states: int, optimal: bool) -> ChunkResult:
    """Solve one chunk of deals on a worker (top level, so any worker can import it).

    The first chunk a worker process runs freezes the objects alive then (``gc.freeze``: Dask's
    own, some 56,000) out of the garbage collector's way; the solver's many full collections no
    longer walk them, which made a worker 3-5 % slower than a plain process.  Nothing of a result
    depends on it."""
    global _heap_frozen
    if not _heap_frozen:
        import gc

        gc.freeze()
        _heap_frozen = True
    limits = Limits(max_states=max_states, timeout=None)
    started = time.process_time()
    outcomes = tuple(solve_number((number, rules_text, limits, optimal)) for number in numbers)
    return ChunkResult(SOLVER_VERSION, PACKAGE_VERSION, outcomes, time.process_time() - started)


def import_distributed() -> Any:
    """The ``distributed`` module, or :class:`ClusterUnavailableError` saying how to install it."""
    try:
        import distributed
    except ImportError:
        raise ClusterUnavailableError(text("--cluster needs Dask, which is not installed: {how}",
                                           how=INSTALL_HINT)) from None
    return distributed


@contextmanager
def connect(spec: ClusterSpec) -> Iterator[Any]:
    """A Dask ``Client`` on ``spec``, closed afterwards (a ``LocalCluster`` is stopped with it)."""
    distributed = import_distributed()
    if spec.local_workers:
        import dask

        with dask.config.set(QUIET_PROCESSES):
            with _workers_ignore_ctrl_c():
                cluster = distributed.LocalCluster(n_workers=spec.local_workers, threads_per_worker=1, processes=True,
                                                   dashboard_address="127.0.0.1:0", silence_logs=logging.CRITICAL)
            with cluster, distributed.Client(cluster) as client:
                yield client
        return
    _quiet_dask_logs()
    try:
        client = distributed.Client(spec.address, timeout=CONNECT_SECONDS)
    except (OSError, TimeoutError, ValueError) as error:
        raise ClusterError(text("cannot reach the Dask scheduler at {address!r}: {reason}", address=spec.address,
                                reason=str(error))) from None
    with client:
        try:
            client.wait_for_workers(1, timeout=WORKER_WAIT_SECONDS)
        except TimeoutError:
            raise ClusterError(text("no worker joined the Dask scheduler at {address!r} within {seconds} s: start "
                                    "some with `dask worker {address} --nthreads 1`", address=spec.address,
                                    seconds=WORKER_WAIT_SECONDS)) from None
        yield client


@contextmanager
def _workers_ignore_ctrl_c() -> Iterator[None]:
    """Start processes that ignore SIGINT: Ctrl-C reaches the whole process group, and only the
    client should stop (it commits, cancels and closes the cluster); a worker would print a
    traceback.  An ignored signal stays ignored in children, the fork server's included."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


class ChunkSizer:
    """Deals per chunk: about :data:`TARGET_CHUNK_SECONDS` of solving, smaller near the end so the
    last chunks finish together.  Only the speed changes with it, never an outcome."""

    def __init__(self, fixed: int | None = None) -> None:
        self.fixed = fixed
        self.seconds_per_deal: float | None = None

    def measured(self, deals: int, cpu_seconds: float) -> None:
        if deals:
            speed = max(cpu_seconds, 1e-6) / deals
            previous = self.seconds_per_deal
            self.seconds_per_deal = speed if previous is None else 0.7 * previous + 0.3 * speed

    def size(self, remaining: int, threads: int) -> int:
        if self.fixed is not None:
            return self.fixed
        if self.seconds_per_deal is None:
            return max(1, min(FIRST_CHUNK, remaining // max(1, threads)))
        wanted = min(MAX_CHUNK, max(1, round(TARGET_CHUNK_SECONDS / self.seconds_per_deal)))
        smallest = max(1, round(TAIL_CHUNK_SECONDS / self.seconds_per_deal))
        return max(1, min(wanted, max(smallest, remaining // (4 * max(1, threads))), remaining))


def cluster_outcomes(client: Any, rules: Rules, numbers: Iterable[int], total: int, limits: Limits,
                     optimal: bool = False, chunk_size: int | None = None,
                     task: Callable[..., ChunkResult] = solve_chunk) -> Iterator[DealOutcome]:
    """Solve ``numbers`` (``total`` of them) on the cluster; outcomes as chunks finish (any order).

    At most :data:`IN_FLIGHT_PER_THREAD` chunks per worker thread are out at a time, so a range of
    100 M deals never sits in the scheduler's memory; closing the generator cancels what is out."""
    distributed = import_distributed()
    if limits.max_states is None:
        raise ValueError("a cluster survey needs a position budget (max_states)")
    pending = iter(numbers)
    sizer = ChunkSizer(chunk_size)
    remaining = total
    out: dict[Any, tuple[Any, list[int]]] = {}  # future key -> (future, its deal numbers)
    finished = distributed.as_completed(loop=client.loop)

    counted = [0, -1.0]  # worker threads, when counted: asked of the scheduler at most once a second

    def threads() -> int:
        if time.monotonic() - counted[1] >= 1.0:
            counted[:] = [sum(client.nthreads().values()), time.monotonic()]
        return int(counted[0])

    def submit(count: int) -> None:
        nonlocal remaining
        for _ in range(count):
            chunk = list(islice(pending, sizer.size(remaining, threads())))
            if not chunk:
                return
            remaining -= len(chunk)
            future = client.submit(task, rules.name, chunk, limits.max_states, optimal, pure=False)
            out[future.key] = future, chunk
            finished.add(future)

    submit(IN_FLIGHT_PER_THREAD * max(1, threads()))
    try:
        for future in finished:
            chunk = out.pop(future.key)[1]
            result = _chunk_result(distributed, future, chunk)
            future.release()
            sizer.measured(len(chunk), result.cpu_seconds)
            submit(max(0, IN_FLIGHT_PER_THREAD * max(1, threads()) - len(out)))
            yield from result.outcomes
    finally:
        if out:  # stopped early (Ctrl-C, an error): nothing more is solved for this run
            client.cancel([future for future, _ in out.values()])


def _chunk_result(distributed: Any, future: Any, chunk: list[int]) -> ChunkResult:
    span = (text("deals {first}-{last}", first=chunk[0], last=chunk[-1]) if len(chunk) > 1
            else text("deal {number}", number=chunk[0]))
    try:
        result = future.result()
    except CancelledError as error:  # the scheduler dropped the chunk: it went away, or dropped this client
        reason = getattr(error, "reason", None) or "cancelled"
        raise ClusterError(plural(
            "lost the Dask scheduler while {span} was out ({reason}); everything solved before is kept: run again "
            "with --resume once the cluster is back",
            "lost the Dask scheduler while {span} were out ({reason}); everything solved before is kept: run again "
            "with --resume once the cluster is back", len(chunk), span=span, reason=_one_line(reason))) from None
    except distributed.KilledWorker:
        raise ClusterError(plural(
            "{span} took down a worker each time it was tried (Dask's allowed-failures); everything solved before "
            "is kept",
            "{span} took down a worker each time they were tried (Dask's allowed-failures); everything solved before "
            "is kept", len(chunk), span=span)) from None
    except Exception as error:  # noqa: BLE001 - any worker-side failure, e.g. pyramide not installed there
        raise ClusterError(text("a worker failed on {span}: {kind}: {reason} (is the same pyramide installed on every "
                                "worker?)", span=span, kind=type(error).__name__,
                                reason=_one_line(str(error)))) from None
    if result.solver_version != SOLVER_VERSION:
        raise ClusterError(text(
            "a worker runs pyramide {version} (solver version {solver}), this client pyramide {own_version} (solver "
            "version {own_solver}): install the same pyramide on every worker", version=result.pyramide_version,
            solver=result.solver_version, own_version=PACKAGE_VERSION, own_solver=SOLVER_VERSION))
    return result


def _one_line(text: str) -> str:
    """Dask's messages span lines; ours are one."""
    return " ".join(text.split())


def _quiet_dask_logs() -> None:
    """Dask logs tracebacks of lost connections on stderr; the client's own one-line error says what
    matters.  Dask sets levels on some of its loggers itself, so each gets its own."""
    for name in [name for name in logging.root.manager.loggerDict if name.split(".")[0] == "distributed"]:
        logging.getLogger(name).setLevel(logging.CRITICAL)
    logging.getLogger("distributed").setLevel(logging.CRITICAL)
