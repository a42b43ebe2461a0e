"""Issue 3 benchmark: wall time of `pyramide play g.yaml draw` beside `python -c "import typer, yaml"`.

Target: the command costs at most 1.5 x the baseline (median of 20 runs each).  Runs alternate
between the two commands so that a busy machine slows both alike; the save is reset before each
play run (not timed) so every run draws from the same position.
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RUNS = 20
WARM_UP = 2
TARGET = 1.5


def pyramide_command() -> list[str]:
    script = Path(sys.executable).with_name("pyramide")
    return [str(script)] if script.exists() else [sys.executable, "-m", "pyramide_cli"]


def timed(command: list[str], cwd: Path) -> float:
    start = time.perf_counter()
    subprocess.run(command, cwd=cwd, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def compile_package() -> None:
    """Write the package's bytecode first, as installing it would: the baseline's Typer and PyYAML
    are compiled too, and with PYTHONDONTWRITEBYTECODE set every run would compile pyramide anew."""
    import compileall

    import pyramide_cli

    compileall.compile_dir(str(Path(pyramide_cli.__file__).parent), quiet=1)


def main() -> None:
    compile_package()
    pyramide = pyramide_command()
    baseline = [sys.executable, "-c", "import typer, yaml"]
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        subprocess.run([*pyramide, "deal", "PY1-N-AAAAAAB", "-o", "fresh.yaml", "--quiet"], cwd=work, check=True,
                       stdout=subprocess.DEVNULL)
        play = [*pyramide, "play", "g.yaml", "draw"]
        play_times, base_times = [], []
        for run in range(WARM_UP + RUNS):
            shutil.copyfile(work / "fresh.yaml", work / "g.yaml")
            base = timed(baseline, work)
            played = timed(play, work)
            if run >= WARM_UP:
                base_times.append(base)
                play_times.append(played)
    base_median = statistics.median(base_times)
    play_median = statistics.median(play_times)
    ratio = play_median / base_median
    print(f"python -c 'import typer, yaml':  median {base_median * 1000:6.1f} ms of {RUNS}")
    print(f"pyramide play g.yaml draw:       median {play_median * 1000:6.1f} ms of {RUNS}")
    verdict = "within" if ratio <= TARGET else "OVER"
    print(f"ratio {ratio:.2f} ({verdict} the {TARGET}x target)")


if __name__ == "__main__":
    main()
