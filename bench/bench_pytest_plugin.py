"""Start-up of `pytest --co -q` on an empty folder with and without the pyramide plugin (issue 24: the same).

The plugin is loaded into every pytest run of an environment that has pyramide installed (entry
point ``pytest11``).  "Without" is the same environment with ``-p no:pyramide``, which keeps pytest
from importing the plugin at all — as if it were not installed.  Runs alternate between the two so
that a busy machine slows both alike; CPU time (user + system of the child, ``os.wait4``) decides,
wall medians are printed too.  Measured twice: with every installed plugin (what a user pays), and
with Hypothesis's plugin off, the heaviest one, so that a difference of the plugin would stand out
of less noise.  Also printed: the CPU time of importing the plugin module once pytest is imported.
The package's bytecode is written first, as an install does.  ``BENCH_RUNS`` (default 9) sets
the runs of each kind.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RUNS = int(os.environ.get("BENCH_RUNS", "9"))


def measured(command: list[str], cwd: Path) -> tuple[float, float]:
    started = time.perf_counter()
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    assert os.waitstatus_to_exitcode(status) == 5, "an empty folder collects no test (pytest exits 5)"
    return usage.ru_utime + usage.ru_stime, time.perf_counter() - started


def compare(folder: Path, extra: list[str]) -> tuple[tuple[float, float], tuple[float, float]]:
    base = [sys.executable, "-m", "pytest", "--co", "-q", "-p", "no:cacheprovider", *extra]
    with_plugin, without = [], []
    for run in range(RUNS):  # which goes first alternates too
        if run % 2:
            without.append(measured([*base, "-p", "no:pyramide"], folder))
        with_plugin.append(measured(base, folder))
        if not run % 2:
            without.append(measured([*base, "-p", "no:pyramide"], folder))
    return ((statistics.median(run[0] for run in with_plugin), statistics.median(run[1] for run in with_plugin)),
            (statistics.median(run[0] for run in without), statistics.median(run[1] for run in without)))


def plugin_import_cpu() -> float:
    code = ("import time, pytest; started = time.process_time(); import pyramide_cli.pytest_plugin; "
            "print(time.process_time() - started)")
    runs = [float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
            for _ in range(RUNS)]
    return statistics.median(runs)


def compile_package() -> None:
    """Write the package's bytecode first, as installing it would."""
    import compileall

    compileall.compile_dir(Path(__file__).resolve().parent.parent / "pyramide_cli", quiet=1)


def main() -> None:
    compile_package()
    with tempfile.TemporaryDirectory(prefix="bench-pytest-plugin-") as temporary:
        folder = Path(temporary)
        measured([sys.executable, "-m", "pytest", "--co", "-q", "-p", "no:cacheprovider"], folder)  # warm-up
        kinds = (("every installed plugin", []), ("Hypothesis's plugin off", ["-p", "no:hypothesispytest"]))
        for label, extra in kinds:
            (cpu, wall), (cpu_without, wall_without) = compare(folder, extra)
            print(f"pytest --co -q, empty folder, {label} ({RUNS} runs each, medians): with the pyramide plugin "
                  f"CPU {cpu * 1000:.0f} ms, wall {wall * 1000:.0f} ms; without CPU {cpu_without * 1000:.0f} ms, "
                  f"wall {wall_without * 1000:.0f} ms; difference {(cpu - cpu_without) * 1000:+.0f} ms CPU")
    print(f"importing pyramide_cli.pytest_plugin after pytest: {plugin_import_cpu() * 1000:.2f} ms CPU (median)")


if __name__ == "__main__":
    main()
