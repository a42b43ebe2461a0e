"""Atomic writes, the save lock and readable I/O errors (pyramide_cli/files.py)."""

from __future__ import annotations

import os
import stat
import threading
import time
from pathlib import Path

import pytest

from pyramide_cli.storage import files
from cli_support import unwritable_folder
from pyramide_cli.storage.files import (
    FileAccessError, FileContentError, LockTimeoutError, SaveLock, atomic_write, lock_timeout, read_text,
)

def test_atomic_write_replaces_the_whole_file_and_leaves_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "g.yaml"
    atomic_write(target, "first\n")
    atomic_write(target, "second\n")
    assert target.read_text() == "second\n"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["g.yaml"]


def test_atomic_write_keeps_the_permissions_of_the_file_it_replaces(tmp_path: Path) -> None:
    target = tmp_path / "g.yaml"
    target.write_text("old")
    os.chmod(target, 0o600)
    atomic_write(target, "new")
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o600


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "g.yaml"
    target.write_text("precious")

    def broken_replace(source: object, destination: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files.os, "replace", broken_replace)
    with pytest.raises(FileAccessError, match="cannot write .*g.yaml.*no space left"):
        atomic_write(target, "half")
    assert target.read_text() == "precious"
    assert [path.name for path in tmp_path.iterdir()] == ["g.yaml"]


def test_writing_into_a_missing_folder_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(FileAccessError, match="no such file or folder"):
        atomic_write(tmp_path / "nowhere" / "g.yaml", "x")


def test_writing_into_an_unwritable_folder_is_a_clear_error(tmp_path: Path) -> None:
    with unwritable_folder(tmp_path / "ro") as folder:
        with pytest.raises(FileAccessError, match="cannot write .*(permission denied|operation not permitted)"):
            atomic_write(folder / "g.yaml", "x")
        assert list(folder.iterdir()) == []


def test_read_text_errors_say_what_is_wrong(tmp_path: Path) -> None:
    with pytest.raises(FileAccessError, match="cannot read .*: no such file"):
        read_text(tmp_path / "missing.yaml")
    with pytest.raises(FileAccessError, match="it is a folder"):
        read_text(tmp_path)
    binary = tmp_path / "binary.yaml"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(FileContentError, match="not UTF-8"):  # the content is wrong: exit 4, not 5
        read_text(binary)


def test_the_lock_excludes_a_second_holder_until_released(tmp_path: Path) -> None:
    path = tmp_path / "g.yaml"
    with SaveLock(path, timeout=5):
        assert (tmp_path / "g.yaml.lock").exists()
        with pytest.raises(LockTimeoutError, match="locked by another pyramide process"):
            with SaveLock(path, timeout=0.1):
                pass
    with SaveLock(path, timeout=0.1):  # free again
        pass


def test_a_waiting_lock_gets_its_turn_when_the_holder_finishes(tmp_path: Path) -> None:
    path = tmp_path / "g.yaml"
    order: list[str] = []
    holder = SaveLock(path, timeout=5)
    holder.__enter__()

    def waiter() -> None:
        with SaveLock(path, timeout=5):
            order.append("waiter")

    thread = threading.Thread(target=waiter)
    thread.start()
    time.sleep(0.2)
    order.append("holder done")
    holder.__exit__(None, None, None)
    thread.join(5)
    assert order == ["holder done", "waiter"]


def test_a_lock_in_a_missing_folder_is_a_file_error(tmp_path: Path) -> None:
    with pytest.raises(FileAccessError, match="cannot create the lock file"):
        with SaveLock(tmp_path / "missing" / "g.yaml"):
            pass


@pytest.mark.parametrize("value, expected", [("2.5", 2.5), ("0", 0.0), ("soon", 10.0), ("-1", 10.0), ("", 10.0)])
def test_lock_timeout_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch, value: str, expected: float) -> None:
    monkeypatch.setenv("PYRAMIDE_LOCK_TIMEOUT", value)
    assert lock_timeout() == expected


def test_a_symbolic_link_keeps_pointing_at_the_file_it_names(tmp_path: Path) -> None:
    real = tmp_path / "games" / "real.yaml"
    real.parent.mkdir()
    real.write_text("old")
    link = tmp_path / "g.yaml"
    link.symlink_to(real)
    atomic_write(link, "new")
    assert link.is_symlink() and real.read_text() == "new"


