"""The lock two processes playing one save take turns with: exclusive, with a timeout, first come first served.

Mutual exclusion is an advisory ``flock`` on ``<save>.lock`` (the save itself cannot carry it:
``os.replace`` swaps its inode).  Order comes from tickets in ``<save>.queue``: a waiter appends
its ticket (a random id, its pid and the time it gives up), then sleeps in a blocking ``flock`` on
the lock; whoever gets the lock keeps it only when its ticket is first in the queue, otherwise it
lets it go at once for the one whose turn it is.  The kernel wakes ``flock`` waiters about in
order but lets anyone take a lock between a release and the woken waiter's retry — a play session
sending its next line at once would take the lock back before the others every time; the tickets
close that gap.  Crashes stop nothing: the kernel releases a dead process's ``flock``, and a ticket
whose process is gone, or whose own timeout has passed, is dropped by the next one to read the queue.

Both files stay beside the save (deleting a lock file would let a third process lock a different
inode); the queue is empty when nobody waits.

Where there is no ``fcntl`` (Windows) the same design runs on the system's own lock,
``msvcrt.locking`` on the first byte of each file (:class:`_WindowsLocks`): it has no blocking wait
that can be given up, so a waiter tries again every :data:`_POLL_PAUSE` seconds, and the tickets keep
the order.  The system releases the lock of a process that ends.  What Windows cannot say cheaply is
whether a process still runs, so there a dead waiter's ticket is dropped when its own timeout has
passed.  A system with neither gets a clear :class:`FileAccessError` (exit 5); reading commands
(show, replay, solve) need no lock and work everywhere.
"""

from __future__ import annotations

import errno
import os
import stat
import time
from pathlib import Path
from typing import Any

from ..engine.errors import quoted_name
from ..engine.text import text
from .file_errors import FileAccessError, LockTimeoutError, describe_os_error, kind_of_file, process_runs

DEFAULT_LOCK_TIMEOUT = 10.0
"""Seconds to wait for the other processes to finish with a save (``PYRAMIDE_LOCK_TIMEOUT`` overrides)."""
_NOT_MY_TURN_PAUSE = 0.001
"""How long a process that got the lock out of turn waits before asking again (the first in line is
being woken at that moment)."""
_QUEUE_BYTES = 1 << 16
_POLL_PAUSE = 0.005
"""How often a waiter tries the lock again where the system cannot wait for it (Windows)."""


def lock_timeout() -> float:
    """The lock timeout in seconds: ``PYRAMIDE_LOCK_TIMEOUT`` when set to a number, else 10."""
    text = os.environ.get("PYRAMIDE_LOCK_TIMEOUT", "")
    try:
        value = float(text)
    except ValueError:
        return DEFAULT_LOCK_TIMEOUT
    return value if 0 <= value < 1e9 else DEFAULT_LOCK_TIMEOUT


