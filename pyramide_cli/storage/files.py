"""Reading and writing the files a player cares about: bounded reads, atomic writes, a fair lock.

Save files are precious (DEVELOPERS.md).  The promises kept here (``docs/reliability.md``):

* **Reads** open regular files only (a FIFO, a device such as ``/dev/zero`` or a folder is refused
  at once, never waited on) and at most :data:`MAX_FILE_BYTES`; the text must be UTF-8.
* **Writes** go to a temporary file ``.NAME.<pid>.<hex>.tmp`` in the same folder, flushed and
  fsynced, then ``os.replace``\\ d over the old file (and the folder fsynced): a crash leaves the
  old file or the new one, never half of one.  Only a regular file is ever replaced; a symbolic
  link keeps pointing at its file, which is the one replaced.  Temporary files left by a writer
  killed inside the write are removed by a later write of the same file (:func:`remove_stale_temporaries`).
* **Output files** named by the user (``deal -o``, ``solve -o``, ``survey --csv``…) go through
  :func:`check_output`: nothing that exists is replaced without ``--force``, and ``--force``
  replaces only a regular file of the kind the command writes (a save for a save).
* **Locking** (:mod:`.locking`): two processes playing the same save take turns, in arrival order,
  through ``<save>.lock`` and ``<save>.queue``.  Readers need no lock: they always see a whole file.
"""

from __future__ import annotations

import os
import re
import stat
import time
from collections.abc import Callable
from typing import NamedTuple
from pathlib import Path

from ..engine.errors import quoted_name
from ..engine.text import text
from .file_errors import (
    FileAccessError, FileContentError, LockTimeoutError, describe_os_error, doing_text, kind_of_file, process_runs,
)
from .locking import DEFAULT_LOCK_TIMEOUT, SaveLock, lock_timeout

__all__ = [
    "DEFAULT_LOCK_TIMEOUT", "MAX_FILE_BYTES", "SAVE_OUTPUT", "STALE_TEMPORARY_AGE", "FileAccessError",
    "FileContentError", "LockTimeoutError", "OutputKind", "SaveLock", "atomic_write", "check_output", "csv_output",
    "describe_os_error", "kind_of_file", "lock_timeout", "read_head", "read_text", "remove_stale_temporaries",
]

MAX_FILE_BYTES = 2 * 1024 * 1024
"""The largest save or layout file read (2 MiB; a save holding the longest history is about 0.7 MB)."""
STALE_TEMPORARY_AGE = 5.0
"""A temporary file of a writer that no longer runs is removed once it is this many seconds old (the
age keeps the file of a live writer in another PID namespace, whose process we cannot see)."""


