"""The full-screen board's figures (issue 22): a key or a click to the redrawn board (target: median
<= 50 ms), and `pyramide play FILE` at a terminal to the first drawn board (target: <= 1 s).

The first figure is measured in Textual's headless harness: the time from the key or the click
reaching the app to the board's text being drawn again, the action saved to the file in between
(lock, re-read, replay, atomic write: what the board does for every action).  The second starts
`pyramide play` in a pseudo-terminal and waits for the board's status bar to appear on it.  Both
are wall time (medians); the machine's other work slows them.  ``BENCH_RUNS`` sets the runs.
"""

from __future__ import annotations

import asyncio
import os
import select
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RUNS = int(os.environ.get("BENCH_RUNS", "15"))
CODE = "PY1-N-AAAAAAB"
LINE = ("KC KH 8S+5H draw draw draw draw draw draw draw KS draw draw draw draw draw draw 10H+3D draw 10S+3S "
        "9D+4H draw draw draw JS+2H draw draw draw 10D+3H 7H+6S KD draw draw draw").split()


def key_and_click_figures(folder: Path) -> tuple[list[float], list[float]]:
    """Wall seconds from a key (``d``: a draw) and from a click (on the stock) to the board redrawn."""
    from pyramide_cli.board.adapter import STOCK
    from pyramide_cli.board.app import BoardApp
    from pyramide_cli.board.layout import Style
    from pyramide_cli.board.session import BoardSession
    from pyramide_cli.cli.steps import refusal_line

    subprocess.run([sys.executable, "-m", "pyramide_cli", "deal", CODE, "-o", str(folder / "k.yaml"), "--quiet",
                    "--force"], check=True)
    subprocess.run([sys.executable, "-m", "pyramide_cli", "play", str(folder / "k.yaml"), *LINE, "--quiet"],
                   check=True)
    app = BoardApp(BoardSession(folder / "k.yaml", None, None), Style(), refusal_line=refusal_line)
    keys: list[float] = []
    clicks: list[float] = []

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            for _ in range(RUNS):
                started = time.perf_counter()
                app.handle_key("d", "d")
                app.rendered(80, 24)
                keys.append(time.perf_counter() - started)
                line, start = next((line, start) for line, start, _, target, focusable
                                   in app.picture(80).targets if target == STOCK and focusable)
                started = time.perf_counter()
                app.click(start, line)
                app.rendered(80, 24)
                clicks.append(time.perf_counter() - started)

    asyncio.run(main())
    return keys, clicks


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a running process so far (Linux ``/proc``; 0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def first_board_seconds(folder: Path) -> tuple[float, float]:
    """(wall, CPU) seconds from starting `pyramide play FILE` in a pseudo-terminal to its status bar drawn."""
    import pty

    shutil.copyfile(folder / "fresh.yaml", folder / "g.yaml")
    controller, terminal = pty.openpty()
    environment = {**os.environ, "TERM": "xterm-256color", "PYRAMIDE_HOME": str(folder / "home")}
    script = Path(sys.executable).with_name("pyramide")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "pyramide_cli"]
    started = time.perf_counter()
    process = subprocess.Popen([*command, "play", "g.yaml"], cwd=folder, stdin=terminal, stdout=terminal,
                               stderr=terminal, env=environment, close_fds=True, start_new_session=True)
    os.close(terminal)
    output = b""
    seen, cpu = None, float("inf")
    deadline = started + 30
    while time.perf_counter() < deadline:
        ready, _, _ = select.select([controller], [], [], 0.05)
        if ready:
            try:
                output += os.read(controller, 65536)
            except OSError:
                break
            if b"PY1-N-" in output and b"stock" in output:
                seen = time.perf_counter() - started
                cpu = cpu_seconds(process.pid)
                break
    os.write(controller, b"q")
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()
    os.close(controller)
    return (seen if seen is not None else float("inf")), cpu


def main() -> int:
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        keys, clicks = key_and_click_figures(folder)
        print(f"key to redrawn board:   median {1000 * statistics.median(keys):6.1f} ms, "
              f"max {1000 * max(keys):6.1f} ms (target <= 50 ms, {RUNS} runs)")
        print(f"click to redrawn board: median {1000 * statistics.median(clicks):6.1f} ms, "
              f"max {1000 * max(clicks):6.1f} ms (target <= 50 ms, {RUNS} runs)")
        subprocess.run([sys.executable, "-m", "pyramide_cli", "deal", CODE, "-o", str(folder / "fresh.yaml"),
                        "--quiet"], check=True)
        starts = [first_board_seconds(folder) for _ in range(max(3, RUNS // 3))]
        walls, cpus = [start[0] for start in starts], [start[1] for start in starts]
        print(f"`pyramide play FILE` to the first drawn board: median {statistics.median(walls):5.2f} s wall, "
              f"{statistics.median(cpus):5.2f} s CPU (target <= 1 s, {len(starts)} runs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
