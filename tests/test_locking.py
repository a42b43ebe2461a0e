"""The save lock serves waiters in arrival order, and a failed session says what it saved (issue 12, item 8)."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from pyramide_cli.storage import files, session
from pyramide_cli.storage.files import LockTimeoutError, SaveLock
from pyramide_cli.storage.save import load_game

from cli_support import invoke, make_save

CODE = "PY1-N-AAAAAAS"
PROC_LOCKS = Path("/proc/locks")


def blocked_waits(save: Path) -> int:
    """How many ``flock`` calls are blocked on the save's lock and queue files (Linux's /proc/locks)."""
    inodes = {os.stat(f"{save}.{suffix}").st_ino for suffix in ("lock", "queue") if os.path.exists(f"{save}.{suffix}")}
    count = 0
    for line in PROC_LOCKS.read_text().splitlines():
        fields = line.split()
        if "->" in fields and int(fields[-3].rsplit(":", 1)[-1]) in inodes:
            count += 1
    return count


def wait_for(condition: object, bound: float = 5.0) -> bool:
    """Poll ``condition()`` until it holds (a guard against a hang, not a measure of speed)."""
    deadline = time.monotonic() + bound
    while not condition():  # type: ignore[operator]
        if time.monotonic() > deadline:
            return False
        time.sleep(0.002)
    return True


def arrival_order(save: Path, waiters: int, waiting: Callable[[int], bool]) -> list[str]:
    """The order in which ``waiters`` threads, started one by one while the lock is held, and then the
    holder asking again at once get the save's lock; ``waiting(n)`` says when ``n`` of them wait (each
    is started only once the one before it waits, so their arrival order is known)."""
    order: list[str] = []
    holder = SaveLock(save, timeout=30)
    holder.__enter__()

    def waiter(name: str) -> None:
        with SaveLock(save, timeout=30):
            order.append(name)

    threads = []
    for number in range(waiters):
        thread = threading.Thread(target=waiter, args=(f"waiter {number}",))
        thread.start()
        threads.append(thread)
        assert wait_for(lambda number=number: waiting(number + 1)), "the waiter never waited"
    holder.__exit__(None, None, None)
    with SaveLock(save, timeout=30):  # the holder wants it again at once: it comes after the others
        order.append("holder again")
    for thread in threads:
        thread.join(30)
    return order


@pytest.mark.skipif(not PROC_LOCKS.exists(), reason="needs Linux's /proc/locks to see who waits")
def test_waiters_are_served_in_arrival_order_and_a_releaser_queues_behind_them(tmp_path: Path) -> None:
    save = make_save(tmp_path, CODE)
    assert arrival_order(save, 5, lambda waiting: blocked_waits(save) == waiting) == [
        f"waiter {number}" for number in range(5)] + ["holder again"]


def test_a_timed_out_waiter_leaves_no_lock_behind(tmp_path: Path) -> None:
    save = make_save(tmp_path, CODE)
    with SaveLock(save, timeout=5):
        with pytest.raises(LockTimeoutError, match="waited 0.05 s"):
            with SaveLock(save, timeout=0.05):
                pass
    with SaveLock(save, timeout=5):  # the abandoned wait got the lock and let it go at once
        pass


def test_a_session_that_fails_midway_lists_the_steps_it_saved(tmp_path: Path) -> None:
    save = make_save(tmp_path, CODE)
    outcome = invoke("play", str(save), "--json", input="KC\ndraw\n10C-3S\ndraw\n")
    document = outcome.json()
    assert outcome.status == 2 and document["ok"] is False and document["error"]["kind"] == "usage"
    assert [step["move"] for step in document["steps"]] == ["KC", "draw"] and document["written"] is True
    assert [str(move) for move in load_game(save).data.history] == ["KC", "draw"]


def test_a_lock_timeout_midway_lists_the_steps_saved_before_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    save = make_save(tmp_path, CODE)
    real_enter = files.SaveLock.__enter__
    calls = []

    def enter(self: SaveLock) -> SaveLock:
        calls.append(1)
        if len(calls) == 4:  # the session's opening read, KC, draw, then the third line
            raise LockTimeoutError(f"'{save}' is locked by another pyramide process")
        return real_enter(self)

    monkeypatch.setattr(session.SaveLock, "__enter__", enter)
    outcome = invoke("play", str(save), "--json", input="KC\ndraw\ndraw\n")
    document = outcome.json()
    assert outcome.status == 5 and document["error"]["kind"] == "file-error"
    assert [step["move"] for step in document["steps"]] == ["KC", "draw"]
    assert [str(move) for move in load_game(save).data.history] == ["KC", "draw"]


def test_a_batch_that_times_out_lists_no_steps(tmp_path: Path) -> None:
    save = make_save(tmp_path, CODE)
    with SaveLock(save, timeout=5):
        outcome = invoke("play", str(save), "KC", "--json", env={"PYRAMIDE_LOCK_TIMEOUT": "0"})
    document = outcome.json()
    assert outcome.status == 5 and document["error"]["kind"] == "file-error"
    assert document["steps"] == [] and document["written"] is False and load_game(save).data.history == ()


def test_tickets_of_dead_or_expired_waiters_and_garbage_never_block_the_queue(tmp_path: Path) -> None:
    from test_files import dead_pid

    save = make_save(tmp_path, CODE)
    queue = Path(f"{save}.queue")
    queue.write_text(f"aaaa {dead_pid()} {time.time() + 3600:.3f}\n"  # killed while waiting
                     f"bbbb {os.getppid()} {time.time() - 1:.3f}\n"  # alive but past its own timeout
                     "not a ticket\n\x00\xff garbage\n")
    with SaveLock(save, timeout=0):  # nobody live is ahead: taken at once
        pass
    assert queue.read_text() == ""


def test_a_live_ticket_ahead_is_waited_for(tmp_path: Path) -> None:
    save = make_save(tmp_path, CODE)
    Path(f"{save}.queue").write_text(f"cccc {os.getppid()} {time.time() + 3600:.3f}\n")
    with pytest.raises(LockTimeoutError):
        with SaveLock(save, timeout=0.05):
            pass
    assert Path(f"{save}.queue").read_text().split()[0] == "cccc"  # the timed-out ticket left the queue
