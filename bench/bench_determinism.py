"""Issue 11: a survey's verdicts never depend on the machine (a position budget, no clock).

Surveys deals 0-999 under T three ways — one process, two processes, and two processes while a
CPU-bound process runs beside them — and checks that every deal gets the same verdict, positions and
maxima.  ``BENCH_DEALS`` (default ``0-999``), ``BENCH_RULES`` (default ``T``) and ``BENCH_MAX_STATES``
(default: the solver's default budget) change the run.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

from pyramide_cli.analysis.survey import survey
from pyramide_cli.engine.rules import Rules
from pyramide_cli.analysis.survey import SurveyReport
from pyramide_cli.solver import DEFAULT_MAX_STATES, Limits


def facts(report: SurveyReport) -> list[tuple]:
    return [(o.number, o.verdict, o.states, o.actions, o.max_pyramid_removed, o.max_removed) for o in report.outcomes]


def main() -> None:
    first, _, last = os.environ.get("BENCH_DEALS", "0-999").partition("-")
    numbers = range(int(first), int(last or first) + 1)
    rules = Rules.parse(os.environ.get("BENCH_RULES", "T"))
    limits = Limits(max_states=int(os.environ.get("BENCH_MAX_STATES", DEFAULT_MAX_STATES)))
    runs: dict[str, list[tuple]] = {}
    configurations = (("one process", 1, False), ("two processes", 2, False), ("two processes, loaded", 2, True))
    for label, jobs, load in configurations:
        busy = subprocess.Popen([sys.executable, "-c", "while True: pass"]) if load else None
        started = time.perf_counter()
        try:
            runs[label] = facts(survey(rules, numbers, jobs=jobs, limits=limits))
        finally:
            if busy is not None:
                busy.kill()
                busy.wait()
        unknown = sum(row[1].value == "unknown" for row in runs[label])
        print(f"survey {rules.name} deals {numbers[0]}-{numbers[-1]}, {label}: {unknown} unknown, "
              f"wall {time.perf_counter() - started:.1f} s", flush=True)
    reference = runs["one process"]
    for label, rows in runs.items():
        differing = [a[0] for a, b in zip(reference, rows, strict=True) if a != b]
        print(f"  {label}: {'identical' if not differing else f'{len(differing)} deals differ: {differing[:10]}'}")
        if differing:
            sys.exit(1)


if __name__ == "__main__":
    main()
