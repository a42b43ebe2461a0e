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
from pyramide_cli.storage.files import FileAccessError, FileContentError, LockTimeoutError, SaveLock, atomic_write, lock_timeout, read_text

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
