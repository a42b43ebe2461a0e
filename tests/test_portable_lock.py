"""The save lock where ``fcntl`` does not exist (Windows): ``msvcrt.locking`` with the same guarantees —
one holder at a time, waiters served in arrival order, a timed-out waiter leaves nothing behind, and
``play`` and ``deal`` work with nothing lost (issue 26).  The system is simulated by
``tests/without_fcntl.py``: ``import fcntl`` fails and ``msvcrt`` is a stand-in with Windows' semantics.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cli_support import ROOT, make_save
from pyramide_cli.storage import locking
from pyramide_cli.storage.files import LockTimeoutError, SaveLock
from pyramide_cli.storage.save import load_game
from test_locking import arrival_order
from without_fcntl import fake_msvcrt

WITHOUT_FCNTL = ROOT / "tests" / "without_fcntl.py"


@pytest.fixture
def windows(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "msvcrt", fake_msvcrt())
    monkeypatch.setitem(sys.modules, "fcntl", None)
    monkeypatch.delattr(os, "pread")
    monkeypatch.delattr(os, "pwrite")


def queued(save: Path) -> int:
    queue = Path(f"{save}.queue")
    return len(queue.read_text().splitlines()) if queue.exists() else 0


def test_the_lock_is_msvcrt_s_where_fcntl_is_missing(tmp_path: Path, windows: None) -> None:
    save = make_save(tmp_path)
    with SaveLock(save, timeout=5) as held:
        assert isinstance(held._locks, locking._WindowsLocks)
        with pytest.raises(LockTimeoutError, match="waited 0.05 s"):
            with SaveLock(save, timeout=0.05):
                pass
    with SaveLock(save, timeout=0):  # let go: taken at once, and the timed-out waiter left no ticket
        assert queued(save) == 0


def test_without_fcntl_waiters_are_served_in_arrival_order(tmp_path: Path, windows: None) -> None:
    save = make_save(tmp_path)
    assert arrival_order(save, 4, lambda waiting: queued(save) == waiting) == [
        f"waiter {number}" for number in range(4)] + ["holder again"]


def pyramide_without_fcntl(*args: str, cwd: Path, stdin: Path | None = None) -> subprocess.Popen[str]:
    environment = {**os.environ, "NO_COLOR": "1", "PYRAMIDE_HOME": str(cwd / "home")}
    with open(stdin or os.devnull) as source:
        return subprocess.Popen([sys.executable, str(WITHOUT_FCNTL), *args], cwd=cwd, stdin=source,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment)


def test_without_fcntl_deal_and_concurrent_play_sessions_lose_nothing(tmp_path: Path) -> None:
    dealing = pyramide_without_fcntl("deal", "PY1-N-AAAAAAS", "-o", "g.yaml", "--quiet", cwd=tmp_path)
    assert dealing.communicate(timeout=60) == ("PY1-N-AAAAAAS\n", "") and dealing.returncode == 0
    lines = tmp_path / "home" / "lines.txt"
    lines.parent.mkdir()
    lines.write_text("stock\n" * 5)
    sessions = [pyramide_without_fcntl("play", "g.yaml", "--json", "--no-record", cwd=tmp_path, stdin=lines)
                for _ in range(2)]
    outputs = [session.communicate(timeout=60) for session in sessions]
    assert [session.returncode for session in sessions] == [0, 0], outputs
    saved = sum(len(json.loads(output)["steps"]) for output, _ in outputs)
    history = load_game(tmp_path / "g.yaml").data.history
    assert saved == len(history) == 10 and {str(move) for move in history} == {"draw"}
    assert sorted(path.name for path in tmp_path.iterdir()) == ["g.yaml", "g.yaml.lock", "g.yaml.queue", "home"]


def test_the_stand_in_system_has_no_fcntl(tmp_path: Path) -> None:
    """The subprocess really takes the path a system without ``fcntl`` takes."""
    probe = ("import runpy, sys; sys.argv = [sys.argv[1], '--version']; "
             "import without_fcntl; without_fcntl.install(); import os\n"
             "try:\n    import fcntl\nexcept ImportError:\n    print('no fcntl', hasattr(os, 'pread'))\n")
    completed = subprocess.run([sys.executable, "-c", probe, str(WITHOUT_FCNTL)], capture_output=True, text=True,
                               cwd=ROOT / "tests", timeout=60)
    assert completed.stdout == "no fcntl False\n", completed
