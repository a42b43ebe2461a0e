"""Start-up of every command beside `python -c "import typer, yaml"` (issue 13: each at most 1.3x).

Each command runs on an input that does as little work as the command allows (a fresh save, a
one-position solve, a bad code for grade, ...), so what is measured is what a user pays before any
real work: the interpreter, the imports, building and parsing the command line.  Runs alternate
between the baseline and the command so that a busy machine slows both alike.  The figure that
decides is CPU time (user + system of the child process, from ``os.wait4``): unlike wall time it
hardly moves when other processes share the machine.  Wall medians are printed too.

``BENCH_RUNS`` (default 15) sets the runs per command.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RUNS = int(os.environ.get("BENCH_RUNS", "15"))
WARM_UP = 2
TARGET = 1.3

COMMANDS: list[tuple[str, list[str]]] = [
    ("--help", ["--help"]),
    ("--version", ["--version"]),
    ("deal", ["deal", "PY1-N-AAAAAAB", "-o", "dealt.yaml", "--force", "--quiet"]),
    ("show", ["show", "g.yaml"]),
    ("play", ["play", "g.yaml", "draw"]),
    ("replay", ["replay", "g.yaml", "--expect", "playing", "--expect-score", "0"]),
    ("solve", ["solve", "PY1-N-AAAAAAB", "--max-states", "1", "--timeout", "30"]),
    ("hint", ["hint", "g.yaml", "--timeout", "3"]),
    ("grade", ["grade", "PY1-N-NOTACODE"]),
    ("survey", ["survey", "--deals", "0-0", "--max-states", "1", "--timeout", "30", "--json"]),
    ("calibrate", ["calibrate", "--presets", "N", "--deals", "0-0", "--games", "N=4", "--jobs", "1"]),
]
"""(name, arguments): the cheapest invocation of each command that still parses every kind of
option it has (text, whole numbers, seconds as a float) and imports what the command imports."""


def pyramide_command() -> list[str]:
    script = Path(sys.executable).with_name("pyramide")
    return [str(script)] if script.exists() else [sys.executable, "-m", "pyramide_cli"]


def measured(command: list[str], cwd: Path) -> tuple[float, float, int]:
    """(CPU seconds, wall seconds, exit status) of one run."""
    started = time.perf_counter()
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    return usage.ru_utime + usage.ru_stime, time.perf_counter() - started, process.returncode


def compile_package() -> None:
    """Write the package's bytecode first, as installing it would (the baseline's modules are compiled)."""
    import compileall

    import pyramide_cli

    compileall.compile_dir(str(Path(pyramide_cli.__file__).parent), quiet=1)


def main() -> int:
    compile_package()
    pyramide = pyramide_command()
    baseline = [sys.executable, "-c", "import typer, yaml"]
    over = 0
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        subprocess.run([*pyramide, "deal", "PY1-N-AAAAAAB", "-o", "fresh.yaml", "--quiet"], cwd=work, check=True,
                       stdout=subprocess.DEVNULL)
        print(f"{'command':<10} {'CPU ms':>7} {'base ms':>8} {'ratio':>6}   {'wall ms':>8} {'base ms':>8} {'ratio':>6}"
              f"   (medians of {RUNS} runs)")
        for name, arguments in COMMANDS:
            cpu, wall, base_cpu, base_wall = [], [], [], []
            status = 0
            for run in range(WARM_UP + RUNS):
                shutil.copyfile(work / "fresh.yaml", work / "g.yaml")
                base = measured(baseline, work)
                own = measured([*pyramide, *arguments], work)
                status = own[2]
                if run >= WARM_UP:
                    base_cpu.append(base[0])
                    base_wall.append(base[1])
                    cpu.append(own[0])
                    wall.append(own[1])
            ratio = statistics.median(cpu) / statistics.median(base_cpu)
            wall_ratio = statistics.median(wall) / statistics.median(base_wall)
            over += ratio > TARGET
            print(f"{name:<10} {1000 * statistics.median(cpu):7.1f} {1000 * statistics.median(base_cpu):8.1f} "
                  f"{ratio:6.2f}   {1000 * statistics.median(wall):8.1f} {1000 * statistics.median(base_wall):8.1f} "
                  f"{wall_ratio:6.2f}   exit {status}{'  OVER the target' if ratio > TARGET else ''}", flush=True)
    print(f"target: every command's CPU ratio <= {TARGET} ({'met' if not over else f'{over} over'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