# -- stale temporary files (issue 12, item 7) ------------------------------------------------------
def dead_pid() -> int:
    """The pid of a process that has just ended."""
    import subprocess
    import sys

    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def temporary_of(folder: Path, name: str, pid: int, age: float) -> Path:
    path = folder / f".{name}.{pid}.{os.urandom(4).hex()}.tmp"
    path.write_text("half a save")
    os.utime(path, (time.time() - age, time.time() - age))
    return path


def test_a_write_removes_the_stale_temporaries_of_its_file_and_nothing_else(tmp_path: Path) -> None:
    target = tmp_path / "g.yaml"
    target.write_text("old")
    dead = dead_pid()
    stale = temporary_of(tmp_path, "g.yaml", dead, age=60)
    young = temporary_of(tmp_path, "g.yaml", dead, age=0)  # perhaps a writer we cannot see: too young
    live = temporary_of(tmp_path, "g.yaml", os.getppid(), age=3600)  # a live writer's: never touched
    other = temporary_of(tmp_path, "h.yaml", dead, age=60)  # another file's: not ours to judge
    mine = temporary_of(tmp_path, "g.yaml", os.getpid(), age=60)
    odd = tmp_path / f".g.yaml.{dead}.notahex.tmp"
    odd.write_text("x")
    atomic_write(target, "new")
    assert target.read_text() == "new"
    assert not stale.exists()
    assert young.exists() and live.exists() and other.exists() and mine.exists() and odd.exists()


def test_a_writer_killed_inside_the_write_leaves_a_temporary_that_the_next_write_removes(tmp_path: Path) -> None:
    import signal
    import subprocess
    import sys

    target = tmp_path / "g.yaml"
    target.write_text("precious")
    script = (
        "import os, sys, time\n"
        "from pyramide_cli.storage import files\n"
        "files.os.fsync = lambda fd: (print('writing', flush=True), time.sleep(60))\n"
        "files.atomic_write(sys.argv[1], 'never finished')\n"
    )
    child = subprocess.Popen([sys.executable, "-c", script, str(target)], stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None and child.stdout.readline() == "writing\n"
    child.send_signal(signal.SIGKILL)
    child.wait()
    left = [path for path in tmp_path.iterdir() if path.name.endswith(".tmp")]
    assert len(left) == 1 and target.read_text() == "precious"
    os.utime(left[0], (time.time() - files.STALE_TEMPORARY_AGE - 1,) * 2)
    atomic_write(target, "next")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["g.yaml"]


# -- locking (issue 12, item 8) ----------------------------------------------------------------------
def test_without_fcntl_or_msvcrt_locking_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "fcntl", None)  # what `import fcntl` meets on Windows
    monkeypatch.setitem(sys.modules, "msvcrt", None)  # and `import msvcrt` everywhere else
    with pytest.raises(FileAccessError, match="neither POSIX file locks"):
        with SaveLock(tmp_path / "g.yaml"):
            pass


def test_the_lock_files_sit_beside_the_file_a_link_names(tmp_path: Path) -> None:
    real = tmp_path / "games" / "real.yaml"
    real.parent.mkdir()
    real.write_text("x")
    link = tmp_path / "g.yaml"
    link.symlink_to(real)
    with SaveLock(link, timeout=5):
        with pytest.raises(LockTimeoutError):
            with SaveLock(real, timeout=0):  # the same save under its other name
                pass
    assert sorted(path.name for path in real.parent.iterdir()) == ["real.yaml", "real.yaml.lock", "real.yaml.queue"]


def test_a_lock_file_that_is_a_link_or_a_fifo_is_refused(tmp_path: Path) -> None:
    (tmp_path / "g.yaml.lock").symlink_to(tmp_path / "elsewhere")
    with pytest.raises(FileAccessError, match="lock file"):
        with SaveLock(tmp_path / "g.yaml", timeout=0):
            pass
    assert not (tmp_path / "elsewhere").exists()
    if hasattr(os, "mkfifo"):
        os.mkfifo(tmp_path / "h.yaml.lock")
        with pytest.raises(FileAccessError, match="a FIFO"):
            with SaveLock(tmp_path / "h.yaml", timeout=0):
                pass
