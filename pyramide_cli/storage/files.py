"""Reading and writing the files a player cares about: atomic writes and a lock beside each save.

Save files are precious (DEVELOPERS.md), so every write goes to a temporary file in the same
folder, is flushed and fsynced, then ``os.replace``\\ d over the old file (and the folder is
fsynced), so a crash leaves either the old file or the new one, never half of one.

Two processes playing the same save take turns through an advisory ``fcntl.flock`` lock on
``<save>.lock`` (the save itself cannot carry the lock: ``os.replace`` swaps its inode).  The lock
file is left in place afterwards; deleting it would let a third process lock a different inode.
Readers need no lock: they always see a whole file.  POSIX only (``fcntl``).
"""

from __future__ import annotations

import errno
import os
import time
from pathlib import Path

from ..engine.errors import PyramideError

DEFAULT_LOCK_TIMEOUT = 10.0
"""Seconds to wait for another process to finish with a save (``PYRAMIDE_LOCK_TIMEOUT`` overrides)."""
_LOCK_POLL = 0.02


class FileAccessError(PyramideError, OSError):
    """A file that cannot be read or written: missing, not allowed, folder missing, disk full, …"""


class LockTimeoutError(FileAccessError):
    """Another process kept the save locked for longer than the timeout."""


def describe_os_error(error: OSError, path: Path | str, doing: str) -> str:
    """One line such as ``cannot write 'g.yaml': permission denied``."""
    reason = {
        errno.ENOENT: "no such file or folder",
        errno.EACCES: "permission denied",
        errno.EPERM: "operation not permitted",
        errno.EISDIR: "it is a folder",
        errno.ENOTDIR: "a part of the path is not a folder",
        errno.ENOSPC: "no space left on the device",
        errno.EROFS: "read-only file system",
    }.get(error.errno or 0, error.strerror or str(error))
    return f"cannot {doing} {str(path)!r}: {reason}"


def read_text(path: Path | str) -> str:
    """The whole file as UTF-8 text; :class:`FileAccessError` with a clear reason otherwise."""
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except UnicodeDecodeError as error:
        raise FileAccessError(f"cannot read {str(path)!r}: not UTF-8 text ({error.reason})") from None
    except OSError as error:
        raise FileAccessError(describe_os_error(error, path, "read")) from None


def atomic_write(path: Path | str, text: str) -> None:
    """Replace ``path`` by ``text`` in one step: temp file in the same folder, fsync, ``os.replace``.

    A new file gets the usual permissions (0666 less the umask); a replaced file keeps its own, and
    a symbolic link keeps pointing at the file it names (which is the one replaced).
    """
    target = Path(os.path.realpath(path))
    folder = target.parent
    temporary = folder / f".{target.name}.{os.getpid()}.{os.urandom(4).hex()}.tmp"
    try:
        try:
            mode = os.stat(target).st_mode & 0o7777
        except FileNotFoundError:
            mask = os.umask(0)
            os.umask(mask)
            mode = 0o666 & ~mask
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
        try:
            with os.fdopen(descriptor, "w", encoding="utf-8", newline="\n") as handle:
                handle.write(text)
                handle.flush()
                os.fsync(handle.fileno())
            os.chmod(temporary, mode)
            os.replace(temporary, target)
        except BaseException:
            _remove_quietly(temporary)
            raise
        _fsync_folder(folder)
    except OSError as error:
        raise FileAccessError(describe_os_error(error, target, "write")) from None


def _remove_quietly(path: Path) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _fsync_folder(folder: Path) -> None:
    """Make the rename itself durable; some file systems refuse to open a folder, which is fine."""
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)


def lock_timeout() -> float:
    """The lock timeout in seconds: ``PYRAMIDE_LOCK_TIMEOUT`` when set to a number, else 10."""
    text = os.environ.get("PYRAMIDE_LOCK_TIMEOUT", "")
    try:
        value = float(text)
    except ValueError:
        return DEFAULT_LOCK_TIMEOUT
    return value if value >= 0 else DEFAULT_LOCK_TIMEOUT


class SaveLock:
    """An exclusive lock on ``<path>.lock`` for the time of a ``with`` block.

    Raises :class:`LockTimeoutError` when another process holds it for more than ``timeout``
    seconds, and :class:`FileAccessError` when the lock file cannot be created (e.g. a read-only
    folder: such a save cannot be played anyway).
    """

    def __init__(self, path: Path | str, timeout: float | None = None) -> None:
        self.path = Path(path)
        self.lock_path = self.path.with_name(self.path.name + ".lock")
        self.timeout = lock_timeout() if timeout is None else timeout
        self._descriptor: int | None = None

    def __enter__(self) -> SaveLock:
        import fcntl

        try:
            descriptor = os.open(self.lock_path, os.O_RDWR | os.O_CREAT, 0o666)
        except OSError as error:
            raise FileAccessError(describe_os_error(error, self.lock_path, "create the lock file")) from None
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    os.close(descriptor)
                    raise LockTimeoutError(
                        f"{str(self.path)!r} is locked by another pyramide process "
                        f"(waited {self.timeout:g} s for {str(self.lock_path)!r}); try again when it is done"
                    ) from None
                time.sleep(_LOCK_POLL)
            except OSError as error:
                os.close(descriptor)
                raise FileAccessError(describe_os_error(error, self.lock_path, "lock")) from None
        self._descriptor = descriptor
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self._descriptor is not None:
            os.close(self._descriptor)  # closing releases the flock
            self._descriptor = None
