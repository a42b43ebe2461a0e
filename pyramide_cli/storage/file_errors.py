"""The errors of file access and what they say, shared by :mod:`.files` and :mod:`.locking`."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from ..engine.errors import PyramideError, quoted_name
from ..engine.text import text


class FileAccessError(PyramideError, OSError):
    """A file that cannot be read or written: missing, not allowed, not a regular file, disk full, … (exit 5)."""


class FileContentError(PyramideError, ValueError):
    """A file that was read but cannot be what it should be: not UTF-8 text, larger than the ceiling (exit 4).

    ``problem`` is the message without the file name, for callers that name the file their own way
    (``bad save file 'g.yaml': not UTF-8 text …``).
    """

    def __init__(self, path: Path | str, problem: str) -> None:
        super().__init__(text("{name}: {problem}", name=quoted_name(path), problem=problem))
        self.problem = problem


class LockTimeoutError(FileAccessError):
    """Another process kept the save locked for longer than the timeout."""


_REASONS = {
    errno.ENOENT: text("no such file or folder"),
    errno.EACCES: text("permission denied"),
    errno.EPERM: text("operation not permitted"),
    errno.EISDIR: text("it is a folder"),
    errno.ENOTDIR: text("a part of the path is not a folder"),
    errno.ENOSPC: text("no space left on the device"),
    errno.EROFS: text("read-only file system"),
    errno.ENAMETOOLONG: text("the name is too long"),
    errno.ELOOP: text("too many symbolic links (or a symbolic link where none may be)"),
}
_DOING = {
    "read": text("read"),
    "write": text("write"),
    "lock": text("lock"),
    "create the lock file": text("create the lock file"),
    "create the store": text("create the store"),
    "write to": text("write to"),
    "merge into": text("merge into"),
}
"""What a caller was doing (the verb of ``cannot write 'g.yaml'``), translatable; another verb stays English."""


def doing_text(doing: str) -> str:
    """``read``, ``write`` … as the reader's language has them (see :data:`_DOING`)."""
    return _DOING.get(doing, doing)


def describe_os_error(error: OSError, path: Path | str, doing: str) -> str:
    """One line such as ``cannot write 'g.yaml': permission denied`` (``doing``: read, write, lock …)."""
    reason = _REASONS.get(error.errno or 0) or error.strerror or str(error)
    return text("cannot {doing} {name}: {reason}", doing=doing_text(doing), name=quoted_name(path),
                reason=reason)


def kind_of_file(mode: int) -> str:
    """``a FIFO``, ``a device``, ``a folder`` … (what a file that is not a regular one is)."""
    if stat.S_ISDIR(mode):
        return text("a folder")
    if stat.S_ISFIFO(mode):
        return text("a FIFO (named pipe)")
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return text("a device")
    if stat.S_ISSOCK(mode):
        return text("a socket")
    return text("not a regular file")


def process_runs(pid: int) -> bool:
    """Whether a process ``pid`` exists here; when we cannot tell, it does (its files are left alone).

    Signal 0 asks without signalling, on POSIX only: on Windows ``os.kill(pid, 0)`` would send a
    Ctrl-C, so there every process counts as running.
    """
    if pid <= 0 or os.name != "posix":
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (OSError, OverflowError):  # PermissionError: it runs, as another user
        return True
    return True