class _PosixLocks:
    """``flock`` on the whole file: a waiter sleeps in the kernel (:class:`_Waiter`), woken about in order."""

    blocking = True

    def __init__(self, fcntl: Any) -> None:
        self.fcntl = fcntl

    def try_lock(self, descriptor: int) -> bool:
        try:
            self.fcntl.flock(descriptor, self.fcntl.LOCK_EX | self.fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True

    def lock(self, descriptor: int) -> None:
        self.fcntl.flock(descriptor, self.fcntl.LOCK_EX)

    def unlock(self, descriptor: int) -> None:
        self.fcntl.flock(descriptor, self.fcntl.LOCK_UN)


_BUSY_ERRORS = {errno.EACCES, errno.EAGAIN, errno.EDEADLK, getattr(errno, "EDEADLOCK", errno.EDEADLK)}
"""What ``msvcrt.locking`` raises when another handle holds the byte."""


class _WindowsLocks:
    """``msvcrt.locking`` on the first byte (it locks from the file position): no blocking wait can be
    given up, so :func:`_lock_within` polls; closing the file or ending the process releases the lock."""

    blocking = False

    def __init__(self, msvcrt: Any) -> None:
        self.msvcrt = msvcrt

    def try_lock(self, descriptor: int) -> bool:
        os.lseek(descriptor, 0, os.SEEK_SET)
        try:
            self.msvcrt.locking(descriptor, self.msvcrt.LK_NBLCK, 1)
        except OSError as error:
            if error.errno in _BUSY_ERRORS:
                return False
            raise
        return True

    def lock(self, descriptor: int) -> None:  # pragma: no cover - never called: blocking is False
        raise NotImplementedError

    def unlock(self, descriptor: int) -> None:
        os.lseek(descriptor, 0, os.SEEK_SET)
        self.msvcrt.locking(descriptor, self.msvcrt.LK_UNLCK, 1)


def _system_locks(path: Path) -> Any:
    """The system's file locks: ``fcntl`` (POSIX), else ``msvcrt`` (Windows), else a clear
    :class:`FileAccessError` (exit 5)."""
    try:
        import fcntl
    except ImportError:
        pass
    else:
        return _PosixLocks(fcntl)
    try:
        import msvcrt
    except ImportError:
        raise FileAccessError(text(
            "cannot lock {name}: this system has neither POSIX file locks (fcntl) nor Windows' (msvcrt); "
            "playing and writing saves needs one of them (show, replay and solve work)",
            name=quoted_name(path))) from None
    return _WindowsLocks(msvcrt)


def _read_start(descriptor: int, size: int) -> bytes:
    """Up to ``size`` bytes from the start of the file (``os.pread`` where the system has it)."""
    if hasattr(os, "pread"):
        return os.pread(descriptor, size, 0)
    os.lseek(descriptor, 0, os.SEEK_SET)
    return os.read(descriptor, size)


def _write_start(descriptor: int, data: bytes) -> None:
    """``data`` as the whole file (the caller has emptied it)."""
    if hasattr(os, "pwrite"):
        os.pwrite(descriptor, data, 0)
        return
    os.lseek(descriptor, 0, os.SEEK_SET)
    while data:
        data = data[os.write(descriptor, data):]


def _open_lock_file(path: Path) -> int:
    """A descriptor of the lock (or queue) file, created if needed; never through a link, never a FIFO."""
    flags = (os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
             | getattr(os, "O_CLOEXEC", 0))
    try:
        descriptor = os.open(path, flags, 0o666)
    except OSError as error:
        raise FileAccessError(describe_os_error(error, path, "create the lock file")) from None
    mode = os.fstat(descriptor).st_mode
    if not stat.S_ISREG(mode):
        os.close(descriptor)
        raise FileAccessError(text("cannot lock with {name}: it is {kind}, not a regular file", name=quoted_name(path),
                                   kind=kind_of_file(mode)))
    return descriptor


# -- the queue of tickets ----------------------------------------------------------------------------
class Ticket:
    """A place in a save's queue: who waits (``pid``) and until when (``gives_up``, seconds since the epoch).

    (A plain class: a dataclass costs a millisecond of start-up on every ``play``.)"""

    __slots__ = ("gives_up", "id", "pid")

    def __init__(self, id: str, pid: int, gives_up: float) -> None:  # noqa: A002 - the ticket's id
        self.id, self.pid, self.gives_up = id, pid, gives_up

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Ticket) and (self.id, self.pid, self.gives_up) == (other.id, other.pid, other.gives_up)

    def line(self) -> str:
        return f"{self.id} {self.pid} {self.gives_up:.3f}\n"

    @classmethod
    def parse(cls, line: str) -> Ticket | None:
        parts = line.split()
        try:
            return cls(parts[0], int(parts[1]), float(parts[2])) if len(parts) == 3 else None
        except ValueError:
            return None

    def is_live(self, now: float) -> bool:
        return self.gives_up > now and (self.pid == os.getpid() or process_runs(self.pid))


class _Queue:
    """``<save>.queue``: one ticket per line, first in line first.  Each change happens under a ``flock``
    of the queue file held for microseconds (so waiting for it by short polls costs nothing)."""

    def __init__(self, locks: Any, descriptor: int) -> None:
        self.locks, self.descriptor = locks, descriptor

    def change(self, ticket: Ticket, keep: bool, deadline: float) -> Ticket | None:
        """Drop dead tickets; keep ``ticket`` in its place (or at the end if it is not there: a new one,
        or one dropped while its process was out of sight) or remove it; return the first ticket in
        line afterwards (``None`` when the queue is empty)."""
        self._hold(deadline)
        try:
            text = _read_start(self.descriptor, _QUEUE_BYTES).decode("ascii", "replace")
            now = time.time()
            read = [found for found in map(Ticket.parse, text.splitlines()) if found is not None]
            tickets = [found for found in read if found.is_live(now) and found.id != ticket.id]
            if keep:
                position = next((index for index, found in enumerate(read) if found.id == ticket.id), None)
                tickets.insert(len(tickets) if position is None else self._place(read, tickets, position), ticket)
            if tickets != read:
                data = "".join(found.line() for found in tickets).encode("ascii")
                os.ftruncate(self.descriptor, 0)
                _write_start(self.descriptor, data)
            return tickets[0] if tickets else None
        finally:
            self.locks.unlock(self.descriptor)

    @staticmethod
    def _place(read: list[Ticket], kept: list[Ticket], position: int) -> int:
        """Where a ticket at ``position`` in ``read`` goes among ``kept`` (the tickets before it that stay)."""
        before = {found.id for found in read[:position]}
        return sum(1 for found in kept if found.id in before)

    def _hold(self, deadline: float) -> None:
        while not self.locks.try_lock(self.descriptor):
            if time.monotonic() > deadline + 1.0:  # a holder stopped inside a change of microseconds
                raise LockTimeoutError(text("the lock queue stayed busy")) from None
            time.sleep(0.0002)


