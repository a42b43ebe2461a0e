"""What a long game costs: a piped ``play`` session of many lines, and ``replay --step --json`` of a long history.

Both do a bounded amount of work per action (``docs/reliability.md``, "Long games"): a session keeps
its game in memory between lines, and writes each line's save by extending the history's text it
wrote last; a replay step's state leaves the history out.  So the CPU time per line (per action)
stays the same from 1,000 to 10,000 lines.

* **piped play**: ``draw`` and ``undo`` lines in turn into ``pyramide play g.yaml --quiet
  --no-record`` on a fresh save, every line saved at once (the file is fsynced each time, so the
  wall time is mostly the disk's; the figure is CPU time).
* **replay --step --json**: a save of 100,000 actions (``draw``, ``undo`` in turn), replayed with
  every position as JSON to ``/dev/null``.

CPU time is user + system of the child (``os.wait4``), the median of ``--runs`` runs.  Options:
``--lines 1000,10000``, ``--actions 100000``, ``--runs 3``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def pyramide_command() -> list[str]:
    """``python -m pyramide_cli`` (so that ``PYTHONPATH`` can point at another tree to compare with)."""
    return [sys.executable, "-m", "pyramide_cli"]


def measured(arguments: list[str], cwd: Path, stdin: Path | None = None) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one run; a failed run stops the benchmark."""
    started = time.perf_counter()
    with open(stdin or os.devnull, "rb") as source:
        process = subprocess.Popen([*pyramide_command(), *arguments], cwd=cwd, stdin=source,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(process.pid, 0)
    assert process.stderr is not None
    error = process.stderr.read().decode(errors="replace")
    process.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"pyramide {' '.join(arguments)} failed: {error}")
    return usage.ru_utime + usage.ru_stime, time.perf_counter() - started


def save_of(history_length: int) -> str:
    """A valid save of PY1-N-AAAAAAS after ``draw``, ``undo`` in turn (``history_length`` even)."""
    history = ", ".join(["draw", "undo"] * (history_length // 2))
    return (f"pyramide-save: 2\ndeal: PY1-N-AAAAAAS\nrules: N\nstatus: playing\ntermination: null\nscore: 0\n"
            f"moves: {history_length // 2}\ntime_played: 0.0\nhints: 0\nselected: null\nassist: true\n"
            f"history: [{history}]\n")


def piped_play(folder: Path, lines: int, runs: int) -> tuple[float, float]:
    stdin = folder / f"lines-{lines}.txt"
    stdin.write_text("draw\nundo\n" * (lines // 2))
    figures = []
    for _ in range(runs):
        (folder / "g.yaml").write_text(save_of(0))
        figures.append(measured(["play", "g.yaml", "--quiet", "--no-record"], folder, stdin))
    return statistics.median(cpu for cpu, _ in figures), statistics.median(wall for _, wall in figures)


def replay_steps(folder: Path, actions: int, runs: int) -> tuple[float, float]:
    (folder / "long.yaml").write_text(save_of(actions))
    figures = [measured(["replay", "long.yaml", "--step", "--json"], folder) for _ in range(runs)]
    return statistics.median(cpu for cpu, _ in figures), statistics.median(wall for _, wall in figures)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", default="1000,10000", help="piped sessions of these many lines (comma-separated)")
    parser.add_argument("--actions", type=int, default=100_000, help="actions of the replayed save (0: none)")
    parser.add_argument("--runs", type=int, default=3, help="runs of each, the median is printed")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="pyramide-bench-session-") as name:
        folder = Path(name)
        (folder / "home").mkdir()
        os.environ["PYRAMIDE_HOME"] = str(folder / "home")
        for lines in (int(value) for value in options.lines.split(",") if value):
            cpu, wall = piped_play(folder, lines, options.runs)
            print(f"piped play, {lines:>7,} lines: CPU {cpu:7.2f} s ({1000 * cpu / lines:.2f} ms a line), "
                  f"wall {wall:7.2f} s", flush=True)
        if options.actions:
            cpu, wall = replay_steps(folder, options.actions, options.runs)
            print(f"replay --step --json, {options.actions:,} actions: CPU {cpu:.2f} s "
                  f"({1e6 * cpu / options.actions:.0f} us an action), wall {wall:.2f} s", flush=True)


if __name__ == "__main__":
    main()
