"""Issue 5 benchmark: wall time of `pyramide deal --level L` for each level under N and T, and of `grade`.

Real processes, as a user runs them: `pyramide deal --level L --rules R --seed S -o FILE --quiet`
with RUNS different seeds per level and preset, then `pyramide grade CODE` on some of the deals
found and on deals 0-9 of each preset (winnable or not).
Prints the median and max per level. Targets: median <= 2 s and max <= 10 s for every level.
`python bench/bench_grade.py --runs 20 --presets N,T,E,O` measures more.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from bench_cli import pyramide_command  # bench/ is the script's folder, first on sys.path

RUNS = 10
LEVELS = ("easy", "medium", "hard", "expert")
MEDIAN_TARGET = 2.0
MAX_TARGET = 10.0
FIRST_SEED = 1000


def timed(command: list[str], cwd: Path) -> tuple[float, str]:
    start = time.perf_counter()
    completed = subprocess.run(command, cwd=cwd, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if completed.returncode not in (0, 6, 7):
        raise SystemExit(f"{' '.join(command)} failed ({completed.returncode}): {completed.stderr.strip()}")
    return seconds, completed.stdout.strip()


def verdict(times: list[float]) -> str:
    ok = statistics.median(times) <= MEDIAN_TARGET and max(times) <= MAX_TARGET
    return "ok" if ok else "OVER TARGET"


def report(label: str, times: list[float]) -> None:
    print(f"{label:<28} median {statistics.median(times):6.2f} s   max {max(times):6.2f} s   "
          f"({len(times)} runs)  {verdict(times)}", flush=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=RUNS)
    parser.add_argument("--presets", default="N,T")
    options = parser.parse_args(argv)
    pyramide = pyramide_command()
    codes: list[str] = []
    print(f"pyramide deal --level L --rules R --seed S (seeds {FIRST_SEED}...{FIRST_SEED + options.runs - 1}); "
          f"targets: median <= {MEDIAN_TARGET:.0f} s, max <= {MAX_TARGET:.0f} s", flush=True)
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        for preset in options.presets.split(","):
            for level in LEVELS:
                times = []
                for run in range(options.runs):
                    seconds, code = timed([*pyramide, "deal", "--level", level, "--rules", preset, "--seed",
                                           str(FIRST_SEED + run), "-o", "g.yaml", "--force", "--quiet"], work)
                    times.append(seconds)
                    codes.append(code)
                report(f"deal --level {level} --rules {preset}", times)
        # the level deals found above, and plain deals 0-9 of each preset (winnable or not)
        sample = codes[:: max(1, len(codes) // 20)]
        sample += [f"PY1-{preset}-AAAAAA{letter}" for preset in options.presets.split(",") for letter in "ABCDEFGHIJ"]
        grade_times = [timed([*pyramide, "grade", code], work)[0] for code in sample]
        report("grade CODE", grade_times)


if __name__ == "__main__":
    main()