# -- waiting for the lock --------------------------------------------------------------------------
class _Waiter:
    """Waits in a helper thread with a blocking ``flock``: the kernel wakes such waiters about in
    order, but the call cannot time out, so the thread can be left behind instead.  From the moment
    the caller gives up (:meth:`wait` returns ``False``) the descriptor belongs to the thread, which
    closes it once its ``flock`` returns (or the process ends): an abandoned wait never keeps the lock."""

    def __init__(self, locks: Any, descriptor: int) -> None:
        import threading

        self.locks, self.descriptor = locks, descriptor
        self.finished = threading.Event()
        self.guard = threading.Lock()
        self.abandoned = False
        self.error: OSError | None = None
        self.thread = threading.Thread(target=self._run, name="pyramide-lock-wait", daemon=True)

    def _run(self) -> None:
        error = None
        try:
            self.locks.lock(self.descriptor)
        except OSError as failure:
            error = failure
        with self.guard:
            self.error = error
            if self.abandoned:
                os.close(self.descriptor)
            else:
                self.finished.set()

    def wait(self, timeout: float) -> bool:
        self.thread.start()
        if not self.finished.wait(timeout):
            with self.guard:
                if not self.finished.is_set():
                    self.abandoned = True
                    return False
        if self.error is not None:
            raise self.error
        return True


def _lock_within(locks: Any, descriptor: int, timeout: float) -> bool:
    """Take the lock within ``timeout`` seconds; on ``False`` the descriptor is gone (see :class:`_Waiter`)."""
    if locks.try_lock(descriptor):
        return True
    if timeout > 0 and locks.blocking:
        return _Waiter(locks, descriptor).wait(timeout)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        time.sleep(_POLL_PAUSE)
        if locks.try_lock(descriptor):
            return True
    os.close(descriptor)
    return False


class SaveLock:
    """An exclusive lock on a save for the time of a ``with`` block, served in arrival order.

    The lock files sit beside the file a symbolic link names, so two names of one save share a lock.
    Raises :class:`LockTimeoutError` when other processes hold or wait for it for more than ``timeout``
    seconds, and :class:`FileAccessError` when the lock files cannot be created (e.g. a read-only
    folder: such a save cannot be played anyway) or the system has no file locks.
    """

    def __init__(self, path: Path | str, timeout: float | None = None) -> None:
        self.path = Path(path)
        real = Path(os.path.realpath(self.path))
        self.lock_path = real.with_name(real.name + ".lock")
        self.queue_path = real.with_name(real.name + ".queue")
        self.timeout = lock_timeout() if timeout is None else timeout
        self._descriptor: int | None = None
        self._locks: Any = None

    def __enter__(self) -> SaveLock:
        self._locks = locks = _system_locks(self.path)
        queue_fd = _open_lock_file(self.queue_path)
        try:
            self._descriptor = self._take(locks, _Queue(locks, queue_fd))
        except OSError as error:
            if isinstance(error, FileAccessError):
                raise
            raise FileAccessError(describe_os_error(error, self.lock_path, "lock")) from None
        finally:
            os.close(queue_fd)
        return self

    def _take(self, locks: Any, queue: _Queue) -> int:
        """Queue a ticket, then take the lock whenever it comes with the ticket first in line."""
        deadline = time.monotonic() + self.timeout
        ticket = Ticket(os.urandom(8).hex(), os.getpid(), time.time() + self.timeout + 1.0)
        queue.change(ticket, True, deadline)
        descriptor: int | None = None
        try:
            while True:
                descriptor = _open_lock_file(self.lock_path)
                if not _lock_within(locks, descriptor, deadline - time.monotonic()):
                    descriptor = None
                    raise self._timed_out()
                first = queue.change(ticket, True, deadline)
                if first is None or first.id == ticket.id:
                    queue.change(ticket, False, deadline)
                    taken, descriptor = descriptor, None
                    return taken
                _release(locks, descriptor)  # not our turn: let the first in line have it
                descriptor = None
                if time.monotonic() >= deadline:
                    raise self._timed_out()
                time.sleep(_NOT_MY_TURN_PAUSE)
        except BaseException:
            if descriptor is not None:
                _release(locks, descriptor)
            queue.change(ticket, False, deadline)
            raise

    def _timed_out(self) -> LockTimeoutError:
        return LockTimeoutError(text(
            "{name} is locked by another pyramide process (waited {seconds} s for {lock}); try again when it is done",
            name=quoted_name(self.path), seconds=f"{self.timeout:g}", lock=quoted_name(self.lock_path)))

    def __exit__(self, *exc_info: object) -> None:
        if self._descriptor is not None:
            _release(self._locks, self._descriptor)
            self._descriptor = None


def _release(locks: Any, descriptor: int) -> None:
    """Let the lock go: closing releases a ``flock``; a Windows lock is unlocked first (the system
    releases it on close too, but says it may take a while)."""
    try:
        if not locks.blocking:
            locks.unlock(descriptor)
    except OSError:
        pass  # not locked after all (a failed try): closing is all there is to do
    finally:
        os.close(descriptor)