# -- reading -----------------------------------------------------------------------------------
def _open_regular(path: Path | str, doing: str) -> tuple[int, os.stat_result]:
    """A read-only descriptor of ``path`` and its status, refusing anything but a regular file.

    ``O_NONBLOCK`` makes opening a FIFO return at once instead of waiting for a writer.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        descriptor = os.open(path, flags)
    except OSError as error:
        raise FileAccessError(describe_os_error(error, path, doing)) from None
    status = os.fstat(descriptor)
    if not stat.S_ISREG(status.st_mode):
        os.close(descriptor)
        if stat.S_ISDIR(status.st_mode):
            raise FileAccessError(text("cannot {doing} {name}: it is a folder", doing=doing_text(doing),
                                       name=quoted_name(path)))
        raise FileAccessError(text("cannot {doing} {name}: it is {kind}, not a regular file", doing=doing_text(doing),
                                   name=quoted_name(path), kind=kind_of_file(status.st_mode)))
    return descriptor, status


def read_text(path: Path | str, limit: int = MAX_FILE_BYTES) -> str:
    """The whole file as UTF-8 text; :class:`FileAccessError` (exit 5) when it cannot be read as a
    regular file, :class:`FileContentError` (exit 4) when it is larger than ``limit`` bytes or not UTF-8.
    """
    descriptor, status = _open_regular(path, "read")
    try:
        if status.st_size > limit:
            raise FileContentError(path, text("{size:,} bytes, larger than the {limit:,} bytes (2 MiB) a pyramide file "
                                              "can be", size=status.st_size, limit=limit))
        chunks, size = [], 0
        while size <= limit:  # the file may grow while it is read: never read past the ceiling
            try:
                chunk = os.read(descriptor, limit + 1 - size)
            except OSError as error:
                raise FileAccessError(describe_os_error(error, path, "read")) from None
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    finally:
        os.close(descriptor)
    data = b"".join(chunks)
    if len(data) > limit:
        raise FileContentError(path, text("more than {limit:,} bytes, larger than the {limit:,} bytes (2 MiB) a "
                                          "pyramide file can be", limit=limit))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise FileContentError(path, text("not UTF-8 text ({hint})", hint=_encoding_hint(data, error))) from None


def _encoding_hint(data: bytes, error: UnicodeDecodeError) -> str:
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return text("it looks like UTF-16: save it as UTF-8")
    if b"\x00" in data[:1024]:
        return text("it looks like a binary file")
    return text("byte {position:,} is {value}; save the file as UTF-8", position=error.start + 1,
                value=f"{data[error.start]:#04x}")


def read_head(path: Path | str, size: int = 4096) -> str:
    """The first ``size`` bytes of a regular file as text (undecodable bytes replaced), to recognise it."""
    descriptor, _ = _open_regular(path, "read")
    try:
        return os.read(descriptor, size).decode("utf-8", "replace")
    except OSError as error:
        raise FileAccessError(describe_os_error(error, path, "read")) from None
    finally:
        os.close(descriptor)


# -- writing -----------------------------------------------------------------------------------
def atomic_write(path: Path | str, content: str) -> None:
    """Replace ``path`` by ``content`` in one step: temp file in the same folder, fsync, ``os.replace``.

    A new file gets the usual permissions (0666 less the umask); a replaced file keeps its own, and
    a symbolic link keeps pointing at the file it names (which is the one replaced).  Anything but a
    regular file (a FIFO, a device such as ``/dev/null``, a folder) is refused, never replaced.
    """
    target = Path(os.path.realpath(path))
    folder = target.parent
    temporary = folder / f".{target.name}.{os.getpid()}.{os.urandom(4).hex()}.tmp"
    try:
        try:
            status = os.stat(target)
        except FileNotFoundError:
            mask = os.umask(0)
            os.umask(mask)
            mode = 0o666 & ~mask
        else:
            if not stat.S_ISREG(status.st_mode):
                raise FileAccessError(text("cannot write {name}: it is {kind}, and only a regular file is ever "
                                           "replaced", name=quoted_name(path), kind=kind_of_file(status.st_mode)))
            mode = status.st_mode & 0o7777
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), mode)
        try:
            with os.fdopen(descriptor, "w", encoding="utf-8", newline="\n") as handle:
                handle.write(content)
                handle.flush()
                os.fsync(handle.fileno())
            os.chmod(temporary, mode)
            os.replace(temporary, target)
        except BaseException:
            _remove_quietly(temporary)
            raise
        fsync_folder(folder)
    except OSError as error:
        if isinstance(error, FileAccessError):
            raise
        raise FileAccessError(describe_os_error(error, path, "write")) from None
    remove_stale_temporaries(target)


def _remove_quietly(path: Path) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def fsync_folder(folder: Path) -> None:
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


def remove_stale_temporaries(target: Path | str, now: float | None = None) -> list[Path]:
    """Remove the ``.NAME.<pid>.<hex>.tmp`` files beside ``target`` that writers killed inside a write
    left behind; return them.

    A file is removed only when its writer's process no longer exists *and* it was last modified
    :data:`STALE_TEMPORARY_AGE` seconds ago or more, so the file of a live writer is never touched:
    our own process is skipped, a live pid keeps its file, and a writer we cannot see (another PID
    namespace on a shared folder) finishes its write in milliseconds, long before that age.
    """
    target = Path(target)
    pattern = re.compile(rf"\.{re.escape(target.name)}\.(\d{{1,10}})\.[0-9a-f]{{8}}\.tmp")
    now = time.time() if now is None else now
    removed = []
    try:
        entries = list(os.scandir(target.parent))
    except OSError:
        return removed
    for entry in entries:
        match = pattern.fullmatch(entry.name)
        if match is None:
            continue
        pid = int(match.group(1))
        try:
            status = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if (pid == os.getpid() or not stat.S_ISREG(status.st_mode) or now - status.st_mtime < STALE_TEMPORARY_AGE
                or process_runs(pid)):
            continue
        try:
            os.unlink(entry.path)
        except OSError:
            continue
        removed.append(Path(entry.path))
    return removed


# -- output files named by the user --------------------------------------------------------------
class OutputKind(NamedTuple):
    """What a command writes, and how to recognise an existing file of that kind (``--force`` replaces only those)."""

    name: str
    """``a pyramide save``, ``a survey CSV`` … (for messages)."""
    recognises: Callable[[str], bool]
    """Given the first 4 kB of an existing regular file (as text), whether it is one of ours."""


_SAVE_KEY = re.compile(r"pyramide-save\s*:")


def _is_save_head(head: str) -> bool:
    """Whether a file starts as a save does: its first line that is not blank, a ``#`` comment or a YAML
    document marker is the ``pyramide-save:`` key (a line of that text further down, in notes, is not)."""
    for line in head.removeprefix("\ufeff").splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith(("#", "%")) and stripped != "---":
            return bool(_SAVE_KEY.match(line))
    return False


SAVE_OUTPUT = OutputKind(text("a pyramide save"), _is_save_head)
"""Saves (``deal``, ``solve -o``, tournament and serve saves)."""


def csv_output(name: str, header: str) -> OutputKind:
    """A CSV report whose first line is ``header``, exactly (its column names: another CSV that happens
    to start with the same column, ``number``, is not one)."""
    return OutputKind(name, lambda head: head.removeprefix("\ufeff").split("\n", 1)[0].rstrip("\r") == header)


def check_output(name: str | Path, force: bool, kind: OutputKind = SAVE_OUTPUT, how_to_force: str = "--force") -> Path:
    """The path a command may write the file the user named; :class:`FileAccessError` (exit 5) otherwise.

    The rules (``docs/reliability.md``), the same for every writer:

    * a name ending in ``/`` or naming a folder is refused (``-o newdir/`` never writes a file ``newdir``);
    * a name that does not exist is written (a missing folder is reported by the write);
    * without ``force`` nothing that exists is replaced, a symbolic link (even a dangling one) included;
    * with ``force`` only a regular file is replaced — after following symbolic links, so a link keeps
      pointing at its file and that file is replaced — and only when it is empty or of ``kind``
      (a save for a save): a FIFO, a device (``/dev/null``), a socket, a dangling link or a file of
      another kind is refused, so a mistyped name cannot destroy something that is not ours.

    Call it before any long work (a level search, a survey) and again just before writing (under
    the save's lock for saves), then write with :func:`atomic_write`.  ``how_to_force`` names the
    caller's ``force`` in messages (``"overwrite": true`` in the serve protocol).
    """
    spelled = os.fspath(name)
    shown = quoted_name(spelled)
    if not spelled:
        raise FileAccessError(text("cannot write '': an empty file name"))
    if spelled.endswith(("/", os.sep)) or (os.altsep is not None and spelled.endswith(os.altsep)):
        raise FileAccessError(text("cannot write {name}: the name ends with a '/', so it names a folder; "
                                   "give a file name such as folder/g.yaml", name=shown))
    path = Path(spelled)
    try:
        link_status = os.lstat(path)
    except FileNotFoundError:
        return path
    except OSError as error:
        raise FileAccessError(describe_os_error(error, path, "write")) from None
    if stat.S_ISDIR(link_status.st_mode):
        raise FileAccessError(text("cannot write {name}: it is a folder; give a file name such as {example}",
                                   name=shown, example=f"{spelled.rstrip('/')}/g.yaml"))
    if not force:
        if stat.S_ISLNK(link_status.st_mode):
            raise FileAccessError(text("{name} exists (a symbolic link): add {force} to overwrite it, or name another "
                                       "file", name=shown, force=how_to_force))
        raise FileAccessError(text("{name} already exists: add {force} to overwrite it, or name another file",
                                   name=shown, force=how_to_force))
    try:
        status = os.stat(path)
    except FileNotFoundError:
        raise FileAccessError(text("cannot write {name}: it is a symbolic link to a missing file; "
                                   "{force} never creates a file through a link", name=shown,
                                   force=how_to_force)) from None
    except OSError as error:
        raise FileAccessError(describe_os_error(error, path, "write")) from None
    if stat.S_ISLNK(link_status.st_mode):
        shown = text("{name} (a link to {target})", name=shown, target=quoted_name(os.path.realpath(path)))
    if not stat.S_ISREG(status.st_mode):
        raise FileAccessError(text("cannot write {name}: it is {kind}; {force} replaces only a regular file",
                                   name=shown, kind=kind_of_file(status.st_mode), force=how_to_force))
    if status.st_size and not kind.recognises(read_head(path)):
        raise FileAccessError(text("cannot write {name}: it is not {kind}, and {force} replaces only {kind} (or an "
                                   "empty file); remove it yourself or name another file", name=shown,
                                   kind=kind.name, force=how_to_force))
    return path
